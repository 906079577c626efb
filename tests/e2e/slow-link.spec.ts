import type { CDPSession, Page } from "@playwright/test";
import { expect, test } from "./test";
import { demoUser, expectWithinTimeBudget, queryDb, signIn } from "./helpers";

/**
 * Slow links: the sign-in page, the supplier screen and a respondent
 * page on an emulated 400 kbit/s (down and up), 400 ms latency link, JavaScript
 * on, empty cache. Chromium only (CDP Network.emulateNetworkConditions).
 *
 * What is measured, in milliseconds from the start of the navigation:
 * - ttfb: the first byte of the HTML;
 * - fcp: the browser's first contentful paint;
 * - usable: the page's own content painted — the first animation frame after
 *   every element of `ready` is in the document (a frame runs only once the
 *   render-blocking style sheet is in, so this is when they can be seen), and
 *   never before the first contentful paint. For the supplier screen: the
 *   header (h1) and the risk overview. This is what the 2.5 s budget is on;
 * - hydrated: React has hydrated the page (the page marks <html data-js>),
 *   i.e. the JavaScript enhancements work; reported, not budgeted.
 * Each page's figures are in the test's annotations and printed as a table.
 */

const LINK = {
  offline: false,
  latency: 400,
  downloadThroughput: 400_000 / 8,
  uploadThroughput: 400_000 / 8,
};

/** The supplier screen must be usable within this. */
const SUPPLIER_USABLE_BUDGET_MS = 2_500;
interface Timings {
  ttfb: number;
  fcp: number | null;
  usable: number;
  hydrated: number | null;
}

declare global {
  interface Window {
    __slowLink?: { usable: number | null; hydrated: number | null; fcp: number | null };
  }
}

/** Runs in the page before any of its scripts: notes when `ready` is painted and when React has hydrated. */
function watchReady(ready: string[]) {
  const marks: { usable: number | null; hydrated: number | null; fcp: number | null } = { usable: null, hydrated: null, fcp: null };
  window.__slowLink = marks;
  new PerformanceObserver((list) => {
    const paint = list.getEntriesByName("first-contentful-paint")[0];
    if (paint) marks.fcp = paint.startTime;
  }).observe({ type: "paint", buffered: true });
  let waiting = false;
  const check = () => {
    if (marks.hydrated == null && document.documentElement?.hasAttribute("data-js")) marks.hydrated = performance.now();
    if (marks.usable != null || waiting || !ready.every((selector) => document.querySelector(selector))) return;
    waiting = true;
    // The next frame renders them; its callbacks run just before that paint, the task after it just after.
    requestAnimationFrame(() => setTimeout(() => (marks.usable = performance.now()), 0));
  };
  new MutationObserver(check).observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: ["data-js"] });
  check();
}

async function throttle(page: Page): Promise<CDPSession> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
  await cdp.send("Network.emulateNetworkConditions", LINK);
  return cdp;
}

/**
 * Opens `url` on the slow link and returns its timings. It navigates from the page itself rather than with
 * page.goto, which in the JavaScript-on project also waits for hydration (about 8 s on this link): the test
 * stops once the page is usable, unless SLOW_LINK_HYDRATION=1 asks for the hydration time too.
 */
async function measure(page: Page, baseURL: string, url: string, ready: string[]): Promise<Timings> {
  await page.addInitScript(watchReady, ready);
  await throttle(page);
  const target = new URL(url, baseURL).href;
  await page.evaluate((href) => window.location.assign(href), target);
  await page.waitForURL(target, { waitUntil: "commit" });
  await page.waitForFunction(() => window.__slowLink?.usable != null && window.__slowLink.fcp != null, undefined, { timeout: 15_000 });
  if (process.env.SLOW_LINK_HYDRATION === "1") await page.waitForFunction(() => window.__slowLink?.hydrated != null, undefined, { timeout: 20_000 });
  return page.evaluate(() => {
    const navigation = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
    const marks = window.__slowLink ?? { usable: 0, hydrated: null, fcp: null };
    const fcp = marks.fcp;
    return {
      ttfb: Math.round(navigation.responseStart),
      fcp: fcp == null ? null : Math.round(fcp),
      usable: Math.round(Math.max(marks.usable ?? 0, fcp ?? 0)),
      hydrated: marks.hydrated == null ? null : Math.round(marks.hydrated),
    };
  });
}

function record(name: string, url: string, timings: Timings) {
  const line = `${name} (${url}): ttfb ${timings.ttfb} ms, fcp ${timings.fcp ?? "–"} ms, usable ${timings.usable} ms, hydrated ${timings.hydrated ?? "–"} ms`;
  test.info().annotations.push({ type: "slow-link", description: line });
  console.log(`[slow link 400 kbit/s, 400 ms] ${line}`);
}

test.describe("on a 400 kbit/s, 400 ms link (JavaScript on)", () => {
  test.skip(
    ({ javaScriptEnabled, browserName }) => !javaScriptEnabled || browserName !== "chromium",
    "network emulation through Chromium's CDP, with JavaScript",
  );
  // A page takes a few seconds on this link; the bound leaves room for a busy machine without hiding a hang.
  test.describe.configure({ timeout: 45_000 });

  test("the sign-in page", async ({ page, baseURL }) => {
    const timings = await measure(page, baseURL ?? "", "/login", ["main form button[type=submit]"]);
    record("sign-in", "/login", timings);
    await expect(page.getByRole("button", { name: "Sign in" })).toBeVisible();
  });

  test(`the supplier screen: header and risk overview painted (budget ${SUPPLIER_USABLE_BUDGET_MS} ms)`, async ({ page, context, baseURL }) => {
    await signIn(context, demoUser("analyst@demo.test"));
    const [company] = queryDb<{ org_number: string }>(`
      select c.org_number from companies c
      where exists (select 1 from financial_statements f where f.company_id = c.id and f.financial_risk_score is not null)
        and exists (select 1 from announcements a where a.company_id = c.id)
      order by c.org_number limit 1`);
    const url = `/supplier?externalId=${company.org_number}`;
    const timings = await measure(page, baseURL ?? "", url, ["main h1", "#risk-overview"]);
    record("supplier screen", url, timings);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(page.getByRole("region", { name: "Risk overview", exact: true })).toBeVisible();
    expectWithinTimeBudget(timings.usable, SUPPLIER_USABLE_BUDGET_MS, "header and risk overview painted (ms)");
  });

  test("a respondent page", async ({ page, context, baseURL }) => {
    // A survey sent to the demo supplier, opened by its user (respond.spec.ts times every respondent page, JavaScript off).
    await signIn(context, demoUser("supplier@demo.test"));
    const url = "/tasks/surveys/1";
    const timings = await measure(page, baseURL ?? "", url, ["main h1"]);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    record("respondent page", url, timings);
  });
});
