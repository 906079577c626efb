import { expect, test, type Page } from "./test";
import { demoUser, queryDb, signIn } from "./helpers";
import { gzipSize, readClientManifest } from "../../scripts/page-weight.mjs";

/**
 * Page weight (issue 9): the budget from the build's manifest, what a browser really downloads per page, and
 * the respondent pages that ship no script. Here and not in vitest because it needs the production build,
 * which `npm test` makes right before the end-to-end run (scripts/test.mjs) and which these tests serve.
 */

const KB = 1024;

const gzip = gzipSize as (file: string) => number;

/** Every script, stylesheet and translation chunk a page made the browser download, and how many requests it made. */
async function download(page: Page, url: string) {
  const manifest = readClientManifest() as Record<string, { file: string; src?: string }>;
  const translationFiles = new Set(Object.values(manifest).flatMap((chunk) => (chunk.src?.startsWith("locales/") ? [chunk.file] : [])));
  const seen: string[] = [];
  page.on("request", (request) => seen.push(new URL(request.url()).pathname));
  await page.goto(url);
  await page.waitForLoadState("networkidle");
  const assets = seen.filter((p) => p.startsWith("/assets/")).map((p) => p.slice(1));
  const sum = (files: string[]) => files.reduce((total, file) => total + gzip(file), 0);
  const translations = assets.filter((f) => translationFiles.has(f));
  const js = assets.filter((f) => f.endsWith(".js") && !translationFiles.has(f));
  const css = assets.filter((f) => f.endsWith(".css"));
  return { js: sum(js), css: sum(css), translations: sum(translations), namespaces: translations.length, requests: seen.length };
}

function supplierOrgNumber(): string {
  const [row] = queryDb<{ org_number: string }>(
    "select c.org_number from companies c where exists (select 1 from financial_statements f where f.company_id = c.id) order by c.id limit 1",
  );
  return row.org_number;
}

test.describe("what a browser downloads", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "measures scripts");

  test("per page, reported for the README's table", async ({ page, context }, testInfo) => {
    const rows: string[] = [];
    const measure = async (name: string, url: string) => {
      const d = await download(page, url);
      rows.push(
        `${name}: JS ${(d.js / KB).toFixed(1)} KB · CSS ${(d.css / KB).toFixed(1)} KB · translations ${(d.translations / KB).toFixed(1)} KB ` +
          `(${d.namespaces} files) · ${d.requests} requests`,
      );
      return d;
    };
    const login = await measure("/login", "/login");
    await signIn(context, demoUser("analyst@demo.test"));
    await measure("/overview", "/overview");
    const supplier = await measure("supplier screen", `/supplier?externalId=${supplierOrgNumber()}`);
    await measure("/suppliers", "/suppliers");
    await testInfo.attach("page-weight", { body: rows.join("\n"), contentType: "text/plain" });
    console.log(rows.join("\n"));
    expect(login.js).toBeGreaterThan(0);
    expect(supplier.js).toBeGreaterThan(0);
  });
});

/** The respondent screens of the route map (remix.config.js `respondentScreens`), at sample addresses. */
const RESPONDENT_PAGES = [
  "/tasks/surveys/1/public",
  "/transparency-portal/public/a1b2c3",
  "/reporting-portal/public/k3y",
  "/reporting-portal/public/request/t0ken",
];

test.describe("respondent pages ship no script", () => {
  for (const path of RESPONDENT_PAGES) {
    test(`${path}: the document has no <script> and no module preload, and renders`, async ({ request, context }) => {
      const response = await request.get(path);
      expect(response.status()).toBe(200);
      const html = await response.text();
      expect(html).not.toMatch(/<script/i);
      expect(html).not.toMatch(/modulepreload/i);
      expect(html).toMatch(/<link rel="stylesheet"/);
      // A browser (JavaScript on or off) shows the page; no page.goto fixture here: it would wait for a hydration that never comes.
      const page = await context.newPage();
      const scripts: string[] = [];
      page.on("request", (r) => r.resourceType() === "script" && scripts.push(r.url()));
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await expect(page.locator("html")).not.toHaveAttribute("data-js", "");
      // Its forms post as plain HTML: the language switch answers with the page in Norwegian.
      await page.getByRole("button", { name: "Norwegian" }).click();
      await expect(page.locator("html")).toHaveAttribute("lang", "no");
      await expect(page).toHaveURL(new RegExp(`${path}$`));
      expect(scripts).toEqual([]);
    });
  }

  test("a page that is not a respondent page still ships its scripts", async ({ request }) => {
    const html = await (await request.get("/login")).text();
    expect(html).toMatch(/<script/);
    expect(html).toMatch(/rel="modulepreload"/);
  });
});
