import { randomBytes } from "node:crypto";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { db } from "@server/db";
import { createConnection, createOrganization, createSignedInUser } from "./factory";
import { call, get } from "./requests";

/** Builders for integration tests: the rows a test needs, made directly in its own database (organisations, users and
 * connections through ./factory). */

const AT = "2025-01-01T00:00:00.000Z";

export type Loader = (a: LoaderFunctionArgs) => unknown;

/** Calls a loader with a GET of `url`, route params and, when given, a Bearer token. */
export function request(loader: Loader, url: string, params: Record<string, string> = {}, token?: string): Promise<Response> {
  return call(loader, { request: get(url, token ? { Authorization: `Bearer ${token}` } : {}), params, context: {} });
}

export async function makeOrg(name: string, kind: "customer" | "supplier", orgNumber: string | null = null, countryCode = "NO", sharing = 0): Promise<number> {
  return createOrganization({ name, kind, orgNumber, countryCode, dataSharing: sharing, createdAt: AT });
}

/** A user of the organisation with a live session; returns the session token. */
export async function signedIn(email: string, organizationId: number | null, accessLevel = 1): Promise<string> {
  return (await createSignedInUser({ email, organizationId, accessLevel, createdAt: AT })).token;
}

/** The customer `parent` follows the supplier `child`. */
export async function follow(parent: number, child: number, isDeleted = 0): Promise<void> {
  await createConnection({ parent, child, deleted: isDeleted, createdAt: AT });
}

export async function company(orgNumber: string, legalName: string): Promise<number> {
  const row = await db()
    .insertInto("companies")
    .values({ org_number: orgNumber, legal_name: legalName, country_code: "NO", source: "seed", updated_at: AT })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A supplier-list import of a user, over a file record of its own (no bytes stored: for tests of the rows and the confirm). */
export async function supplierImport(input: {
  organizationId: number;
  userId: number;
  status: "analysing" | "ready";
  mapping: object;
  counts?: Record<string, number>;
  fileName?: string;
}): Promise<number> {
  const at = new Date().toISOString();
  const file = await db()
    .insertInto("file_uploads")
    .values({
      organization_id: input.organizationId,
      user_id: input.userId,
      file_name: input.fileName ?? "suppliers.xlsx",
      file_size: 1,
      mime_type: "x",
      storage_key: randomBytes(16).toString("hex"),
      created_at: at,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const imp = await db()
    .insertInto("supplier_imports")
    .values({
      organization_id: input.organizationId,
      user_id: input.userId,
      file_upload_id: file.id,
      mapping: JSON.stringify(input.mapping),
      status: input.status,
      counts: input.counts ? JSON.stringify(input.counts) : null,
      created_at: at,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return imp.id;
}

/** A survey template of the organisation (null: system-wide) with version 1: one required yes/no question "q". */
export async function surveyTemplate(organizationId: number | null, title: string): Promise<number> {
  const at = new Date().toISOString();
  const id = (
    await db().insertInto("survey_templates").values({ organization_id: organizationId, title, created_at: at }).returning("id").executeTakeFirstOrThrow()
  ).id;
  const definition = {
    title: { en: title, no: title },
    sections: [{ id: "s", title: { en: "S", no: "S" }, questions: [{ id: "q", type: "yes_no", text: { en: "Q?", no: "S?" }, required: true }] }],
  };
  await db()
    .insertInto("survey_template_versions")
    .values({ template_id: id, version: 1, definition: JSON.stringify(definition), created_at: at })
    .execute();
  return id;
}

/**
 * A survey the customer sent to the supplier: its draft response (of the given template version) and the supplier task
 * that carries its state. Returns both ids.
 */
export async function sentSurvey(input: {
  customer: number;
  supplier: number;
  templateId: number;
  versionId: number;
  title?: string;
  status?: "sent" | "opened";
  at?: string;
}): Promise<{ supplierTaskId: number; responseId: number }> {
  const at = input.at ?? AT;
  const response = await db()
    .insertInto("survey_responses")
    .values({
      survey_template_id: input.templateId,
      template_version_id: input.versionId,
      organization_id: input.customer,
      supplier_organization_id: input.supplier,
      status: "draft",
      answers: "{}",
      created_at: at,
      updated_at: at,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const task = await db()
    .insertInto("supplier_tasks")
    .values({
      organization_id: input.customer,
      supplier_organization_id: input.supplier,
      kind: "survey",
      compliance_task_id: null,
      survey_response_id: response.id,
      title: input.title ?? "Self-assessment",
      recipient_email: null,
      message: null,
      due_date: "2026-12-01",
      status: input.status ?? "sent",
      sent_at: at,
      updated_at: at,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return { supplierTaskId: task.id, responseId: response.id };
}
