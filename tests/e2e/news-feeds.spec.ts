import { expect, test } from "./test";
import { createUser, expectAccessible, queryDb, signIn } from "./helpers";
import { E2E_PORT } from "./env";

/**
 * /notifications/feeds: the organisation's administrator adds a news feed and sees it, is told what to do
 * about an address that cannot be used, checks a feed at once, disables and removes one — with JavaScript and without.
 */

test("the administrator adds a feed, checks it now, disables it and removes it", async ({ page, context, javaScriptEnabled }) => {
  const admin = await createUser({ accessLevel: 3 });
  await signIn(context, admin);
  await page.goto("/notifications/feeds");
  await expect(page.getByRole("heading", { name: "News feeds", level: 1 })).toBeVisible();
  await expect(page.getByText("No feeds yet.")).toBeVisible();

  // An address the monitor cannot read is refused with what to do about it.
  await page.getByLabel("Feed address (URL)").fill("https://user:secret@news.example.com/rss.xml");
  await page.getByRole("button", { name: "Add feed" }).click();
  await expect(page.getByText("Remove the user name and password from the address: feeds that need a sign-in cannot be read.")).toBeVisible();
  expect(queryDb("select id from news_feeds where organization_id = ?", admin.organizationId)).toEqual([]);

  await page.getByLabel("Feed address (URL)").fill("https://news.example.com/rss.xml");
  await page.getByLabel("Name (optional)").fill("Example Business News");
  await page.getByRole("button", { name: "Add feed" }).click();
  await expect(page.getByText("Feed added. It is read within the hour, or now with Check now.")).toBeVisible();
  const list = page.getByRole("list", { name: "News feeds" });
  await expect(list.getByRole("heading", { name: "Example Business News" })).toBeVisible();
  await expect(list.getByText("Not read yet")).toBeVisible();

  // The app's own recorded demo feed: read at once, nothing followed in this organization, so no match.
  await page.getByLabel("Feed address (URL)").fill(`http://localhost:${E2E_PORT}/demo-feeds/naeringsliv.xml`);
  await page.getByRole("button", { name: "Add feed" }).click();
  await expect(list.getByRole("listitem")).toHaveCount(2);
  // The demo route serves a feed only while a seeded one names it; the demo customer's are seeded at start.
  await page.getByRole("button", { name: `Check http://localhost:${E2E_PORT}/demo-feeds/naeringsliv.xml now` }).click();
  await expect(page.getByRole("status").filter({ hasText: "Demo Næringslivsnytt (fictional) was read. Items read: 4." })).toBeVisible();
  await expect(list.getByRole("heading", { name: "Demo Næringslivsnytt (fictional)" })).toBeVisible();

  await page.getByRole("button", { name: "Disable Example Business News" }).click();
  await expect(page.getByText("Feed disabled.")).toBeVisible();
  await expect(list.getByRole("listitem").filter({ hasText: "Example Business News" }).getByText("Disabled", { exact: true })).toBeVisible();
  if (javaScriptEnabled) await expectAccessible(page);
  await page.setViewportSize({ width: 360, height: 800 });
  await page.screenshot({ path: `.cache/screenshots-news-feeds/feeds-360-${javaScriptEnabled ? "js" : "nojs"}.png`, fullPage: true });
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(scrollWidth).toBeLessThanOrEqual(360);

  await page.getByRole("link", { name: "Remove Example Business News" }).click();
  const dialog = page.getByRole("alertdialog", { name: "Please confirm" });
  await expect(dialog.getByText("Are you sure you want to remove this feed? The notifications it has already raised are kept.")).toBeVisible();
  if (javaScriptEnabled) await expectAccessible(page);
  await dialog.getByRole("button", { name: "Remove" }).click();
  await expect(page.getByText("Feed removed.")).toBeVisible();
  await expect(list.getByRole("listitem")).toHaveCount(1);
  expect(queryDb("select title from news_feeds where organization_id = ?", admin.organizationId)).toEqual([{ title: "Demo Næringslivsnytt (fictional)" }]);
});

test("in Norwegian, and closed to a level-2 user", async ({ page, context }) => {
  const admin = await createUser({ accessLevel: 3, language: "no" });
  await signIn(context, admin);
  await page.goto("/notifications/feeds");
  await expect(page.getByRole("heading", { name: "Nyhetsstrømmer", level: 1 })).toBeVisible();
  await page.getByLabel("Strømmens adresse (URL)").fill("ftp://nyheter.example.com/rss");
  await page.getByRole("button", { name: "Legg til strøm" }).click();
  await expect(page.getByText("Skriv inn en adresse som begynner med http:// eller https://.")).toBeVisible();

  const analyst = await createUser({ accessLevel: 2 });
  await context.clearCookies();
  await signIn(context, analyst);
  const response = await page.goto("/notifications/feeds");
  expect(response?.status()).toBe(403);
});
