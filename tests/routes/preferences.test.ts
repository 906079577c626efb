import { describe, expect, it, beforeAll } from "vitest";
import { db } from "@server/db";
import { languageCookie, navCookie } from "@server/cookies";
import { action as languageAction, loader as languageLoader } from "~/routes/preferences.language";
import { action as navAction, loader as navLoader } from "~/routes/preferences.nav";
import { makeOrg, signedIn } from "../helpers/fixtures";
import { args, BASE, call, form, get } from "../helpers/requests";

/** The language and navigation preferences: plain form posts that redirect back (they work without JavaScript). */

let token: string;
let userId: number;

beforeAll(async () => {
  const org = await makeOrg("Preferences AS", "customer");
  token = await signedIn("prefs@test.example", org, 2);
  userId = (await db().selectFrom("users").select("id").where("email", "=", "prefs@test.example").executeTakeFirstOrThrow()).id;
});

const language = async () => (await db().selectFrom("users").select("language").where("id", "=", userId).executeTakeFirstOrThrow()).language;
const cookie = () => ({ Cookie: `token=${token}` });
const raw = (path: string, body: BodyInit | null, type?: string, headers: Record<string, string> = {}) =>
  new Request(BASE + path, { method: "POST", body, headers: { ...(type ? { "Content-Type": type } : {}), ...headers } });

const OFF_SITE = [
  "/\t/evil.example/phish",
  "//evil.example",
  "/\\evil.example",
  "https://evil.example",
  "/%2F%2Fevil.example",
  "/\r\n/evil.example",
  "/%0d%0aSet-Cookie:x=1",
];

describe("POST /preferences/language", () => {
  it("changes a signed-in user's language on the account and in the cookie, and goes back to the page", async () => {
    const res = await call(languageAction, args(form("/preferences/language", { language: "no", redirectTo: "/casefiles?x=1" }, cookie())));
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/casefiles?x=1");
    expect(await languageCookie.parse(res.headers.get("Set-Cookie"))).toBe("no");
    expect(await language()).toBe("no");
    await call(languageAction, args(form("/preferences/language", { language: "en" }, cookie())));
    expect(await language()).toBe("en");
  });

  it("a visitor's choice lives in the cookie only, and without redirectTo goes to the start page", async () => {
    const res = await call(languageAction, args(form("/preferences/language", { language: "no" })));
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/");
    expect(await languageCookie.parse(res.headers.get("Set-Cookie"))).toBe("no");
  });

  it.each(["de", "", "NO", "en\u0000"])("refuses the language %j with 400 and changes nothing", async (value) => {
    const res = await call(languageAction, args(form("/preferences/language", { language: value }, cookie())));
    expect(res.status).toBe(400);
    expect(res.headers.get("Set-Cookie")).toBeNull();
    expect(await language()).toBe("en");
  });

  it("refuses JSON, text and empty bodies with 415 and a broken multipart body with 400, changing nothing", async () => {
    const path = "/preferences/language";
    expect((await call(languageAction, args(raw(path, JSON.stringify({ language: "no" }), "application/json", cookie())))).status).toBe(415);
    expect((await call(languageAction, args(raw(path, "language=no", "text/plain", cookie())))).status).toBe(415);
    expect((await call(languageAction, args(raw(path, null, undefined, cookie())))).status).toBe(415);
    expect((await call(languageAction, args(raw(path, "--b\r\nnot a part", "multipart/form-data; boundary=b", cookie())))).status).toBe(400);
    expect(await language()).toBe("en");
  });

  it.each(OFF_SITE)("never redirects off the site: %j", async (redirectTo) => {
    const res = await call(languageAction, args(form("/preferences/language", { language: "en", redirectTo }, cookie())));
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/overview");
  });

  it("GET is a 405 naming POST", async () => {
    const res = await call(languageLoader, args(get("/preferences/language")));
    expect(res.status).toBe(405);
    expect(res.headers.get("Allow")).toBe("POST");
  });
});

describe("POST /preferences/nav", () => {
  it("expands and collapses the navigation in a signed cookie and goes back to the page", async () => {
    const open = await call(navAction, args(form("/preferences/nav", { expanded: "true", redirectTo: "/suppliers?page=2" }, cookie())));
    expect(open.status).toBe(302);
    expect(open.headers.get("Location")).toBe("/suppliers?page=2");
    expect(await navCookie.parse(open.headers.get("Set-Cookie"))).toBe("expanded");
    const closed = await call(navAction, args(form("/preferences/nav", { expanded: "false", redirectTo: "/suppliers" }, cookie())));
    expect(await navCookie.parse(closed.headers.get("Set-Cookie"))).toBe("collapsed");
  });

  it("sends a visitor to the start page and sets nothing", async () => {
    const res = await call(navAction, args(form("/preferences/nav", { expanded: "true" })));
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/");
    expect(res.headers.get("Set-Cookie")).toBeNull();
  });

  it.each(["yes", "", "1"])("refuses expanded=%j with 400", async (value) => {
    const res = await call(navAction, args(form("/preferences/nav", { expanded: value }, cookie())));
    expect(res.status).toBe(400);
    expect(res.headers.get("Set-Cookie")).toBeNull();
  });

  it("refuses JSON, text and empty bodies with 415", async () => {
    const path = "/preferences/nav";
    expect((await call(navAction, args(raw(path, JSON.stringify({ expanded: "true" }), "application/json", cookie())))).status).toBe(415);
    expect((await call(navAction, args(raw(path, "expanded=true", "text/plain", cookie())))).status).toBe(415);
    expect((await call(navAction, args(raw(path, null, undefined, cookie())))).status).toBe(415);
  });

  it.each(OFF_SITE)("never redirects off the site: %j", async (redirectTo) => {
    const res = await call(navAction, args(form("/preferences/nav", { expanded: "true", redirectTo }, cookie())));
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/overview");
  });

  it("GET is a 405 naming POST", async () => {
    const res = await call(navLoader, args(get("/preferences/nav")));
    expect(res.status).toBe(405);
    expect(res.headers.get("Allow")).toBe("POST");
  });
});
