import { z } from "zod";
import { QUESTION_TYPES, SURVEY_LIMITS } from "~/models/tasks/survey-definition";

/**
 * The survey builder's posts: one intent per change, each with the version it was made from. The values keep the
 * spelling the builder has always posted (clients and tests send them), so they are not kebab-case.
 */
export const INTENT = {
  saveTemplate: "save-template",
  addSection: "add-section",
  saveSection: "save-section",
  moveSection: "move-section",
  deleteSection: "delete-section",
  addQuestion: "add-question",
  saveQuestion: "save-question",
  moveQuestion: "move-question",
  deleteQuestion: "delete-question",
} as const;

export type BuilderIntent = (typeof INTENT)[keyof typeof INTENT];

const INTENTS: readonly string[] = Object.values(INTENT);

export function isBuilderIntent(value: unknown): value is BuilderIntent {
  return typeof value === "string" && INTENTS.includes(value);
}

type Translate = (key: string, options?: Record<string, unknown>) => string;

/** Every text field of the builder: trimmed, at most the definition's limit. */
const text = (t: Translate) =>
  z
    .string()
    .trim()
    .max(SURVEY_LIMITS.textLength, t("taskTemplates:errors.tooLong", { max: SURVEY_LIMITS.textLength }))
    .optional();
const number = (t: Translate, min: number, max: number) =>
  z
    .number({ error: t("taskTemplates:errors.notANumber") })
    .min(min, t("taskTemplates:errors.between", { min, max }))
    .max(max, t("taskTemplates:errors.between", { min, max }))
    .optional();
const id = z
  .string()
  .max(SURVEY_LIMITS.idLength)
  .regex(/^[A-Za-z0-9_-]+$/);
const direction = z.enum(["up", "down"]);

export const surveyBuilderSchema = (t: Translate) =>
  z.discriminatedUnion("intent", [
    z.object({
      intent: z.literal(INTENT.saveTemplate),
      versionId: z.string(),
      titleEn: text(t),
      titleNo: text(t),
      descriptionEn: text(t),
      descriptionNo: text(t),
    }),
    z.object({ intent: z.literal(INTENT.addSection), versionId: z.string() }),
    z.object({
      intent: z.literal(INTENT.saveSection),
      versionId: z.string(),
      sectionId: id,
      titleEn: text(t),
      titleNo: text(t),
      descriptionEn: text(t),
      descriptionNo: text(t),
    }),
    z.object({ intent: z.literal(INTENT.moveSection), versionId: z.string(), sectionId: id, direction }),
    z.object({ intent: z.literal(INTENT.deleteSection), versionId: z.string(), sectionId: id }),
    z.object({
      intent: z.literal(INTENT.addQuestion),
      versionId: z.string(),
      sectionId: id,
      type: z.enum(QUESTION_TYPES, { error: t("taskTemplates:errors.chooseType") }),
    }),
    z.object({
      intent: z.literal(INTENT.saveQuestion),
      versionId: z.string(),
      questionId: id,
      textEn: text(t),
      textNo: text(t),
      helpEn: text(t),
      helpNo: text(t),
      required: z.literal("on").optional(),
      weight: number(t, 0, 100),
      goodAnswer: z.enum(["yes", "no"]).optional(),
      unitEn: text(t),
      unitNo: text(t),
      min: z.number({ error: t("taskTemplates:errors.notANumber") }).optional(),
      max: z.number({ error: t("taskTemplates:errors.notANumber") }).optional(),
      askExpiry: z.literal("on").optional(),
      showIf: z.string().max(100).optional(),
      options: z
        .array(z.object({ value: id.optional(), en: text(t), no: text(t), points: number(t, 0, 100) }))
        .max(SURVEY_LIMITS.options + 2)
        .optional(),
    }),
    z.object({ intent: z.literal(INTENT.moveQuestion), versionId: z.string(), questionId: id, direction }),
    z.object({ intent: z.literal(INTENT.deleteQuestion), versionId: z.string(), questionId: id }),
  ]);

export type BuilderChange = z.infer<ReturnType<typeof surveyBuilderSchema>>;
export type ChangeOf<I extends BuilderIntent> = Extract<BuilderChange, { intent: I }>;
