import { expect, test as base } from "@playwright/test";

export { expect };
export type { Locator, Page } from "@playwright/test";

/**
 * Playwright's `test`, plus: in the JavaScript-on project every `page.goto`
 * and `page.reload` waits until React has hydrated the page (the root marks
 * `<html data-js>`). Before that, typing, hovering and clicking reach only the
 * server's HTML, which on a busy machine made JavaScript-on tests race.
 */
export const test = base.extend<{ waitsForHydration: void }>({
  waitsForHydration: [
    async ({ page, javaScriptEnabled }, use) => {
      if (javaScriptEnabled) {
        const hydrated = () =>
          page
            .waitForFunction(() => document.contentType !== "text/html" || document.documentElement.hasAttribute("data-js"), undefined, { timeout: 15_000 })
            .catch(() => undefined);
        const goto = page.goto.bind(page);
        const reload = page.reload.bind(page);
        page.goto = async (url, options) => {
          const response = await goto(url, options);
          await hydrated();
          return response;
        };
        page.reload = async (options) => {
          const response = await reload(options);
          await hydrated();
          return response;
        };
      }
      await use();
    },
    { auto: true },
  ],
});
