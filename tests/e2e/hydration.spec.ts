import { expect, test } from "./test";
import { demoUser, signIn } from "./helpers";

/**
 * `<html data-js>` says the page is interactive, and the tests (and the CSS) rely on it. React hydrates the content of
 * a Suspense boundary after the frame around it, so the mark must come from inside the page: at the moment it is set,
 * the page's own heading must already belong to React. A mark set by the frame fires first, and a click right after it
 * reached the server's HTML (React then threw "a Suspense boundary received an update before it finished hydrating").
 */
test.describe("the hydration mark", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "a mark of scripts");

  for (const { path, signedIn } of [
    { path: "/login", signedIn: false },
    { path: "/overview", signedIn: true },
    { path: "/supplier?externalId=811600792", signedIn: true },
  ]) {
    test(`${path}: when <html data-js> appears, the page's heading is already hydrated`, async ({ page, context }) => {
      if (signedIn) await signIn(context, demoUser("analyst@demo.test"));
      await page.addInitScript(() => {
        const record = () => {
          const heading = document.querySelector("h1");
          (window as unknown as { __pageHydratedAtMark?: boolean }).__pageHydratedAtMark = Boolean(
            heading && Object.keys(heading).some((key) => key.startsWith("__reactFiber$")),
          );
        };
        new MutationObserver((changes, observer) => {
          if (!document.documentElement.hasAttribute("data-js")) return;
          observer.disconnect();
          record();
        }).observe(document, { attributes: true, attributeFilter: ["data-js"], subtree: true });
      });
      await page.goto(path);
      expect(await page.evaluate(() => (window as unknown as { __pageHydratedAtMark?: boolean }).__pageHydratedAtMark)).toBe(true);
    });
  }
});
