import { expect, test } from "./test";

/** `/robots.txt` is a robots file, not the app's HTML page: crawlers are kept away from the app and its token links. */
test("/robots.txt answers a plain-text robots file that disallows everything", async ({ request }, testInfo) => {
  test.skip(testInfo.project.name !== "js-on", "an HTTP check; once is enough");
  const response = await request.get("/robots.txt");
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toMatch(/^text\/plain/);
  const text = await response.text();
  expect(text).toMatch(/^User-agent: \*$/m);
  expect(text).toMatch(/^Disallow: \/$/m);
  expect(text).not.toContain("<html");
});
