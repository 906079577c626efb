import { z } from "zod";
import { QUESTION_TYPES, SURVEY_LIMITS, type SurveyDefinition } from "~/models/tasks/survey-definition";

/**
 * The checked shape of a survey definition (decision 031), used whenever one is written (the builder, the starter
 * templates, an import) and when one is read back from the database. Kept apart from survey-definition.ts so that pages
 * that only show a survey do not carry zod.
 *
 * Beyond the shape: ids are unique, choice questions have options with unique values, a condition refers to an EARLIER
 * yes/no or choice question and to one of its answers, and min ≤ max.
 */

const id = z
  .string()
  .min(1)
  .max(SURVEY_LIMITS.idLength)
  .regex(/^[A-Za-z0-9_-]+$/, { error: "ids use letters, digits, '_' and '-'" });
const text = z.string().trim().max(SURVEY_LIMITS.textLength);
const bilingual = z.object({ en: text.min(1, { error: "the English text is required" }), no: text });
const optionalBilingual = z.object({ en: text, no: text }).optional();

const option = z.object({
  value: id,
  label: bilingual,
  points: z.number().int().min(0).max(100).optional(),
});

const question = z.object({
  id,
  type: z.enum(QUESTION_TYPES),
  text: bilingual,
  help: optionalBilingual,
  required: z.boolean(),
  options: z.array(option).max(SURVEY_LIMITS.options).optional(),
  unit: optionalBilingual,
  min: z.number().finite().optional(),
  max: z.number().finite().optional(),
  askExpiry: z.boolean().optional(),
  showIf: z.object({ question: id, equals: z.string().min(1).max(SURVEY_LIMITS.idLength) }).optional(),
  weight: z.number().min(0).max(100).optional(),
  goodAnswer: z.enum(["yes", "no"]).optional(),
});

const section = z.object({
  id,
  title: bilingual,
  description: optionalBilingual,
  questions: z.array(question).min(1, { error: "a section needs at least one question" }).max(SURVEY_LIMITS.questionsPerSection),
});

export const surveyDefinitionSchema = z
  .object({
    title: bilingual,
    description: optionalBilingual,
    sections: z.array(section).min(1, { error: "a survey needs at least one section" }).max(SURVEY_LIMITS.sections),
  })
  .superRefine((definition, ctx) => {
    const sectionIds = new Set<string>();
    const earlier = new Map<string, z.infer<typeof question>>();
    definition.sections.forEach((s, si) => {
      if (sectionIds.has(s.id)) ctx.addIssue({ code: "custom", path: ["sections", si, "id"], message: `section id ${s.id} is used twice` });
      sectionIds.add(s.id);
      s.questions.forEach((q, qi) => {
        const path = ["sections", si, "questions", qi];
        if (earlier.has(q.id)) ctx.addIssue({ code: "custom", path: [...path, "id"], message: `question id ${q.id} is used twice` });
        const choice = q.type === "single_choice" || q.type === "multiple_choice";
        if (choice && (q.options?.length ?? 0) < 2)
          ctx.addIssue({ code: "custom", path: [...path, "options"], message: "a choice question needs at least two options" });
        if (!choice && q.options?.length) ctx.addIssue({ code: "custom", path: [...path, "options"], message: "only choice questions have options" });
        const values = new Set<string>();
        for (const o of q.options ?? []) {
          if (values.has(o.value)) ctx.addIssue({ code: "custom", path: [...path, "options"], message: `option ${o.value} is used twice` });
          values.add(o.value);
        }
        if (q.min !== undefined && q.max !== undefined && q.min > q.max) ctx.addIssue({ code: "custom", path: [...path, "min"], message: "min is above max" });
        if (q.showIf) {
          const on = earlier.get(q.showIf.question);
          if (!on) ctx.addIssue({ code: "custom", path: [...path, "showIf"], message: "a condition refers to an earlier question" });
          else if (on.type === "yes_no") {
            if (q.showIf.equals !== "yes" && q.showIf.equals !== "no")
              ctx.addIssue({ code: "custom", path: [...path, "showIf"], message: "a yes/no condition equals yes or no" });
          } else if (on.type === "single_choice" || on.type === "multiple_choice") {
            if (!(on.options ?? []).some((o) => o.value === q.showIf!.equals))
              ctx.addIssue({ code: "custom", path: [...path, "showIf"], message: "a condition equals one of the question's options" });
          } else ctx.addIssue({ code: "custom", path: [...path, "showIf"], message: "a condition refers to a yes/no or choice question" });
        }
        earlier.set(q.id, q);
      });
    });
  });

/** A stored definition, checked; throws on a corrupt one (never stored by this code). */
export function parseDefinition(json: string): SurveyDefinition {
  return surveyDefinitionSchema.parse(JSON.parse(json)) as SurveyDefinition;
}
