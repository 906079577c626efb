import type { LoaderFunctionArgs } from "@remix-run/node";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db } from "@server/db";
import { saveFile } from "@server/storage";
import { action } from "~/routes/_app.supplier";
import { BASE, call } from "../helpers/requests";
import { company, follow, makeOrg, signedIn } from "../helpers/fixtures";

/**
 * The supplier screen's action: every intent of the connection card, the
 * Edit Supplier Connection slide-over and the Manage Tags dialog, with a real
 * request against a real database. Accepted changes answer a fetcher with
 * JSON and a plain post with a redirect and the 'Saved!' notice; refused ones
 * answer `submission.reply()` in the user's language with nothing changed.
 */

const COMPANY = "910000101"; // followed by A and B
const OTHER = "910000102"; // followed by B only
const NEW = "910000103"; // followed by nobody, in the registry

const w = {} as {
  orgA: number;
  orgB: number;
  supplier: number;
  other: number;
  tokenA: string;
  tokenA2: string;
  tokenNo: string;
  tokenViewer: string;
  tokenB: string;
  userA: number;
  userB: number;
  connA: number;
  connB: number;
  connBOther: number;
  fileA: number;
  fileB: number;
  tagB: number;
  commentB: number;
};

async function userId(email: string): Promise<number> {
  return (await db().selectFrom("users").select("id").where("email", "=", email).executeTakeFirstOrThrow()).id;
}

async function connectionOf(parent: number, child: number): Promise<number> {
  const row = await db()
    .selectFrom("organization_connections")
    .select("id")
    .where("parent_organization_id", "=", parent)
    .where("child_organization_id", "=", child)
    .where("is_deleted", "=", 0)
    .executeTakeFirstOrThrow();
  return row.id;
}

beforeAll(async () => {
  w.orgA = await makeOrg("Action Customer A AS", "customer");
  w.orgB = await makeOrg("Action Customer B AS", "customer");
  w.supplier = await makeOrg("Action Supplier AS", "supplier", COMPANY);
  w.other = await makeOrg("Other Supplier AS", "supplier", OTHER);
  await company(COMPANY, "ACTION SUPPLIER AS");
  await company(OTHER, "OTHER SUPPLIER AS");
  await company(NEW, "NEW SUPPLIER AS");
  w.tokenA = await signedIn("a@action.test", w.orgA, 2);
  w.tokenA2 = await signedIn("a2@action.test", w.orgA, 2);
  w.tokenNo = await signedIn("no@action.test", w.orgA, 2);
  await db().updateTable("users").set({ language: "no" }).where("email", "=", "no@action.test").execute();
  w.tokenViewer = await signedIn("viewer@action.test", w.orgA, 1);
  w.tokenB = await signedIn("b@action.test", w.orgB, 2);
  w.userA = await userId("a@action.test");
  w.userB = await userId("b@action.test");
  await follow(w.orgA, w.supplier);
  await follow(w.orgB, w.supplier);
  await follow(w.orgB, w.other);
  w.connA = await connectionOf(w.orgA, w.supplier);
  w.connB = await connectionOf(w.orgB, w.supplier);
  w.connBOther = await connectionOf(w.orgB, w.other);
  w.fileA = (await saveFile(Buffer.from("a"), { fileName: "a.pdf", mimeType: "application/pdf", organizationId: w.orgA, userId: w.userA })).id;
  w.fileB = (await saveFile(Buffer.from("b"), { fileName: "b.pdf", mimeType: "application/pdf", organizationId: w.orgB, userId: w.userB })).id;
  w.tagB = (
    await db()
      .insertInto("organization_tags")
      .values({ organization_id: w.orgB, title: "B's tag", created_at: "2025-01-01" })
      .returning("id")
      .executeTakeFirstOrThrow()
  ).id;
  await db().insertInto("organization_connection_tags").values({ connection_id: w.connB, tag_id: w.tagB, created_at: "2025-01-01" }).execute();
  w.commentB = (
    await db()
      .insertInto("organization_connection_comments")
      .values({ connection_id: w.connB, user_id: w.userB, text: "B's comment", created_at: "2025-01-01" })
      .returning("id")
      .executeTakeFirstOrThrow()
  ).id;
  await db().insertInto("organization_connection_files").values({ connection_id: w.connB, file_upload_id: w.fileB, created_at: "2025-01-01" }).execute();
});

const path = (orgNumber = COMPANY) => `/supplier?externalId=${orgNumber}&edit=connection`;

/** A POST of the supplier screen from the browser: the session cookie and this site's Origin. */
function post(fields: Record<string, string>, token: string | null, opts: { orgNumber?: string; contentType?: string; body?: BodyInit } = {}) {
  const headers: Record<string, string> = { Origin: BASE };
  if (token) headers.Cookie = `token=${encodeURIComponent(token)}`;
  const contentType = opts.contentType === undefined ? "application/x-www-form-urlencoded" : opts.contentType;
  if (contentType) headers["Content-Type"] = contentType;
  const request = new Request(BASE + path(opts.orgNumber), { method: "POST", headers, body: opts.body ?? new URLSearchParams(fields) });
  return call(action as (a: LoaderFunctionArgs) => unknown, { request, params: {}, context: {} });
}

interface Reply {
  intent: string;
  result: { status?: "success" | "error"; initialValue?: Record<string, unknown> | null; error?: Record<string, string[] | null> };
}
const reply = async (res: Response) => (await res.json()) as Reply;

/** Everything the action could change, for both organisations. */
async function snapshot() {
  const [connections, tags, links, comments, files, events] = await Promise.all([
    db().selectFrom("organization_connections").selectAll().orderBy("id").execute(),
    db().selectFrom("organization_tags").selectAll().orderBy("id").execute(),
    db().selectFrom("organization_connection_tags").selectAll().orderBy("connection_id").orderBy("tag_id").execute(),
    db().selectFrom("organization_connection_comments").selectAll().orderBy("id").execute(),
    db().selectFrom("organization_connection_files").selectAll().orderBy("connection_id").orderBy("file_upload_id").execute(),
    db().selectFrom("connection_events").select("id").execute(),
  ]);
  return { connections, tags, links, comments, files, events: events.length };
}

async function connA() {
  const row = await db().selectFrom("organization_connections").selectAll().where("id", "=", w.connA).executeTakeFirstOrThrow();
  const [tags, comments, files] = await Promise.all([
    db()
      .selectFrom("organization_connection_tags as ct")
      .innerJoin("organization_tags as t", "t.id", "ct.tag_id")
      .select(["t.id", "t.title"])
      .where("ct.connection_id", "=", w.connA)
      .execute(),
    db().selectFrom("organization_connection_comments").select(["id", "text", "user_id"]).where("connection_id", "=", w.connA).orderBy("id").execute(),
    db().selectFrom("organization_connection_files").select("file_upload_id").where("connection_id", "=", w.connA).execute(),
  ]);
  return { row, tags, comments, files: files.map((f) => f.file_upload_id) };
}

async function tagOfA(title: string): Promise<number> {
  const existing = await db().selectFrom("organization_tags").select("id").where("organization_id", "=", w.orgA).where("title", "=", title).executeTakeFirst();
  if (existing) return existing.id;
  return (
    await db().insertInto("organization_tags").values({ organization_id: w.orgA, title, created_at: "2025-01-01" }).returning("id").executeTakeFirstOrThrow()
  ).id;
}

async function commentOfA(text: string, user = w.userA): Promise<number> {
  const row = await db()
    .insertInto("organization_connection_comments")
    .values({ connection_id: w.connA, user_id: user, text, created_at: "2025-01-02" })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

beforeEach(async () => {
  // Each test starts from A's connection active; the soft-delete tests end it.
  await db().updateTable("organization_connections").set({ is_deleted: 0 }).where("id", "=", w.connA).execute();
});

describe("each intent, accepted", () => {
  it("save: flags and contact email in one go, only real changes recorded; JSON for a fetcher", async () => {
    const res = await post({ intent: "save", is_priority: "on", contact_email: "contact@supplier.example" }, w.tokenA);
    expect(res.status).toBe(200);
    expect(await reply(res)).toMatchObject({ intent: "save", result: { status: "success" } });
    const { row } = await connA();
    expect(row).toMatchObject({ is_priority: 1, is_due_diligence: 0, contact_email: "contact@supplier.example" });
    const before = (await snapshot()).events;
    // The same values again: nothing to record.
    expect((await post({ intent: "save", is_priority: "on", contact_email: "contact@supplier.example" }, w.tokenA)).status).toBe(200);
    expect((await snapshot()).events).toBe(before);
    // Unticked boxes and an empty email clear them.
    expect((await post({ intent: "save", contact_email: "" }, w.tokenA)).status).toBe(200);
    expect((await connA()).row).toMatchObject({ is_priority: 0, is_due_diligence: 0, contact_email: null });
  });

  it("save as a plain post: redirected back to redirectTo with the 'Saved!' notice", async () => {
    const res = await post({ intent: "save", is_due_diligence: "on", redirectTo: path() }, w.tokenA);
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe(path());
    expect(res.headers.get("Set-Cookie")).toMatch(/^__flash=/);
    expect((await connA()).row.is_due_diligence).toBe(1);
  });

  it("create-tag, remove-tag, add-tag: the tag is created once (case-insensitive), unlinked and linked again", async () => {
    const created = await post({ intent: "create-tag", title: "  Critical  " }, w.tokenA);
    expect(created.status).toBe(200);
    // The form is cleared after an accepted new tag.
    expect((await reply(created)).result).toEqual({ initialValue: null });
    const id = await tagOfA("Critical");
    expect((await connA()).tags).toEqual([{ id, title: "Critical" }]);
    expect((await post({ intent: "create-tag", title: "critical" }, w.tokenA)).status).toBe(200);
    expect(await db().selectFrom("organization_tags").select("id").where("organization_id", "=", w.orgA).execute()).toHaveLength(1);
    expect((await post({ intent: "remove-tag", tagId: String(id) }, w.tokenA)).status).toBe(200);
    expect((await connA()).tags).toEqual([]);
    expect((await post({ intent: "add-tag", tagId: String(id) }, w.tokenA)).status).toBe(200);
    expect((await connA()).tags).toEqual([{ id, title: "Critical" }]);
  });

  it("delete-tag: the tag and its links are gone", async () => {
    const id = await tagOfA("Doomed");
    await db().insertInto("organization_connection_tags").values({ connection_id: w.connA, tag_id: id, created_at: "2025-01-01" }).execute();
    const res = await post({ intent: "delete-tag", tagId: String(id), redirectTo: `${path()}&dialog=tags` }, w.tokenA);
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe(`${path()}&dialog=tags`);
    expect(await db().selectFrom("organization_tags").select("id").where("id", "=", id).execute()).toEqual([]);
    expect((await connA()).tags.map((t) => t.id)).not.toContain(id);
  });

  it("add-comment (trimmed, with its author) and delete-comment", async () => {
    const res = await post({ intent: "add-comment", text: "  Checked the contract.  " }, w.tokenA);
    expect(res.status).toBe(200);
    expect((await reply(res)).result).toEqual({ initialValue: null });
    const comment = (await connA()).comments.at(-1)!;
    expect(comment).toMatchObject({ text: "Checked the contract.", user_id: w.userA });
    expect((await post({ intent: "delete-comment", commentId: String(comment.id) }, w.tokenA)).status).toBe(200);
    expect((await connA()).comments.map((c) => c.id)).not.toContain(comment.id);
  });

  it("attach-file and detach-file", async () => {
    expect((await post({ intent: "attach-file", fileId: String(w.fileA) }, w.tokenA)).status).toBe(200);
    expect((await connA()).files).toEqual([w.fileA]);
    expect((await post({ intent: "detach-file", fileId: String(w.fileA) }, w.tokenA)).status).toBe(200);
    expect((await connA()).files).toEqual([]);
  });

  it("delete-connection soft deletes, then add-supplier follows the company again", async () => {
    const res = await post({ intent: "delete-connection", redirectTo: `/supplier?externalId=${COMPANY}` }, w.tokenA);
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe(`/supplier?externalId=${COMPANY}`);
    expect((await connA()).row.is_deleted).toBe(1);
    // Every other change of the gone connection is a 404 now.
    expect((await post({ intent: "add-comment", text: "too late" }, w.tokenA)).status).toBe(404);
    const added = await post({ intent: "add-supplier" }, w.tokenA);
    expect(added.status).toBe(200);
    const again = await db()
      .selectFrom("organization_connections")
      .select("id")
      .where("parent_organization_id", "=", w.orgA)
      .where("child_organization_id", "=", w.supplier)
      .where("is_deleted", "=", 0)
      .execute();
    expect(again).toHaveLength(1);
    await db().deleteFrom("organization_connections").where("id", "=", again[0]!.id).execute();
  });

  it("add-supplier of a company nobody follows creates the local supplier and the connection", async () => {
    const res = await post({ intent: "add-supplier", redirectTo: `/supplier?externalId=${NEW}` }, w.tokenA, { orgNumber: NEW });
    expect(res.status).toBe(302);
    const local = await db().selectFrom("organizations").select("id").where("org_number", "=", NEW).executeTakeFirstOrThrow();
    expect(await connectionOf(w.orgA, local.id)).toBeGreaterThan(0);
  });
});

describe("each intent, refused input: 400 with the message in the user's language, the input kept, nothing changed", () => {
  const cases: Array<[string, Record<string, string>, string, string, string]> = [
    ["save", { intent: "save", contact_email: "not-an-email" }, "contact_email", "Enter a valid email address.", "Skriv inn en gyldig e-postadresse."],
    ["save", { intent: "save", contact_email: "contact@supplier" }, "contact_email", "Enter a valid email address.", "Skriv inn en gyldig e-postadresse."],
    [
      "save",
      { intent: "save", contact_email: `${"x".repeat(250)}@example.no` },
      "contact_email",
      "The email address is too long.",
      "E-postadressen er for lang.",
    ],
    [
      "save",
      { intent: "save", is_priority: "yes" },
      "is_priority",
      "This change could not be saved. Check what you entered and try again.",
      "Endringen kunne ikke lagres. Sjekk det du skrev inn, og prøv igjen.",
    ],
    ["create-tag", { intent: "create-tag", title: "   " }, "title", "Enter a tag title.", "Skriv inn et navn på etiketten."],
    [
      "create-tag",
      { intent: "create-tag", title: "x".repeat(101) },
      "title",
      "A tag title can have at most 100 characters.",
      "Et etikettnavn kan ha høyst 100 tegn.",
    ],
    ["add-comment", { intent: "add-comment", text: " \n " }, "text", "Write a comment.", "Skriv en kommentar."],
    ["add-comment", { intent: "add-comment" }, "text", "Write a comment.", "Skriv en kommentar."],
    ["add-tag", { intent: "add-tag", tagId: "" }, "tagId", "Choose a tag.", "Velg en etikett."],
    ["remove-tag", { intent: "remove-tag", tagId: "abc" }, "tagId", "Choose a tag.", "Velg en etikett."],
    ["delete-comment", { intent: "delete-comment", commentId: "-1" }, "commentId", "Choose a comment.", "Velg en kommentar."],
    ["attach-file", { intent: "attach-file" }, "fileId", "Choose a file.", "Velg en fil."],
    ["detach-file", { intent: "detach-file", fileId: "1.5" }, "fileId", "Choose a file.", "Velg en fil."],
  ];

  for (const [intent, fields, field, english, norwegian] of cases) {
    it(`${intent} ${JSON.stringify(fields).slice(0, 60)}`, async () => {
      const before = await snapshot();
      const res = await post(fields, w.tokenA);
      expect(res.status).toBe(400);
      const body = await reply(res);
      expect(body.intent).toBe(intent);
      expect(body.result.status).toBe("error");
      expect(body.result.error?.[field]).toEqual([english]);
      // What the user typed comes back, so a re-rendered form keeps it.
      for (const [name, value] of Object.entries(fields)) if (value) expect(body.result.initialValue?.[name]).toBe(value);
      const inNorwegian = await reply(await post(fields, w.tokenNo));
      expect(inNorwegian.result.error?.[field]).toEqual([norwegian]);
      expect(await snapshot()).toEqual(before);
    });
  }

  it("refuses ids that are not plain positive whole numbers: tagId=%205 does not delete tag 5", async () => {
    const id = await tagOfA("Keep me");
    const before = await snapshot();
    for (const raw of [` ${id}`, `${id} `, `0x${id.toString(16)}`, `0${id}`, `${id}e0`, `+${id}`]) {
      for (const intent of ["delete-tag", "add-tag", "remove-tag"]) {
        const res = await post({}, w.tokenA, { body: `intent=${intent}&tagId=${encodeURIComponent(raw)}` });
        expect(res.status, `${intent} ${raw}`).toBe(400);
        expect((await reply(res)).result.error?.tagId).toEqual(["Choose a tag."]);
      }
    }
    expect(await snapshot()).toEqual(before);
  });

  it("refuses a NUL character in a comment, tag or email with 400 and saves nothing", async () => {
    const before = await snapshot();
    for (const body of ["intent=add-comment&text=a%00b", "intent=create-tag&title=%00", "intent=save&contact_email=a%00%40b.no"]) {
      const res = await post({}, w.tokenA, { body });
      expect(res.status, body).toBe(400);
    }
    const multipart = new FormData();
    multipart.set("intent", "add-comment");
    multipart.set("text", "nul \u0000 in a multipart part");
    expect((await post({}, w.tokenA, { contentType: "", body: multipart })).status).toBe(400);
    expect(await snapshot()).toEqual(before);
  });
});

describe("unknown intents and bodies that are not forms", () => {
  it("answers 400 for an unknown or missing intent, changing nothing", async () => {
    const before = await snapshot();
    for (const fields of [{ intent: "drop-tables" }, { intent: "" }, {}, { intent: "save", "": "x" }]) {
      const res = await post(fields as Record<string, string>, w.tokenA);
      expect(res.status, JSON.stringify(fields)).toBe(fields.intent === "save" ? 200 : 400);
    }
    expect((await snapshot()).comments).toEqual(before.comments);
  });

  it("answers 415 for JSON, text or a body without a content type, 400 for a malformed one, never 500", async () => {
    const before = await snapshot();
    const json = await post({}, w.tokenA, { contentType: "application/json", body: JSON.stringify({ intent: "add-comment", text: "json" }) });
    expect(json.status).toBe(415);
    const text = await post({}, w.tokenA, { contentType: "text/plain", body: "intent=add-comment&text=plain" });
    expect(text.status).toBe(415);
    const empty = await post({}, w.tokenA, { contentType: "", body: "" });
    expect(empty.status).toBe(415);
    const emptyForm = await post({}, w.tokenA, { body: "" });
    expect(emptyForm.status).toBe(400);
    const broken = await post({}, w.tokenA, { contentType: "multipart/form-data; boundary=xyz", body: "--xyz\r\nnot a part" });
    expect(broken.status).toBe(400);
    const noBoundary = await post({}, w.tokenA, { contentType: "multipart/form-data", body: "intent=add-comment" });
    expect(noBoundary.status).toBe(400);
    expect(await snapshot()).toEqual(before);
  });
});

describe("another organisation's ids: 404 (or 403), nothing changed", () => {
  it("refuses B's tag, comment and file, and changes to a supplier A does not follow", async () => {
    const before = await snapshot();
    const refused: Array<[Record<string, string>, string | undefined, number]> = [
      [{ intent: "add-tag", tagId: String(w.tagB) }, undefined, 404],
      [{ intent: "remove-tag", tagId: String(w.tagB) }, undefined, 404],
      [{ intent: "delete-tag", tagId: String(w.tagB) }, undefined, 404],
      [{ intent: "delete-comment", commentId: String(w.commentB) }, undefined, 404],
      [{ intent: "attach-file", fileId: String(w.fileB) }, undefined, 404],
      [{ intent: "detach-file", fileId: String(w.fileB) }, undefined, 404],
      // A does not follow OTHER (B does): B's connection is out of reach.
      [{ intent: "save", is_priority: "on" }, OTHER, 404],
      [{ intent: "add-comment", text: "into B's connection" }, OTHER, 404],
      [{ intent: "create-tag", title: "into B's connection" }, OTHER, 404],
      [{ intent: "attach-file", fileId: String(w.fileA) }, OTHER, 404],
      [{ intent: "detach-file", fileId: String(w.fileB) }, OTHER, 404],
      [{ intent: "delete-connection" }, OTHER, 404],
      // A company missing from the registry.
      [{ intent: "add-supplier" }, "999999999", 404],
    ];
    for (const [fields, orgNumber, status] of refused) {
      const res = await post(fields, w.tokenA, { orgNumber });
      expect(res.status, `${JSON.stringify(fields)} ${orgNumber ?? ""}`).toBe(status);
      const body = await reply(res);
      expect(body.result.status).toBe("error");
      expect(body.result.error?.[""]?.[0]).toMatch(/\.$/);
    }
    expect(await snapshot()).toEqual(before);
    expect(await connectionOf(w.orgB, w.other)).toBe(w.connBOther);
  });

  it("says why in the user's language", async () => {
    const en = await reply(await post({ intent: "add-tag", tagId: String(w.tagB) }, w.tokenA));
    expect(en.result.error?.[""]).toEqual(["This tag no longer exists. Reload the page."]);
    const no = await reply(await post({ intent: "add-tag", tagId: String(w.tagB) }, w.tokenNo));
    expect(no.result.error?.[""]).toEqual(["Denne etiketten finnes ikke lenger. Last inn siden på nytt."]);
  });

  it("refuses another member's comment (403) and another member's private upload (404)", async () => {
    const theirs = await commentOfA("by a2", await userId("a2@action.test"));
    const before = await snapshot();
    const res = await post({ intent: "delete-comment", commentId: String(theirs) }, w.tokenA);
    expect(res.status).toBe(403);
    expect((await reply(res)).result.error?.[""]).toEqual(["Only the comment's author or an administrator can delete it."]);
    expect((await post({ intent: "attach-file", fileId: String(w.fileA) }, w.tokenA2)).status).toBe(404);
    expect(await snapshot()).toEqual(before);
  });
});

describe("who may change", () => {
  const everyIntent = (ids: { tag: number; comment: number }): Array<Record<string, string>> => [
    { intent: "add-supplier" },
    { intent: "save", is_priority: "on", contact_email: "viewer@example.no" },
    { intent: "remove-tag", tagId: String(ids.tag) },
    { intent: "add-tag", tagId: String(ids.tag) },
    { intent: "create-tag", title: "Viewer tag" },
    { intent: "add-comment", text: "viewer" },
    { intent: "delete-comment", commentId: String(ids.comment) },
    { intent: "attach-file", fileId: String(w.fileA) },
    { intent: "detach-file", fileId: String(w.fileA) },
    { intent: "delete-connection" },
    { intent: "delete-tag", tagId: String(ids.tag) },
  ];

  it("refuses every intent to a level-1 member with 403, changing nothing", async () => {
    const ids = { tag: await tagOfA("Viewer-proof"), comment: await commentOfA("viewer-proof") };
    const before = await snapshot();
    for (const fields of everyIntent(ids)) {
      const res = await post({ ...fields, redirectTo: path() }, w.tokenViewer);
      expect(res.status, fields.intent).toBe(403);
    }
    for (const fields of everyIntent(ids)) {
      expect((await post(fields, w.tokenViewer, { orgNumber: NEW })).status, fields.intent).toBe(403);
    }
    expect(await snapshot()).toEqual(before);
  });

  it("sends a visitor to the start page, changing nothing", async () => {
    const before = await snapshot();
    const res = await post({ intent: "add-comment", text: "anonymous" }, null);
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/");
    expect(await snapshot()).toEqual(before);
  });
});

describe("redirectTo (security review finding 2, 5)", () => {
  it("follows only a path of this site; CR/LF, tabs, backslashes and //host fall back to the supplier screen, never a 500", async () => {
    const fallback = `/supplier?externalId=${COMPANY}`;
    for (const target of [
      "//evil.example/phish",
      "/\t/evil.example/phish",
      "/%09/evil.example",
      "/\\evil.example",
      "/supplier\r\nSet-Cookie: token=stolen",
      "/supplier%0d%0aSet-Cookie:%20x=y",
      "https://evil.example/",
      "javascript:alert(1)",
    ]) {
      const before = (await connA()).comments.length;
      const res = await post({ intent: "add-comment", text: `via ${JSON.stringify(target)}`, redirectTo: target }, w.tokenA);
      expect(res.status, JSON.stringify(target)).toBe(302);
      expect(res.headers.get("Location"), JSON.stringify(target)).toBe(fallback);
      expect(res.headers.get("Set-Cookie")).not.toMatch(/stolen|x=y/);
      // Saved once, and answered: not saved and then failed.
      expect((await connA()).comments.length).toBe(before + 1);
    }
  });
});
