import { db, type Db } from "@server/db";
import { parseDefinition } from "~/models/tasks/survey-definition-schema";
import type { Answers, SurveyDefinition } from "~/models/tasks/survey-definition";
import type { ExplorerResponse } from "~/models/tasks/survey-explorer";

/**
 * The survey explorer's reads (decision 032). Everything is the session's organisation's: the templates it may send
 * (its own and the system-wide ones), and only ITS submitted responses (survey_responses.organization_id) — a
 * system-wide template shows this organisation's answers to it, never another's. Filters: one of the organisation's
 * tags (on its connection to the supplier) and the supplier's country.
 */

export interface ExplorerTemplate {
  id: number;
  title: string;
  titleNo: string | null;
  systemWide: boolean;
  archived: boolean;
  versions: { id: number; version: number; responses: number }[];
}

/** The templates the organisation may see, each with its versions and this organisation's submitted responses per version. */
export async function explorerTemplates(organizationId: number, database: Db = db()): Promise<ExplorerTemplate[]> {
  const templates = await database
    .selectFrom("survey_templates")
    .select(["id", "title", "title_no", "organization_id", "archived_at"])
    .where((eb) => eb.or([eb("organization_id", "=", organizationId), eb("organization_id", "is", null)]))
    .orderBy("title")
    .orderBy("id")
    .execute();
  if (templates.length === 0) return [];
  const versions = await database
    .selectFrom("survey_template_versions as v")
    .select((eb) => [
      "v.id",
      "v.template_id",
      "v.version",
      eb
        .selectFrom("survey_responses as r")
        .select((x) => x.fn.countAll<number>().as("n"))
        .whereRef("r.template_version_id", "=", "v.id")
        .where("r.organization_id", "=", organizationId)
        .where("r.status", "=", "submitted")
        .as("responses"),
    ])
    .where(
      "v.template_id",
      "in",
      templates.map((t) => t.id),
    )
    .orderBy("v.version", "desc")
    .execute();
  return templates.map((t) => ({
    id: t.id,
    title: t.title,
    titleNo: t.title_no,
    systemWide: t.organization_id === null,
    archived: t.archived_at !== null,
    versions: versions.filter((v) => v.template_id === t.id).map((v) => ({ id: v.id, version: v.version, responses: Number(v.responses ?? 0) })),
  }));
}

/** The organisation's tags (the filter's choices). */
export function organizationTags(organizationId: number, database: Db = db()) {
  return database.selectFrom("organization_tags").select(["id", "title"]).where("organization_id", "=", organizationId).orderBy("title").execute();
}

/** The countries of the suppliers that sent this organisation responses (the filter's choices). */
export async function responseCountries(organizationId: number, database: Db = db()): Promise<string[]> {
  const rows = await database
    .selectFrom("survey_responses as r")
    .innerJoin("organizations as o", "o.id", "r.supplier_organization_id")
    .select("o.country_code")
    .distinct()
    .where("r.organization_id", "=", organizationId)
    .orderBy("o.country_code")
    .execute();
  return rows.map((r) => r.country_code);
}

export interface ExplorerFilter {
  tagId: number | null;
  country: string | null;
}

/** The version's definition when the template is one the organisation may see; undefined otherwise. */
export async function explorerVersion(
  organizationId: number,
  input: { templateId: number; versionId: number },
  database: Db = db(),
): Promise<{ id: number; version: number; definition: SurveyDefinition } | undefined> {
  const row = await database
    .selectFrom("survey_template_versions as v")
    .innerJoin("survey_templates as t", "t.id", "v.template_id")
    .select(["v.id", "v.version", "v.definition"])
    .where("v.id", "=", input.versionId)
    .where("t.id", "=", input.templateId)
    .where((eb) => eb.or([eb("t.organization_id", "=", organizationId), eb("t.organization_id", "is", null)]))
    .executeTakeFirst();
  return row ? { id: row.id, version: row.version, definition: parseDefinition(row.definition) } : undefined;
}

export interface ExplorerRow extends ExplorerResponse {
  countryCode: string;
  submittedAt: string | null;
  score: number | null;
  fileNames: Record<string, string[]>;
}

/** The organisation's submitted responses to the version, filtered, by supplier name. */
export async function explorerResponses(organizationId: number, input: { versionId: number } & ExplorerFilter, database: Db = db()): Promise<ExplorerRow[]> {
  let query = database
    .selectFrom("survey_responses as r")
    .innerJoin("organizations as o", "o.id", "r.supplier_organization_id")
    .select(["r.id", "r.supplier_organization_id", "o.name", "o.org_number", "o.country_code", "r.answers", "r.submitted_at", "r.score"])
    .where("r.organization_id", "=", organizationId)
    .where("r.template_version_id", "=", input.versionId)
    .where("r.status", "=", "submitted");
  if (input.country) query = query.where("o.country_code", "=", input.country);
  if (input.tagId !== null) {
    const tagId = input.tagId;
    query = query.where(({ exists, selectFrom }) =>
      exists(
        selectFrom("organization_connections as c")
          .innerJoin("organization_connection_tags as ct", "ct.connection_id", "c.id")
          .innerJoin("organization_tags as tg", "tg.id", "ct.tag_id")
          .select("c.id")
          .whereRef("c.child_organization_id", "=", "r.supplier_organization_id")
          .where("c.parent_organization_id", "=", organizationId)
          .where("c.is_deleted", "=", 0)
          .where("tg.id", "=", tagId)
          .where("tg.organization_id", "=", organizationId),
      ),
    );
  }
  const rows = await query.orderBy("o.name").orderBy("r.id").execute();
  const files = new Map<number, { question_id: string; file_name: string }[]>();
  // In chunks: SQLite limits the number of bound parameters.
  for (let i = 0; i < rows.length; i += 500) {
    const ids = rows.slice(i, i + 500).map((r) => r.id);
    const found = await database
      .selectFrom("survey_response_files as f")
      .innerJoin("file_uploads as u", "u.id", "f.file_upload_id")
      .select(["f.response_id", "f.question_id", "u.file_name"])
      .where("f.response_id", "in", ids)
      .orderBy("u.file_name")
      .execute();
    for (const f of found) files.set(f.response_id, [...(files.get(f.response_id) ?? []), f]);
  }
  return rows.map((r) => {
    const mine = files.get(r.id) ?? [];
    const counts: Record<string, number> = {};
    const names: Record<string, string[]> = {};
    for (const f of mine) {
      counts[f.question_id] = (counts[f.question_id] ?? 0) + 1;
      (names[f.question_id] ??= []).push(f.file_name);
    }
    let answers: Answers = {};
    try {
      const parsed: unknown = JSON.parse(r.answers);
      if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) answers = parsed as Answers;
    } catch {
      answers = {};
    }
    return {
      id: r.id,
      supplierOrganizationId: r.supplier_organization_id,
      supplierName: r.name,
      supplierOrgNumber: r.org_number,
      countryCode: r.country_code,
      submittedAt: r.submitted_at,
      score: r.score,
      answers,
      files: counts,
      fileNames: names,
    };
  });
}

export interface ExplorerSelection {
  templates: ExplorerTemplate[];
  tags: { id: number; title: string }[];
  countries: string[];
  template: ExplorerTemplate | null;
  version: { id: number; version: number; definition: SurveyDefinition } | null;
  filter: ExplorerFilter;
  /** A template or version in the query that is not the organisation's (or does not exist): ignored, and said. */
  unknown: boolean;
}

const ID = /^[1-9]\d{0,15}$/;
const idOf = (value: string | null) => (value && ID.test(value) ? Number(value) : null);

/**
 * What the explorer's GET form asks for, checked against the organisation: the template (its own or system-wide), the
 * version (of that template; the latest when none or another is asked), a tag of its own, a country code.
 */
export async function explorerSelection(organizationId: number, params: URLSearchParams, database: Db = db()): Promise<ExplorerSelection> {
  const [templates, tags, countries] = await Promise.all([
    explorerTemplates(organizationId, database),
    organizationTags(organizationId, database),
    responseCountries(organizationId, database),
  ]);
  const templateId = idOf(params.get("template"));
  const template = templateId !== null ? (templates.find((t) => t.id === templateId) ?? null) : null;
  const unknown = params.has("template") && params.get("template") !== "" && !template;
  let version: ExplorerSelection["version"] = null;
  if (template && template.versions.length) {
    const versionId = idOf(params.get("version"));
    const chosen = template.versions.find((v) => v.id === versionId) ?? template.versions[0];
    version = (await explorerVersion(organizationId, { templateId: template.id, versionId: chosen.id }, database)) ?? null;
  }
  const tagId = idOf(params.get("tag"));
  const country = (params.get("country") ?? "").toUpperCase();
  return {
    templates,
    tags,
    countries,
    template,
    version,
    filter: { tagId: tags.some((t) => t.id === tagId) ? tagId : null, country: countries.includes(country) ? country : null },
    unknown,
  };
}
