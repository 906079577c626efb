import type { LoaderFunctionArgs } from "@remix-run/node";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@server/db";
import { lastMonths, organizationOverview } from "~/models/accounts/organization-overview.server";
import { loader } from "~/routes/_app.my-organization.overview";
import { follow, makeOrg, sentSurvey, signedIn, surveyTemplate } from "../helpers/fixtures";
import { call, get } from "../helpers/requests";

/**
 * /my-organization/overview against a real SQLite file: the profile and counts of the user's own organisation only,
 * the credit spending per Oslo month for the last twelve months (zero months included), and who sees what.
 */

type Fn = (a: LoaderFunctionArgs) => unknown;
const w = {} as { orgA: number; orgB: number; admin: string; viewer: string; respondent: string };
const page = (token?: string) =>
  call(loader as Fn, { request: get("/my-organization/overview", token ? { Cookie: `token=${token}` } : {}), params: {}, context: {} });

const report = (organizationId: number, createdAt: string, price = 80) => ({
  organization_id: organizationId,
  user_id: null,
  company_name: "Spend AS",
  reg_no: "912000000",
  country_code: "NO",
  language: "EN" as const,
  provider: "local" as const,
  provider_id: "912000000",
  file_name: "r.pdf",
  storage_key: `k-${organizationId}-${createdAt}`,
  file_size: 1,
  price_nok: price,
  idempotency_key: `i-${organizationId}-${createdAt}`,
  created_at: createdAt,
});

beforeAll(async () => {
  w.orgA = await makeOrg("Overview Customer A", "customer", "987654321");
  w.orgB = await makeOrg("Overview Customer B", "customer");
  const supplier = await makeOrg("Overview Supplier AS", "supplier", "911222333");
  const gone = await makeOrg("Unfollowed AS", "supplier");
  await follow(w.orgA, supplier);
  await follow(w.orgA, gone, 1);
  await follow(w.orgB, supplier);
  w.admin = await signedIn("admin@ov.test", w.orgA, 3);
  w.viewer = await signedIn("viewer@ov.test", w.orgA, 1);
  await signedIn("left@ov.test", w.orgA, 2);
  await db().updateTable("users").set({ deactivated_at: "2026-01-01T00:00:00.000Z" }).where("email", "=", "left@ov.test").execute();
  w.respondent = await signedIn("respondent@ov.test", supplier, 3);
  const templateId = await surveyTemplate(w.orgA, "Self-assessment");
  const version = await db().selectFrom("survey_template_versions").select("id").where("template_id", "=", templateId).executeTakeFirstOrThrow();
  await sentSurvey({ customer: w.orgA, supplier, templateId, versionId: version.id, at: "2026-03-01T00:00:00.000Z" });
  await db()
    .insertInto("credit_reports")
    .values([
      // 31 March 23:30 UTC is 1 April in Oslo.
      report(w.orgA, "2026-03-31T23:30:00.000Z"),
      report(w.orgA, "2026-04-10T10:00:00.000Z"),
      report(w.orgA, "2026-02-10T10:00:00.000Z", 160),
      // Thirteen months back: outside the window.
      report(w.orgA, "2025-03-10T10:00:00.000Z"),
      report(w.orgB, "2026-04-10T10:00:00.000Z"),
    ])
    .execute();
});

describe("lastMonths", () => {
  it("counts back over a year's end in Oslo time", () => {
    expect(lastMonths(new Date("2026-01-31T23:30:00.000Z"), 3)).toEqual(["2026-02", "2026-01", "2025-12"]);
    expect(lastMonths(new Date("2026-04-15T12:00:00.000Z"))).toHaveLength(12);
    expect(lastMonths(new Date("2026-04-15T12:00:00.000Z")).at(-1)).toBe("2025-05");
  });
});

describe("the organisation's overview", () => {
  it("counts only the organisation's own active members, followed suppliers and open items, and sums the months", async () => {
    const overview = await organizationOverview({ organizationId: w.orgA, now: new Date("2026-04-15T12:00:00.000Z") });
    expect(overview).toMatchObject({
      name: "Overview Customer A",
      orgNumber: "987654321",
      members: 2,
      followedSuppliers: 1,
      openTasks: 0,
      openSurveys: 1,
    });
    expect(overview!.spending).toHaveLength(12);
    expect(overview!.spending.slice(0, 3)).toEqual([
      { month: "2026-04", count: 2, totalNok: 160 },
      { month: "2026-03", count: 0, totalNok: 0 },
      { month: "2026-02", count: 1, totalNok: 160 },
    ]);
    expect(overview!.spending.reduce((sum, m) => sum + m.count, 0)).toBe(3);
  });

  it("every member opens it; the credit spending and the registry link only from level 2", async () => {
    const asAdmin = (await (await page(w.admin)).json()) as { overview: { spending: unknown[] | null }; linksRegistry: boolean };
    expect([asAdmin.overview.spending?.length, asAdmin.linksRegistry]).toEqual([12, true]);
    const viewer = await page(w.viewer);
    expect(viewer.status).toBe(200);
    const asViewer = (await viewer.json()) as { overview: { name: string; spending: unknown[] | null }; linksRegistry: boolean };
    expect([asViewer.overview.name, asViewer.overview.spending, asViewer.linksRegistry]).toEqual(["Overview Customer A", null, false]);
    const asRespondent = (await (await page(w.respondent)).json()) as { overview: { name: string; spending: unknown } };
    expect([asRespondent.overview.name, asRespondent.overview.spending]).toEqual(["Overview Supplier AS", null]);
    const visitor = await page();
    expect([visitor.status, visitor.headers.get("Location")]).toEqual([302, "/"]);
  });
});
