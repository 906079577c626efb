import { sql } from "kysely";
import { db } from "@server/db";
import type { AssistantViewer } from "@server/providers/llm/types";
import {
  supplierLink,
  type AssistantData,
  type ChangeItem,
  type CountryRef,
  type RegistryFacts,
  type RiskOverview,
  type RiskyRow,
  type SupplierBrief,
  type SupplierFacts,
  type SupplierFilters,
  type SupplierListAnswer,
  type SupplierMatch,
} from "~/models/assistant/assistant";
import { companyComplianceFlags } from "~/models/suppliers/compliance";
import { financialSummary, type FigureField } from "~/models/registry/financials";
import { followedConnectionId } from "~/models/suppliers/follows.server";
import { getConnection } from "~/models/suppliers/connections.server";
import { countNotifications, listNotifications } from "~/models/notifications/notification-list.server";
import { DEFAULT_MIN_RISK_SCORE, notificationsForCompany } from "~/models/notifications/notifications.server";
import {
  announcements as registryAnnouncements,
  board,
  country,
  financialStatements,
  findCompany,
  searchCompanies,
  type CompanyRow,
} from "~/models/registry/registry.server";
import { isCeo, isChairman } from "~/models/suppliers/risk";
import { riskOverviewLines, type OverallRiskReason } from "~/models/suppliers/overall-risk";
import { exportSuppliers, followedConnections, normaliseSearch, supplierNameSortKey, type SupplierRow } from "~/models/suppliers/supplier-list.server";
import { tasksForSupplier } from "~/models/tasks/tasks-for-supplier.server";

/**
 * The data the assistant answers from: the local rule-based assistant and the model's tools both read here.
 * Every function takes the viewer and reads only what the viewer's organisation owns (its connections, tags, comments,
 * tasks, notifications) plus public registry facts. Organisation-owned facts about a supplier are given only when the
 * organisation follows it; a company it does not follow gets its registry facts and nothing else (registry data is
 * public to level 2, as on the supplier screen).
 *
 * Results are plain, compact JSON values: the local assistant words them, the tools hand them to the model as they are.
 */

function brief(
  row: Pick<SupplierRow, "name" | "orgNumber" | "country" | "isPriority" | "isDueDiligence" | "supplierOrganizationId"> & { tags: Array<{ title: string }> },
): SupplierBrief {
  return {
    name: row.name,
    orgNumber: row.orgNumber,
    countryCode: row.country.code,
    countryName: row.country.name,
    isPriority: row.isPriority,
    isDueDiligence: row.isDueDiligence,
    tags: row.tags.map((t) => t.title),
    link: row.orgNumber ? supplierLink(row.orgNumber, row.supplierOrganizationId) : null,
  };
}

/** The organisation's followed suppliers (active connections) matching the filters, by name. */
export async function followedSuppliers(viewer: AssistantViewer, filters: SupplierFilters = {}): Promise<SupplierRow[]> {
  const rows = await exportSuppliers({
    organizationId: viewer.organizationId,
    priority: filters.priority ?? null,
    dueDiligence: filters.dueDiligence ?? null,
    tagId: filters.tagId ?? null,
    language: viewer.language,
    sort: "name",
  });
  const code = filters.countryCode?.toUpperCase();
  return code ? rows.filter((r) => r.country.code === code) : rows;
}

export async function listFollowedSuppliers(viewer: AssistantViewer, filters: SupplierFilters = {}, limit = 25): Promise<SupplierListAnswer> {
  const rows = await followedSuppliers(viewer, filters);
  return { total: rows.length, suppliers: rows.slice(0, limit).map(brief) };
}

/* ---------------- risk ---------------- */

const round = (n: number | null) => (n == null ? null : Math.round(n));

/** The supplier screen's risk overview of a registry company, with the viewer organisation's notifications. */
export async function riskOverview(
  viewer: AssistantViewer,
  company: Pick<CompanyRow, "id" | "org_number" | "country_code">,
  now = new Date(),
): Promise<RiskOverview> {
  const [statements, news, geography, notifications] = await Promise.all([
    financialStatements(company.id),
    registryAnnouncements(company.id),
    country(company.country_code),
    notificationsForCompany({ orgNumber: company.org_number, minRiskScore: DEFAULT_MIN_RISK_SCORE, viewer }),
  ]);
  const today = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  // The supplier screen's lines (riskOverviewLines, decision 036); the assistant gives the five registry lines.
  const lines = riskOverviewLines(
    { statements, countryRiskScore: geography?.risk_score, notifications: notifications ?? [], announcements: news, surveys: [] },
    today,
  );
  const scores = {
    credit: round(lines.credit),
    geography: round(lines.geography),
    reputation: round(lines.reputation),
    operational: round(lines.operational),
    legal: round(lines.legal),
  };
  const known = Object.values(scores).filter((v): v is number => v != null);
  return { ...scores, highest: known.length ? Math.max(...known) : null };
}

/**
 * The organisation's followed suppliers by their stored overall risk (decision 036), highest first, not yet computed last,
 * ties by name: one query on the index (parent_organization_id, is_deleted, overall_risk), with the total, the country's
 * name and the tags of the rows shown; nothing is computed per supplier.
 */
export async function highestRiskSuppliers(
  viewer: AssistantViewer,
  input: { limit?: number; filters?: SupplierFilters } = {},
): Promise<{ total: number; suppliers: RiskyRow[] }> {
  const filters = input.filters ?? {};
  const organizationId = viewer.organizationId;
  const countryName = viewer.language === "no" ? ("countries.name_no" as const) : ("countries.name_en" as const);
  let query = followedConnections({ organizationId, tagId: filters.tagId, priority: filters.priority, dueDiligence: filters.dueDiligence }).leftJoin(
    "countries",
    (join) => join.on((eb) => eb("countries.iso2", "=", eb.fn<string>("upper", ["o.country_code"]))),
  );
  if (filters.countryCode) query = query.where(sql<string>`upper(o.country_code)`, "=", filters.countryCode.toUpperCase());
  const rows = await query
    .select([
      "o.id as supplierOrganizationId",
      "o.name",
      "o.org_number as orgNumber",
      "o.country_code as countryCode",
      `${countryName} as countryName`,
      "c.is_priority",
      "c.is_due_diligence",
      "c.overall_risk",
      "c.overall_risk_band",
      "c.overall_risk_reasons",
      sql<number>`count(*) over ()`.as("total"),
      // The organisation's own tags on the connection, by title.
      sql<string>`(select json_group_array(title) from (select t.title from organization_connection_tags ct
        join organization_tags t on t.id = ct.tag_id
        where ct.connection_id = c.id and t.organization_id = ${organizationId} order by t.title collate nocase, t.id))`.as("tags"),
    ])
    // SQLite sorts NULL lowest: not yet computed comes last in a descending order.
    .orderBy("c.overall_risk", "desc")
    .orderBy(supplierNameSortKey(sql.ref("o.name")))
    .orderBy("c.id")
    .limit(input.limit ?? 5)
    .execute();
  return {
    total: Number(rows[0]?.total ?? 0),
    suppliers: rows.map((r) => ({
      ...brief({
        name: r.name,
        orgNumber: r.orgNumber,
        country: { code: r.countryCode.toUpperCase(), name: r.countryName ?? null },
        isPriority: r.is_priority === 1,
        isDueDiligence: r.is_due_diligence === 1,
        tags: jsonArray<string>(r.tags).map((title) => ({ title })),
        supplierOrganizationId: r.supplierOrganizationId,
      }),
      risk: { overall: r.overall_risk, band: r.overall_risk_band, reasons: jsonArray<OverallRiskReason>(r.overall_risk_reasons) },
    })),
  };
}

/** A stored JSON array, or [] when missing or unreadable. */
function jsonArray<T>(text: string | null): T[] {
  if (!text) return [];
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? (value as T[]) : [];
  } catch {
    return [];
  }
}

/* ---------------- one supplier ---------------- */

export const SUPPLIER_FIGURES: readonly FigureField[] = ["operating_income", "operating_profit", "net_income", "equity", "total_assets"];
const MAX_BOARD = 8;
const MAX_ANNOUNCEMENTS = 5;
const MAX_COMMENTS = 5;
const MAX_TASKS = 10;

function registryFacts(c: CompanyRow): RegistryFacts {
  const address = [c.street_address?.split("\n").join(", "), [c.street_postal_code, c.street_postal_area].filter(Boolean).join(" ")].filter(Boolean).join(", ");
  return {
    name: c.legal_name,
    orgNumber: c.org_number,
    countryCode: c.country_code,
    orgForm: c.org_form,
    orgFormDescription: c.org_form_description,
    industryCode: c.industry_code,
    industryDescription: c.industry_description,
    purpose: c.purpose ?? c.activity,
    employees: c.number_of_employees,
    established: c.establishment_date,
    address: address || null,
    website: c.website,
    isActive: c.is_active === 1,
    bankruptcyDate: c.date_of_bankruptcy,
  };
}

/** What the assistant may say about one company: registry facts always, the organisation's own work only when it follows it. */
export async function supplierFacts(viewer: AssistantViewer, orgNumber: string, now = new Date()): Promise<SupplierFacts | null> {
  const company = await findCompany(orgNumber);
  if (!company) return null;
  const followed = await followedConnectionId({ organizationId: viewer.organizationId, supplier: { orgNumber: company.org_number } });
  const registry = registryFacts(company);
  const link = supplierLink(company.org_number, followed?.supplierOrganizationId ?? null);
  if (!followed) return { followed: false, link, registry, work: null };
  const [statements, risk, currentBoard, news, tasks, connection] = await Promise.all([
    financialStatements(company.id),
    riskOverview(viewer, company, now),
    board(company.id, "current"),
    registryAnnouncements(company.id),
    tasksForSupplier({ organizationId: viewer.organizationId, supplierOrganizationId: followed.supplierOrganizationId }),
    getConnection({ organizationId: viewer.organizationId, id: followed.connectionId }),
  ]);
  const newest = statements[0];
  const summary = financialSummary(statements, SUPPLIER_FIGURES, viewer.language);
  const open = tasks.filter((t) => !t.is_submitted);
  const comments = connection?.comments ?? [];
  return {
    followed: true,
    link,
    registry,
    work: {
      compliance: companyComplianceFlags(company, newest),
      risk,
      financials: summary
        ? {
            year: summary.year,
            previousYear: summary.previousYear,
            currency: newest?.currency ?? "NOK",
            figures: summary.figures.map((f) => ({
              field: f.field,
              value: f.value,
              previous: f.previous,
              changePercent: f.change ? Math.round(f.change.percent * 10) / 10 : null,
            })),
          }
        : null,
      ceo: currentBoard.find((m) => isCeo(m.position))?.name ?? null,
      chair: currentBoard.find((m) => isChairman(m.position))?.name ?? null,
      board: currentBoard.slice(0, MAX_BOARD).map((m) => ({ name: m.name, position: m.position })),
      boardTotal: currentBoard.length,
      announcements: news.slice(0, MAX_ANNOUNCEMENTS).map((a) => ({ date: a.date, type: a.type, detail: a.detail, risk: a.risk })),
      announcementsTotal: news.length,
      openTasks: open.slice(0, MAX_TASKS).map((t) => ({ title: t.complianceTaskTemplate?.title ?? t.title, updatedAt: t.updatedAt })),
      submittedTasks: tasks.length - open.length,
      tags: connection?.tags.map((t) => t.tag.title) ?? [],
      // Newest first: the latest word on the supplier matters most.
      comments: [...comments]
        .reverse()
        .slice(0, MAX_COMMENTS)
        .map((c) => ({ text: c.text, createdAt: c.createdAt, by: c.user?.email ?? null })),
      commentsTotal: comments.length,
      isPriority: connection?.is_priority ?? false,
      isDueDiligence: connection?.is_due_diligence ?? false,
    },
  };
}

/* ---------------- recognising names ---------------- */

/** Words of a company name that say nothing about which company it is. */
const GENERIC_NAME_WORDS = new Set([
  "as",
  "asa",
  "sa",
  "ba",
  "da",
  "ans",
  "nuf",
  "enk",
  "ks",
  "aksjeselskap",
  "aksjeselskapet",
  "aktieselskapet",
  "norge",
  "norway",
  "norsk",
  "norske",
  "og",
  "i",
  "&",
  "co",
  "the",
  "of",
  "and",
  "service",
  "gruppen",
  "group",
  "holding",
]);

function words(text: string): string[] {
  return normaliseSearch(text)
    .text.split(/[^\p{L}\p{N}&]+/u)
    .filter(Boolean);
}

/**
 * Followed suppliers named in free text: every distinctive word of the supplier's name occurs in the text
 * ("vinmonopolet" names Aktieselskapet Vinmonopolet). Only the organisation's own suppliers: a stray word of a question
 * never turns into some registry company.
 */
export async function followedSuppliersNamedIn(viewer: AssistantViewer, text: string): Promise<SupplierMatch[]> {
  const said = new Set(words(text));
  const digits = text.match(/\b\d{3}\s?\d{3}\s?\d{3}\b/g)?.map((d) => d.replace(/\s/g, "")) ?? [];
  const rows = await followedSuppliers(viewer);
  const out: Array<SupplierMatch & { weight: number }> = [];
  for (const r of rows) {
    const distinctive = words(r.name).filter((w) => !GENERIC_NAME_WORDS.has(w) && w.length > 1);
    const byNumber = r.orgNumber != null && digits.includes(r.orgNumber);
    if (byNumber || (distinctive.length > 0 && distinctive.every((w) => said.has(w)))) {
      out.push({
        name: r.name,
        orgNumber: r.orgNumber ?? "",
        followed: true,
        localId: r.supplierOrganizationId,
        weight: byNumber ? 1000 : distinctive.join(" ").length,
      });
    }
  }
  // The longest name wins: "Norsk Gjenvinning" over a supplier named "Gjenvinning".
  return out
    .filter((m) => m.orgNumber)
    .sort((a, b) => b.weight - a.weight)
    .map(({ weight: _w, ...m }) => m);
}

/**
 * A company named by the user: an organisation number, or a name looked up in the registry's search index (prefix
 * words, so "vinmonopolet" finds Aktieselskapet Vinmonopolet). The organisation's own suppliers come first.
 */
export async function findSupplier(viewer: AssistantViewer, term: string): Promise<SupplierMatch[]> {
  const clean = term.trim().slice(0, 200);
  if (!clean) return [];
  const named = await followedSuppliersNamedIn(viewer, clean);
  if (named.length) return named;
  const { hits } = await searchCompanies(clean, 10);
  if (!hits.length) return [];
  const followed = await Promise.all(hits.map((h) => followedConnectionId({ organizationId: viewer.organizationId, supplier: { orgNumber: h.id } })));
  return hits
    .map((h, i) => ({ name: h.name, orgNumber: h.id, followed: followed[i] != null, localId: followed[i]?.supplierOrganizationId ?? null }))
    .sort((a, b) => Number(b.followed) - Number(a.followed));
}

/* ---------------- tags, countries ---------------- */

export async function organizationTags(viewer: AssistantViewer): Promise<Array<{ id: number; title: string; suppliers: number }>> {
  const rows = await db()
    .selectFrom("organization_tags as t")
    .leftJoin("organization_connection_tags as ct", "ct.tag_id", "t.id")
    .leftJoin("organization_connections as c", (join) => join.onRef("c.id", "=", "ct.connection_id").on("c.is_deleted", "=", 0))
    .select(["t.id", "t.title", (eb) => eb.fn.count<number>("c.id").as("n")])
    .where("t.organization_id", "=", viewer.organizationId)
    .groupBy(["t.id", "t.title"])
    .orderBy(sql`t.title collate nocase`)
    .execute();
  return rows.map((r) => ({ id: r.id, title: r.title, suppliers: Number(r.n) }));
}

/** The organisation's tag named in the text (case-insensitive, whole words), the longest title first. */
export async function tagNamedIn(viewer: AssistantViewer, text: string): Promise<{ id: number; title: string } | null> {
  const said = ` ${words(text).join(" ")} `;
  const tags = await organizationTags(viewer);
  const hit = tags
    .map((t) => ({ t, w: words(t.title).join(" ") }))
    .filter(({ w }) => w && said.includes(` ${w} `))
    .sort((a, b) => b.w.length - a.w.length)[0];
  return hit ? { id: hit.t.id, title: hit.t.title } : null;
}

/** A country named in the text, in English or Norwegian (whole words), or a two-letter code given as one. */
export async function countryNamedIn(text: string, language: "en" | "no"): Promise<CountryRef | null> {
  const said = ` ${words(text).join(" ")} `;
  const rows = await db().selectFrom("countries").select(["iso2", "name_en", "name_no"]).execute();
  let best: { row: (typeof rows)[number]; len: number } | null = null;
  for (const row of rows) {
    for (const name of [row.name_en, row.name_no]) {
      const w = words(name).join(" ");
      if (w && said.includes(` ${w} `) && (!best || w.length > best.len)) best = { row, len: w.length };
    }
  }
  if (!best) return null;
  return { code: best.row.iso2, name: language === "no" ? best.row.name_no : best.row.name_en };
}

/** A country by ISO code or name (for the tools' arguments). */
export async function countryByCodeOrName(value: string, language: "en" | "no"): Promise<CountryRef | null> {
  const v = value.trim();
  if (/^[a-z]{2}$/i.test(v)) {
    const row = await db().selectFrom("countries").select(["iso2", "name_en", "name_no"]).where("iso2", "=", v.toUpperCase()).executeTakeFirst();
    return row ? { code: row.iso2, name: language === "no" ? row.name_no : row.name_en } : null;
  }
  return countryNamedIn(v, language);
}

/* ---------------- what changed ---------------- */

/** The organisation's notifications of the last `days` days (what its notification list shows), newest first. */
export async function recentChanges(
  viewer: AssistantViewer,
  input: { days?: number; limit?: number; now?: Date; supplierOrgNumber?: string | null } = {},
): Promise<{ days: number; total: number; items: ChangeItem[] }> {
  const days = input.days ?? 7;
  const filters = { lookbackDays: days, minRiskScore: DEFAULT_MIN_RISK_SCORE, type: "all" as const, supplier: input.supplierOrgNumber ?? null };
  const [total, rows] = await Promise.all([
    countNotifications(viewer, filters, input.now),
    listNotifications(viewer, filters, { limit: input.limit ?? 10 }, input.now),
  ]);
  return {
    days,
    total,
    items: rows.map((n) => ({
      date: n.date,
      supplier: n.organization.organization_name,
      orgNumber: n.organization.id,
      link: supplierLink(n.organization.id, n.organization.local_organization_id),
      title: n.content.title,
      riskScore: n.risk_score,
      type: n.type,
    })),
  };
}

/** The functions the local assistant reads with (it is handed them: server/ never imports app/*.server). */
export const assistantData: AssistantData = {
  followedSuppliersNamedIn,
  findSupplier,
  highestRiskSuppliers,
  listFollowedSuppliers,
  organizationTags,
  recentChanges,
  supplierFacts,
  tagNamedIn,
  countryNamedIn,
};
