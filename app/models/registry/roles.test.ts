import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { WORLD_BANK_REGIONS, regionLabel, regionLabelKey } from "~/models/registry/regions";
import { ROLE_CODES, roleCode, roleLabel } from "~/models/registry/roles";

const people = (lng: string) => JSON.parse(fs.readFileSync(path.resolve("locales", lng, "people.json"), "utf8")) as { roles: Record<string, string> };
const supplier = (lng: string) => JSON.parse(fs.readFileSync(path.resolve("locales", lng, "supplier.json"), "utf8")) as { regions: Record<string, string> };
const tFor = (table: Record<string, string>) => (key: string) => table[key.replace(/^(roles|regions)\./, "")] ?? `MISSING:${key}`;

describe("roleCode (register codes and the position texts the store holds)", () => {
  it.each([
    // the register's Norwegian descriptions as the sync writes them
    ["Daglig leder (CEO)", "DAGL"],
    ["Daglig leder", "DAGL"],
    ["Adm. direktør", "DAGL"],
    ["Styrets leder", "LEDE"],
    ["Styreleder", "LEDE"],
    ["Nestleder", "NEST"],
    ["Styremedlem", "MEDL"],
    ["Varamedlem", "VARA"],
    ["Observatør", "OBS"],
    ["Kontaktperson", "KONT"],
    ["Revisor", "REVI"],
    ["Regnskapsfører", "REGN"],
    ["Deltaker med delt ansvar (proratarisk)", "DTPR"],
    ["Deltaker med proratarisk ansvar", "DTPR"],
    ["Deltaker med solidarisk ansvar", "DTSO"],
    ["Komplementar", "KOMP"],
    ["Innehaver", "INNH"],
    ["Forretningsfører", "FFØR"],
    // the seed's English positions
    ["CEO", "DAGL"],
    ["Chairman of the board", "LEDE"],
    ["Board member", "MEDL"],
    ["Deputy board member", "VARA"],
    // the codes themselves, any case and spacing
    ["DAGL", "DAGL"],
    ["medl", "MEDL"],
    ["  STYREMEDLEM ", "MEDL"],
  ])("%j → %s", (position, code) => {
    expect(roleCode(position)).toBe(code);
  });

  it.each([null, undefined, "", "Bestyrer av noe helt annet", "Kaptein"])("%j → null", (position) => {
    expect(roleCode(position)).toBeNull();
  });
});

describe("roleLabel in both languages, both ways", () => {
  const en = tFor(people("en").roles);
  const no = tFor(people("no").roles);

  it("every code has a label in both locale files", () => {
    expect(Object.keys(people("en").roles).sort()).toEqual([...ROLE_CODES].sort());
    expect(Object.keys(people("no").roles).sort()).toEqual([...ROLE_CODES].sort());
  });

  it.each([
    ["Styremedlem", "Board member", "Styremedlem"],
    ["Board member", "Board member", "Styremedlem"],
    ["Varamedlem", "Deputy board member", "Varamedlem"],
    ["Deputy board member", "Deputy board member", "Varamedlem"],
    ["Styreleder", "Chairman of the board", "Styreleder"],
    ["Chairman of the board", "Chairman of the board", "Styreleder"],
    ["Daglig leder (CEO)", "CEO", "Daglig leder"],
    ["Adm. direktør", "CEO", "Daglig leder"],
    ["CEO", "CEO", "Daglig leder"],
    ["Nestleder", "Deputy chairman", "Nestleder"],
    ["Revisor", "Auditor", "Revisor"],
    ["Kaptein", "Kaptein", "Kaptein"],
    [null, "", ""],
  ])("%j → %j / %j", (position, english, norwegian) => {
    expect(roleLabel(position, en)).toBe(english);
    expect(roleLabel(position, no)).toBe(norwegian);
  });

  it("no Norwegian role name in the English labels, no English one in the Norwegian labels", () => {
    const english = Object.values(people("en").roles).join(" | ");
    const norwegian = Object.values(people("no").roles).join(" | ");
    expect(english).not.toMatch(/styre|medlem|leder|daglig|revisor/i);
    expect(norwegian).not.toMatch(/board|member|chair|\bCEO\b|auditor/i);
  });
});

describe("regionLabel (World Bank regions)", () => {
  const en = tFor(supplier("en").regions);
  const no = tFor(supplier("no").regions);

  it("every region has a label in both locale files", () => {
    const keys = Object.values(WORLD_BANK_REGIONS).sort();
    expect(Object.keys(supplier("en").regions).sort()).toEqual(keys);
    expect(Object.keys(supplier("no").regions).sort()).toEqual(keys);
  });

  it.each([
    ["Europe & Central Asia", "Europe & Central Asia", "Europa og Sentral-Asia"],
    ["East Asia & Pacific", "East Asia & Pacific", "Øst-Asia og Stillehavet"],
    ["Latin America & Caribbean", "Latin America & Caribbean", "Latin-Amerika og Karibia"],
    ["Middle East & North Africa", "Middle East & North Africa", "Midtøsten og Nord-Afrika"],
    ["North America", "North America", "Nord-Amerika"],
    ["South Asia", "South Asia", "Sør-Asia"],
    ["Sub-Saharan Africa", "Sub-Saharan Africa", "Afrika sør for Sahara"],
    ["Antarctica", "Antarctica", "Antarctica"],
  ])("%j → %j / %j", (region, english, norwegian) => {
    expect(regionLabel(region, en)).toBe(english);
    expect(regionLabel(region, no)).toBe(norwegian);
  });

  it("no region gives null, so the caller shows the dash", () => {
    expect(regionLabel(null, en)).toBeNull();
    expect(regionLabel("  ", en)).toBeNull();
    expect(regionLabelKey("Europe  & Central Asia")).toBe("regions.europeCentralAsia");
  });

  it("every region in the country data is in the table", () => {
    const csv = fs.readFileSync(path.resolve("server/seed-data/countries/countries.csv"), "utf8").trim().split("\n").slice(1);
    const regions = new Set(csv.map((line) => line.split(",")[2]).filter((r) => r !== ""));
    for (const region of regions) expect(regionLabelKey(region), region).not.toBeNull();
  });
});
