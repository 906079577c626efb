import { sql, type Expression, type RawBuilder } from "kysely";
import { z } from "zod";
import { db } from "@server/db";
import type { RiskBand } from "~/models/suppliers/risk";

/**
 * "My suppliers": the organisation's active connections (shared/spec/02-supplier-credit-connections.md §3
 * Organisation connection), searched, filtered, sorted and paged in SQL.
 *
 * The organisation filter and the default order ride on the index
 * (parent_organization_id, is_deleted, created_at); search, tag and flag
 * filters narrow that one organisation's rows, so the cost grows with the
 * organisation's own list (measured with 10 000 connections, README), never
 * with the whole table.
 */

export const SUPPLIER_SORTS = ["name", "orgNumber", "country", "added", "risk"] as const;
/** The risk filter's values in the URL and the band each stands for (shared/spec/02-supplier-credit-connections.md §9; decision 036). */
export const RISK_FILTERS = { low: "green", medium: "yellow", high: "red" } as const satisfies Record<string, RiskBand>;
export type RiskFilter = keyof typeof RISK_FILTERS;
export type SupplierSort = (typeof SUPPLIER_SORTS)[number];
export type SortDirection = "asc" | "desc";
export const DEFAULT_PAGE_SIZE = 25;
export const MAX_PAGE_SIZE = 100;

export interface SupplierListFilters {
  organizationId: number;
  q?: string | null;
  tagId?: number | null;
  /** true: only priority suppliers; false: only the others; null/undefined: any. */
  priority?: boolean | null;
  dueDiligence?: boolean | null;
  /** Only suppliers whose stored overall risk (decision 036) is in this band. */
  risk?: RiskFilter | null;
  sort?: SupplierSort;
  dir?: SortDirection;
  /** Country names in this language (English otherwise). */
  language?: "en" | "no";
}

export interface SupplierListInput extends SupplierListFilters {
  page?: number;
  pageSize?: number;
}

export interface SupplierRow {
  connectionId: number;
  supplierOrganizationId: number;
  name: string;
  orgNumber: string | null;
  country: { code: string; name: string | null };
  tags: Array<{ id: number; title: string }>;
  isPriority: boolean;
  isDueDiligence: boolean;
  createdAt: string;
  /** The stored overall risk (decision 036); null until computed or when nothing is known. */
  overallRisk: { score: number; band: RiskBand } | null;
}

export interface SupplierListResult {
  rows: SupplierRow[];
  total: number;
  /** The page shown: the one asked for, kept within 1…pageCount. */
  page: number;
  pageSize: number;
  pageCount: number;
}

/**
 * SQLite's lower() folds ASCII only, so the letters Norwegian names carry
 * are folded by hand; the search term gets the same treatment in JavaScript
 * (toLocaleLowerCase), and the two meet with instr(), which needs no LIKE escaping.
 */
const FOLDS: Array<[string, string]> = [
  ["Æ", "æ"],
  ["Ø", "ø"],
  ["Å", "å"],
  ["Ä", "ä"],
  ["Ö", "ö"],
  ["Ü", "ü"],
  ["É", "é"],
];

function folded(ref: Expression<string> | RawBuilder<string>): RawBuilder<string> {
  let out: RawBuilder<string> = sql<string>`${ref}`;
  for (const [from, to] of FOLDS) out = sql<string>`replace(${out}, ${sql.lit(from)}, ${sql.lit(to)})`;
  return sql<string>`lower(${out})`;
}

/** Norwegian alphabetical order without a collation: Æ, Ø, Å after Z (as '{', '|', '}' are after 'z'), É as E. */
export function supplierNameSortKey(ref: Expression<string> | RawBuilder<string>): RawBuilder<string> {
  return sql<string>`replace(replace(replace(replace(${folded(ref)}, 'æ', '{'), 'ø', '|'), 'å', '}'), 'é', 'e')`;
}

export function normaliseSearch(q: string | null | undefined): { text: string; digits: string } {
  const text = (q ?? "").normalize("NFC").trim().replace(/\s+/g, " ").toLocaleLowerCase("nb").slice(0, 100);
  // An organisation number is often typed with spaces ("923 609 016").
  const digits = /^[\d\s]+$/.test(text) ? text.replace(/\s/g, "") : "";
  return { text, digits };
}

/**
 * The organisation's active connections (`c`) with their supplier organisation (`o`), narrowed by the filters every view
 * of the followed suppliers shares — tag, priority, due diligence: My suppliers, the dashboard and the assistant.
 */
export function followedConnections(filters: { organizationId: number; tagId?: number | null; priority?: boolean | null; dueDiligence?: boolean | null }) {
  let query = db()
    .selectFrom("organization_connections as c")
    .innerJoin("organizations as o", "o.id", "c.child_organization_id")
    .where("c.parent_organization_id", "=", filters.organizationId)
    .where("c.is_deleted", "=", 0);
  if (filters.tagId != null) {
    const tagId = filters.tagId;
    query = query.where((eb) =>
      eb.exists(
        eb
          .selectFrom("organization_connection_tags as ct")
          .select(sql.lit(1).as("one"))
          .whereRef("ct.connection_id", "=", "c.id")
          .where("ct.tag_id", "=", tagId),
      ),
    );
  }
  if (filters.priority != null) query = query.where("c.is_priority", "=", filters.priority ? 1 : 0);
  if (filters.dueDiligence != null) query = query.where("c.is_due_diligence", "=", filters.dueDiligence ? 1 : 0);
  return query;
}

function base(filters: SupplierListFilters) {
  const { text, digits } = normaliseSearch(filters.q);
  const language = filters.language ?? "en";
  let query = followedConnections(filters);
  if (text) {
    query = query.where((eb) => {
      const byName = eb(sql<number>`instr(${folded(eb.ref("o.name"))}, ${text})`, ">", 0);
      return digits ? eb.or([byName, eb(sql<number>`instr(coalesce(${eb.ref("o.org_number")}, ''), ${digits})`, ">", 0)]) : byName;
    });
  }
  if (filters.risk && filters.risk in RISK_FILTERS) query = query.where("c.overall_risk_band", "=", RISK_FILTERS[filters.risk]);
  return { query, language };
}

function selectRows(filters: SupplierListFilters) {
  const { query, language } = base(filters);
  const countryName = language === "no" ? ("countries.name_no" as const) : ("countries.name_en" as const);
  const dir: SortDirection = filters.dir === "desc" ? "desc" : "asc";
  const sort: SupplierSort = filters.sort && SUPPLIER_SORTS.includes(filters.sort) ? filters.sort : "name";
  let q = query
    .leftJoin("countries", (join) => join.on((eb) => eb("countries.iso2", "=", eb.fn<string>("upper", ["o.country_code"]))))
    .select([
      "c.id as connectionId",
      "o.id as supplierOrganizationId",
      "o.name",
      "o.org_number as orgNumber",
      "o.country_code as countryCode",
      `${countryName} as countryName`,
      "c.is_priority",
      "c.is_due_diligence",
      "c.created_at as createdAt",
      "c.overall_risk",
      "c.overall_risk_band",
    ]);
  const key = supplierNameSortKey(sql.ref("o.name"));
  switch (sort) {
    case "orgNumber":
      q = q.orderBy(sql`coalesce(o.org_number, '')`, dir).orderBy(key, "asc");
      break;
    case "country":
      q = q.orderBy(sql`coalesce(${sql.ref(countryName)}, upper(o.country_code))`, dir).orderBy(key, "asc");
      break;
    case "added":
      q = q.orderBy("c.created_at", dir);
      break;
    case "risk":
      // Not yet computed or nothing known: last in either direction.
      q = q
        .orderBy(sql`c.overall_risk is null`, "asc")
        .orderBy("c.overall_risk", dir)
        .orderBy(key, "asc");
      break;
    default:
      q = q.orderBy(key, dir);
  }
  // The connection id breaks every tie, so paging never shows a row twice or skips one.
  return q.orderBy("c.id", dir);
}

type RawRow = Awaited<ReturnType<ReturnType<typeof selectRows>["execute"]>>[number];

async function tagsOf(connectionIds: number[], organizationId: number): Promise<Map<number, Array<{ id: number; title: string }>>> {
  const out = new Map<number, Array<{ id: number; title: string }>>();
  if (connectionIds.length === 0) return out;
  // Chunked: SQLite allows a bounded number of bound parameters.
  for (let i = 0; i < connectionIds.length; i += 500) {
    const rows = await db()
      .selectFrom("organization_connection_tags as ct")
      .innerJoin("organization_tags as t", "t.id", "ct.tag_id")
      .select(["ct.connection_id", "t.id", "t.title"])
      .where("ct.connection_id", "in", connectionIds.slice(i, i + 500))
      .where("t.organization_id", "=", organizationId)
      .orderBy(sql`t.title collate nocase`)
      .orderBy("t.id")
      .execute();
    for (const r of rows) {
      const list = out.get(r.connection_id) ?? [];
      list.push({ id: r.id, title: r.title });
      out.set(r.connection_id, list);
    }
  }
  return out;
}

/** All the organisation's tags on a whole list: one pass over its tag links instead of thousands of bound ids. */
async function allTagsOf(organizationId: number): Promise<Map<number, Array<{ id: number; title: string }>>> {
  const rows = await db()
    .selectFrom("organization_connection_tags as ct")
    .innerJoin("organization_tags as t", "t.id", "ct.tag_id")
    .select(["ct.connection_id", "t.id", "t.title"])
    .where("t.organization_id", "=", organizationId)
    .orderBy(sql`t.title collate nocase`)
    .orderBy("t.id")
    .execute();
  const out = new Map<number, Array<{ id: number; title: string }>>();
  for (const r of rows) {
    const list = out.get(r.connection_id) ?? [];
    list.push({ id: r.id, title: r.title });
    out.set(r.connection_id, list);
  }
  return out;
}

function toRow(r: RawRow, tags: Map<number, Array<{ id: number; title: string }>>): SupplierRow {
  return {
    connectionId: r.connectionId,
    supplierOrganizationId: r.supplierOrganizationId,
    name: r.name,
    orgNumber: r.orgNumber,
    country: { code: r.countryCode.toUpperCase(), name: r.countryName ?? null },
    tags: tags.get(r.connectionId) ?? [],
    isPriority: r.is_priority === 1,
    isDueDiligence: r.is_due_diligence === 1,
    createdAt: r.createdAt,
    overallRisk: r.overall_risk != null && r.overall_risk_band != null ? { score: r.overall_risk, band: r.overall_risk_band } : null,
  };
}

export async function listSuppliers(input: SupplierListInput): Promise<SupplierListResult> {
  const pageSize = Math.min(MAX_PAGE_SIZE, Math.max(1, Math.floor(input.pageSize ?? DEFAULT_PAGE_SIZE) || DEFAULT_PAGE_SIZE));
  const counted = await base(input)
    .query.select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  const total = Number(counted.n);
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const page = Math.min(pageCount, Math.max(1, Math.floor(input.page ?? 1) || 1));
  if (total === 0) return { rows: [], total, page, pageSize, pageCount };
  const raw = await selectRows(input)
    .limit(pageSize)
    .offset((page - 1) * pageSize)
    .execute();
  const tags = await tagsOf(
    raw.map((r) => r.connectionId),
    input.organizationId,
  );
  return { rows: raw.map((r) => toRow(r, tags)), total, page, pageSize, pageCount };
}

/** Every row the filters select, in the list's order (for the CSV export). */
export async function exportSuppliers(filters: SupplierListFilters): Promise<SupplierRow[]> {
  const raw = await selectRows(filters).execute();
  if (raw.length === 0) return [];
  const tags =
    raw.length > 500
      ? await allTagsOf(filters.organizationId)
      : await tagsOf(
          raw.map((r) => r.connectionId),
          filters.organizationId,
        );
  return raw.map((r) => toRow(r, tags));
}

/** The organisation's tags, for the tag filter. */
export async function supplierListTags({ organizationId }: { organizationId: number }): Promise<Array<{ id: number; title: string }>> {
  return db()
    .selectFrom("organization_tags")
    .select(["id", "title"])
    .where("organization_id", "=", organizationId)
    .orderBy(sql`title collate nocase`)
    .orderBy("id")
    .execute();
}

const flag = z
  .string()
  .optional()
  .transform((value): boolean | null => (value === "yes" ? true : value === "no" ? false : null));

/**
 * The list's URL (the GET form's fields). A screen's URL is read leniently:
 * anything unknown falls back to the default. The numbers (tag, page, size)
 * stay texts here; the route reads them with the route kit's strict id parser.
 */
export const supplierListQuery = z
  .object({
    q: z
      .string()
      .optional()
      .transform((v) => (v ?? "").slice(0, 200)),
    tag: z.string().optional(),
    priority: flag,
    dd: flag,
    risk: z.enum(["low", "medium", "high"]).optional().catch(undefined),
    sort: z.enum(SUPPLIER_SORTS).catch("name"),
    dir: z.enum(["asc", "desc"]).catch("asc"),
    page: z.string().optional(),
    size: z.string().optional(),
  })
  .transform(({ dd, ...rest }) => ({ ...rest, dueDiligence: dd }));

export type SupplierListQuery = z.infer<typeof supplierListQuery>;
