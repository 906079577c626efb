import fs from "node:fs";
import path from "node:path";
import { expect, test } from "./test";
import { createUser, demoUser, richCompanyOrgNumber, signIn } from "./helpers";

/**
 * Every screen reached by a link (a client-side navigation from another screen), not by a full load: the browser then
 * has only the namespaces the previous screen used, and loads the new screen's before showing it. A text whose
 * namespace never loaded shows as its key (`screen.selfAssessment`); this fails on any key of any namespace in the
 * page's text, in both languages.
 */

/** Every key of every namespace, as `a.b.c` (a key shown raw looks like that). */
function allKeys(): Set<string> {
  const keys = new Set<string>();
  const dir = path.resolve("locales/en");
  const walk = (value: unknown, prefix: string) => {
    if (value && typeof value === "object") for (const [k, v] of Object.entries(value)) walk(v, prefix ? `${prefix}.${k}` : k);
    else if (prefix.includes(".")) keys.add(prefix);
  };
  for (const file of fs.readdirSync(dir)) walk(JSON.parse(fs.readFileSync(path.join(dir, file), "utf8")), "");
  return keys;
}

const KEYS = allKeys();

function screens(): string[] {
  return [
    "/dashboard",
    `/supplier?externalId=${richCompanyOrgNumber()}`,
    "/suppliers",
    "/notifications",
    "/credit_reports",
    "/supplier_tasks",
    "/survey-explorer",
    "/casefiles",
    "/files",
    "/search?q=aker",
    "/my-organization/users",
    "/account",
    "/admin/users",
    "/admin/organizations",
    "/admin/surveys/surveys",
    "/admin/tasks/templates",
    "/admin/suppliers-overview",
    "/notifications/feeds",
    `/supplier?externalId=811600792`,
    "/overview",
  ];
}

for (const language of ["en", "no"] as const) {
  test(`every screen reached by a link shows its texts, not their keys (${language})`, async ({ page, context, javaScriptEnabled }) => {
    test.skip(!javaScriptEnabled, "a client-side navigation needs the app's scripts");
    test.slow();
    // An operator of the demo customer (its suppliers, tasks and files), in the language under test.
    const user = await createUser({ accessLevel: 3, isAdmin: true, language, organizationId: demoUser("admin@demo.test").organizationId });
    await signIn(context, user);
    const raw: string[] = [];
    for (const to of screens()) {
      // From a screen of few texts, loaded in full: the browser has its namespaces and the shell's, nothing more.
      await page.goto(to === "/account" ? "/overview" : "/account");
      await page.evaluate((target) => (window as unknown as { __remixRouter: { navigate: (to: string) => Promise<void> } }).__remixRouter.navigate(target), to);
      await expect(page).toHaveURL(new RegExp(`${to.split("?")[0].replace(/[/.]/g, "\\$&")}(\\?|$)`));
      // The navigation is over (loaders done, the new screen's texts loaded and rendered).
      await page.waitForFunction(
        () => (window as unknown as { __remixRouter: { state: { navigation: { state: string } } } }).__remixRouter.state.navigation.state === "idle",
      );
      await page.waitForLoadState("networkidle");
      await expect(page.locator("main h1").first()).toBeVisible();
      const text = await page.locator("body").innerText();
      for (const token of text.match(/\b[a-zA-Z][a-zA-Z0-9_]*(?:\.[a-zA-Z0-9_]+)+\b/g) ?? []) {
        if (KEYS.has(token)) raw.push(`${to}: ${token}`);
      }
    }
    expect(raw).toEqual([]);
  });
}
