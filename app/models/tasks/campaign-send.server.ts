import { sql } from "kysely";
import { db } from "@server/db";
import { exportSuppliers, type SupplierListFilters } from "~/models/suppliers/supplier-list.server";
import { MAX_CAMPAIGN_SUPPLIERS, SEND_CAMPAIGN_JOB, type CampaignSummary } from "~/models/tasks/campaigns.server";

/**
 * What the send page and the campaign page read (decision 035): the templates the organisation may send, the
 * suppliers a selection or a filter of the supplier list stands for (with their contact e-mail), and one campaign with
 * the state of its sending. Every query is scoped to the organisation.
 */

export interface SendableTemplate {
  /** "task:12" or "survey:3": the kind and the template in one value, so one plain select chooses both. */
  value: string;
  kind: "task" | "survey";
  id: number;
  title: string;
  dueInDays: number | null;
  system: boolean;
}

/** The organisation's and the system-wide templates that are not archived, titled in the user's language. */
export async function sendableTemplates(input: { organizationId: number; language: "en" | "no" }): Promise<SendableTemplate[]> {
  const [tasks, surveys] = await Promise.all([
    db()
      .selectFrom("compliance_task_templates")
      .select(["id", "title", "title_no", "due_in_days", "organization_id"])
      .where((eb) => eb.or([eb("organization_id", "=", input.organizationId), eb("organization_id", "is", null)]))
      .where("archived_at", "is", null)
      .execute(),
    db()
      .selectFrom("survey_templates as t")
      .select(["t.id", "t.title", "t.title_no", "t.organization_id"])
      .where((eb) => eb.or([eb("t.organization_id", "=", input.organizationId), eb("t.organization_id", "is", null)]))
      .where("t.archived_at", "is", null)
      // A survey without questions cannot be sent.
      .where((eb) => eb.exists(eb.selectFrom("survey_template_versions as v").select(sql.lit(1).as("one")).whereRef("v.template_id", "=", "t.id")))
      .execute(),
  ]);
  const title = (t: { title: string; title_no: string | null }) => (input.language === "no" && t.title_no ? t.title_no : t.title);
  const byTitle = (a: SendableTemplate, b: SendableTemplate) => a.title.localeCompare(b.title, "nb") || a.id - b.id;
  return [
    ...tasks
      .map((t) => ({ value: `task:${t.id}`, kind: "task" as const, id: t.id, title: title(t), dueInDays: t.due_in_days, system: t.organization_id === null }))
      .sort(byTitle),
    ...surveys
      .map((t) => ({ value: `survey:${t.id}`, kind: "survey" as const, id: t.id, title: title(t), dueInDays: null, system: t.organization_id === null }))
      .sort(byTitle),
  ];
}

/** A supplier the campaign would go to. */
export interface SendRecipient {
  supplierOrganizationId: number;
  name: string;
  orgNumber: string | null;
  contactEmail: string | null;
}

/** Which suppliers: chosen rows (local organisation ids), or every row of the supplier list's filter. */
export type SupplierSelection = { kind: "ids"; ids: number[] } | { kind: "filter"; filters: Omit<SupplierListFilters, "organizationId" | "language"> };

export interface ResolvedSelection {
  recipients: SendRecipient[];
  /** Rows the filter matched (may be above the cap, then `recipients` is empty). */
  total: number;
  /** Ids in the selection the organisation does not follow (another organisation's, deleted, made up): left out. */
  unknown: number;
  tooMany: boolean;
}

/**
 * The suppliers a selection stands for, among the organisation's active connections. A filter is resolved by the supplier
 * list's own query (`exportSuppliers`), in the list's order; chosen ids in the order of their names. Above
 * MAX_CAMPAIGN_SUPPLIERS nothing is listed (`tooMany`).
 */
export async function resolveSelection(input: { organizationId: number; language: "en" | "no"; selection: SupplierSelection }): Promise<ResolvedSelection> {
  const { organizationId, selection } = input;
  let ids: number[];
  let unknown = 0;
  if (selection.kind === "filter") {
    ids = (await exportSuppliers({ ...selection.filters, organizationId, language: input.language })).map((r) => r.supplierOrganizationId);
  } else {
    ids = [...new Set(selection.ids)];
  }
  const total = ids.length;
  if (total > MAX_CAMPAIGN_SUPPLIERS) return { recipients: [], total, unknown: 0, tooMany: true };
  const found = new Map<number, SendRecipient>();
  // Chunked: SQLite limits the number of bound values.
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await db()
      .selectFrom("organization_connections as c")
      .innerJoin("organizations as o", "o.id", "c.child_organization_id")
      .select(["o.id", "o.name", "o.org_number", "c.contact_email"])
      .where("c.parent_organization_id", "=", organizationId)
      .where("c.is_deleted", "=", 0)
      .where("c.child_organization_id", "in", ids.slice(i, i + 500))
      .execute();
    for (const r of rows) found.set(r.id, { supplierOrganizationId: r.id, name: r.name, orgNumber: r.org_number, contactEmail: r.contact_email });
  }
  unknown = ids.filter((id) => !found.has(id)).length;
  const recipients = ids.flatMap((id) => found.get(id) ?? []);
  if (selection.kind === "ids") recipients.sort((a, b) => a.name.localeCompare(b.name, "nb") || a.supplierOrganizationId - b.supplierOrganizationId);
  return { recipients, total: recipients.length, unknown, tooMany: false };
}

export interface CampaignView {
  id: number;
  kind: "task" | "survey";
  title: string;
  message: string | null;
  dueDate: string | null;
  recurrence: "yearly" | null;
  nextRunOn: string | null;
  createdAt: string;
  sentAt: string | null;
  /** The template to send again with ("task:12" / "survey:3"), or null when it is gone. */
  template: string | null;
  /** queued/running while the sending job works; failed when it gave up; done once sent. */
  state: "sending" | "failed" | "sent";
  summary: CampaignSummary | null;
  /** The organisation numbers of the skipped suppliers (the supplier screen's address, to fix their contact). */
  orgNumbers: Record<number, string | null>;
}

/** One campaign of the organisation with the state of its sending; undefined for another organisation's or none. */
export async function campaignView(input: { organizationId: number; campaignId: number }): Promise<CampaignView | undefined> {
  const row = await db()
    .selectFrom("task_campaigns as c")
    .leftJoin("survey_template_versions as v", "v.id", "c.survey_template_version_id")
    .select([
      "c.id",
      "c.kind",
      "c.title",
      "c.message",
      "c.due_date",
      "c.recurrence",
      "c.next_run_on",
      "c.created_at",
      "c.sent_at",
      "c.summary",
      "c.task_template_id",
      "v.template_id as survey_template_id",
    ])
    .where("c.id", "=", input.campaignId)
    .where("c.organization_id", "=", input.organizationId)
    .executeTakeFirst();
  if (!row) return undefined;
  let state: CampaignView["state"] = "sent";
  if (!row.sent_at) {
    const job = await db()
      .selectFrom("jobs")
      .select("status")
      .where("type", "=", SEND_CAMPAIGN_JOB)
      .where("organization_id", "=", input.organizationId)
      .where(sql<number>`json_extract(payload, '$.campaignId')`, "=", row.id)
      .orderBy("id", "desc")
      .executeTakeFirst();
    state = job?.status === "failed" ? "failed" : "sending";
  }
  const summary = row.summary ? (JSON.parse(row.summary) as CampaignSummary) : null;
  const orgNumbers: Record<number, string | null> = {};
  const skippedIds = summary?.skipped.map((s) => s.supplierOrganizationId) ?? [];
  for (let i = 0; i < skippedIds.length; i += 500) {
    const rows = await db()
      .selectFrom("organizations")
      .select(["id", "org_number"])
      .where("id", "in", skippedIds.slice(i, i + 500))
      .execute();
    for (const r of rows) orgNumbers[r.id] = r.org_number;
  }
  const templateId = row.kind === "task" ? row.task_template_id : row.survey_template_id;
  return {
    id: row.id,
    kind: row.kind,
    title: row.title,
    message: row.message,
    dueDate: row.due_date,
    recurrence: row.recurrence,
    nextRunOn: row.next_run_on,
    createdAt: row.created_at,
    sentAt: row.sent_at,
    template: templateId ? `${row.kind}:${templateId}` : null,
    state,
    summary,
    orgNumbers,
  };
}
