import { describe, expect, it } from "vitest";
import { db } from "@server/db";
import { allQuestions, isScored, QUESTION_TYPES } from "~/models/tasks/survey-definition";
import { parseDefinition, surveyDefinitionSchema } from "~/models/tasks/survey-definition-schema";
import { ensureStarterTemplates, STARTER_SURVEYS, STARTER_TASKS } from "./starter-templates";

describe("the starter templates", () => {
  it.each(STARTER_SURVEYS.map((s) => [s.key, s.definition] as const))("%s is a valid survey definition, scored, with Norwegian texts", (_key, definition) => {
    const result = surveyDefinitionSchema.safeParse(definition);
    expect(result.success ? [] : result.error.issues).toEqual([]);
    expect(isScored(definition)).toBe(true);
    for (const q of allQuestions(definition)) {
      expect(q.text.no, q.id).not.toBe("");
      expect(q.text.no, q.id).not.toBe(q.text.en);
    }
    expect(allQuestions(definition).some((q) => q.showIf)).toBe(true);
  });

  it("use every question type at least once between them, and a file question asks for the expiry date", () => {
    const questions = STARTER_SURVEYS.flatMap((s) => allQuestions(s.definition));
    expect(new Set(questions.map((q) => q.type))).toEqual(new Set(QUESTION_TYPES));
    expect(questions.some((q) => q.type === "file" && q.askExpiry && q.showIf)).toBe(true);
  });

  it("the human-rights survey covers the Transparency Act's themes", () => {
    const ids = new Set(allQuestions(STARTER_SURVEYS[0].definition).map((q) => q.id));
    for (const id of [
      "has_policy",
      "responsible",
      "risk_assessment",
      "no_forced_labour",
      "no_child_labour",
      "living_wage",
      "weekly_hours",
      "hse",
      "association",
      "sub_supplier_followup",
      "grievance",
      "remediation",
      "environment_goals",
      "anti_corruption",
    ])
      expect(ids.has(id), id).toBe(true);
  });

  it("exist system-wide after ensureStarterTemplates, once however often it runs", async () => {
    await ensureStarterTemplates(db());
    await ensureStarterTemplates(db());
    const surveys = await db().selectFrom("survey_templates").selectAll().where("key", "like", "starter-%").execute();
    expect(surveys.map((s) => [s.key, s.organization_id]).sort()).toEqual(STARTER_SURVEYS.map((s) => [s.key, null]).sort());
    for (const s of surveys) {
      const versions = await db().selectFrom("survey_template_versions").selectAll().where("template_id", "=", s.id).execute();
      expect(versions.map((v) => v.version)).toEqual([1]);
      expect(parseDefinition(versions[0].definition).title.en).toBe(s.title);
    }
    const tasks = await db().selectFrom("compliance_task_templates").selectAll().where("key", "like", "starter-%").execute();
    expect(tasks.map((t) => [t.key, t.organization_id, t.title_no])).toEqual(STARTER_TASKS.map((t) => [t.key, null, t.title.no]));
  });

  it("leave an edited starter template as it is", async () => {
    await ensureStarterTemplates(db());
    const s = await db().selectFrom("survey_templates").select("id").where("key", "=", STARTER_SURVEYS[1].key).executeTakeFirstOrThrow();
    await db()
      .updateTable("survey_template_versions")
      .set({ definition: JSON.stringify({ ...STARTER_SURVEYS[1].definition, title: { en: "Edited", no: "Endret" } }) })
      .where("template_id", "=", s.id)
      .execute();
    await ensureStarterTemplates(db());
    const v = await db().selectFrom("survey_template_versions").select("definition").where("template_id", "=", s.id).execute();
    expect(v.map((x) => parseDefinition(x.definition).title.en)).toEqual(["Edited"]);
  });
});
