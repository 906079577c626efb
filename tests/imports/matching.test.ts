import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@server/db";
import { decideByName, type ImportMapping } from "~/models/files/import-decisions";
import { analyseRows, matchingContext } from "~/models/files/supplier-matching.server";
import { company, follow, makeOrg, signedIn, supplierImport } from "../helpers/fixtures";

const mapping: ImportMapping = { orgId: 0, orgName: 1, countryCode: 2, hasHeaders: true, sheet: 0 };

async function* lines(rows: string[][]) {
  for (const r of rows) yield r;
}

let orgId: number;
let importId: number;
const ids: Record<string, number> = {};

beforeAll(async () => {
  orgId = await makeOrg("Importer AS", "customer", "923609016");
  await signedIn("importer@example.com", orgId, 2);
  const user = await db().selectFrom("users").select("id").where("email", "=", "importer@example.com").executeTakeFirstOrThrow();
  // Real registry units (server/seed-data/brreg).
  ids.aker = await company("913748174", "AKER SOLUTIONS ASA");
  ids.akerHolding = await company("913192192", "AKER SOLUTIONS HOLDING AS");
  ids.ways = await company("832175692", "WAYS AS");
  ids.tonsberg = await company("993020923", "TØNSBERGLIVET AS");
  ids.nyland = await company("993534676", "H NYLAND INTERIØR");
  ids.nylandBygg = await company("998465001", "H NYLAND BYGG");
  // Already a supplier of the organisation: WAYS AS.
  const waysOrg = await makeOrg("WAYS AS", "supplier", "832175692");
  await follow(orgId, waysOrg);
  importId = await supplierImport({ organizationId: orgId, userId: user.id, status: "analysing", mapping, fileName: "list.xlsx" });
});

describe("analyseRows", () => {
  it("gives every line its status and reason, skips the header and blank lines, and counts", async () => {
    const progress: number[] = [];
    const ctx = await matchingContext(db(), orgId);
    const { counts, header } = await analyseRows({
      ctx,
      importId,
      mapping,
      rows: lines([
        ["Org.nr", "Navn", "Land"],
        ["NO 913 748 174 MVA", "Aker Solutions", "NO"], // 2 matched by number
        ["832175692", "Ways", ""], // 3 existing
        ["913748174.0", "Aker again", ""], // 4 duplicate
        ["913 748 175", "Typo AS", ""], // 5 invalid check digit
        ["", "Tønsberglivet", "Norge"], // 6 matched by name
        ["", "H Nyland", ""], // 7 ambiguous
        ["", "", ""], // blank: skipped
        ["", "Nobody Known Anywhere", ""], // 9 not found by name
        ["969804530", "", ""], // 10 valid but not in this registry
        ["", "", "NO"], // 11 missing both
        ["923609016", "Importer", ""], // 12 own organisation (not in the registry → not found)
      ]),
      onProgress: async (done) => void progress.push(done),
    });
    expect(header).toEqual(["Org.nr", "Navn", "Land"]);
    const rows = await db().selectFrom("supplier_import_rows").selectAll().where("import_id", "=", importId).orderBy("row_number").execute();
    const byRow = Object.fromEntries(rows.map((r) => [r.row_number, r]));
    expect(rows.map((r) => [r.row_number, r.status, r.reason])).toEqual([
      [2, "matched", "exact-number"],
      [3, "existing", "already-supplier"],
      [4, "duplicate", "duplicate-in-file"],
      [5, "invalid", "org-check-digit"],
      [6, "matched", "exact-name"],
      [7, "ambiguous", "several-names"],
      [9, "not_found", "no-name-match"],
      [10, "not_found", "not-in-registry"],
      [11, "invalid", "missing-both"],
      [12, "not_found", "not-in-registry"],
    ]);
    expect(byRow[2].company_id).toBe(ids.aker);
    expect(byRow[6].company_id).toBe(ids.tonsberg);
    expect(JSON.parse(byRow[2].cells)).toEqual(["NO 913 748 174 MVA", "Aker Solutions", "NO"]);
    const candidates = JSON.parse(byRow[7].candidates!) as Array<{ companyId: number }>;
    expect(candidates.map((c) => c.companyId).sort()).toEqual([ids.nyland, ids.nylandBygg].sort());
    expect(counts).toEqual({ total: 10, matched: 2, existing: 1, duplicate: 1, invalid: 2, ambiguous: 1, not_found: 3 });
    expect(progress).toEqual([10]);
  });

  it("starts over when run again (no second copy of a line)", async () => {
    const ctx = await matchingContext(db(), orgId);
    await analyseRows({ ctx, importId, mapping: { ...mapping, hasHeaders: false }, rows: lines([["913748174", "x", ""]]) });
    const rows = await db().selectFrom("supplier_import_rows").select(["row_number", "status"]).where("import_id", "=", importId).execute();
    expect(rows).toEqual([{ row_number: 1, status: "matched" }]);
  });

  it("a line that fails to be decided is recorded with its reason; the rest of the list goes on", async () => {
    const ctx = await matchingContext(db(), orgId);
    // The country lookup fails for one line (as a registry query could): that line only is 'not found, unreadable'.
    const countries = new Map(ctx.countries);
    countries.get = (key: string) => {
      if (key === "boom") throw new Error("lookup failed");
      return Map.prototype.get.call(ctx.countries, key) as string | undefined;
    };
    const { counts } = await analyseRows({
      ctx: { ...ctx, countries },
      importId,
      mapping: { ...mapping, hasHeaders: false, countryCode: 2 },
      rows: lines([
        ["", "NYLAND AS", "boom"],
        ["913748174", "x", "Norway"],
      ]),
    });
    expect(counts).toMatchObject({ total: 2, matched: 1, not_found: 1 });
    const rows = await db()
      .selectFrom("supplier_import_rows")
      .select(["row_number", "status", "reason"])
      .where("import_id", "=", importId)
      .orderBy("row_number")
      .execute();
    expect(rows).toEqual([
      { row_number: 1, status: "not_found", reason: "unreadable-row" },
      { row_number: 2, status: "matched", reason: "exact-number" },
    ]);
  });

  it("calls the own organisation invalid when it is in the registry", async () => {
    await company("923609016", "IMPORTER AS");
    const ctx = await matchingContext(db(), orgId);
    const { counts } = await analyseRows({ ctx, importId, mapping: { ...mapping, hasHeaders: false }, rows: lines([["923609016", "", ""]]) });
    expect(counts.invalid).toBe(1);
    const row = await db().selectFrom("supplier_import_rows").select("reason").where("import_id", "=", importId).executeTakeFirstOrThrow();
    expect(row.reason).toBe("own-organization");
  });
});

describe("decideByName", () => {
  const c = (companyId: number, confidence: number) => ({ companyId, orgNumber: String(companyId), name: "x", confidence });
  it("matches one clear hit, keeps close hits as candidates, and finds none without hits", () => {
    expect(decideByName([c(1, 1), c(2, 0.5)])).toMatchObject({ status: "matched", reason: "exact-name" });
    expect(decideByName([c(1, 0.8)])).toMatchObject({ status: "matched", reason: "close-name" });
    expect(decideByName([c(1, 1), c(2, 1)])).toMatchObject({ status: "ambiguous" });
    expect(decideByName([c(1, 0.6)])).toMatchObject({ status: "ambiguous" });
    expect(decideByName([1, 2, 3, 4, 5, 6, 7].map((i) => c(i, 0.5))).candidates).toHaveLength(5);
    expect(decideByName([])).toMatchObject({ status: "not_found", reason: "no-name-match" });
  });
});
