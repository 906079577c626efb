import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import Papa from "papaparse";

const SEED_DATA = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../seed-data");

export interface BrregUnit {
  organisasjonsnummer: string;
  navn: string;
  "organisasjonsform.kode": string;
  antallAnsatte: string;
  konkurs: string;
  underAvvikling: string;
  "forretningsadresse.landkode": string;
}

/** Supplier organisations: active limited companies with staff, in organisation-number order. */
export function pickDemoSuppliers(count = 15): BrregUnit[] {
  const csv = fs.readFileSync(path.join(SEED_DATA, "brreg/enheter-selection.csv"), "utf8");
  const { data } = Papa.parse<BrregUnit>(csv, { header: true, skipEmptyLines: true });
  return data
    .filter(
      (u) =>
        (u["organisasjonsform.kode"] === "AS" || u["organisasjonsform.kode"] === "ASA") &&
        u.konkurs !== "true" &&
        u.underAvvikling !== "true" &&
        Number(u.antallAnsatte || 0) >= 10,
    )
    .sort((a, b) => a.organisasjonsnummer.localeCompare(b.organisasjonsnummer))
    .slice(0, count);
}
