import { expect, test, type Page } from "./test";
import { createUser, demoUser, queryDb, signIn } from "./helpers";
import fs from "node:fs";
import path from "node:path";
import { buildDir, readClientManifest, routeWeight, servedSize } from "../../scripts/page-weight.mjs";

/**
 * Page weight: the budget from the build's manifest, what a browser really downloads per page, and
 * the respondent pages that ship no script. Here and not in vitest because it needs the production build,
 * which `npm test` makes right before the end-to-end run (scripts/test.mjs) and which these tests serve.
 */

const KB = 1024;

/**
 * The budget: JavaScript as served (brotli, the precompressed copies server/static.ts sends to every
 * current browser: the entry, the root, the layout and route modules and all their static imports, and the Remix
 * route manifest; dialogs loaded on demand are not counted), CSS ≤ 25 KB. Today (decision 015): sign-in page
 * 82.2 KB, supplier screen 117.5 KB, CSS 18.7 KB.
 */
const BUDGET = { loginJs: 90 * KB, supplierJs: 150 * KB, css: 25 * KB };
const LOGIN = ["app/routes/login.tsx"];
const SUPPLIER = ["app/routes/_app.tsx", "app/routes/_app.supplier.tsx"];
const DASHBOARD = ["app/routes/_app.tsx", "app/routes/_app.dashboard/route.tsx"];

type Weight = { scripts: string[]; css: string[]; jsBytes: number; cssBytes: number };
const weigh = routeWeight as (routes: string[]) => Weight;
const kb = (bytes: number) => `${(bytes / KB).toFixed(1)} KB`;

test.describe("the page-weight budget (build manifest, brotli as served)", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "reads the build, once");

  test("CSS ≤ 25 KB on every page", () => {
    for (const routes of [LOGIN, SUPPLIER, ["app/routes/_app.tsx", "app/routes/_app.suppliers.tsx"], DASHBOARD]) {
      expect(weigh(routes).cssBytes, routes.at(-1)).toBeLessThanOrEqual(BUDGET.css);
    }
  });

  test("the sign-in page preloads neither the signed-in shell, the supplier screen's code, uPlot, Conform nor zod", () => {
    const manifest = readClientManifest() as Record<string, { file: string; name?: string; src?: string }>;
    const login = weigh(LOGIN);
    const notForSignIn = Object.entries(manifest)
      .filter(
        ([src]) =>
          src.startsWith("app/routes/_app") ||
          src.includes("uplot") ||
          src.includes("@conform-to") ||
          src.includes("node_modules/zod") ||
          src.startsWith("app/components/supplier/") ||
          src.startsWith("app/components/shell/AppShell"),
      )
      .map(([, chunk]) => chunk.file);
    expect(notForSignIn.length).toBeGreaterThan(0);
    expect(login.scripts.filter((file) => notForSignIn.includes(file))).toEqual([]);
    // zod and Conform are bundled into shared chunks: recognise them by what they contain.
    const shared = login.scripts.filter((file) => /\$ZodType|\$ZodObject|dataset\.conform/.test(readAsset(file)));
    expect(shared, "zod or Conform on the sign-in page").toEqual([]);
  });

  test("the sign-in page: JavaScript ≤ 90 KB", () => {
    const w = weigh(LOGIN);
    expect(w.jsBytes, `JavaScript of /login: ${kb(w.jsBytes)} in ${w.scripts.join(", ")}`).toBeLessThanOrEqual(BUDGET.loginJs);
  });

  test("the dashboard loads uPlot on demand, not with the page, and stays within the supplier screen's budget", () => {
    const manifest = readClientManifest() as Record<string, { file: string }>;
    const uplot = Object.entries(manifest).flatMap(([src, chunk]) => (src.includes("uplot") ? [chunk.file] : []));
    expect(uplot.length).toBeGreaterThan(0);
    const w = weigh(DASHBOARD);
    expect(w.scripts.filter((file) => uplot.includes(file))).toEqual([]);
    expect(w.jsBytes, `JavaScript of /dashboard: ${kb(w.jsBytes)} in ${w.scripts.join(", ")}`).toBeLessThanOrEqual(BUDGET.supplierJs);
  });

  test("the supplier screen: JavaScript ≤ 150 KB", () => {
    const w = weigh(SUPPLIER);
    expect(w.jsBytes, `JavaScript of /supplier: ${kb(w.jsBytes)} in ${w.scripts.join(", ")}`).toBeLessThanOrEqual(BUDGET.supplierJs);
  });
});

function readAsset(file: string): string {
  return fs.readFileSync(path.join(buildDir as string, "client", file), "utf8");
}

const served = servedSize as (file: string) => number;

/** Every script, stylesheet and translation chunk a page made the browser download, and how many requests it made. */
async function download(page: Page, url: string) {
  const manifest = readClientManifest() as Record<string, { file: string; src?: string }>;
  const translationFiles = new Set(Object.values(manifest).flatMap((chunk) => (chunk.src?.startsWith("locales/") ? [chunk.file] : [])));
  const seen: string[] = [];
  page.on("request", (request) => seen.push(new URL(request.url()).pathname));
  await page.goto(url);
  await page.waitForLoadState("networkidle");
  const assets = seen.filter((p) => p.startsWith("/assets/")).map((p) => p.slice(1));
  const sum = (files: string[]) => files.reduce((total, file) => total + served(file), 0);
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
    await measure("/dashboard", "/dashboard");
    await testInfo.attach("page-weight", { body: rows.join("\n"), contentType: "text/plain" });
    console.log(rows.join("\n"));
    expect(login.js).toBeGreaterThan(0);
    expect(supplier.js).toBeGreaterThan(0);
  });
});

/**
 * The respondent screens of the route map still scaffolded (remix.config.js `respondentScreens`), at sample addresses.
 * The task and survey pages (by link and signed in) are weighed with their data in respond.spec.ts.
 */
const RESPONDENT_PAGES = ["/transparency-portal/public/a1b2c3", "/reporting-portal/public/k3y", "/reporting-portal/public/request/t0ken"];

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
      await page.getByRole("button", { name: "Norsk" }).click();
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

/** The namespaces (`locales/<lng>/<ns>.json`) whose chunks the page requested, and the ones its root listed. */
async function namespacesOf(page: Page, url: string, click?: (page: Page) => Promise<void>) {
  const manifest = readClientManifest() as Record<string, { file: string; src?: string }>;
  const byFile = new Map(Object.values(manifest).flatMap((chunk) => (chunk.src?.startsWith("locales/") ? [[`/${chunk.file}`, chunk.src]] : [])));
  const loaded: string[] = [];
  page.on("request", (request) => {
    const src = byFile.get(new URL(request.url()).pathname);
    if (src) loaded.push(src.replace(/^locales\/|\.json$/g, ""));
  });
  await page.goto(url);
  if (click) await click(page);
  await page.waitForLoadState("networkidle");
  const listed = (await page.locator('meta[name="i18n-namespaces"]').getAttribute("content"))?.split(",") ?? [];
  return { loaded: loaded.sort(), listed };
}

/** Records every text the page shows from now on, so a test can tell that no translation key ever flashed. */
async function watchTexts(page: Page) {
  await page.evaluate(() => {
    const w = window as unknown as { __texts: string[] };
    w.__texts = [];
    new MutationObserver((records) => {
      const collect = (node: Node) => {
        if (node.nodeType === Node.TEXT_NODE) w.__texts.push(node.textContent ?? "");
        else node.childNodes.forEach(collect);
      };
      for (const record of records) record.addedNodes.forEach(collect);
      for (const record of records) if (record.type === "characterData") w.__texts.push(record.target.textContent ?? "");
    }).observe(document.body, { childList: true, subtree: true, characterData: true });
  });
  return async () => page.evaluate(() => (window as unknown as { __texts: string[] }).__texts);
}

/** A text that is a translation key, not a translation ('list.title', 'nav:screens.overview'). */
const KEY = /^([a-zA-Z]+:)?[a-z][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)+$/;

test.describe("translations per page", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "the browser's translation loading");

  test("the sign-in page loads only the common and sign-in texts", async ({ page }) => {
    const { loaded, listed } = await namespacesOf(page, "/login");
    expect(listed).toEqual(["auth", "common"]);
    expect(loaded).toEqual(["en/auth", "en/common"]);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sign in");
  });

  test("a Norwegian user's supplier screen loads its own namespaces in Norwegian only, never the credit terms", async ({ page }) => {
    const user = await createUser({ language: "no" });
    await signIn(page.context(), user);
    const { loaded, listed } = await namespacesOf(page, `/supplier?externalId=${supplierOrgNumber()}`);
    expect(listed).toEqual([
      "campaigns",
      "chat",
      "common",
      "connections",
      "credit",
      "creditReports",
      "financials",
      "nav",
      "people",
      "search",
      "supplier",
      "supplierTasks",
      "supplierWork",
      "taskStates",
    ]);
    expect(loaded).toEqual(listed.map((ns) => `no/${ns}`));
    expect(loaded.join()).not.toMatch(/creditTerms|en\//);
  });

  test("a navigation loads the next screen's texts before it shows, with no key on screen meanwhile", async ({ page, context }) => {
    await signIn(context, demoUser("analyst@demo.test"));
    const first = await namespacesOf(page, "/overview");
    expect(first.loaded).not.toContain("en/creditReports");
    const texts = await watchTexts(page);
    const manifest = readClientManifest() as Record<string, { file: string }>;
    const creditTexts = `/${manifest["locales/en/creditReports.json"].file}`;
    const chunk = page.waitForRequest((request) => new URL(request.url()).pathname === creditTexts);
    const nav = page.getByRole("navigation", { name: "Main navigation" });
    await nav.getByRole("button", { name: "Suppliers" }).hover();
    await nav.getByRole("link", { name: "Credit reports" }).click();
    await chunk;
    await expect(page).toHaveURL(/\/credit_reports$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Credit reports");
    expect((await texts()).filter((text) => KEY.test(text.trim()))).toEqual([]);
  });
});
