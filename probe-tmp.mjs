import { chromium } from "@playwright/test";
const base = "http://127.0.0.1:3311";
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox","--headless"] });
const page = await browser.newPage();
await page.goto(base + "/login");
await page.fill("input[name=email]", "admin@demo.test");
await page.fill("input[name=password]", "Demo-pass-1");
await Promise.all([page.waitForNavigation(), page.click("main form button[type=submit]")]);
const urls = process.argv.slice(2);
for (const u of urls) {
  const reqs = [];
  page.on("request", (r) => reqs.push(r.url()));
  await page.goto(base + u);
  await page.waitForTimeout(1500);
  const meta = await page.getAttribute('meta[name="i18n-namespaces"]', "content");
  const loaded = await page.evaluate(() => performance.getEntriesByType("resource").map((e) => e.name).filter((n) => n.includes("/assets/")));
  console.log(u, "meta:", meta);
  console.log(loaded.map((n) => n.replace(/.*assets\//, "")).join(" "));
  page.removeAllListeners("request");
}
await browser.close();
