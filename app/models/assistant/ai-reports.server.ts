import { db } from "@server/db";
import { interpolate, osloDate } from "@server/providers/credit/pdf-report";
import { renderReportPdf } from "@server/providers/llm/report-pdf";
import reportEn from "../../../locales/en/aiReports.json";
import reportNo from "../../../locales/no/aiReports.json";
import { defaultLlmProviderName, LlmProviderError } from "@server/providers/llm";
import type { AssistantViewer } from "@server/providers/llm/types";
import {
  effectiveStatus,
  REPORT_ANNOUNCEMENTS,
  REPORT_BOARD,
  REPORT_COMMENTS,
  REPORT_FIGURES,
  REPORT_NOTIFICATIONS,
  REPORT_TASKS,
  REPORT_YEARS,
  type ReportStatus,
  type SupplierReportData,
} from "~/models/assistant/ai-report";
import { findProvider } from "~/models/assistant/conversations.server";
import { CREDIT_REPORT_TEXTS } from "~/models/credit/credit-reports.server";
import { connectionForSupplier } from "~/models/suppliers/connections.server";
import { figureValue } from "~/models/registry/financials";
import { followedConnectionId } from "~/models/suppliers/follows.server";
import { announcementWindowStart, financialRisk, legalRisk, operationalRisk, reputationRisk, REPUTATION_MIN_SCORE } from "~/models/suppliers/risk";
import { listSuppliers } from "~/models/suppliers/supplier-list.server";
import { loadSupplierScreen } from "~/models/suppliers/supplier-screen-registry.server";
import { submittedSurveyResponses } from "~/models/tasks/survey-responses.server";
import { tasksForSupplier } from "~/models/tasks/tasks-for-supplier.server";

/**
 * Supplier reports (/ai/reports; decision 029): the data of one supplier the organisation follows, gathered with
 * the supplier screen's own loaders, written into markdown by the configured assistant provider, and kept per organisation.
 * Every query is scoped by the session's organisation; another organisation's report, or a supplier it does not follow, is
 * not found.
 */

const round = (n: number | null | undefined) => (n == null || !Number.isFinite(n) ? null : Math.round(n));

/** The report data of a supplier the organisation follows; null when it follows none under this number (or the registry has none). */
export async function gatherReportData(input: { viewer: AssistantViewer; orgNumber: string; now?: Date }): Promise<SupplierReportData | null> {
  const { viewer } = input;
  const now = input.now ?? new Date();
  if (!/^\d{9}$/.test(input.orgNumber)) return null;
  const followed = await followedConnectionId({ organizationId: viewer.organizationId, supplier: { orgNumber: input.orgNumber } });
  if (!followed) return null;
  const [screen, tasks, surveys, connection, organization] = await Promise.all([
    loadSupplierScreen({ externalId: input.orgNumber, trees: [], viewer: { organizationId: viewer.organizationId, language: viewer.language }, now }),
    tasksForSupplier({ organizationId: viewer.organizationId, supplierOrganizationId: followed.supplierOrganizationId }),
    submittedSurveyResponses({ organizationId: viewer.organizationId, supplierOrganizationId: followed.supplierOrganizationId }),
    connectionForSupplier({ organizationId: viewer.organizationId, supplierOrganizationId: followed.supplierOrganizationId }),
    db().selectFrom("organizations").select("name").where("id", "=", viewer.organizationId).executeTakeFirst(),
  ]);
  if (!screen) return null;
  const c = screen.company;

  // The supplier screen's risk overview (components/supplier/RiskOverview), with what each score rests on.
  const today = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const rules = screen.announcements.map((a) => ({ date: a.date, risk: a.risk, risk_scores: a.risk_scores }));
  const scored = screen.statements.find((s) => s.financial_risk_score?.finalScore != null);
  const credit = financialRisk(screen.statements);
  const counted = screen.notifications.filter((n) => n.risk_score >= REPUTATION_MIN_SCORE);
  const windowStart = announcementWindowStart(today).getTime();
  const inWindow = screen.announcements.filter((a) => {
    const at = Date.parse(a.date);
    return !Number.isNaN(at) && at >= windowStart;
  });
  const risk = {
    credit: round(credit?.finalScore),
    geography: round(screen.country?.risk_score),
    reputation: round(reputationRisk(screen.notifications)),
    operational: round(operationalRisk(rules, today)),
    legal: round(legalRisk(rules, today)),
  };
  const known = Object.values(risk).filter((v): v is number => v != null);
  const countryName = screen.country ? (viewer.language === "no" ? screen.country.country_name_no : screen.country.country_name) : null;
  const comments = connection?.comments ?? [];
  const address = [c.street_address, [c.street_postal_code, c.street_postal_area].filter(Boolean).join(" ")].filter(Boolean).join(", ");

  return {
    generatedAt: now.toISOString(),
    organizationName: organization?.name ?? null,
    registry: {
      name: c.legal_name,
      orgNumber: c.organization_id,
      countryCode: c.country_code,
      countryName,
      orgForm: c.type,
      orgFormDescription: c.type_description,
      industryCode: c.industry_code,
      industryDescription: c.industry_description,
      purpose: c.purpose,
      employees: c.number_of_employees,
      established: c.establishment_date,
      address: address || null,
      website: c.website,
      isActive: c.is_active,
      bankruptcyDate: c.date_of_bankruptcy,
      lei: c.lei,
    },
    compliance: screen.compliance,
    risk: { ...risk, highest: known.length ? Math.max(...known) : null },
    riskReasons: {
      credit:
        scored && credit
          ? {
              year: scored.financial_year,
              capital: round(credit.capitalRisk),
              liquidity: round(credit.liquidityRisk),
              coverage: round(credit.coverageRisk),
              profitability: round(credit.profitabilityRisk),
              growth: round(credit.growthRisk),
            }
          : null,
      geography: screen.country ? { country: countryName ?? c.country_code, score: round(screen.country.risk_score) } : null,
      reputation: { notifications: counted.length, highest: counted.length ? Math.max(...counted.map((n) => n.risk_score)) : null },
      operational: { announcements: inWindow.filter((a) => a.risk_scores?.operational_risk != null).length },
      legal: { announcements: inWindow.filter((a) => a.risk_scores?.legal_risk != null).length },
    },
    financials: {
      currency: "NOK",
      years: screen.statements.slice(0, REPORT_YEARS).map((s) => ({
        year: s.financial_year,
        values: Object.fromEntries(REPORT_FIGURES.map((f) => [f, round(figureValue(s, f))])),
      })),
    },
    board: screen.board.slice(0, REPORT_BOARD).map((m) => ({ name: m.name, position: m.position ?? "" })),
    boardTotal: screen.board.length,
    announcements: screen.announcements.slice(0, REPORT_ANNOUNCEMENTS).map((a) => ({ date: a.date, type: a.type, detail: a.detail, risk: a.risk })),
    announcementsTotal: screen.announcements.length,
    notifications: screen.notifications
      .slice(0, REPORT_NOTIFICATIONS)
      .map((n) => ({ date: n.date, title: n.content.title, riskScore: n.risk_score, type: n.type })),
    notificationsTotal: screen.notifications.length,
    tasks: tasks.slice(0, REPORT_TASKS).map((x) => ({ title: x.complianceTaskTemplate?.title ?? x.title, submitted: x.is_submitted, updatedAt: x.updatedAt })),
    surveys: surveys.map((s) => ({ title: s.surveyTemplate.title, updatedAt: s.updatedAt })),
    // Newest first: the latest word on the supplier matters most.
    comments: [...comments]
      .reverse()
      .slice(0, REPORT_COMMENTS)
      .map((x) => ({ text: x.text, createdAt: x.createdAt, by: x.user?.email ?? null })),
    commentsTotal: comments.length,
    tags: connection?.tags.map((x) => x.tag.title) ?? [],
    isPriority: connection?.is_priority ?? false,
    isDueDiligence: connection?.is_due_diligence ?? false,
  };
}

/* ---------------- choosing a supplier ---------------- */

export const CHOICES_LIMIT = 50;

/** The organisation's followed suppliers with a registry number matching the search, by name (the generate form's choices). */
export async function supplierChoices(input: { organizationId: number; language: "en" | "no"; q: string }) {
  const result = await listSuppliers({
    organizationId: input.organizationId,
    q: input.q,
    language: input.language,
    sort: "name",
    page: 1,
    pageSize: CHOICES_LIMIT,
  });
  return {
    total: result.total,
    choices: result.rows.filter((r) => r.orgNumber).map((r) => ({ orgNumber: r.orgNumber!, name: r.name })),
  };
}

/* ---------------- the organisation's reports ---------------- */

export interface AiReportListItem {
  id: number;
  orgNumber: string;
  companyName: string;
  language: "en" | "no";
  provider: string;
  status: ReportStatus;
  createdAt: string;
  finishedAt: string | null;
  by: string | null;
}

function listQuery(organizationId: number) {
  return db().selectFrom("ai_reports as r").leftJoin("users as u", "u.id", "r.user_id").where("r.organization_id", "=", organizationId);
}

function toItem(r: {
  id: number;
  org_number: string;
  company_name: string;
  language: "en" | "no";
  provider: string;
  status: ReportStatus;
  created_at: string;
  finished_at: string | null;
  email: string | null;
}): AiReportListItem {
  const item = {
    id: r.id,
    orgNumber: r.org_number,
    companyName: r.company_name,
    language: r.language,
    provider: r.provider,
    status: r.status,
    createdAt: r.created_at,
    finishedAt: r.finished_at,
    by: r.email,
  };
  return { ...item, status: effectiveStatus(item) };
}

const LIST_COLUMNS = ["r.id", "r.org_number", "r.company_name", "r.language", "r.provider", "r.status", "r.created_at", "r.finished_at", "u.email"] as const;

export const REPORTS_PAGE_SIZE = 20;

/** The organisation's reports, newest first, one page. */
export async function listReports(input: { organizationId: number; page: number; pageSize?: number }) {
  const pageSize = input.pageSize ?? REPORTS_PAGE_SIZE;
  const counted = await listQuery(input.organizationId)
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  const total = Number(counted.n);
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const page = Math.min(Math.max(1, input.page), pageCount);
  const rows = await listQuery(input.organizationId)
    .select([...LIST_COLUMNS])
    .orderBy("r.created_at", "desc")
    .orderBy("r.id", "desc")
    .limit(pageSize)
    .offset((page - 1) * pageSize)
    .execute();
  return { rows: rows.map(toItem), total, page, pageSize, pageCount };
}

export async function getReport(input: { organizationId: number; id: number }): Promise<(AiReportListItem & { markdown: string | null }) | null> {
  const row = await listQuery(input.organizationId)
    .select([...LIST_COLUMNS, "r.markdown"])
    .where("r.id", "=", input.id)
    .executeTakeFirst();
  return row ? { ...toItem(row), markdown: row.markdown } : null;
}

/** Removes the organisation's report; false when it has none with this id. */
export async function deleteReport(input: { organizationId: number; id: number }): Promise<boolean> {
  const result = await db().deleteFrom("ai_reports").where("organization_id", "=", input.organizationId).where("id", "=", input.id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/* ---------------- generating ---------------- */

export type GenerateResult = { notFollowed: true } | { id: number; status: "ready" | "failed" };

/**
 * Writes a report on a followed supplier, synchronously: the row is kept as "generating" while the provider writes (its
 * own timeout bounds a model), then "ready" with the markdown or "failed" with the error's kind. The local provider takes
 * milliseconds. `signal`: the request's, so a client that goes away stops a model mid-way (the report is then failed).
 */
export async function generateReport(input: {
  viewer: AssistantViewer;
  orgNumber: string;
  signal: AbortSignal;
  providerName?: string;
  now?: Date;
}): Promise<GenerateResult> {
  const data = await gatherReportData({ viewer: input.viewer, orgNumber: input.orgNumber, now: input.now });
  if (!data) return { notFollowed: true };
  const providerName = input.providerName ?? defaultLlmProviderName();
  const inserted = await db()
    .insertInto("ai_reports")
    .values({
      organization_id: input.viewer.organizationId,
      user_id: input.viewer.userId,
      org_number: data.registry.orgNumber,
      company_name: data.registry.name,
      language: input.viewer.language,
      provider: providerName,
      status: "generating",
      created_at: new Date().toISOString(),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const finish = (values: { status: "ready" | "failed"; markdown?: string; error?: string }) =>
    db()
      .updateTable("ai_reports")
      .set({ ...values, finished_at: new Date().toISOString() })
      .where("id", "=", inserted.id)
      .where("organization_id", "=", input.viewer.organizationId)
      .execute();
  try {
    const found = await findProvider(providerName);
    if (!("provider" in found)) throw new LlmProviderError("not_configured", found.message);
    let markdown = "";
    for await (const chunk of found.provider.writeReport({ data, viewer: input.viewer, signal: input.signal })) markdown += chunk;
    if (!markdown.trim()) throw new LlmProviderError("invalid_response", "The provider wrote an empty report.");
    await finish({ status: "ready", markdown });
    return { id: inserted.id, status: "ready" };
  } catch (error) {
    const kind = error instanceof LlmProviderError ? error.kind : error instanceof Error && error.name === "AbortError" ? "aborted" : "error";
    console.error("supplier report failed", { id: inserted.id, provider: providerName, kind, message: error instanceof Error ? error.message : String(error) });
    await finish({ status: "failed", error: kind });
    return { id: inserted.id, status: "failed" };
  }
}

/* ---------------- the PDF ---------------- */

const PDF_TEXTS = { en: reportEn, no: reportNo } as const;

/** A ready report of the organisation as a PDF in the report's own language; null when it has no such ready report. */
export async function reportPdf(input: { organizationId: number; id: number }): Promise<{ fileName: string; bytes: Buffer } | null> {
  const report = await getReport(input);
  if (!report || report.status !== "ready" || !report.markdown) return null;
  const texts = PDF_TEXTS[report.language];
  const created = new Date(report.createdAt);
  const day = osloDate(created);
  const values = {
    name: report.companyName,
    orgNumber: report.orgNumber,
    date: day,
    provider: texts.page.providers[report.provider === "openai" ? "openai" : "local"],
  };
  const bytes = await renderReportPdf({
    markdown: report.markdown,
    language: report.language,
    createdAt: created,
    title: interpolate(texts.report.title, values),
    subject: `${report.companyName} · ${report.orgNumber}`,
    footer: interpolate(texts.pdf.footer, values),
    pageLabel: texts.pdf.page,
    productName: CREDIT_REPORT_TEXTS[report.language].productName,
  });
  return { fileName: interpolate(texts.pdf.fileName, values), bytes };
}
