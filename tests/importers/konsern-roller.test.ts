import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@server/db";
import { importBrregUnits, importKonsernRoller, ImportInputError, type ImportSummary } from "@server/importers/index";

const UNITS = path.resolve("server/seed-data/brreg/konsern-enheter.csv");
const EDGES = path.resolve("server/seed-data/brreg/konsern-roller.csv");
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "konsern-"));

async function holdingsOf(holder: string) {
  return db()
    .selectFrom("shareholdings as s")
    .innerJoin("companies as owned", "owned.id", "s.company_id")
    .innerJoin("companies as holder", "holder.id", "s.holder_company_id")
    .select(["owned.org_number as owned", "s.percent", "s.relation_type"])
    .where("holder.org_number", "=", holder)
    .orderBy("owned.org_number")
    .execute();
}

describe("the Aker Solutions group", () => {
  let units: ImportSummary;
  let edges: ImportSummary;

  beforeAll(async () => {
    units = await importBrregUnits(db(), UNITS);
    edges = await importKonsernRoller(db(), EDGES);
  });

  it("imports the 23 group units through the units importer and the 22 edges as shareholdings", async () => {
    expect(units).toMatchObject({ inserted: 23, updated: 0, rejectedCount: 0 });
    expect(edges).toMatchObject({ inserted: 22, updated: 0, rejectedCount: 0, rows: 22 });
    const { n } = await db()
      .selectFrom("shareholdings")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    expect(n).toBe(22);
  });

  it("stores the holder company, the owned company and the percentage", async () => {
    const top = await holdingsOf("913748174");
    expect(top).toEqual([
      { owned: "913192192", percent: 100, relation_type: "HFOR" },
      { owned: "933627209", percent: 100, relation_type: "HFOR" },
    ]);
    const sub = await holdingsOf("929877950");
    expect(sub.map((h) => [h.owned, h.percent])).toEqual([
      ["920882749", 60],
      ["920882803", 100],
      ["929196732", 100],
      ["929196899", 99],
      ["997839161", 100],
    ]);
    expect((await holdingsOf("913192192")).find((h) => h.owned === "924801026")?.percent).toBe(88);
    // Nobody holds the parent: the tree has one root.
    const roots = await db()
      .selectFrom("companies as c")
      .select("c.org_number")
      .where((eb) => eb.not(eb.exists(eb.selectFrom("shareholdings as s").select("s.id").whereRef("s.company_id", "=", "c.id"))))
      .execute();
    expect(roots.map((r) => r.org_number)).toEqual(["913748174"]);
  });

  it("counts a second run as updates", async () => {
    expect(await importKonsernRoller(db(), EDGES)).toMatchObject({ inserted: 0, updated: 22, rejectedCount: 0 });
    expect(await importBrregUnits(db(), UNITS)).toMatchObject({ inserted: 0, updated: 23, rejectedCount: 0 });
  });

  it("finds the group by name prefix", async () => {
    const { rows } = await sql<{ legal_name: string }>`
      select c.legal_name from companies_fts f join companies c on c.id = f.rowid
      where companies_fts match ${"aker sol*"} order by c.legal_name`.execute(db());
    // Ten of the 23 are called 'AKER SOLUTIONS …'; 'BENESTAD SOLUTIONS' and 'AKER SECURITY' are not hits.
    expect(rows).toHaveLength(10);
    expect(rows.map((r) => r.legal_name)).toContain("AKER SOLUTIONS ASA");
    for (const r of rows) expect(r.legal_name).toMatch(/^AKER SOLUTIONS\b/);
  });

  it("rejects edges to unknown companies and malformed rows with a reason, and keeps the good ones", async () => {
    const file = path.join(tmp, "edges.csv");
    fs.writeFileSync(
      file,
      [
        "influencing_tax_ident,influenced_tax_ident,rel_type_code,percentage",
        "913748174,933627209,HFOR,75.5", // known: updates the percentage
        "913748174,832175692,HFOR,100", // owned company not imported
        "913748175,933627209,HFOR,100", // bad check digit
        "913748174,913192192,HFOR,120", // over 100 %
        "913748174,913748174,HFOR,100", // owns itself
        "913748174,913192192,,100", // no relation code
      ].join("\n"),
    );
    const summary = await importKonsernRoller(db(), file);
    expect(summary).toMatchObject({ inserted: 0, updated: 1, rejectedCount: 5 });
    expect(summary.rejected).toEqual([
      { line: 3, reason: "unknown company: influenced_tax_ident 832175692 (import its unit first)" },
      { line: 4, reason: expect.stringMatching(/^influencing_tax_ident: not a valid organisation number/) },
      { line: 5, reason: expect.stringMatching(/^percentage: not a percentage between 0 and 100/) },
      { line: 6, reason: expect.stringMatching(/^influenced_tax_ident: a company cannot own itself/) },
      { line: 7, reason: expect.stringMatching(/^rel_type_code: /) },
    ]);
    expect((await holdingsOf("913748174")).find((h) => h.owned === "933627209")?.percent).toBe(75.5);
  });

  it("refuses a file with another header", async () => {
    await expect(importKonsernRoller(db(), UNITS)).rejects.toThrow(ImportInputError);
  });
});
