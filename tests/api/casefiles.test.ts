import { createHash } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@server/db";
import { loader as bySupplierLoader } from "~/routes/api.casefiles.by-supplier.$childId";
import { action as listAction, loader as listLoader } from "~/routes/casefiles";
import { action as detailAction, loader as detailLoader } from "~/routes/casefiles.$caseFileId";
import { casefilesBySupplier, createCasefile, getCasefile, listCasefiles, updateCasefile } from "~/models/casefiles.server";
import { BASE, call, get } from "../helpers/requests";
import { follow, makeOrg, request, signedIn } from "../helpers/fixtures";

async function userId(token: string): Promise<number> {
  const s = await db().selectFrom("sessions").select("user_id").where("id", "=", createHash("sha256").update(token).digest("hex")).executeTakeFirstOrThrow();
  return s.user_id;
}

function post(path: string, fields: Record<string, string>, token: string): Request {
  return new Request(BASE + path, {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: `token=${token}` },
  });
}

function page(path: string, token: string): Request {
  return get(path, { Cookie: `token=${token}` });
}

const w = {} as {
  orgA: number;
  orgB: number;
  s1: number;
  s2: number;
  s3: number;
  tokenA: string;
  tokenB: string;
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
  w.tokenA = await signedIn("a@cases.test", w.orgA);
  w.tokenB = await signedIn("b@cases.test", w.orgB);
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
});

describe("/casefiles", () => {
  it("lists the organisation's case files with supplier, counts and the followed suppliers for the form", async () => {
    const res = await call(listLoader, { request: page("/casefiles", w.tokenA), params: {}, context: {} });
    const body = (await res.json()) as {
      casefiles: Array<{ id: number; supplier: { name: string } | null; comments: unknown[] }>;
      suppliers: Array<{ id: number; name: string }>;
    };
    expect(body.casefiles.map((c) => c.id)).not.toContain(w.caseB);
    expect(body.casefiles.find((c) => c.id === w.caseA)?.supplier?.name).toBe("Supplier One");
    expect(body.suppliers.map((s) => s.name)).toEqual(["Supplier One", "Supplier Two"]);
  });

  it("creates a case file and redirects to it; refuses a missing title and another organisation's supplier", async () => {
    const ok = await call(listAction, {
      request: post("/casefiles", { intent: "create", title: "  New one  ", supplierId: String(w.s2), priority: "3" }, w.tokenA),
      params: {},
      context: {},
    });
    expect(ok.status).toBe(302);
    const id = Number(ok.headers.get("Location")?.replace("/casefiles/", ""));
    expect(await getCasefile({ organizationId: w.orgA, id })).toMatchObject({ title: "New one", priority: 3, status: "open" });
    expect(ok.headers.get("Set-Cookie")).toContain("__flash=");

    const noTitle = await call(listAction, {
      request: post("/casefiles", { intent: "create", title: " ", supplierId: String(w.s2), priority: "" }, w.tokenA),
      params: {},
      context: {},
    });
    expect(noTitle.status).toBe(400);
    expect(JSON.stringify(await noTitle.json())).toContain("Enter a title.");
    const foreign = await call(listAction, {
      request: post("/casefiles", { intent: "create", title: "x", supplierId: String(w.s2), priority: "" }, w.tokenB),
      params: {},
      context: {},
    });
    expect(foreign.status).toBe(400);
    expect(JSON.stringify(await foreign.json())).toContain("Choose one of your suppliers.");
    const badIntent = await call(listAction, { request: post("/casefiles", { intent: "nope" }, w.tokenA), params: {}, context: {} });
    expect(badIntent.status).toBe(400);
  });
});

describe("/casefiles/{id}", () => {
  const detail = (id: number | string, token: string) =>
    call(detailLoader, { request: page(`/casefiles/${id}`, token), params: { caseFileId: String(id) }, context: {} });
  const act = (id: number, fields: Record<string, string>, token: string) =>
    call(detailAction, { request: post(`/casefiles/${id}`, fields, token), params: { caseFileId: String(id) }, context: {} });

  it("shows the case file with comments (author email) and events", async () => {
    const res = await detail(w.caseA, w.tokenA);
    expect(res.status).toBe(200);
    const { casefile } = (await res.json()) as {
      casefile: {
        title: string;
        supplier: { name: string; orgNumber: string };
        comments: Array<{ text: string; user: { email: string } }>;
        events: Array<{ type: string }>;
      };
    };
    expect(casefile.title).toBe("Late deliveries");
    expect(casefile.supplier).toMatchObject({ name: "Supplier One", orgNumber: "911111111" });
    expect(casefile.comments[0]).toMatchObject({ text: "First", user: { email: "a@cases.test" } });
    expect(casefile.events.map((e) => e.type)).toContain("created");
  });

  it("adds a comment, changes status and priority, each redirecting back with 'Saved!'", async () => {
    const comment = await act(w.caseA2, { intent: "comment", text: "  Asked for the new certificate.  " }, w.tokenA);
    expect(comment.status).toBe(302);
    expect(comment.headers.get("Location")).toBe(`/casefiles/${w.caseA2}`);
    expect(comment.headers.get("Set-Cookie")).toContain("__flash=");
    expect((await act(w.caseA2, { intent: "status", status: "in_progress" }, w.tokenA)).status).toBe(302);
    expect((await act(w.caseA2, { intent: "priority", priority: "5" }, w.tokenA)).status).toBe(302);
    expect((await act(w.caseA2, { intent: "priority", priority: "" }, w.tokenA)).status).toBe(302);
    const cf = (await getCasefile({ organizationId: w.orgA, id: w.caseA2 }))!;
    expect(cf.comments.map((c) => c.text)).toEqual(["Asked for the new certificate."]);
    expect(cf.status).toBe("in_progress");
    expect(cf.priority).toBeNull();
    expect(cf.events.map((e) => e.type).sort()).toEqual(["created", "priority_changed", "priority_changed", "status_changed"]);
  });

  it("refuses an empty comment, an unknown status, a priority outside 1–5 and an unknown intent with 400", async () => {
    const empty = await act(w.caseA2, { intent: "comment", text: "   " }, w.tokenA);
    expect(empty.status).toBe(400);
    expect(JSON.stringify(await empty.json())).toContain("Write a comment first.");
    expect((await act(w.caseA2, { intent: "status", status: "deleted" }, w.tokenA)).status).toBe(400);
    expect((await act(w.caseA2, { intent: "priority", priority: "9" }, w.tokenA)).status).toBe(400);
    expect((await act(w.caseA2, { intent: "rename" }, w.tokenA)).status).toBe(400);
  });

  it("another organisation gets 404 for reading and for every change, and nothing changes", async () => {
    expect((await detail(w.caseA, w.tokenB)).status).toBe(404);
    expect((await detail("abc", w.tokenA)).status).toBe(404);
    expect((await detail(999999, w.tokenA)).status).toBe(404);
    const before = await getCasefile({ organizationId: w.orgA, id: w.caseA });
    expect((await act(w.caseA, { intent: "comment", text: "intruder" }, w.tokenB)).status).toBe(404);
    expect((await act(w.caseA, { intent: "status", status: "closed" }, w.tokenB)).status).toBe(404);
    expect((await act(w.caseA, { intent: "priority", priority: "1" }, w.tokenB)).status).toBe(404);
    expect(await getCasefile({ organizationId: w.orgA, id: w.caseA })).toEqual(before);
  });

  it("a visitor is sent to the start page", async () => {
    const res = await call(detailLoader, { request: get(`/casefiles/${w.caseA}`), params: { caseFileId: String(w.caseA) }, context: {} });
    expect(res.status).toBe(302);
  });
});
