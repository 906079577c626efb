import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@server/db";
import { chooseCandidate, confirmImport, getImport, importRows, importsInProgress } from "~/models/files/supplier-imports.server";
import { company, follow, makeOrg, signedIn, supplierImport } from "../helpers/fixtures";

const AT = "2025-01-01T00:00:00.000Z";
let orgId: number;
let userId: number;
let otherOrgUserId: number;
const ids: Record<string, number> = {};

async function makeImport(rows: Array<{ row: number; status: string; companyId?: number; candidates?: number[] }>): Promise<number> {
  const importId = await supplierImport({
    organizationId: orgId,
    userId,
    status: "ready",
    mapping: { orgId: 0, orgName: 1, countryCode: null, hasHeaders: true, sheet: 0 },
    counts: { total: rows.length },
  });
  for (const r of rows) {
    await db()
      .insertInto("supplier_import_rows")
      .values({
        import_id: importId,
        row_number: r.row,
        cells: JSON.stringify(["x", "y"]),
        status: r.status as "matched",
        company_id: r.companyId ?? null,
        candidates: r.candidates ? JSON.stringify(r.candidates.map((id) => ({ companyId: id, orgNumber: "", name: "", confidence: 0.7 }))) : null,
        reason: null,
      })
      .execute();
  }
  return importId;
}

const connections = () =>
  db()
    .selectFrom("organization_connections as c")
    .innerJoin("organizations as o", "o.id", "c.child_organization_id")
    .select(["c.id", "o.org_number", "c.updated_at", "c.is_deleted"])
    .where("c.parent_organization_id", "=", orgId)
    .orderBy("o.org_number")
    .execute();

beforeAll(async () => {
  orgId = await makeOrg("Importer AS", "customer", "923609016");
  await signedIn("confirm@example.com", orgId, 2);
  userId = (await db().selectFrom("users").select("id").where("email", "=", "confirm@example.com").executeTakeFirstOrThrow()).id;
  const other = await makeOrg("Other AS", "customer");
  await signedIn("other@example.com", other, 2);
  otherOrgUserId = (await db().selectFrom("users").select("id").where("email", "=", "other@example.com").executeTakeFirstOrThrow()).id;
  ids.aker = await company("913748174", "AKER SOLUTIONS ASA");
  ids.ways = await company("832175692", "WAYS AS");
  ids.tonsberg = await company("993020923", "TØNSBERGLIVET AS");
  ids.nyland = await company("993534676", "H NYLAND INTERIØR");
  ids.nylandBygg = await company("998465001", "H NYLAND BYGG");
  ids.akerHolding = await company("913192192", "AKER SOLUTIONS HOLDING AS");
  const waysOrg = await makeOrg("WAYS AS", "supplier", "832175692");
  await follow(orgId, waysOrg);
});

describe("confirmImport", () => {
  it("creates the missing connections in one go, with the tag and an audit row each, and leaves existing ones alone", async () => {
    const importId = await makeImport([
      { row: 2, status: "matched", companyId: ids.aker },
      { row: 3, status: "existing", companyId: ids.ways },
      { row: 4, status: "matched", companyId: ids.tonsberg },
      { row: 5, status: "ambiguous", candidates: [ids.nyland, ids.nylandBygg] },
      { row: 6, status: "ambiguous", candidates: [ids.nyland, ids.nylandBygg] },
      { row: 7, status: "not_found" },
      { row: 8, status: "matched", companyId: ids.akerHolding },
    ]);
    // Between the analysis and the confirm, someone adds AKER SOLUTIONS HOLDING by hand: the import must not add it again.
    const holding = await makeOrg("AKER SOLUTIONS HOLDING AS", "supplier", "913192192");
    await follow(orgId, holding);
    const before = await connections();

    await expect(chooseCandidate({ organizationId: orgId, userId, importId, rowNumber: 5, companyId: ids.aker })).rejects.toMatchObject({
      code: "not-a-candidate",
    });
    await expect(chooseCandidate({ organizationId: orgId, userId, importId, rowNumber: 2, companyId: ids.aker })).rejects.toMatchObject({
      code: "row-not-found",
    });
    expect(await chooseCandidate({ organizationId: orgId, userId: otherOrgUserId, importId, rowNumber: 5, companyId: ids.nyland })).toBe(false);
    expect(await chooseCandidate({ organizationId: orgId, userId, importId, rowNumber: 5, companyId: ids.nylandBygg })).toBe(true);

    const result = await confirmImport({ organizationId: orgId, userId, importId, tag: { title: "Imported 2025" } });
    expect(result).toMatchObject({ created: 3, existing: 1, tag: { title: "Imported 2025" } });

    const after = await connections();
    expect(after.map((c) => c.org_number)).toEqual(["832175692", "913192192", "913748174", "993020923", "998465001"]);
    for (const old of before) expect(after.find((c) => c.id === old.id)).toEqual(old);

    const created = after.filter((c) => !before.some((b) => b.id === c.id)).map((c) => c.id);
    const tagged = await db()
      .selectFrom("organization_connection_tags as ct")
      .innerJoin("organization_tags as t", "t.id", "ct.tag_id")
      .select(["ct.connection_id", "t.title"])
      .where("t.organization_id", "=", orgId)
      .execute();
    expect(tagged.map((t) => t.connection_id).sort()).toEqual(created.sort());
    expect(new Set(tagged.map((t) => t.title))).toEqual(new Set(["Imported 2025"]));

    const events = await db()
      .selectFrom("connection_events")
      .select(["connection_id", "action", "user_id", "detail"])
      .where("organization_id", "=", orgId)
      .execute();
    const imported = events.filter((e) => e.action === "imported");
    expect(imported.map((e) => e.connection_id).sort()).toEqual(created.sort());
    expect(imported.every((e) => e.user_id === userId && JSON.parse(e.detail!).importId === importId)).toBe(true);
    expect(events.filter((e) => e.action === "tag_added")).toHaveLength(3);
    expect(events.some((e) => before.some((b) => b.id === e.connection_id))).toBe(false);

    // The new suppliers have their overall risk stored at once (decision 036).
    const risks = await db().selectFrom("organization_connections").select(["id", "overall_risk_at"]).where("id", "in", created).execute();
    expect(risks.map((r) => r.overall_risk_at !== null)).toEqual(created.map(() => true));

    const view = await getImport({ organizationId: orgId, userId, importId });
    expect(view).toMatchObject({ status: "confirmed", tag: { title: "Imported 2025" }, counts: { created: 3 } });
  });

  it("refuses a second confirm and creates nothing more", async () => {
    const importId = await makeImport([{ row: 2, status: "matched", companyId: ids.aker }]);
    const first = await confirmImport({ organizationId: orgId, userId, importId, tag: null });
    const count = (await connections()).length;
    expect(first?.created).toBe(0); // already followed since the first test
    await expect(confirmImport({ organizationId: orgId, userId, importId, tag: null })).rejects.toMatchObject({
      name: "Refusal",
      reason: "conflict",
      code: "already-confirmed",
    });
    await expect(confirmImport({ organizationId: orgId, userId, importId, tag: null })).rejects.toMatchObject({ code: "already-confirmed" });
    expect((await connections()).length).toBe(count);
  });

  it("rolls everything back when the tag is not the organisation's", async () => {
    const importId = await makeImport([{ row: 2, status: "matched", companyId: ids.nyland }]);
    const otherTag = await db()
      .insertInto("organization_tags")
      .values({ organization_id: (await makeOrg("Third AS", "customer")) as number, title: "Theirs", created_at: AT })
      .returning("id")
      .executeTakeFirstOrThrow();
    const count = (await connections()).length;
    await expect(confirmImport({ organizationId: orgId, userId, importId, tag: { id: otherTag.id } })).rejects.toMatchObject({ code: "tag-not-found" });
    expect((await connections()).length).toBe(count);
    expect((await getImport({ organizationId: orgId, userId, importId }))?.status).toBe("ready");
  });

  it("is scoped to the user who started the import", async () => {
    const importId = await makeImport([{ row: 2, status: "matched", companyId: ids.nyland }]);
    expect(await getImport({ organizationId: orgId, userId: otherOrgUserId, importId })).toBeUndefined();
    expect(await importRows({ organizationId: orgId + 1000, userId, importId })).toBeUndefined();
    expect(await confirmImport({ organizationId: orgId, userId: otherOrgUserId, importId, tag: null })).toBeUndefined();
    const progress = await importsInProgress({ organizationId: orgId, userId });
    expect(progress.find((p) => p.importId === importId)).toMatchObject({
      status: "ready",
      href: `/suppliers/imports/${importId}`,
      fileName: "suppliers.xlsx",
    });
    expect(await importsInProgress({ organizationId: orgId, userId: otherOrgUserId })).toEqual([]);
  });

  it("pages and filters the rows", async () => {
    const importId = await makeImport(Array.from({ length: 7 }, (_, i) => ({ row: i + 2, status: i % 2 ? "matched" : "not_found", companyId: ids.aker })));
    const page = await importRows({ organizationId: orgId, userId, importId, status: "matched", page: 2, size: 2 });
    expect(page).toMatchObject({ total: 3, page: 2, pages: 2 });
    expect(page?.rows.map((r) => r.rowNumber)).toEqual([7]);
    expect(page?.rows[0].company).toMatchObject({ orgNumber: "913748174" });
  });
});
