import { expect, test, type Page } from "./test";
import { createUser, demoImport, demoUser, expectAccessible, queryDb, richCompanyOrgNumber, signIn } from "./helpers";

/**
 * axe on every main screen at a desktop (1440 px) and a phone (360 px) width,
 * JavaScript on: no serious or critical violations (keyboard and
 * contrast). Contrast is fixed in the theme (app/tailwind.css), so one
 * failing element here means a theme colour, not a page, is wrong.
 */

const WIDTHS = [
  { name: "desktop", width: 1440, height: 900 },
  { name: "phone", width: 360, height: 780 },
] as const;

/** A registry company the analyst's organisation follows (the edit slide-over needs a connection). */
function followedCompany(organizationId: number): string {
  const [row] = queryDb<{ org_number: string }>(
    `select o.org_number from organization_connections oc
     join organizations o on o.id = oc.child_organization_id
     join companies c on c.org_number = o.org_number
     where oc.parent_organization_id = ? and oc.is_deleted = 0
     order by oc.id limit 1`,
    organizationId,
  );
  if (!row) throw new Error("the analyst's organisation follows no registry company");
  return row.org_number;
}

function caseFile(organizationId: number): number {
  const [row] = queryDb<{ id: number }>("select id from casefiles where organization_id = ? order by id limit 1", organizationId);
  if (!row) throw new Error("the analyst's organisation has no case file");
  return row.id;
}

interface Screen {
  name: string;
  signedIn: boolean;
  /** Opens the screen and waits until what axe should see is there. */
  open: (page: Page, analyst: { organizationId: number }) => Promise<void>;
}

const SCREENS: Screen[] = [
  {
    name: "landing",
    signedIn: false,
    open: async (page) => {
      await page.goto("/");
    },
  },
  {
    name: "login",
    signedIn: false,
    open: async (page) => {
      await page.goto("/login");
      await expect(page.getByRole("button", { name: "Sign in" })).toBeVisible();
    },
  },
  {
    name: "signup",
    signedIn: false,
    open: async (page) => {
      await page.goto("/signup");
    },
  },
  {
    name: "overview",
    signedIn: true,
    open: async (page) => {
      await page.goto("/overview");
    },
  },
  {
    name: "suppliers",
    signedIn: true,
    open: async (page) => {
      await page.goto("/suppliers");
      await expect(page.getByRole("table").first()).toBeVisible();
    },
  },
  {
    name: "supplier screen",
    signedIn: true,
    open: async (page) => {
      await page.goto(`/supplier?externalId=${richCompanyOrgNumber()}`);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    },
  },
  {
    name: "financial statements",
    signedIn: true,
    open: async (page) => {
      await page.goto(`/supplier?externalId=${richCompanyOrgNumber()}&view=statements`);
      await expect(page.getByRole("table").first()).toBeVisible();
    },
  },
  {
    name: "edit connection slide-over",
    signedIn: true,
    open: async (page, analyst) => {
      await page.goto(`/supplier?externalId=${followedCompany(analyst.organizationId)}&edit=connection`);
      await expect(page.getByRole("dialog", { name: "Edit Supplier Connection" })).toBeVisible();
    },
  },
  {
    name: "credit reports",
    signedIn: false,
    open: async (page) => {
      // A user of its own with one order, so the table (and its headers) is there whatever other tests ordered.
      const user = await createUser({ accessLevel: 2 });
      queryDb(
        `insert into credit_reports (organization_id, user_id, company_name, reg_no, country_code, language, provider, provider_id, file_name,
           storage_key, file_size, price_nok, idempotency_key, created_at)
         values (?, ?, 'E2E KONTRAST AS', '899000033', 'NO', 'EN', 'local', 'local:899000033', 'e2e-contrast.pdf', ?, 1024, 0, ?, ?) returning id`,
        user.organizationId,
        user.id,
        `e2e-contrast-${user.id}`,
        `e2e-contrast-${user.id}`,
        new Date().toISOString(),
      );
      await signIn(page.context(), user);
      await page.goto("/credit_reports");
      await expect(page.getByRole("main").getByRole("row").filter({ hasText: "E2E KONTRAST AS" })).toBeVisible();
    },
  },
  {
    name: "credit dialog",
    signedIn: true,
    open: async (page) => {
      await page.goto("/overview?dialog=credit");
      await expect(page.getByRole("dialog")).toBeVisible();
    },
  },
  {
    name: "case files",
    signedIn: true,
    open: async (page) => {
      await page.goto("/casefiles");
      await expect(page.getByRole("table").first()).toBeVisible();
    },
  },
  {
    name: "a case file",
    signedIn: true,
    open: async (page, analyst) => {
      await page.goto(`/casefiles/${caseFile(analyst.organizationId)}`);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    },
  },
  {
    name: "files",
    signedIn: true,
    open: async (page) => {
      await page.goto("/files");
    },
  },
  {
    name: "files panel",
    signedIn: true,
    open: async (page) => {
      await page.goto("/overview?panel=files");
      await expect(page.getByRole("dialog", { name: "Files" })).toBeVisible();
    },
  },
  {
    name: "file preview",
    signedIn: true,
    open: async (page) => {
      await page.goto(`/files/${demoImport().fileId}/preview`);
      await expect(page.getByRole("dialog")).toBeVisible();
    },
  },
  {
    name: "file analysis",
    signedIn: true,
    open: async (page) => {
      await page.goto(`/files/${demoImport().fileId}/analyze`);
      await expect(page.getByRole("dialog")).toBeVisible();
    },
  },
  {
    name: "import report",
    signedIn: true,
    open: async (page) => {
      await page.goto(`/suppliers/imports/${demoImport().importId}`);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    },
  },
  {
    name: "LEI dialog (record, parent, children)",
    signedIn: true,
    open: async (page) => {
      await page.goto("/overview?dialog=lei&lei=5299001ERX0K10IZUL40&children=1");
      await expect(page.getByRole("dialog", { name: "LEI search" }).getByRole("heading", { name: /Fraport/ })).toBeVisible();
    },
  },
  {
    name: "LEI dialog (results)",
    signedIn: true,
    open: async (page) => {
      await page.goto("/overview?dialog=lei&leiq=bloomberg");
      await expect(
        page
          .getByRole("dialog", { name: "LEI search" })
          .getByRole("link", { name: /Bloomberg/ })
          .first(),
      ).toBeVisible();
    },
  },
  {
    name: "notifications panel",
    signedIn: true,
    open: async (page) => {
      await page.goto("/overview?panel=notifications&nMin=0&nDays=365");
      await expect(page.getByRole("dialog", { name: "Notifications" }).getByRole("listitem").first()).toBeVisible();
    },
  },
  {
    name: "notifications page",
    signedIn: true,
    open: async (page) => {
      await page.goto("/notifications?minRiskScore=0&lookbackDays=365");
      await expect(page.getByRole("heading", { name: "Notifications", level: 1 })).toBeVisible();
    },
  },
  {
    name: "search results",
    signedIn: true,
    open: async (page) => {
      await page.goto("/search?q=aker");
      await expect(page.getByRole("link", { name: /AKER/ }).first()).toBeVisible();
    },
  },
  {
    name: "search dropdown",
    signedIn: true,
    open: async (page) => {
      await page.goto("/overview");
      const box = page.getByRole("combobox", { name: "Search" });
      // On a phone the search may sit behind a button that opens it.
      if (!(await box.isVisible())) await page.getByRole("link", { name: "Open search", exact: true }).click();
      await box.fill("aker");
      await expect(page.getByRole("option").first()).toBeVisible();
      await box.press("ArrowDown");
      await expect(page.getByRole("option", { selected: true })).toHaveCount(1);
    },
  },
];

for (const size of WIDTHS) {
  test.describe(`axe at ${size.width} px`, () => {
    test.use({ viewport: { width: size.width, height: size.height } });

    for (const screen of SCREENS) {
      test(`${screen.name}: no serious or critical violations`, async ({ page, context, javaScriptEnabled }) => {
        test.skip(!javaScriptEnabled, "axe-core runs inside the page; the markup is the same with JavaScript off");
        const analyst = demoUser("analyst@demo.test");
        if (screen.signedIn) await signIn(context, analyst);
        await screen.open(page, analyst);
        await expectAccessible(page);
      });
    }
  });
}
