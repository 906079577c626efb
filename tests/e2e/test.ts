import { expect, test as base } from "@playwright/test";
import type { BrowserContext, Page } from "@playwright/test";

export { expect };
export type { Locator, Page } from "@playwright/test";

const HYDRATION_TIMEOUT_MS = 15_000;

/** Waits until React has hydrated the document (the page marks `<html data-js>`); a page that never does fails the test. */
async function waitForHydration(page: Page, action: string) {
  try {
    // A respondent page ships no script at all (route handle `scripts: false`): there is nothing to hydrate.
    await page.waitForFunction(
      () => document.contentType !== "text/html" || document.documentElement.hasAttribute("data-js") || !document.querySelector("script"),
      undefined,
      {
        timeout: HYDRATION_TIMEOUT_MS,
      },
    );
  } catch (error) {
    const reason = error instanceof Error ? error.message.split("\n")[0] : String(error);
    throw new Error(
      `${action}: the page at ${page.url()} did not hydrate within ${HYDRATION_TIMEOUT_MS / 1000} s (<html data-js> never appeared), ` +
        `so a JavaScript-on test would only reach the server's HTML. Look for a script that failed to load or a render error ` +
        `in the console errors of this test. (${reason})`,
    );
  }
}

/**
 * What the browser logs as an error but the test caused on purpose. The browser logs every 4xx answer
 * as "Failed to load resource: the server responded with a status of …"; when that answer is to a
 * document the test navigated to or a form posted (a 404 page, a refused form re-rendered with 400)
 * or to a fetch the page made (a fetcher's refused change, a download the test answers with 404),
 * the status is the app's deliberate answer, which the test asserts itself. A 4xx for a script,
 * style sheet, image or icon, a 5xx, and everything else still fail the test.
 */
function isDeliberateClientError(text: string, url: string, deliberateAnswers: Set<string>): boolean {
  const logged = /^Failed to load resource: the server responded with a status of (4\d\d)\b/.exec(text);
  return Boolean(logged && deliberateAnswers.has(`${logged[1]} ${url}`));
}

interface BrowserError {
  /** How the failure message shows it. */
  description: string;
  /** For a console error: its text and the URL it was logged for. */
  console?: { text: string; url: string };
}

/** Collects the console errors and uncaught page errors of every page of a browser context. */
function watchBrowserErrors(context: BrowserContext) {
  const seen: BrowserError[] = [];
  // "status URL" of every 4xx answer to a document or a fetch (one URL can answer 401, then 429).
  const deliberateAnswers = new Set<string>();
  context.on("response", (response) => {
    const status = response.status();
    if (status >= 400 && status < 500 && ["document", "fetch", "xhr"].includes(response.request().resourceType())) {
      deliberateAnswers.add(`${status} ${response.url()}`);
    }
  });
  context.on("console", (message) => {
    if (message.type() !== "error") return;
    const { url, lineNumber } = message.location();
    const where = url ? ` (${url}${lineNumber ? `:${lineNumber}` : ""})` : "";
    seen.push({ description: `console.error: ${message.text()}${where}`, console: { text: message.text(), url } });
  });
  context.on("weberror", (webError) => {
    const error = webError.error();
    seen.push({ description: `uncaught error in ${webError.page()?.url() ?? "a page"}: ${error.stack ?? error.message}` });
  });
  // Read at the end of the test, when every answer the errors refer to has arrived.
  return () =>
    seen
      .filter((error) => !(error.console && isDeliberateClientError(error.console.text, error.console.url, deliberateAnswers)))
      .map((error) => error.description);
}

/**
 * Playwright's `test`, plus two automatic fixtures:
 * - in the JavaScript-on project every `page.goto` and `page.reload` waits until React has hydrated the
 *   page (the page marks `<html data-js>`), and fails the test when it does not. Before hydration,
 *   typing, hovering and clicking reach only the server's HTML, which on a busy machine made
 *   JavaScript-on tests race — and a page that never hydrates must not pass as one that did.
 * - every console error and uncaught page error in the test's browser context fails the test at its end
 *   (a hydration mismatch, a chunk that failed to load, a broken icon), except the browser's own log of
 *   a 4xx answer the test asked for (see isDeliberateClientError).
 */
export const test = base.extend<{
  waitsForHydration: void;
  failsOnBrowserErrors: void;
  browserErrorsAllowed: RegExp[];
  allowBrowserErrors: (...patterns: RegExp[]) => void;
}>({
  browserErrorsAllowed: async ({ context }, use) => {
    void context;
    await use([]);
  },
  /**
   * A test that provokes browser errors on purpose (a server answering 500, a network failure, a
   * chunk that cannot load) names them here; they must match one of the patterns to be let through.
   */
  allowBrowserErrors: async ({ browserErrorsAllowed }, use) => {
    await use((...patterns) => browserErrorsAllowed.push(...patterns));
  },
  failsOnBrowserErrors: [
    async ({ context, browserErrorsAllowed }, use) => {
      const unexpectedErrors = watchBrowserErrors(context);
      await use();
      const left = unexpectedErrors().filter((error) => !browserErrorsAllowed.some((pattern) => pattern.test(error)));
      expect(left, "console errors or uncaught page errors during the test").toEqual([]);
    },
    { auto: true },
  ],
  waitsForHydration: [
    async ({ page, javaScriptEnabled }, use) => {
      if (javaScriptEnabled) {
        const goto = page.goto.bind(page);
        const reload = page.reload.bind(page);
        page.goto = async (url, options) => {
          const response = await goto(url, options);
          await waitForHydration(page, `page.goto(${JSON.stringify(url)})`);
          return response;
        };
        page.reload = async (options) => {
          const response = await reload(options);
          await waitForHydration(page, "page.reload()");
          return response;
        };
      }
      await use();
    },
    { auto: true },
  ],
});
