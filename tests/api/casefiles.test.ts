import { createHash } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@server/db";
import { loader as bySupplierLoader } from "~/routes/api.casefiles.by-supplier.$childId";
import { casefilesBySupplier, createCasefile, getCasefile, listCasefiles, updateCasefile } from "~/models/files/casefiles.server";
import { action as bySupplierAction } from "~/routes/api.casefiles.by-supplier.$childId";
import { call, form } from "../helpers/requests";
import { follow, makeOrg, request, signedIn } from "../helpers/fixtures";

async function userId(token: string): Promise<number> {
  const s = await db().selectFrom("sessions").select("user_id").where("id", "=", createHash("sha256").update(token).digest("hex")).executeTakeFirstOrThrow();
  return s.user_id;
}

const w = {} as {
  orgA: number;
  orgB: number;
  s1: number;
  s2: number;
  s3: number;
  tokenA: string;
  tokenB: string;
  viewerA: string;
  userA: number;
  userB: number;
  caseA: number;
  caseA2: number;
  caseB: number;
};

beforeAll(async () => {
  w.orgA = await makeOrg("Customer A", "customer");
  w.orgB = await makeOrg("Customer B", "customer");
  w.s1 = await makeOrg("Supplier One", "supplier", "911111111");
  w.s2 = await makeOrg("Supplier Two", "supplier", "922222222");
  w.s3 = await makeOrg("Supplier Three", "supplier", "933333333");
  await follow(w.orgA, w.s1);
  await follow(w.orgA, w.s2);
  await follow(w.orgA, w.s3, 1);
  await follow(w.orgB, w.s1);
  w.tokenA = await signedIn("a@cases.test", w.orgA, 2);
  w.tokenB = await signedIn("b@cases.test", w.orgB, 2);
  w.viewerA = await signedIn("viewer@cases.test", w.orgA, 1);
  w.userA = await userId(w.tokenA);
  w.userB = await userId(w.tokenB);
  w.caseA = (await createCasefile({ organizationId: w.orgA, userId: w.userA, supplierOrganizationId: w.s1, title: "Late deliveries", priority: 4 }))!;
  w.caseA2 = (await createCasefile({ organizationId: w.orgA, userId: w.userA, supplierOrganizationId: w.s1, title: "Certificate expired", priority: null }))!;
  w.caseB = (await createCasefile({ organizationId: w.orgB, userId: w.userB, supplierOrganizationId: w.s1, title: "B's own case", priority: 1 }))!;
});

describe("the case file model", () => {
  it("creates only about a supplier the organisation follows", async () => {
    expect(await createCasefile({ organizationId: w.orgA, userId: w.userA, supplierOrganizationId: w.s3, title: "Unfollowed", priority: 2 })).toBeUndefined();
    await expect(createCasefile({ organizationId: w.orgA, userId: w.userA, supplierOrganizationId: w.s1, title: "   ", priority: 2 })).rejects.toThrow();
    await expect(createCasefile({ organizationId: w.orgA, userId: w.userA, supplierOrganizationId: w.s1, title: "x", priority: 6 })).rejects.toThrow();
  });

  it("scopes every read and change by organisation", async () => {
    expect(await getCasefile({ organizationId: w.orgB, id: w.caseA })).toBeUndefined();
    expect(await updateCasefile({ organizationId: w.orgB, userId: w.userB, id: w.caseA, status: "closed" })).toBe(false);
    expect((await getCasefile({ organizationId: w.orgA, id: w.caseA }))?.status).toBe("open");
    expect((await listCasefiles({ organizationId: w.orgA })).map((c) => c.id).sort()).toEqual([w.caseA, w.caseA2].sort());
  });

  it("records one event per changed field and none for an unchanged one", async () => {
    const id = (await createCasefile({ organizationId: w.orgA, userId: w.userA, supplierOrganizationId: w.s2, title: "Events", priority: 2 }))!;
    expect(await updateCasefile({ organizationId: w.orgA, userId: w.userA, id, status: "on_hold", priority: 5 })).toBe(true);
    expect(await updateCasefile({ organizationId: w.orgA, userId: w.userA, id, status: "on_hold", priority: 5 })).toBe(true);
    const cf = (await getCasefile({ organizationId: w.orgA, id }))!;
    expect(cf.status).toBe("on_hold");
    expect(cf.priority).toBe(5);
    expect(cf.events.map((e) => [e.type, e.detail])).toEqual(
      expect.arrayContaining([
        ["created", { title: "Events", priority: 2 }],
        ["status_changed", { from: "open", to: "on_hold" }],
        ["priority_changed", { from: 2, to: 5 }],
      ]),
    );
    expect(cf.events).toHaveLength(3);
  });
});

describe("GET /api/casefiles/by-supplier/{childId}", () => {
  it("answers the organisation's case files about that supplier in the spec's shape", async () => {
    await db()
      .insertInto("casefile_comments")
      .values({ casefile_id: w.caseA, user_id: w.userA, text: "First", created_at: "2025-02-01T00:00:00.000Z" })
      .execute();
    const res = await request(bySupplierLoader, `/api/casefiles/by-supplier/${w.s1}`, { childId: String(w.s1) }, w.tokenA);
    expect(res.status).toBe(200);
    const { data } = (await res.json()) as { data: Array<Record<string, unknown>> };
    expect(data.map((c) => c.id).sort()).toEqual([w.caseA, w.caseA2].sort());
    const late = data.find((c) => c.id === w.caseA)!;
    expect(Object.keys(late).sort()).toEqual(["comments", "createdAt", "events", "id", "priority", "status", "title"]);
    expect(late).toMatchObject({
      title: "Late deliveries",
      status: "open",
      priority: 4,
      comments: [{ id: expect.any(Number) }],
      events: [{ id: expect.any(Number) }],
    });
    expect(data.find((c) => c.id === w.caseA2)).toMatchObject({ priority: null, comments: [] });
    expect(await casefilesBySupplier({ organizationId: w.orgA, supplierOrganizationId: w.s2 })).toHaveLength(1);
  });

  it("never shows another organisation's case files about the same supplier", async () => {
    const res = await request(bySupplierLoader, `/api/casefiles/by-supplier/${w.s1}`, { childId: String(w.s1) }, w.tokenB);
    const { data } = (await res.json()) as { data: Array<{ id: number }> };
    expect(data.map((c) => c.id)).toEqual([w.caseB]);
  });

  it("404 for a supplier the organisation does not follow (or no longer follows), 400 for a bad id, 401 without a session", async () => {
    expect((await request(bySupplierLoader, `/api/casefiles/by-supplier/${w.s2}`, { childId: String(w.s2) }, w.tokenB)).status).toBe(404);
    expect((await request(bySupplierLoader, `/api/casefiles/by-supplier/${w.s3}`, { childId: String(w.s3) }, w.tokenA)).status).toBe(404);
    expect((await request(bySupplierLoader, `/api/casefiles/by-supplier/x`, { childId: "x" }, w.tokenA)).status).toBe(400);
    expect((await request(bySupplierLoader, `/api/casefiles/by-supplier/${w.s1}`, { childId: String(w.s1) })).status).toBe(401);
  });

  it("refuses a level-1 member of the organisation (403 JSON), as the screens do", async () => {
    const res = await request(bySupplierLoader, `/api/casefiles/by-supplier/${w.s1}`, { childId: String(w.s1) }, w.viewerA);
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ error: "Forbidden" });
  });

  it("ids are written plainly: ' 1', '0x10' and '01' are 400", async () => {
    for (const childId of [` ${w.s1}`, `0x${w.s1.toString(16)}`, `0${w.s1}`]) {
      expect((await request(bySupplierLoader, `/api/casefiles/by-supplier/x`, { childId }, w.tokenA)).status, childId).toBe(400);
    }
  });

  it("answers 405 with Allow: GET to other methods", async () => {
    const res = await call(bySupplierAction, { request: form(`/api/casefiles/by-supplier/${w.s1}`, {}), params: { childId: String(w.s1) }, context: {} });
    expect(res.status).toBe(405);
    expect(res.headers.get("Allow")).toBe("GET");
  });
});
