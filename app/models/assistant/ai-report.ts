import type { RegistryFacts, RiskOverview } from "~/models/assistant/assistant";
import type { ComplianceFlags } from "~/models/suppliers/compliance";
import type { FigureField } from "~/models/registry/financials";

/**
 * A supplier report (/ai/reports): the data one followed supplier's report is written from, shared by the model
 * that gathers it (ai-reports.server.ts) and the providers that write it (server/providers/llm: server/ never imports
 * app/*.server). Pure: types, limits and the report's status rules.
 */

export const REPORT_STATUSES = ["generating", "ready", "failed"] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

/** The figures of the report's financial table, in this order. */
export const REPORT_FIGURES: readonly FigureField[] = ["operating_income", "operating_profit", "ebitda", "net_income", "equity", "total_assets"];
/** Recent years of the financial table. */
export const REPORT_YEARS = 5;
export const REPORT_BOARD = 15;
export const REPORT_ANNOUNCEMENTS = 10;
export const REPORT_NOTIFICATIONS = 10;
export const REPORT_COMMENTS = 10;
export const REPORT_TASKS = 20;

/** A report still "generating" after this long was cut off (the server stopped mid-way): it is shown as failed. */
export const STALE_GENERATING_MS = 10 * 60_000;

export function effectiveStatus(report: { status: ReportStatus; createdAt: string }, now: Date = new Date()): ReportStatus {
  if (report.status !== "generating") return report.status;
  return now.getTime() - Date.parse(report.createdAt) > STALE_GENERATING_MS ? "failed" : "generating";
}

export interface ReportRiskReasons {
  /** The newest scored statement's risk parts (0–100 each). */
  credit: {
    year: number;
    capital: number | null;
    liquidity: number | null;
    coverage: number | null;
    profitability: number | null;
    growth: number | null;
  } | null;
  geography: { country: string; score: number | null } | null;
  /** Notifications scoring 20 or more that count for reputation. */
  reputation: { notifications: number; highest: number | null };
  /** Announcements of the last two years that carry an operational / a legal score. */
  operational: { announcements: number };
  legal: { announcements: number };
}

export interface SupplierReportData {
  /** ISO time the data was read. */
  generatedAt: string;
  /** The organisation whose data it is (the report says whose view it gives). */
  organizationName: string | null;
  registry: RegistryFacts & { countryName: string | null; lei: string | null };
  compliance: ComplianceFlags;
  risk: RiskOverview;
  riskReasons: ReportRiskReasons;
  financials: {
    currency: string;
    /** Newest first, at most REPORT_YEARS; amounts in thousands of the currency, operating margin none here. */
    years: Array<{ year: number; values: Partial<Record<FigureField, number | null>> }>;
  };
  board: Array<{ name: string; position: string }>;
  boardTotal: number;
  announcements: Array<{ date: string; type: string; detail: string | null; risk: number }>;
  announcementsTotal: number;
  notifications: Array<{ date: string; title: string; riskScore: number; type: string }>;
  notificationsTotal: number;
  tasks: Array<{ title: string; submitted: boolean; updatedAt: string }>;
  surveys: Array<{ title: string; updatedAt: string }>;
  comments: Array<{ text: string; createdAt: string; by: string | null }>;
  commentsTotal: number;
  tags: string[];
  isPriority: boolean;
  isDueDiligence: boolean;
}

/**
 * The report's rendered HTML (from renderMarkdown, so its tags are marked's own) with each table in a box that scrolls
 * sideways on a narrow screen, so the page itself never does. The box is a focusable region named by the section heading
 * above it, so the keyboard can scroll it (WCAG 2.1.1; axe scrollable-region-focusable) — what TableScroll does for the
 * app's own tables.
 */
export function scrollableTables(html: string, idPrefix = "report-section"): string {
  let sections = 0;
  let current: string | null = null;
  return html.replace(/<h2>|<table>|<\/table>/g, (tag) => {
    if (tag === "<h2>") {
      current = `${idPrefix}-${++sections}`;
      return `<h2 id="${current}">`;
    }
    if (tag === "</table>") return "</table></div>";
    const label = current ? ` aria-labelledby="${current}"` : "";
    return `<div class="report-table" role="region" tabindex="0"${label}><table>`;
  });
}
