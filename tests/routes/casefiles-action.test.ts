import type { LoaderFunctionArgs } from "@remix-run/node";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@server/db";
import { createCasefile, getCasefile } from "~/models/files/casefiles.server";
import { action as listAction, loader as listLoader } from "~/routes/_app.casefiles";
import { action as detailAction, loader as detailLoader } from "~/routes/_app.casefiles.$caseFileId";
import { follow, makeOrg, signedIn } from "../helpers/fixtures";
import { BASE, call, get } from "../helpers/requests";

/**
 * The case file screens' actions (/casefiles: create; /casefiles/{id}:
 * status, priority, comment): every intent, the permission table (level 1
 * may neither read nor change), another organisation's ids (404, nothing
 * changed), bodies that are not forms (415/400) and text that cannot be
 * stored (NUL, a NUL-only or invisible title: 400, nothing saved).
 */

type Fn = (a: LoaderFunctionArgs) => unknown;

const w = {} as {
  orgA: number;
  orgB: number;
  s1: number;
  s2: number;
  unfollowed: number;
  analystA: string;
  viewerA: string;
  analystB: string;
  norwegianA: string;
  userA: number;
  userB: number;
  caseA: number;
  caseB: number;
};

async function userIdOf(email: string): Promise<number> {
  return (await db().selectFrom("users").select("id").where("email", "=", email).executeTakeFirstOrThrow()).id;
}

/** A plain HTML form post from this site, as a browser sends it (same-origin, signed in by the cookie). */
function post(path: string, fields: Record<string, string>, token?: string): Request {
  return new Request(BASE + path, {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: BASE, ...(token ? { Cookie: `token=${token}` } : {}) },
  });
}

function raw(path: string, body: string, contentType: string | null, token: string): Request {
  const headers: Record<string, string> = { Origin: BASE, Cookie: `token=${token}` };
  if (contentType) headers["Content-Type"] = contentType;
  return new Request(BASE + path, { method: "POST", body, headers });
}

const run = (fn: Fn, request: Request, params: Record<string, string> = {}) => call(fn, { request, params, context: {} });
const create = (fields: Record<string, string>, token: string) => run(listAction, post("/casefiles", { intent: "create", ...fields }, token));
const change = (id: number | string, fields: Record<string, string>, token: string) =>
  run(detailAction, post(`/casefiles/${id}`, fields, token), { caseFileId: String(id) });
const page = (fn: Fn, path: string, token: string, params: Record<string, string> = {}) => run(fn, get(path, { Cookie: `token=${token}` }), params);

/** Everything the case file actions can write. */
async function snapshot() {
  const [casefiles, comments, events] = await Promise.all([
    db().selectFrom("casefiles").selectAll().orderBy("id").execute(),
    db().selectFrom("casefile_comments").selectAll().orderBy("id").execute(),
    db().selectFrom("casefile_events").selectAll().orderBy("id").execute(),
  ]);
  return { casefiles, comments, events };
}

async function unchangedBy(attempt: () => Promise<Response>, status: number) {
  const before = await snapshot();
  const res = await attempt();
  expect(res.status).toBe(status);
  expect(await snapshot()).toEqual(before);
  return res;
}

beforeAll(async () => {
  w.orgA = await makeOrg("Casefile Customer A", "customer");
  w.orgB = await makeOrg("Casefile Customer B", "customer");
  w.s1 = await makeOrg("Casefile Supplier One", "supplier");
  w.s2 = await makeOrg("Casefile Supplier Two", "supplier");
  w.unfollowed = await makeOrg("Casefile Supplier Unfollowed", "supplier");
  await follow(w.orgA, w.s1);
  await follow(w.orgA, w.s2);
  await follow(w.orgB, w.s1);
  w.analystA = await signedIn("analyst-a@casefile-actions.test", w.orgA, 2);
  w.viewerA = await signedIn("viewer-a@casefile-actions.test", w.orgA, 1);
  w.analystB = await signedIn("analyst-b@casefile-actions.test", w.orgB, 3);
  w.norwegianA = await signedIn("norsk-a@casefile-actions.test", w.orgA, 2);
  await db().updateTable("users").set({ language: "no" }).where("email", "=", "norsk-a@casefile-actions.test").execute();
  w.userA = await userIdOf("analyst-a@casefile-actions.test");
  w.userB = await userIdOf("analyst-b@casefile-actions.test");
  w.caseA = (await createCasefile({ organizationId: w.orgA, userId: w.userA, supplierOrganizationId: w.s1, title: "Late deliveries", priority: 4 }))!;
  w.caseB = (await createCasefile({ organizationId: w.orgB, userId: w.userB, supplierOrganizationId: w.s1, title: "B's own case", priority: 1 }))!;
});

describe("/casefiles (list and 'New case file')", () => {
  it("lists the organisation's case files and the suppliers it follows", async () => {
    const res = await page(listLoader, "/casefiles", w.analystA);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { casefiles: Array<{ id: number; supplier: { name: string } | null }>; suppliers: Array<{ name: string }> };
    expect(body.casefiles.map((c) => c.id)).toEqual([w.caseA]);
    expect(body.suppliers.map((s) => s.name)).toEqual(["Casefile Supplier One", "Casefile Supplier Two"]);
  });

  it("create: a new case file, then its page with 'Case file created.'", async () => {
    const res = await create({ title: "  Certificate expired  ", supplierId: String(w.s2), priority: "3" }, w.analystA);
    expect(res.status).toBe(302);
    const id = Number(res.headers.get("Location")?.replace("/casefiles/", ""));
    expect(await getCasefile({ organizationId: w.orgA, id })).toMatchObject({ title: "Certificate expired", priority: 3, status: "open" });
    expect(res.headers.get("Set-Cookie")).toContain("__flash=");
    const none = await create({ title: "No priority", supplierId: String(w.s2), priority: "" }, w.analystA);
    expect(none.status).toBe(302);
  });

  it("create: a missing title, a missing supplier and an unfollowed or other organisation's supplier are 400 with the field's message; nothing saved", async () => {
    const noTitle = await unchangedBy(() => create({ title: "   ", supplierId: String(w.s2) }, w.analystA), 400);
    expect(JSON.stringify(await noTitle.json())).toContain("Enter a title.");
    const noSupplier = await unchangedBy(() => create({ title: "x", supplierId: "" }, w.analystA), 400);
    expect(JSON.stringify(await noSupplier.json())).toContain("Choose a supplier.");
    const unfollowed = await unchangedBy(() => create({ title: "x", supplierId: String(w.unfollowed) }, w.analystA), 400);
    expect(JSON.stringify(await unfollowed.json())).toContain("Choose one of your suppliers.");
    // B follows s1 but not s2.
    const foreign = await unchangedBy(() => create({ title: "x", supplierId: String(w.s2) }, w.analystB), 400);
    expect(JSON.stringify(await foreign.json())).toContain("Choose one of your suppliers.");
    await unchangedBy(() => create({ title: "x", supplierId: String(w.s2), priority: "6" }, w.analystA), 400);
  });

  it("create: a supplier id must be written plainly (' 5', '0x..', '05' are refused)", async () => {
    for (const supplierId of [` ${w.s2}`, `0x${w.s2.toString(16)}`, `0${w.s2}`, `${w.s2}.0`]) {
      const res = await unchangedBy(() => create({ title: "Odd id", supplierId }, w.analystA), 400);
      expect(JSON.stringify(await res.json()), supplierId).toMatch(/Choose (one of your suppliers|a supplier)\./);
    }
  });

  it("create: a NUL character, a NUL-only title and an invisible title are 400 with nothing saved", async () => {
    const nul = await unchangedBy(() => create({ title: "Late\u0000deliveries", supplierId: String(w.s2) }, w.analystA), 400);
    expect(((await nul.json()) as { message: string }).message).toMatch(/^title: /);
    await unchangedBy(() => create({ title: "\u0000", supplierId: String(w.s2) }, w.analystA), 400);
    await unchangedBy(() => create({ title: "\u0000\u0000  ", supplierId: String(w.s2) }, w.analystA), 400);
    const invisible = await unchangedBy(() => create({ title: "\u0001\u200b\u0007", supplierId: String(w.s2) }, w.analystA), 400);
    expect(JSON.stringify(await invisible.json())).toContain("Enter a title.");
  });

  it("a Norwegian user gets the form's messages in Norwegian", async () => {
    const res = await unchangedBy(() => create({ title: " ", supplierId: String(w.unfollowed) }, w.norwegianA), 400);
    expect(JSON.stringify(await res.json())).toContain("Skriv en tittel.");
  });

  it("an unknown or missing intent is a 400", async () => {
    await unchangedBy(() => run(listAction, post("/casefiles", { intent: "delete", title: "x", supplierId: String(w.s2) }, w.analystA)), 400);
    await unchangedBy(() => run(listAction, post("/casefiles", { title: "x", supplierId: String(w.s2) }, w.analystA)), 400);
  });

  it("a body that is not a form is 415, a malformed one 400; nothing saved", async () => {
    const json = JSON.stringify({ intent: "create", title: "x", supplierId: w.s2 });
    await unchangedBy(() => run(listAction, raw("/casefiles", json, "application/json", w.analystA)), 415);
    await unchangedBy(() => run(listAction, raw("/casefiles", `intent=create&title=x&supplierId=${w.s2}`, "text/plain", w.analystA)), 415);
    await unchangedBy(() => run(listAction, raw("/casefiles", "", null, w.analystA)), 415);
    await unchangedBy(() => run(listAction, raw("/casefiles", "not multipart", "multipart/form-data; boundary=x", w.analystA)), 400);
  });

  it("level 1 may neither read the list nor create (403); a visitor goes to the start page", async () => {
    expect((await page(listLoader, "/casefiles", w.viewerA)).status).toBe(403);
    await unchangedBy(() => create({ title: "Viewer's case", supplierId: String(w.s1), priority: "2" }, w.viewerA), 403);
    expect((await run(listLoader, get("/casefiles"))).status).toBe(302);
    await unchangedBy(() => create({ title: "Visitor's case", supplierId: String(w.s1) }, ""), 302);
  });
});

describe("/casefiles/{id} (status, priority, comment)", () => {
  it("shows the organisation's case file; another organisation's id and an unknown id are 404, a malformed id 400", async () => {
    const res = await page(detailLoader, `/casefiles/${w.caseA}`, w.analystA, { caseFileId: String(w.caseA) });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { casefile: { title: string } }).casefile.title).toBe("Late deliveries");
    expect((await page(detailLoader, `/casefiles/${w.caseB}`, w.analystA, { caseFileId: String(w.caseB) })).status).toBe(404);
    expect((await page(detailLoader, "/casefiles/999999", w.analystA, { caseFileId: "999999" })).status).toBe(404);
    for (const caseFileId of ["abc", ` ${w.caseA}`, `0x${w.caseA.toString(16)}`]) {
      expect((await page(detailLoader, "/casefiles/x", w.analystA, { caseFileId })).status, caseFileId).toBe(400);
    }
  });

  it("status: changes it with a 'status_changed' event and redirects back with 'Saved!'", async () => {
    const res = await change(w.caseA, { intent: "status", status: "in_progress" }, w.analystA);
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe(`/casefiles/${w.caseA}`);
    expect(res.headers.get("Set-Cookie")).toContain("__flash=");
    const cf = (await getCasefile({ organizationId: w.orgA, id: w.caseA }))!;
    expect(cf.status).toBe("in_progress");
    expect(cf.events[0]).toMatchObject({ type: "status_changed", detail: { from: "open", to: "in_progress" } });
  });

  it("priority: sets 1–5 or none", async () => {
    expect((await change(w.caseA, { intent: "priority", priority: "5" }, w.analystA)).status).toBe(302);
    expect((await getCasefile({ organizationId: w.orgA, id: w.caseA }))?.priority).toBe(5);
    expect((await change(w.caseA, { intent: "priority", priority: "" }, w.analystA)).status).toBe(302);
    expect((await getCasefile({ organizationId: w.orgA, id: w.caseA }))?.priority).toBeNull();
  });

  it("comment: adds the trimmed text under the user", async () => {
    const res = await change(w.caseA, { intent: "comment", text: "  Asked for a delivery plan.  " }, w.analystA);
    expect(res.status).toBe(302);
    const cf = (await getCasefile({ organizationId: w.orgA, id: w.caseA }))!;
    expect(cf.comments.at(-1)).toMatchObject({ text: "Asked for a delivery plan.", user: { email: "analyst-a@casefile-actions.test" } });
  });

  it("refuses an empty or invisible comment, an unknown status, a priority outside 1–5 with 400 and the field's message; nothing saved", async () => {
    const empty = await unchangedBy(() => change(w.caseA, { intent: "comment", text: "   " }, w.analystA), 400);
    const body = (await empty.json()) as { intent: string; result: { error: Record<string, string[]> } };
    expect(body.intent).toBe("comment");
    expect(body.result.error.text).toEqual(["Write a comment first."]);
    await unchangedBy(() => change(w.caseA, { intent: "comment", text: "\u200b\u0002" }, w.analystA), 400);
    await unchangedBy(() => change(w.caseA, { intent: "comment" }, w.analystA), 400);
    await unchangedBy(() => change(w.caseA, { intent: "status", status: "deleted" }, w.analystA), 400);
    await unchangedBy(() => change(w.caseA, { intent: "status" }, w.analystA), 400);
    for (const priority of ["9", "0", "2.5", "x"]) await unchangedBy(() => change(w.caseA, { intent: "priority", priority }, w.analystA), 400);
  });

  it("a NUL in a comment is a 400 naming the field, with nothing saved", async () => {
    const res = await unchangedBy(() => change(w.caseA, { intent: "comment", text: "before\u0000after" }, w.analystA), 400);
    expect(((await res.json()) as { message: string }).message).toMatch(/^text: /);
    await unchangedBy(() => change(w.caseA, { intent: "comment", text: "\u0000" }, w.analystA), 400);
    await unchangedBy(() => change(w.caseA, { intent: "status\u0000", status: "closed" }, w.analystA), 400);
  });

  it("an unknown or missing intent is a 400", async () => {
    await unchangedBy(() => change(w.caseA, { intent: "rename", title: "New" }, w.analystA), 400);
    await unchangedBy(() => change(w.caseA, { status: "closed" }, w.analystA), 400);
  });

  it("another organisation's case file and an unknown one: 404 for every intent, nothing changed", async () => {
    const attempts: Array<Record<string, string>> = [
      { intent: "status", status: "closed" },
      { intent: "priority", priority: "1" },
      { intent: "comment", text: "intruder" },
    ];
    for (const fields of attempts) {
      await unchangedBy(() => change(w.caseA, fields, w.analystB), 404);
      await unchangedBy(() => change(w.caseB, fields, w.analystA), 404);
      await unchangedBy(() => change(999999, fields, w.analystA), 404);
    }
    await unchangedBy(() => change("abc", { intent: "status", status: "closed" }, w.analystA), 400);
  });

  it("a body that is not a form is 415, a malformed one 400; nothing saved", async () => {
    const path = `/casefiles/${w.caseA}`;
    const params = { caseFileId: String(w.caseA) };
    await unchangedBy(() => run(detailAction, raw(path, JSON.stringify({ intent: "status", status: "closed" }), "application/json", w.analystA), params), 415);
    await unchangedBy(() => run(detailAction, raw(path, "intent=status&status=closed", "text/plain;charset=UTF-8", w.analystA), params), 415);
    await unchangedBy(() => run(detailAction, raw(path, "", null, w.analystA), params), 415);
    await unchangedBy(() => run(detailAction, raw(path, "--x\r\nbroken", "multipart/form-data; boundary=x", w.analystA), params), 400);
  });

  it("level 1 may neither read a case file nor change it (403), whatever the intent; nothing changed", async () => {
    expect((await page(detailLoader, `/casefiles/${w.caseA}`, w.viewerA, { caseFileId: String(w.caseA) })).status).toBe(403);
    const attempts: Array<Record<string, string>> = [
      { intent: "status", status: "closed" },
      { intent: "priority", priority: "1" },
      { intent: "comment", text: "viewer" },
      { intent: "rename" },
    ];
    for (const fields of attempts) {
      await unchangedBy(() => change(w.caseA, fields, w.viewerA), 403);
    }
  });
});
