import { expect, test } from "./test";
import { leiHref } from "../../app/components/lei/links";
import { pickDemoSuppliers } from "../../server/seed/demo-suppliers";
import { DEMO_SUPPLIERS_WITHOUT_LEI, demoLei } from "../../server/seed/lei";
import { demoUser, queryDb, signIn } from "./helpers";

/**
 * The supplier screen shows a company's LEI in the company overview, as a link that opens the LEI dialog on its
 * record; a company without an LEI shows none. With and without JavaScript.
 */

const demo = pickDemoSuppliers().map((u) => u.organisasjonsnummer);
// Demo supplier 0 heads the demo's deepest ownership chain: its LEI record has an ultimate parent and children.
const WITH_LEI = demo[0];
const WITHOUT_LEI = demo[DEMO_SUPPLIERS_WITHOUT_LEI[0]];

test.beforeEach(async ({ context }) => {
  await signIn(context, demoUser("analyst@demo.test"));
});

const overview = (page: import("./test").Page) => page.getByRole("region", { name: "Company overview", exact: true });

test("a demo supplier with an LEI shows it, linking to the LEI dialog on its record", async ({ page }) => {
  const [row] = queryDb<{ lei: string }>("select lei from lei_records where registered_as = ? and jurisdiction = 'NO'", WITH_LEI);
  expect(row?.lei).toBe(demoLei(WITH_LEI));
  const path = `/supplier?externalId=${WITH_LEI}`;
  await page.goto(path);
  const section = overview(page);
  await expect(section.getByText("LEI", { exact: true })).toBeVisible();
  const link = section.getByRole("link", { name: row.lei, exact: true });
  await expect(link).toBeVisible();
  const href = await link.getAttribute("href");
  expect(href).toBe(leiHref("/supplier", `?externalId=${WITH_LEI}`, { lei: row.lei }));
  expect(href).toContain(`dialog=lei&lei=${row.lei}`);
  await link.click();
  await expect(page).toHaveURL(new RegExp(`[?&]externalId=${WITH_LEI}&dialog=lei&lei=${row.lei}$`));
});

test("a demo supplier without an LEI shows none", async ({ page }) => {
  expect(queryDb("select lei from lei_records where registered_as = ?", WITHOUT_LEI)).toEqual([]);
  await page.goto(`/supplier?externalId=${WITHOUT_LEI}`);
  const section = overview(page);
  await expect(section.getByText("Organization ID", { exact: true })).toBeVisible();
  await expect(section.getByText("LEI", { exact: true })).toHaveCount(0);
});
