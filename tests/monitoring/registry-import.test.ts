import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Papa from "papaparse";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@server/db";
import { importBrregRoles, importBrregUnits } from "@server/importers/index";
import { follow, makeOrg } from "../helpers/fixtures";

/**
 * Import the demo's registry (the real 4 924-unit bulk CSV), follow some companies, import a changed
 * file (one company bankrupt, one with a new CEO, one with a new address, one unchanged) and find exactly those notifications,
 * once; none after importing the same files again.
 */

const SAMPLE = path.resolve("server/seed-data/brreg/enheter-selection.csv");
const BANKRUPT = "832175692"; // WAYS AS
const NEW_CEO = "993020923"; // TØNSBERGLIVET AS
const MOVED = "920024785"; // BERNHARD MOE AS
const UNCHANGED = "927717468"; // ANDHOLDING AS
const NOT_FOLLOWED = "919602139"; // TINDEN BYGGSERVICE AS: goes bankrupt too, but nobody follows it
const UNFOLLOWED = "837723272"; // WENOR REGNSKAP AS: followed once, the connection deleted; it moves

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "registry-monitoring-"));

type Row = Record<string, string>;

function writeUnits(name: string, change: (row: Row) => void): string {
  const parsed = Papa.parse<Row>(fs.readFileSync(SAMPLE, "utf8"), { header: true, skipEmptyLines: true });
  for (const row of parsed.data) change(row);
  const file = path.join(dir, name);
  fs.writeFileSync(file, Papa.unparse(parsed.data, { quotes: true, columns: parsed.meta.fields }));
  return file;
}

/** One unit's roles in the register's shape (rollegrupper), as in the roles bulk download. */
function unitRoles(orgNumber: string, ceo: [string, string, string], chair: [string, string, string], members: Array<[string, string, string]>) {
  const person = ([fornavn, etternavn, fodselsdato]: [string, string, string]) => ({ fodselsdato, navn: { fornavn, etternavn }, erDoed: false });
  const role = (kode: string, beskrivelse: string, p: [string, string, string], i: number) => ({
    type: { kode, beskrivelse },
    person: person(p),
    fratraadt: false,
    avregistrert: false,
    rekkefolge: i,
  });
  return {
    organisasjonsnummer: orgNumber,
    rollegrupper: [
      { type: { kode: "DAGL", beskrivelse: "Daglig leder/ adm.direktør" }, sistEndret: "2024-05-02", roller: [role("DAGL", "Daglig leder", ceo, 0)] },
      {
        type: { kode: "STYR", beskrivelse: "Styre" },
        sistEndret: "2024-05-02",
        roller: [role("LEDE", "Styrets leder", chair, 0), ...members.map((m, i) => role("MEDL", "Styremedlem", m, i + 1))],
      },
    ],
  };
}

function writeRoles(name: string, ceoOfNewCeoCompany: [string, string, string]): string {
  const units = [
    unitRoles(BANKRUPT, ["Kari", "Nordmann", "1970-02-03"], ["Ola", "Hansen", "1960-04-05"], [["Per", "Berg", "1965-06-07"]]),
    unitRoles(NEW_CEO, ceoOfNewCeoCompany, ["Anne", "Lie", "1975-08-09"], [["Nils", "Dahl", "1980-10-11"]]),
    unitRoles(UNCHANGED, ["Eva", "Moe", "1982-12-13"], ["Siri", "Vik", "1971-01-14"], [["Lars", "Aas", "1969-03-15"]]),
  ];
  const file = path.join(dir, name);
  fs.writeFileSync(file, JSON.stringify(units, null, 1));
  return file;
}

const notifications = () =>
  db()
    .selectFrom("risk_notifications")
    .innerJoin("companies", "companies.id", "risk_notifications.company_id")
    .select([
      "companies.org_number",
      "risk_notifications.kind",
      "risk_notifications.type",
      "risk_notifications.title",
      "risk_notifications.title_no",
      "risk_notifications.description",
      "risk_notifications.risk_score",
      "risk_notifications.relevance_score",
      "risk_notifications.source",
      "risk_notifications.url",
      "risk_notifications.date",
      "risk_notifications.dedupe_key",
    ])
    .orderBy("risk_notifications.id")
    .execute();

describe("registry monitoring through `npm run import`", () => {
  let changedUnits: string;
  let changedRoles: string;

  beforeAll(async () => {
    const first = await importBrregUnits(db(), SAMPLE);
    expect(first).toMatchObject({ inserted: 4924, rejectedCount: 0 });

    const customer = await makeOrg("Kunde AS", "customer");
    for (const orgNumber of [BANKRUPT, NEW_CEO, MOVED, UNCHANGED]) await follow(customer, await makeOrg(`Supplier ${orgNumber}`, "supplier", orgNumber));
    await follow(customer, await makeOrg("Unfollowed", "supplier", UNFOLLOWED), 1);

    // The first roles of a company are a first picture, not a change.
    const roles = await importBrregRoles(db(), writeRoles("roller-1.json", ["Jon", "Strand", "1968-05-16"]));
    expect(roles).toMatchObject({ inserted: 3, rejectedCount: 0 });

    changedUnits = writeUnits("enheter-2.csv", (row) => {
      if (row.organisasjonsnummer === BANKRUPT || row.organisasjonsnummer === NOT_FOLLOWED) {
        row.konkurs = "true";
        row.konkursdato = "2026-11-20";
      }
      if (row.organisasjonsnummer === MOVED || row.organisasjonsnummer === UNFOLLOWED) {
        row["forretningsadresse.adresse"] = "Kjøpmannsgata 10";
        row["forretningsadresse.postnummer"] = "7013";
      }
    });
    changedRoles = writeRoles("roller-2.json", ["Marte", "Kirkerud", "1984-07-17"]);
  });

  it("raises nothing for the first import, nor when the same file comes again", async () => {
    await importBrregUnits(db(), SAMPLE);
    expect(await notifications()).toEqual([]);
  });

  it("raises exactly the bankruptcy, the new CEO and the new address of the followed companies, once", async () => {
    const units = await importBrregUnits(db(), changedUnits);
    expect(units).toMatchObject({ updated: 4924, rejectedCount: 0 });
    await importBrregRoles(db(), changedRoles);

    const found = await notifications();
    expect(found.map((n) => [n.org_number, n.kind])).toEqual([
      [BANKRUPT, "bankruptcy"],
      [MOVED, "address_change"],
      [NEW_CEO, "ceo_change"],
    ]);
    const [bankruptcy, moved, ceo] = found;
    expect(bankruptcy).toMatchObject({
      type: "announcement",
      title: "Bankruptcy proceedings opened against WAYS AS",
      title_no: "Konkurs åpnet i WAYS AS",
      risk_score: 95,
      relevance_score: 100,
      source: "Brønnøysundregistrene",
      url: `https://virksomhet.brreg.no/nb/oppslag/enheter/${BANKRUPT}`,
      date: "2026-11-20",
    });
    expect(moved).toMatchObject({ title: "BERNHARD MOE AS has a new business address", risk_score: 20, relevance_score: 40 });
    expect(moved.description).toBe("The business address of BERNHARD MOE AS changed from Vikelvfaret 2, 7054 RANHEIM to Kjøpmannsgata 10, 7013 RANHEIM.");
    expect(ceo).toMatchObject({ title: "New CEO at TØNSBERGLIVET AS", title_no: "Ny daglig leder i TØNSBERGLIVET AS", risk_score: 50 });
    expect(ceo.description).toBe("The CEO of TØNSBERGLIVET AS changed from Jon Strand to Marte Kirkerud.");
    for (const n of found) expect(n.dedupe_key).toMatch(new RegExp(`^registry:${n.org_number}:${n.kind}:[0-9a-f]{16}$`));
  });

  it("raises nothing more when the same changed files are imported a third time", async () => {
    const before = await notifications();
    expect(before).toHaveLength(3);
    await importBrregUnits(db(), changedUnits);
    await importBrregRoles(db(), changedRoles);
    expect(await notifications()).toEqual(before);
  });

  it("the roles import rejects a unit the store does not know, and a record that is not a unit's roles, with reasons", async () => {
    const file = path.join(dir, "roller-bad.json");
    fs.writeFileSync(
      file,
      JSON.stringify([
        { organisasjonsnummer: "123456785", rollegrupper: [] },
        { organisasjonsnummer: NEW_CEO, rollegrupper: "none" },
      ]),
    );
    const summary = await importBrregRoles(db(), file);
    expect(summary).toMatchObject({ inserted: 0, updated: 0, rejectedCount: 2 });
    expect(summary.rejected.map((r) => r.reason)).toEqual([
      "unknown company: organisasjonsnummer 123456785 (import its unit first)",
      expect.stringMatching(/^rollegrupper/),
    ]);
  });

  it("a dismissed notification stays dismissed: the change seen again raises no new row", async () => {
    const org = await db().selectFrom("organizations").select("id").where("name", "=", "Kunde AS").executeTakeFirstOrThrow();
    const [first] = await db().selectFrom("risk_notifications").select("id").orderBy("id").execute();
    await db()
      .insertInto("notification_dismissals")
      .values({ organization_id: org.id, notification_id: first.id, dismissed_by: null, reason: "Known", dismissed_at: new Date().toISOString() })
      .execute();
    // The register goes back and forth: the store loses the bankruptcy, then sees the same one again.
    await importBrregUnits(db(), SAMPLE);
    await importBrregUnits(db(), changedUnits);
    const bankruptcies = await db().selectFrom("risk_notifications").select("id").where("kind", "=", "bankruptcy").execute();
    expect(bankruptcies).toEqual([{ id: first.id }]);
  });
});
