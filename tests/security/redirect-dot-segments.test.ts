import { beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "@server/auth/password";
import { db } from "@server/db";
import { safeRedirect } from "~/http/redirect.server";
import { action as languageAction } from "~/routes/preferences.language";
import { action as loginAction } from "~/routes/login";
import { makeOrg, signedIn } from "../helpers/fixtures";
import { args, call, form } from "../helpers/requests";

/**
 * Open redirects through dot segments: "/.//evil.example" passes a check of the raw input (it starts with one "/"),
 * but the URL parser normalises it to "//evil.example", which a browser follows to another site. The decision is made
 * on the path that would be answered.
 */
const PASSWORD = "Redirect-pass-1";
const DOT_SEGMENTS = [
  "/.//evil.example/phish",
  "/..//evil.example",
  "/a/../..//evil.example",
  "/././/evil.example?x=1",
  "/%2e//evil.example",
  "/%2e%2e//evil.example",
];

describe("safeRedirect on the normalised path", () => {
  it.each(DOT_SEGMENTS)("refuses %j", (to) => expect(safeRedirect(to, "/fallback")).toBe("/fallback"));
  it("still normalises a same-site path with dot segments", () => {
    expect(safeRedirect("/a/./b/../c?x=1")).toBe("/a/c?x=1");
  });
});

describe("through the forms that redirect", () => {
  beforeAll(async () => {
    const org = await makeOrg("Redirect AS", "customer");
    await signedIn("redirect@test.example", org, 2);
    await db()
      .updateTable("users")
      .set({ password_hash: await hashPassword(PASSWORD) })
      .where("email", "=", "redirect@test.example")
      .execute();
  });

  it.each(DOT_SEGMENTS)("POST /preferences/language with redirectTo=%j stays on the site", async (to) => {
    const res = await call(languageAction, args(form("/preferences/language", { language: "no", redirectTo: to })));
    expect(res.status).toBe(302);
    const location = res.headers.get("Location") ?? "";
    expect(location.startsWith("/")).toBe(true);
    expect(location.startsWith("//")).toBe(false);
    expect(location).not.toContain("evil.example");
  });

  it.each(DOT_SEGMENTS)("POST /login with redirectTo=%j stays on the site", async (to) => {
    const res = await call(loginAction, args(form("/login", { email: "redirect@test.example", password: PASSWORD, redirectTo: to })));
    expect(res.status).toBe(302);
    expect(res.headers.get("Set-Cookie")).toContain("token=");
    expect(res.headers.get("Location")).toBe("/overview");
  });
});
