import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@server/db";
import { raiseNotifications } from "@server/monitoring/notify";
import type { JobContext } from "@server/jobs/types";
import { recomputeOverallRisk, RISK_RECOMPUTE_JOB, riskRecomputeJob } from "~/models/suppliers/overall-risk.server";
import { customerTask } from "~/models/tasks/task-workflow.server";
import { submitSurvey } from "~/models/tasks/respondent.server";
import { returnItem } from "~/models/tasks/task-list.server";
import { addSupplier } from "~/models/suppliers/connections.server";
import { company, follow, makeOrg, sentSurvey, surveyTemplate } from "./helpers/fixtures";

/** The stored overall risk (decision 036) and the places that recompute it. */

const AT = "2025-01-01T00:00:00.000Z";
const w = {} as { customer: number; other: number; supplier: number; companyId: number; template: number; version: number };

async function stored(parent: number, child: number, isDeleted = 0) {
  return db()
    .selectFrom("organization_connections")
    .select(["overall_risk", "overall_risk_band", "overall_risk_reasons", "overall_risk_at"])
    .where("parent_organization_id", "=", parent)
    .where("child_organization_id", "=", child)
    .where("is_deleted", "=", isDeleted)
    .executeTakeFirstOrThrow();
}

/** Runs the job the way the worker would, with the payload of the newest queued "risk.recompute" job. */
async function runQueuedRecompute(): Promise<void> {
  const job = await db().selectFrom("jobs").select(["id", "payload"]).where("type", "=", RISK_RECOMPUTE_JOB).orderBy("id", "desc").executeTakeFirstOrThrow();
  const ctx = {
    job: { id: job.id, type: RISK_RECOMPUTE_JOB, organizationId: null, userId: null, payload: JSON.parse(job.payload), attempt: 1 },
    progress: async () => {},
    signal: new AbortController().signal,
    finish: async <R>(write: (trx: never) => Promise<R>) => write(undefined as never),
  } as unknown as JobContext<unknown>;
  await riskRecomputeJob(ctx);
}

beforeAll(async () => {
  w.customer = await makeOrg("Risk Customer AS", "customer");
  w.other = await makeOrg("Risk Other AS", "customer");
  w.companyId = await company("987650001", "Risky Supplier AS");
  w.supplier = await makeOrg("Risky Supplier AS", "supplier", "987650001");
  await follow(w.customer, w.supplier);
  await follow(w.other, w.supplier);
  w.template = await surveyTemplate(w.customer, "Self-assessment");
  w.version = (await db().selectFrom("survey_template_versions").select("id").where("template_id", "=", w.template).executeTakeFirstOrThrow()).id;
  // A moderate credit score: the starting point is yellow.
  await db()
    .insertInto("financial_statements")
    .values({ company_id: w.companyId, financial_year: 2024, financial_risk_score: JSON.stringify({ finalScore: 40 }), updated_at: AT })
    .execute();
});

describe("recomputeOverallRisk", () => {
  it("stores the rule's score, band and reasons per followed supplier", async () => {
    await recomputeOverallRisk({ organizationId: w.customer });
    const row = await stored(w.customer, w.supplier);
    expect([row.overall_risk, row.overall_risk_band]).toEqual([40, "yellow"]);
    expect(JSON.parse(row.overall_risk_reasons!)).toEqual([{ kind: "line", key: "credit", value: 40 }]);
    expect(row.overall_risk_at).not.toBeNull();
    // Scoped to the organisation: the other follower was not computed.
    expect((await stored(w.other, w.supplier)).overall_risk).toBeNull();
  });

  it("raises the stored risk when the registry monitor raises a notification of risk 94 (through the queued job)", async () => {
    await recomputeOverallRisk({});
    const before = await db().selectFrom("jobs").select("id").where("type", "=", RISK_RECOMPUTE_JOB).execute();
    await raiseNotifications(db(), [
      {
        companyId: w.companyId,
        kind: "bankruptcy",
        type: "announcement",
        date: "2026-11-20",
        riskScore: 94,
        relevanceScore: 100,
        title: { en: "Serious", no: "Alvorlig" },
        description: { en: null, no: null },
        source: "Brønnøysundregistrene",
        url: null,
        dedupeKey: "registry:987650001:test:94",
      },
    ]);
    const after = await db().selectFrom("jobs").select(["id", "payload"]).where("type", "=", RISK_RECOMPUTE_JOB).execute();
    expect(after.length).toBe(before.length + 1);
    expect(JSON.parse(after.at(-1)!.payload)).toEqual({ companyIds: [w.companyId] });
    expect((await stored(w.customer, w.supplier)).overall_risk).toBe(40);
    await runQueuedRecompute();
    const row = await stored(w.customer, w.supplier);
    expect([row.overall_risk, row.overall_risk_band]).toEqual([94, "red"]);
    expect(JSON.parse(row.overall_risk_reasons!)[0]).toEqual({ kind: "line", key: "reputation", value: 94 });
    // Every follower sees a registry-wide notification.
    expect((await stored(w.other, w.supplier)).overall_risk).toBe(94);
  });

  it("leaves an unfollowed (deleted) connection and another organisation's suppliers untouched", async () => {
    const gone = await makeOrg("Gone Supplier AS", "supplier", "987650002");
    await company("987650002", "Gone Supplier AS");
    await follow(w.customer, gone, 1);
    const elsewhere = await makeOrg("Elsewhere AS", "supplier", null);
    await follow(w.other, elsewhere);
    await recomputeOverallRisk({ organizationId: w.customer });
    expect((await stored(w.customer, gone, 1)).overall_risk_at).toBeNull();
    expect((await stored(w.other, elsewhere)).overall_risk_at).toBeNull();
  });

  it("stores the registry facts the dashboard groups by: NACE section and compliance regimes, none without a company", async () => {
    const companyId = await company("987650077", "Big Software ASA");
    await db().updateTable("companies").set({ industry_code: "62.010", org_form: "ASA", number_of_employees: 300 }).where("id", "=", companyId).execute();
    await db()
      .insertInto("financial_statements")
      .values([
        { company_id: companyId, financial_year: 2023, total_assets: 10, operating_income: 10, updated_at: AT },
        { company_id: companyId, financial_year: 2024, total_assets: 300_000, operating_income: 600_000, updated_at: AT },
      ])
      .execute();
    const big = await makeOrg("Big Software ASA", "supplier", "987650077");
    const unregistered = await makeOrg("Unregistered Ltd", "supplier", null, "GB");
    await follow(w.customer, big);
    await follow(w.customer, unregistered);
    await recomputeOverallRisk({ organizationId: w.customer });
    const facts = async (child: number) =>
      db()
        .selectFrom("organization_connections")
        .select(["nace_section", "compliance_flags"])
        .where("parent_organization_id", "=", w.customer)
        .where("child_organization_id", "=", child)
        .executeTakeFirstOrThrow();
    // J (information and communication); ARP, Transparency Act (ASA) and CSRD (all three sizes, newest accounts).
    expect(await facts(big)).toEqual({ nace_section: "J", compliance_flags: 7 });
    expect(await facts(unregistered)).toEqual({ nace_section: null, compliance_flags: null });
  });

  it("does nothing for an empty id list", async () => {
    expect(await recomputeOverallRisk({ companyIds: [] })).toBe(0);
    expect(await recomputeOverallRisk({ childOrganizationIds: [] })).toBe(0);
  });
});

describe("the triggers", () => {
  it("a submitted survey changes the customer's stored risk, not the other organisation's", async () => {
    const supplier = await makeOrg("Survey Supplier AS", "supplier", null);
    await follow(w.customer, supplier);
    await follow(w.other, supplier);
    await recomputeOverallRisk({});
    expect((await stored(w.customer, supplier)).overall_risk).toBeNull();
    const st = {
      id: (await sentSurvey({ customer: w.customer, supplier, templateId: w.template, versionId: w.version, status: "opened", at: AT })).supplierTaskId,
    };
    const task = (await customerTask({ organizationId: w.customer, id: st.id }))!;
    await submitSurvey(
      { mode: "link", task, token: "t", email: null },
      { score: 20, language: "en", party: { actor: "respondent", userId: null, name: "Kari" } },
    );
    const row = await stored(w.customer, supplier);
    // 100 − 20 = 80: the self-assessment line decides.
    expect([row.overall_risk, row.overall_risk_band]).toEqual([80, "red"]);
    expect(JSON.parse(row.overall_risk_reasons!)).toEqual([{ kind: "line", key: "selfAssessment", value: 80 }]);
    expect((await stored(w.other, supplier)).overall_risk).toBeNull();

    // Returned for rework, the score no longer counts: nothing is known of this supplier again.
    const submitted = (await customerTask({ organizationId: w.customer, id: st.id }))!;
    await returnItem({
      task: submitted,
      party: { actor: "customer", userId: null, name: "Ola" },
      comment: "Please add the policy.",
      origin: "http://localhost",
    });
    expect((await stored(w.customer, supplier)).overall_risk).toBeNull();
  });

  it("following a supplier stores its risk at once, flags included", async () => {
    const id = await company("987650003", "Bankrupt Supplier AS");
    await db().updateTable("companies").set({ is_bankrupt: 1, is_active: 0 }).where("id", "=", id).execute();
    const connection = await addSupplier({ organizationId: w.customer, userId: null, orgNumber: "987650003" });
    const row = await db()
      .selectFrom("organization_connections")
      .select(["overall_risk", "overall_risk_reasons"])
      .where("id", "=", connection.id)
      .executeTakeFirstOrThrow();
    expect(row.overall_risk).toBe(100);
    expect(JSON.parse(row.overall_risk_reasons!)).toEqual([{ kind: "flag", flag: "bankrupt", value: 100 }]);
  });
});
