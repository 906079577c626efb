import { describe, expect, it } from "vitest";
import { getUser, requireUser } from "~/http/auth.server";
import { parseId, readForm, readJson, readQuery, requireId } from "~/http/parse.server";
import { can, PERMISSIONS, type Permission, type Subject } from "~/models/accounts/permissions";
import { backTo, safeRedirect } from "~/http/redirect.server";
import { invariantResponse, methodNotAllowed } from "~/http/responses.server";
import { z } from "zod";
import { makeOrg, signedIn } from "../helpers/fixtures";
import { BASE } from "../helpers/requests";

async function thrown(work: () => unknown): Promise<Response> {
  try {
    await work();
  } catch (error) {
    if (error instanceof Response) return error;
    throw error;
  }
  throw new Error("expected a thrown Response");
}

describe("safeRedirect", () => {
  it.each([
    ["/supplier?externalId=1#x", "/supplier?externalId=1#x"],
    ["/overview", "/overview"],
    ["/a/b/../c", "/a/c"],
  ])("keeps the same-site path %s", (to, expected) => expect(safeRedirect(to)).toBe(expected));

  it.each([
    "/\t/evil.example/phish",
    "/%09/evil.example",
    "//evil.example",
    "/\\evil.example",
    "/%5Cevil.example",
    "/%2F%2Fevil.example",
    "/\r\nSet-Cookie: x=1",
    "/%0d%0aLocation:x",
    "https://evil.example",
    "evil.example",
    "javascript:alert(1)",
    "",
    "/\u0000",
  ])("refuses %j", (to) => expect(safeRedirect(to, "/fallback")).toBe("/fallback"));

  it("refuses what is not a string", () => {
    expect(safeRedirect(null)).toBe("/overview");
    expect(safeRedirect(["/x"])).toBe("/overview");
  });
});

describe("backTo", () => {
  const posted = (path: string) => new Request(BASE + path, { method: "POST" });
  it("a plain post goes back to its redirectTo, checked by safeRedirect", () => {
    expect(backTo(posted("/admin/users"), "/admin/users?q=a&page=2", "/admin/users")).toBe("/admin/users?q=a&page=2");
    expect(backTo(posted("/admin/users"), "//evil.example", "/admin/users")).toBe("/admin/users");
  });
  it("a fetcher's post (no redirectTo) goes back to the page it posted to, search and paging kept", () => {
    expect(backTo(posted("/admin/users?q=l2%40x.test&page=2"), null, "/admin/users")).toBe("/admin/users?q=l2%40x.test&page=2");
    expect(backTo(posted("/admin/users?q=a"), "", "/admin/users")).toBe("/admin/users?q=a");
  });
  it("another path than the fallback's is not a way back", () => {
    expect(backTo(posted("/api/other?q=a"), undefined, "/admin/users")).toBe("/admin/users");
  });
});

describe("parseId", () => {
  it.each(["1", "5", "9007199254740991"])("takes %s", (v) => expect(parseId(v)).toBe(Number(v)));
  it.each([" 5", "5 ", "05", "0", "-1", "0x10", "1e3", "1.0", "", "9007199254740993", "99999999999999999"])("refuses %j", (v) => expect(parseId(v)).toBeNull());
  it("requireId answers 400 naming the parameter", async () => {
    const response = await thrown(() => requireId("0x10", "tagId"));
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ message: "tagId must be a positive whole number" });
  });
});

function post(body: BodyInit, contentType: string): Request {
  return new Request(`${BASE}/x`, { method: "POST", body, headers: { "Content-Type": contentType } });
}

describe("readForm", () => {
  it("reads and NFC-normalises a urlencoded form", async () => {
    const form = await readForm(post(new URLSearchParams({ name: "Bla\u030aberg" }), "application/x-www-form-urlencoded"));
    expect(form.get("name")).toBe("Blåberg");
  });
  it.each([
    ["application/json", '{"intent":"x"}'],
    ["text/plain", "intent=x"],
    ["", "intent=x"],
  ])("answers 415 for %j", async (type, body) => {
    const response = await thrown(() => readForm(post(body, type)));
    expect(response.status).toBe(415);
  });
  it("answers 400 naming the field for a NUL character", async () => {
    const response = await thrown(() => readForm(post("comment=a%00b", "application/x-www-form-urlencoded")));
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ field: "comment", message: "comment: must not contain NUL characters" });
  });
  it("answers 400 for a multipart body that does not parse", async () => {
    const response = await thrown(() => readForm(post("garbage", "multipart/form-data; boundary=xyz")));
    expect(response.status).toBe(400);
  });
});

describe("readJson", () => {
  const schema = z.object({ name: z.string().min(1) });
  it("parses and validates", async () => {
    expect(await readJson(post('{"name":"A\u0301"}', "application/json; charset=utf-8"), schema)).toEqual({ name: "Á" });
  });
  it("answers 415 for another content type (a text/plain CSRF post)", async () => {
    expect((await thrown(() => readJson(post('{"name":"a"}', "text/plain"), schema))).status).toBe(415);
  });
  it("answers 400 for a body that is not JSON", async () => {
    expect((await thrown(() => readJson(post("{", "application/json"), schema))).status).toBe(400);
  });
  it("answers 400 for a lone surrogate, naming the field", async () => {
    const response = await thrown(() => readJson(post('{"name":"\\ud800"}', "application/json"), schema));
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ field: "name" });
  });
  it("answers 400 for a body nested deeper than any of ours, without overflowing the stack", async () => {
    const deep = "[".repeat(100_000) + "]".repeat(100_000);
    expect((await thrown(() => readJson(post(deep, "application/json")))).status).toBe(400);
  });
  it("answers 400 naming the field the schema refuses", async () => {
    const response = await thrown(() => readJson(post('{"name":""}', "application/json"), schema));
    expect(await response.json()).toMatchObject({ field: "name" });
  });
});

describe("readQuery", () => {
  it("answers 400 naming a bad parameter", async () => {
    const request = new Request(`${BASE}/x?offset=abc`);
    const response = await thrown(() => readQuery(request, z.object({ offset: z.coerce.number().int() })));
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ field: "offset" });
  });
});

describe("responses", () => {
  it("invariantResponse throws its status with a JSON body", async () => {
    const response = await thrown(() => invariantResponse(false, 404, "No such case file"));
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: "Not Found", message: "No such case file" });
  });
  it("methodNotAllowed names the allowed methods", async () => {
    const response = methodNotAllowed(["GET", "PATCH"]);
    expect(response.status).toBe(405);
    expect(response.headers.get("Allow")).toBe("GET, PATCH");
  });
});

describe("the permission table", () => {
  const member = (accessLevel: number, extra: Partial<Subject> = {}): Subject => ({
    accessLevel,
    isAdmin: false,
    organizationId: 1,
    organizationKind: "customer",
    ...extra,
  });
  const cases: [string, Subject | null, Partial<Record<Permission, boolean>>][] = [
    [
      "visitor",
      null,
      {
        assistantUse: false,
        signedIn: false,
        organizationRead: false,
        ownFiles: false,
        registryRead: false,
        suppliersWrite: false,
        admin: false,
        notificationsRead: false,
        respondentWork: false,
        supplierTasksRead: false,
        supplierTasksManage: false,
        taskTemplatesManage: false,
      },
    ],
    [
      "respondent",
      member(1, { organizationKind: "supplier" }),
      {
        signedIn: true,
        ownFiles: true,
        registryRead: false,
        suppliersRead: false,
        suppliersWrite: false,
        assistantUse: false,
        respondentWork: true,
        supplierTasksRead: false,
        supplierTasksManage: false,
        taskTemplatesManage: false,
        organizationRead: true,
        organizationManage: false,
      },
    ],
    [
      "respondent at level 2",
      member(2, { organizationKind: "supplier" }),
      {
        registryRead: true,
        suppliersRead: false,
        suppliersWrite: false,
        creditOrder: false,
        notificationsRead: false,
        notificationsTriage: false,
        assistantUse: false,
      },
    ],
    [
      "level 1",
      member(1),
      {
        signedIn: true,
        ownFiles: true,
        registryRead: false,
        suppliersRead: false,
        suppliersWrite: false,
        creditOrder: false,
        organizationManage: false,
        organizationRead: true,
        notificationsRead: false,
        notificationsTriage: false,
        newsFeedsManage: false,
        assistantUse: false,
        respondentWork: true,
        supplierTasksRead: false,
        supplierTasksManage: false,
        taskTemplatesManage: false,
      },
    ],
    [
      "level 2",
      member(2),
      {
        registryRead: true,
        suppliersRead: true,
        suppliersWrite: true,
        creditOrder: true,
        organizationManage: false,
        admin: false,
        notificationsRead: true,
        notificationsTriage: true,
        newsFeedsManage: false,
        assistantUse: true,
        respondentWork: true,
        supplierTasksRead: true,
        supplierTasksManage: true,
        taskTemplatesManage: false,
      },
    ],
    [
      "level 3",
      member(3),
      { suppliersWrite: true, organizationManage: true, admin: false, newsFeedsManage: true, taskTemplatesManage: true, supplierTasksManage: true },
    ],
    [
      "supplier at level 3",
      member(3, { organizationKind: "supplier" }),
      { taskTemplatesManage: false, supplierTasksRead: false, respondentWork: true, organizationManage: true, organizationRead: true },
    ],
    [
      "operator without organisation",
      { accessLevel: 0, isAdmin: true, organizationId: null },
      { signedIn: true, admin: true, ownFiles: false, suppliersRead: false, respondentWork: false, taskTemplatesManage: false, organizationRead: false },
    ],
  ];
  it.each(cases)("%s", (_name, subject, expected) => {
    for (const [permission, allowed] of Object.entries(expected)) expect([permission, can(subject, permission as Permission)]).toEqual([permission, allowed]);
  });
  it("every permission is decided for every role above", () => {
    expect(Object.keys(PERMISSIONS).sort()).toEqual([
      "admin",
      "assistantUse",
      "creditOrder",
      "newsFeedsManage",
      "notificationsRead",
      "notificationsTriage",
      "organizationManage",
      "organizationRead",
      "ownFiles",
      "registryRead",
      "respondentWork",
      "signedIn",
      "supplierTasksManage",
      "supplierTasksRead",
      "suppliersRead",
      "suppliersWrite",
      "taskTemplatesManage",
    ]);
  });
});

describe("requireUser", () => {
  it("sends a visitor of a screen to the start page, and answers 401 JSON on the API", async () => {
    const page = await thrown(() => requireUser(new Request(`${BASE}/suppliers`), "suppliersRead"));
    expect([page.status, page.headers.get("Location")]).toEqual([302, "/"]);
    const api = await thrown(() => requireUser(new Request(`${BASE}/api/organization-tags`), "suppliersRead"));
    expect(api.status).toBe(401);
  });
  it("answers 403 below the level the table asks for", async () => {
    const org = await makeOrg("Kit Org", "customer");
    const token = await signedIn("kit-viewer@example.test", org, 1);
    const request = new Request(`${BASE}/api/organization-tags`, { headers: { Cookie: `token=${token}` } });
    expect((await thrown(() => requireUser(request, "suppliersWrite"))).status).toBe(403);
    expect((await requireUser(request, "ownFiles")).organizationId).toBe(org);
  });
  it("ignores a cookie that does not decode, and prefers a Bearer token (not cookie-bound)", async () => {
    expect(await getUser(new Request(`${BASE}/login`, { headers: { Cookie: "token=%ZZ" } }))).toBeNull();
    const org = await makeOrg("Kit Org 2", "customer");
    const token = await signedIn("kit-bearer@example.test", org, 2);
    const user = await getUser(new Request(`${BASE}/api/x`, { headers: { Cookie: "token=%ZZ", Authorization: `Bearer ${token}` } }));
    expect([user?.email, user?.via]).toEqual(["kit-bearer@example.test", "bearer"]);
  });
});
