import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@server/db";
import { saveFile } from "@server/storage";
import { action as connectionAction, loader as connectionLoader } from "~/routes/api.organization-connections.$id";
import { action as commentAction } from "~/routes/api.organization-connections.comments.$id";
import { action as fileAction } from "~/routes/api.organization-connections.file-uploads";
import { loader as tagsLoader } from "~/routes/api.organization-tags";
import { loader as countsLoader } from "~/routes/api.organization-tags.with-counts";
import { action as tagAction } from "~/routes/api.organization-tags.$id";
import { addSupplier, connectionForSupplier, getConnection } from "~/models/suppliers/connections.server";
import { call, BASE } from "../helpers/requests";
import { company, follow, makeOrg, request, signedIn } from "../helpers/fixtures";

const w = {} as {
  orgA: number;
  orgB: number;
  supplierS: number;
  supplierT: number;
  tokenA: string;
  tokenA2: string;
  tokenAdminA: string;
  tokenB: string;
  tokenNoOrg: string;
  tokenViewerA: string;
  userB: number;
  userA: number;
  connA: number;
  connB: number;
  fileA: number;
  fileB: number;
};

async function userId(email: string): Promise<number> {
  return (await db().selectFrom("users").select("id").where("email", "=", email).executeTakeFirstOrThrow()).id;
}

async function connectionId(parent: number, child: number): Promise<number> {
  return (
    await db()
      .selectFrom("organization_connections")
      .select("id")
      .where("parent_organization_id", "=", parent)
      .where("child_organization_id", "=", child)
      .where("is_deleted", "=", 0)
      .executeTakeFirstOrThrow()
  ).id;
}

beforeAll(async () => {
  w.orgA = await makeOrg("Customer A AS", "customer");
  w.orgB = await makeOrg("Customer B AS", "customer");
  w.supplierS = await makeOrg("Supplier S AS", "supplier", "910000001");
  w.supplierT = await makeOrg("Supplier T AS", "supplier", "910000002");
  w.tokenA = await signedIn("a@conn.test", w.orgA, 2);
  w.tokenA2 = await signedIn("a2@conn.test", w.orgA, 2);
  w.tokenAdminA = await signedIn("admin@conn.test", w.orgA, 3);
  await db().updateTable("users").set({ is_admin: 1 }).where("email", "=", "admin@conn.test").execute();
  w.tokenB = await signedIn("b@conn.test", w.orgB, 2);
  w.tokenNoOrg = await signedIn("nobody@conn.test", null, 2);
  w.tokenViewerA = await signedIn("viewer@conn.test", w.orgA, 1);
  w.userA = await userId("a@conn.test");
  w.userB = await userId("b@conn.test");
  await follow(w.orgA, w.supplierS);
  await follow(w.orgB, w.supplierS);
  w.connA = await connectionId(w.orgA, w.supplierS);
  w.connB = await connectionId(w.orgB, w.supplierS);
  w.fileA = (await saveFile(Buffer.from("hello"), { fileName: "contract.pdf", mimeType: "application/pdf", organizationId: w.orgA, userId: w.userA })).id;
  w.fileB = (await saveFile(Buffer.from("b's own"), { fileName: "b.pdf", mimeType: "application/pdf", organizationId: w.orgB, userId: w.userB })).id;
  await company("923609016", "EQUINOR ASA");
});

const auth = (token?: string): Record<string, string> => (token ? { Authorization: `Bearer ${token}` } : {});

function send(
  fn: (a: ActionFunctionArgs) => unknown,
  method: string,
  path: string,
  params: Record<string, string>,
  token: string | undefined,
  body?: unknown,
): Promise<Response> {
  const init: RequestInit = { method, headers: { ...auth(token), ...(body !== undefined ? { "Content-Type": "application/json" } : {}) } };
  if (body !== undefined) init.body = typeof body === "string" ? body : JSON.stringify(body);
  return call(fn as (a: LoaderFunctionArgs) => unknown, { request: new Request(BASE + path, init), params, context: {} });
}

const getConn = (id: number | string, token?: string) => request(connectionLoader, `/api/organization-connections/${id}`, { id: String(id) }, token);
const patch = (id: number | string, body: unknown, token?: string) =>
  send(connectionAction, "PATCH", `/api/organization-connections/${id}`, { id: String(id) }, token, body);
const delComment = (id: number, token?: string) => send(commentAction, "DELETE", `/api/organization-connections/comments/${id}`, { id: String(id) }, token);
const attach = (body: unknown, token?: string) => send(fileAction, "POST", "/api/organization-connections/file-uploads", {}, token, body);
const detach = (connectionId: number | string, fileId: number | string, token?: string) =>
  send(fileAction, "DELETE", `/api/organization-connections/file-uploads?connectionId=${connectionId}&fileId=${fileId}`, {}, token);
const delTag = (id: number, token?: string) => send(tagAction, "DELETE", `/api/organization-tags/${id}`, { id: String(id) }, token);

async function events(connection: number) {
  return db()
    .selectFrom("connection_events")
    .select(["action", "user_id", "organization_id", "detail"])
    .where("connection_id", "=", connection)
    .orderBy("id", "asc")
    .execute();
}

interface Conn {
  id: number;
  contact_email: string | null;
  is_priority: boolean;
  is_due_diligence: boolean;
  tags: Array<{ tag: { id: number; title: string } }>;
  comments: Array<{ id: number; text: string; user: { email: string } | null }>;
  files: Array<{ fileUpload: { id: number; fileName: string; fileSize: number } }>;
}
const dataOf = async (res: Response) => ((await res.json()) as { data: Conn }).data;

describe("authentication", () => {
  it("answers 401 without a session on every endpoint", async () => {
    for (const res of [
      await getConn(w.connA),
      await patch(w.connA, { is_priority: true }),
      await delComment(1),
      await attach({ connectionId: w.connA, fileId: w.fileA }),
      await detach(w.connA, w.fileA),
      await request(tagsLoader, "/api/organization-tags"),
      await request(countsLoader, "/api/organization-tags/with-counts"),
      await delTag(1),
    ]) {
      expect(res.status).toBe(401);
    }
  });

  it("answers 403 for a user without an organisation", async () => {
    expect((await getConn(w.connA, w.tokenNoOrg)).status).toBe(403);
  });
});

describe("GET /api/organization-connections/{id}", () => {
  it("answers the connection in the spec's shape", async () => {
    const res = await getConn(w.connA, w.tokenA);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      data: {
        id: w.connA,
        childId: w.supplierS,
        createdAt: "2025-01-01T00:00:00.000Z",
        contact_email: null,
        is_priority: false,
        is_due_diligence: false,
        is_deleted: false,
        child: { organization_name: "Supplier S AS", local_organization_id: w.supplierS },
        tags: [],
        comments: [],
        files: [],
      },
    });
  });

  it("answers 404 for another organisation's connection, an unknown id, and 400 for a bad id", async () => {
    expect((await getConn(w.connB, w.tokenA)).status).toBe(404);
    expect((await getConn(999_999, w.tokenA)).status).toBe(404);
    expect((await getConn("abc", w.tokenA)).status).toBe(400);
  });
});

describe("PATCH /api/organization-connections/{id}", () => {
  it("sets the flags and the contact email, one change at a time, each recorded", async () => {
    expect((await dataOf(await patch(w.connA, { is_priority: true }, w.tokenA))).is_priority).toBe(true);
    expect((await dataOf(await patch(w.connA, { is_due_diligence: true }, w.tokenA))).is_due_diligence).toBe(true);
    expect((await dataOf(await patch(w.connA, { contact_email: "contact@supplier.no" }, w.tokenA))).contact_email).toBe("contact@supplier.no");
    expect((await dataOf(await patch(w.connA, { is_priority: false }, w.tokenA))).is_priority).toBe(false);
    const log = await events(w.connA);
    expect(log.map((e) => e.action)).toEqual(["is_priority", "is_due_diligence", "contact_email", "is_priority"]);
    expect(log.every((e) => e.user_id === w.userA && e.organization_id === w.orgA)).toBe(true);
    // Clearing the email with an empty string stores null.
    expect((await dataOf(await patch(w.connA, { contact_email: "" }, w.tokenA))).contact_email).toBeNull();
    expect((await dataOf(await patch(w.connA, { contact_email: "contact@supplier.no" }, w.tokenA))).contact_email).toBe("contact@supplier.no");
  });

  it("creates tags (trimmed, reusing an existing title regardless of case), adds and removes them", async () => {
    const created = await dataOf(await patch(w.connA, { newTags: ["  Critical  "] }, w.tokenA));
    expect(created.tags.map((t) => t.tag.title)).toEqual(["Critical"]);
    const critical = created.tags[0].tag.id;
    // The same title in another case is the same tag, not a second one.
    const again = await dataOf(await patch(w.connA, { newTags: ["critical", "ISO 9001"] }, w.tokenA));
    expect(again.tags.map((t) => t.tag.title)).toEqual(["Critical", "ISO 9001"]);
    expect(again.tags[0].tag.id).toBe(critical);
    const iso = again.tags[1].tag.id;
    const removed = await dataOf(await patch(w.connA, { removeTagIds: [critical] }, w.tokenA));
    expect(removed.tags.map((t) => t.tag.id)).toEqual([iso]);
    const added = await dataOf(await patch(w.connA, { addTagIds: [critical] }, w.tokenA));
    expect(added.tags.map((t) => t.tag.id).sort()).toEqual([critical, iso].sort());
    const tagActions = (await events(w.connA)).map((e) => e.action).filter((a) => a.startsWith("tag_"));
    expect(tagActions).toEqual(["tag_created", "tag_added", "tag_created", "tag_added", "tag_removed", "tag_added"]);
  });

  it("adds a trimmed comment with its author", async () => {
    const data = await dataOf(await patch(w.connA, { newComment: "  Checked the contract.  " }, w.tokenA));
    expect(data.comments.at(-1)).toMatchObject({ text: "Checked the contract.", user: { email: "a@conn.test" } });
    expect((await events(w.connA)).at(-1)?.action).toBe("comment_added");
  });

  it("refuses zero keys, several keys, unknown keys, bad values, blank titles and comments, empty selections (400)", async () => {
    const before = (await events(w.connA)).length;
    for (const body of [
      {},
      { is_priority: true, is_due_diligence: true },
      { colour: "red" },
      { is_priority: "yes" },
      { is_deleted: false },
      { contact_email: "not-an-email" },
      { newTags: ["   "] },
      { newTags: [] },
      { newComment: "   " },
      { addTagIds: [] },
      { removeTagIds: [] },
      { addTagIds: ["x"] },
      [],
      "not json",
    ]) {
      const res = await patch(w.connA, body, w.tokenA);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(await res.json()).toMatchObject({ error: "Bad Request" });
    }
    expect((await events(w.connA)).length).toBe(before);
  });

  it("answers 404 for every change of another organisation's connection and changes nothing", async () => {
    const before = await getConnection({ organizationId: w.orgB, id: w.connB });
    for (const body of [
      { is_priority: true },
      { is_due_diligence: true },
      { contact_email: "x@y.no" },
      { is_deleted: true },
      { newTags: ["Mine"] },
      { newComment: "hi" },
    ]) {
      expect((await patch(w.connB, body, w.tokenA)).status, JSON.stringify(body)).toBe(404);
    }
    expect(await getConnection({ organizationId: w.orgB, id: w.connB })).toEqual(before);
    expect(await events(w.connB)).toEqual([]);
  });

  it("does not add or remove another organisation's tags (404)", async () => {
    const theirs = await dataOf(await patch(w.connB, { newTags: ["B only"] }, w.tokenB));
    const tagOfB = theirs.tags[0].tag.id;
    expect((await patch(w.connA, { addTagIds: [tagOfB] }, w.tokenA)).status).toBe(404);
    expect((await patch(w.connA, { removeTagIds: [tagOfB] }, w.tokenA)).status).toBe(404);
    expect((await getConnection({ organizationId: w.orgB, id: w.connB }))?.tags.map((t) => t.tag.id)).toEqual([tagOfB]);
  });
});

describe("DELETE /api/organization-connections/comments/{id}", () => {
  it("lets the author delete, refuses another member (403) and another organisation (404), lets an admin delete", async () => {
    const one = (await dataOf(await patch(w.connA, { newComment: "first" }, w.tokenA))).comments.at(-1)!;
    const two = (await dataOf(await patch(w.connA, { newComment: "second" }, w.tokenA))).comments.at(-1)!;
    expect((await delComment(one.id, w.tokenA2)).status).toBe(403);
    expect((await delComment(one.id, w.tokenB)).status).toBe(404);
    expect((await delComment(one.id, w.tokenA)).status).toBe(200);
    expect((await delComment(one.id, w.tokenA)).status).toBe(404);
    expect((await delComment(two.id, w.tokenAdminA)).status).toBe(200);
    const ids = (await getConnection({ organizationId: w.orgA, id: w.connA }))!.comments.map((c) => c.id);
    expect(ids).not.toContain(one.id);
    expect(ids).not.toContain(two.id);
    expect((await events(w.connA)).filter((e) => e.action === "comment_deleted").length).toBe(2);
  });
});

describe("/api/organization-connections/file-uploads", () => {
  it("does not let a member attach another member's private upload (404, nothing attached)", async () => {
    expect((await attach({ connectionId: w.connA, fileId: w.fileA }, w.tokenA2)).status).toBe(404);
    expect((await getConnection({ organizationId: w.orgA, id: w.connA }))!.files).toEqual([]);
  });

  it("attaches and detaches the organisation's file, each recorded", async () => {
    const res = await attach({ connectionId: w.connA, fileId: w.fileA }, w.tokenA);
    expect(res.status).toBe(201);
    expect((await dataOf(res)).files).toEqual([{ fileUpload: { id: w.fileA, fileName: "contract.pdf", fileSize: 5 } }]);
    const out = await detach(w.connA, w.fileA, w.tokenA);
    expect(out.status).toBe(200);
    expect((await dataOf(out)).files).toEqual([]);
    expect((await detach(w.connA, w.fileA, w.tokenA)).status).toBe(404);
    const actions = (await events(w.connA)).map((e) => e.action);
    expect(actions.filter((a) => a.startsWith("file_"))).toEqual(["file_attached", "file_detached"]);
  });

  it("refuses another organisation's file or connection (404) and bad input (400)", async () => {
    expect((await attach({ connectionId: w.connA, fileId: w.fileB }, w.tokenA)).status).toBe(404);
    expect((await attach({ connectionId: w.connB, fileId: w.fileA }, w.tokenA)).status).toBe(404);
    await attach({ connectionId: w.connB, fileId: w.fileB }, w.tokenB);
    expect((await detach(w.connB, w.fileB, w.tokenA)).status).toBe(404);
    expect((await getConnection({ organizationId: w.orgB, id: w.connB }))!.files.length).toBe(1);
    expect((await attach({ connectionId: w.connA }, w.tokenA)).status).toBe(400);
    expect((await attach({ connectionId: "x", fileId: w.fileA }, w.tokenA)).status).toBe(400);
    expect((await detach("x", w.fileA, w.tokenA)).status).toBe(400);
  });
});

describe("organisation tags", () => {
  it("lists the organisation's tags only, with counts of active connections", async () => {
    const tags = (await (await request(tagsLoader, "/api/organization-tags", {}, w.tokenA)).json()) as { data: Array<{ id: number; title: string }> };
    expect(tags.data.map((t) => t.title)).toEqual(["Critical", "ISO 9001"]);
    const counts = (await (await request(countsLoader, "/api/organization-tags/with-counts", {}, w.tokenA)).json()) as { data: unknown[] };
    expect(counts.data).toEqual([
      { id: tags.data[0].id, title: "Critical", organizationConnectionsCount: 1 },
      { id: tags.data[1].id, title: "ISO 9001", organizationConnectionsCount: 1 },
    ]);
    const ofB = (await (await request(tagsLoader, "/api/organization-tags", {}, w.tokenB)).json()) as { data: Array<{ title: string }> };
    expect(ofB.data.map((t) => t.title)).toEqual(["B only"]);
  });

  it("deletes a tag with its links, recording tag_removed on each connection; another organisation's tag is a 404", async () => {
    const [critical] = (await (await request(tagsLoader, "/api/organization-tags", {}, w.tokenA)).json()).data as Array<{ id: number }>;
    const tagOfB = ((await (await request(tagsLoader, "/api/organization-tags", {}, w.tokenB)).json()).data as Array<{ id: number }>)[0].id;
    expect((await delTag(tagOfB, w.tokenA)).status).toBe(404);
    const before = (await events(w.connA)).length;
    expect((await delTag(critical.id, w.tokenA)).status).toBe(200);
    expect((await delTag(critical.id, w.tokenA)).status).toBe(404);
    const after = await events(w.connA);
    expect(after.slice(before).map((e) => e.action)).toEqual(["tag_removed"]);
    expect((await getConnection({ organizationId: w.orgA, id: w.connA }))!.tags.map((t) => t.tag.title)).toEqual(["ISO 9001"]);
    expect((await getConnection({ organizationId: w.orgB, id: w.connB }))!.tags.length).toBe(1);
  });
});

describe("adding a supplier and soft deletion", () => {
  it("creates the local supplier organisation from the registry, once, and records 'created'", async () => {
    const first = await addSupplier({ organizationId: w.orgA, userId: w.userA, orgNumber: "923 609 016" });
    expect(first.child.organization_name).toBe("EQUINOR ASA");
    const again = await addSupplier({ organizationId: w.orgA, userId: w.userA, orgNumber: "923609016" });
    expect(again.id).toBe(first.id);
    expect(await db().selectFrom("organizations").select("id").where("org_number", "=", "923609016").execute()).toHaveLength(1);
    expect((await events(first.id)).map((e) => e.action)).toEqual(["created"]);
    expect((await connectionForSupplier({ organizationId: w.orgA, supplierOrganizationId: first.childId }))?.id).toBe(first.id);
    await expect(addSupplier({ organizationId: w.orgA, userId: w.userA, orgNumber: "000000000" })).rejects.toMatchObject({
      reason: "not-found",
      subject: "company",
    });
  });

  it("soft deletes: 404 for another organisation; answers the connection with is_deleted true (shared/spec/02-supplier-credit-connections.md §7), then it reads as gone", async () => {
    await follow(w.orgA, w.supplierT);
    const id = await connectionId(w.orgA, w.supplierT);
    expect((await patch(id, { is_deleted: true }, w.tokenB)).status).toBe(404);
    const res = await patch(id, { is_deleted: true }, w.tokenA);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ data: { id, childId: w.supplierT, is_deleted: true, child: { organization_name: "Supplier T AS" } } });
    expect((await getConn(id, w.tokenA)).status).toBe(404);
    expect((await patch(id, { is_priority: true }, w.tokenA)).status).toBe(404);
    expect((await events(id)).map((e) => e.action)).toEqual(["deleted"]);
    const row = await db().selectFrom("organization_connections").select("is_deleted").where("id", "=", id).executeTakeFirstOrThrow();
    expect(row.is_deleted).toBe(1);
  });
});

describe("permissions, strict ids and text (security review findings 1, 5, 7)", () => {
  const tagsOf = async (token: string) =>
    ((await (await request(tagsLoader, "/api/organization-tags", {}, token)).json()) as { data: Array<{ id: number; title: string }> }).data;
  const snapshot = async () => ({
    connection: await getConnection({ organizationId: w.orgA, id: w.connA }),
    events: (await events(w.connA)).length,
    tags: await db().selectFrom("organization_tags").select(["id", "title"]).where("organization_id", "=", w.orgA).orderBy("id").execute(),
  });

  it("refuses every change by a level-1 member with 403 and changes nothing", async () => {
    const comment = (await dataOf(await patch(w.connA, { newComment: "kept" }, w.tokenA))).comments.at(-1)!;
    const [tag] = await tagsOf(w.tokenA);
    await attach({ connectionId: w.connA, fileId: w.fileA }, w.tokenA);
    const before = await snapshot();
    const viewer = w.tokenViewerA;
    for (const body of [
      { is_deleted: true },
      { is_priority: true },
      { is_due_diligence: true },
      { contact_email: "viewer@changed.example" },
      { addTagIds: [tag.id] },
      { removeTagIds: [tag.id] },
      { newTags: ["Viewer tag"] },
      { newComment: "viewer comment" },
    ]) {
      const res = await patch(w.connA, body, viewer);
      expect(res.status, JSON.stringify(body)).toBe(403);
      expect(await res.json()).toMatchObject({ error: "Forbidden" });
    }
    expect((await delTag(tag.id, viewer)).status).toBe(403);
    expect((await delComment(comment.id, viewer)).status).toBe(403);
    expect(await snapshot()).toEqual(before);
  });

  it("refuses reads of the organisation's connections and tags to a level-1 member (403)", async () => {
    expect((await getConn(w.connA, w.tokenViewerA)).status).toBe(403);
    expect((await request(tagsLoader, "/api/organization-tags", {}, w.tokenViewerA)).status).toBe(403);
    expect((await request(countsLoader, "/api/organization-tags/with-counts", {}, w.tokenViewerA)).status).toBe(403);
  });

  it("refuses NUL characters and lone surrogates in a comment or tag title with a 400 naming the field, and saves nothing", async () => {
    const before = await snapshot();
    for (const [body, field] of [
      [{ newComment: "before\u0000after" }, "newComment"],
      [{ newTags: ["Bad\u0000tag"] }, "newTags[0]"],
      [{ newComment: "lone \ud800 surrogate" }, "newComment"],
      [{ newTags: ["\udc00"] }, "newTags[0]"],
      [{ contact_email: "a\u0000@b.no" }, "contact_email"],
    ] as const) {
      const res = await patch(w.connA, body, w.tokenA);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(await res.json()).toMatchObject({ error: "Bad Request", field });
    }
    expect(await snapshot()).toEqual(before);
  });

  it('refuses ids that are not plain positive whole numbers (" 5", "0x10", "05", "1e1") with 400 and deletes nothing', async () => {
    const [tag] = await tagsOf(w.tokenA);
    const comment = (await getConnection({ organizationId: w.orgA, id: w.connA }))!.comments.at(-1)!;
    const before = await snapshot();
    for (const raw of [` ${tag.id}`, `${tag.id} `, `0x${tag.id.toString(16)}`, `0${tag.id}`, `${tag.id}.0`, "1e1"]) {
      expect((await send(tagAction, "DELETE", `/api/organization-tags/${encodeURIComponent(raw)}`, { id: raw }, w.tokenA)).status, raw).toBe(400);
    }
    for (const raw of [` ${comment.id}`, `0x${comment.id.toString(16)}`]) {
      expect((await send(commentAction, "DELETE", `/api/organization-connections/comments/x`, { id: raw }, w.tokenA)).status, raw).toBe(400);
    }
    for (const raw of [` ${w.connA}`, `0x${w.connA.toString(16)}`]) {
      expect((await send(connectionAction, "PATCH", "/api/organization-connections/x", { id: raw }, w.tokenA, { is_deleted: true })).status, raw).toBe(400);
      expect((await getConn(raw, w.tokenA)).status, raw).toBe(400);
    }
    expect(await snapshot()).toEqual(before);
  });

  it("answers 415 for a body that is not JSON and 405 with Allow for another method", async () => {
    const before = await snapshot();
    const plain = await call(connectionAction as never, {
      request: new Request(`${BASE}/api/organization-connections/${w.connA}`, {
        method: "PATCH",
        headers: { ...auth(w.tokenA), "Content-Type": "text/plain" },
        body: JSON.stringify({ newComment: "sent as text" }),
      }),
      params: { id: String(w.connA) },
      context: {},
    });
    expect(plain.status).toBe(415);
    const put = await send(connectionAction, "PUT", `/api/organization-connections/${w.connA}`, { id: String(w.connA) }, w.tokenA, { is_priority: true });
    expect(put.status).toBe(405);
    expect(put.headers.get("Allow")).toBe("GET, PATCH");
    expect((await send(tagAction, "POST", "/api/organization-tags/1", { id: "1" }, w.tokenA)).status).toBe(405);
    expect((await send(commentAction, "PATCH", "/api/organization-connections/comments/1", { id: "1" }, w.tokenA, {})).status).toBe(405);
    expect(await snapshot()).toEqual(before);
  });
});
