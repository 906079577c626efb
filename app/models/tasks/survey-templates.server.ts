import { db, type Db } from "@server/db";
import { refuse } from "~/models/shared/refusal";
import { parseDefinition, surveyDefinitionSchema } from "~/models/tasks/survey-definition-schema";
import type { SurveyDefinition } from "~/models/tasks/survey-definition";
import { questionCount } from "~/models/tasks/survey-builder";

/**
 * Survey templates for the builder and its list (decision 032). What a user may see: the organisation's own templates
 * and the system-wide ones (organization_id NULL). What they may change: the organisation's own with
 * taskTemplatesManage (its administrator), the system-wide ones as the installation's operator (is_admin). Everything
 * else is "not found". Versioning (decision 031): the latest version is changed in place until someone has answered
 * it; then the first change writes version n+1.
 */

/**
 * Who is working with templates: the organisation (if any) and what they may change. The route builds it from the
 * signed-in user (app/http/template-pages.server.ts), so the model takes plain values.
 */
export interface TemplateScope {
  organizationId: number | null;
  userId: number;
  /** The organisation's own templates (taskTemplatesManage). */
  manageOwn: boolean;
  /** The system-wide templates (is_admin). */
  manageSystem: boolean;
}

export function mayChange(scope: TemplateScope, organizationId: number | null): boolean {
  return organizationId === null ? scope.manageSystem : scope.manageOwn && organizationId === scope.organizationId;
}

export interface SurveyTemplateListItem {
  id: number;
  title: string;
  titleNo: string | null;
  systemWide: boolean;
  key: string | null;
  archived: boolean;
  version: number;
  questions: number;
  responses: number;
  editable: boolean;
}

/** The organisation's templates and the system-wide ones, own first, then by title; responses: this organisation's only. */
export async function listSurveyTemplates(scope: TemplateScope, database: Db = db()): Promise<SurveyTemplateListItem[]> {
  const org = scope.organizationId ?? -1;
  const rows = await database
    .selectFrom("survey_templates as t")
    .select((eb) => [
      "t.id",
      "t.title",
      "t.title_no",
      "t.organization_id",
      "t.key",
      "t.archived_at",
      eb.selectFrom("survey_template_versions as v").select("v.id").whereRef("v.template_id", "=", "t.id").orderBy("v.version", "desc").limit(1).as("latestId"),
      eb
        .selectFrom("survey_responses as r")
        .select((x) => x.fn.countAll<number>().as("n"))
        .whereRef("r.survey_template_id", "=", "t.id")
        .where("r.organization_id", "=", org)
        .as("responses"),
    ])
    .where((eb) => eb.or([eb("t.organization_id", "=", org), eb("t.organization_id", "is", null)]))
    .orderBy((eb) => eb.case().when("t.organization_id", "is", null).then(1).else(0).end())
    .orderBy("t.title")
    .orderBy("t.id")
    .execute();
  const versionIds = rows.map((r) => r.latestId).filter((id): id is number => id !== null);
  const versions = versionIds.length
    ? await database.selectFrom("survey_template_versions").select(["id", "version", "definition"]).where("id", "in", versionIds).execute()
    : [];
  const byId = new Map(versions.map((v) => [v.id, v]));
  return rows.map((r) => {
    const v = r.latestId !== null ? byId.get(r.latestId) : undefined;
    return {
      id: r.id,
      title: r.title,
      titleNo: r.title_no,
      systemWide: r.organization_id === null,
      key: r.key,
      archived: r.archived_at !== null,
      version: v?.version ?? 0,
      questions: v ? questionCount(parseDefinition(v.definition)) : 0,
      responses: Number(r.responses ?? 0),
      editable: mayChange(scope, r.organization_id),
    };
  });
}

export interface SurveyTemplateDetail {
  id: number;
  organizationId: number | null;
  systemWide: boolean;
  archived: boolean;
  editable: boolean;
  versionId: number;
  version: number;
  /** Responses to the latest version (all of them when the user may change the template: they decide the versioning). */
  responses: number;
  definition: SurveyDefinition;
}

/** A template the user may see, with its latest version; undefined for another organisation's (→ 404). */
export async function surveyTemplate(scope: TemplateScope, id: number, database: Db = db()): Promise<SurveyTemplateDetail | undefined> {
  const t = await database
    .selectFrom("survey_templates")
    .select(["id", "organization_id", "archived_at"])
    .where("id", "=", id)
    .where((eb) => eb.or([eb("organization_id", "=", scope.organizationId ?? -1), eb("organization_id", "is", null)]))
    .executeTakeFirst();
  if (!t) return undefined;
  const v = await database
    .selectFrom("survey_template_versions")
    .select(["id", "version", "definition"])
    .where("template_id", "=", t.id)
    .orderBy("version", "desc")
    .executeTakeFirst();
  if (!v) return undefined;
  const editable = mayChange(scope, t.organization_id);
  let count = database
    .selectFrom("survey_responses")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("template_version_id", "=", v.id);
  if (!editable) count = count.where("organization_id", "=", scope.organizationId ?? -1);
  const responses = Number((await count.executeTakeFirstOrThrow()).n);
  return {
    id: t.id,
    organizationId: t.organization_id,
    systemWide: t.organization_id === null,
    archived: t.archived_at !== null,
    editable,
    versionId: v.id,
    version: v.version,
    responses,
    definition: parseDefinition(v.definition),
  };
}

/** A new template of the organisation (or system-wide for the operator), with version 1. */
export async function createSurveyTemplate(
  input: { organizationId: number | null; userId: number; definition: SurveyDefinition; at?: Date },
  database: Db = db(),
): Promise<number> {
  const definition = surveyDefinitionSchema.parse(input.definition) as SurveyDefinition;
  const now = (input.at ?? new Date()).toISOString();
  return database.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto("survey_templates")
      .values({ organization_id: input.organizationId, title: definition.title.en, title_no: definition.title.no || null, created_at: now, updated_at: now })
      .returning("id")
      .executeTakeFirstOrThrow();
    await trx
      .insertInto("survey_template_versions")
      .values({ template_id: row.id, version: 1, definition: JSON.stringify(definition), created_by_user_id: input.userId, created_at: now })
      .execute();
    return row.id;
  });
}

export interface SavedDefinition {
  versionId: number;
  version: number;
  /** The change became version n+1 (the latest version had responses). */
  newVersion: boolean;
}

/**
 * Stores a changed definition (already checked with surveyDefinitionSchema by the caller, checked again here). `expectedVersionId` is the version
 * the user's form was made from: when another version has been written since, nothing is stored (a "conflict" Refusal,
 * "stale-version"). When the latest version has responses, the change becomes version n+1; otherwise the latest version
 * is changed in place. A template the user may not change: "not-found", "template-not-found".
 */
export async function saveSurveyDefinition(
  scope: TemplateScope,
  input: { templateId: number; expectedVersionId: number; definition: SurveyDefinition; at?: Date },
  database: Db = db(),
): Promise<SavedDefinition> {
  const definition = surveyDefinitionSchema.parse(input.definition) as SurveyDefinition;
  const now = (input.at ?? new Date()).toISOString();
  return database.transaction().execute(async (trx) => {
    const t = await trx.selectFrom("survey_templates").select(["id", "organization_id"]).where("id", "=", input.templateId).executeTakeFirst();
    if (!t || !(t.organization_id === null || t.organization_id === scope.organizationId) || !mayChange(scope, t.organization_id))
      throw refuse("not-found", "template-not-found");
    const latest = await trx
      .selectFrom("survey_template_versions")
      .select(["id", "version"])
      .where("template_id", "=", t.id)
      .orderBy("version", "desc")
      .executeTakeFirstOrThrow();
    if (latest.id !== input.expectedVersionId) throw refuse("conflict", "stale-version");
    const answered = await trx.selectFrom("survey_responses").select("id").where("template_version_id", "=", latest.id).limit(1).executeTakeFirst();
    const json = JSON.stringify(definition);
    let result: SavedDefinition;
    if (answered) {
      const row = await trx
        .insertInto("survey_template_versions")
        .values({ template_id: t.id, version: latest.version + 1, definition: json, created_by_user_id: scope.userId, created_at: now })
        .returning("id")
        .executeTakeFirstOrThrow();
      result = { versionId: row.id, version: latest.version + 1, newVersion: true };
    } else {
      await trx.updateTable("survey_template_versions").set({ definition: json }).where("id", "=", latest.id).execute();
      result = { versionId: latest.id, version: latest.version, newVersion: false };
    }
    await trx
      .updateTable("survey_templates")
      .set({ title: definition.title.en, title_no: definition.title.no || null, updated_at: now })
      .where("id", "=", t.id)
      .execute();
    return result;
  });
}

/** Archive or bring back a template the user may change; another's is a "not-found" Refusal ("template-not-found"). */
export async function setSurveyTemplateArchived(scope: TemplateScope, input: { id: number; archived: boolean; at?: Date }, database: Db = db()): Promise<void> {
  const t = await surveyTemplate(scope, input.id, database);
  if (!t || !t.editable) throw refuse("not-found", "template-not-found");
  const now = (input.at ?? new Date()).toISOString();
  await database
    .updateTable("survey_templates")
    .set({ archived_at: input.archived ? now : null, updated_at: now })
    .where("id", "=", t.id)
    .execute();
}

/**
 * A copy of a visible template's latest version as a new template of the organisation (version 1). Refuses a template
 * the user cannot see ("not-found", "template-not-found") and a user without an organisation whose templates they
 * manage ("forbidden", "template-forbidden").
 */
export async function duplicateSurveyTemplate(
  scope: TemplateScope,
  input: { id: number; title: { en: string; no: string }; at?: Date },
  database: Db = db(),
): Promise<number> {
  const t = await surveyTemplate(scope, input.id, database);
  if (!t) throw refuse("not-found", "template-not-found");
  if (scope.organizationId === null || !scope.manageOwn) throw refuse("forbidden", "template-forbidden");
  return createSurveyTemplate(
    { organizationId: scope.organizationId, userId: scope.userId, definition: { ...t.definition, title: input.title }, at: input.at },
    database,
  );
}
