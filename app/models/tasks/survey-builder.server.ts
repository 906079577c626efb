import { surveyDefinitionSchema } from "~/models/tasks/survey-definition-schema";
import type { SurveyDefinition } from "~/models/tasks/survey-definition";

/**
 * The builder's check of a whole definition before it is stored (decision 032): surveyDefinitionSchema, with each
 * problem turned into a key of the builder's language file (taskTemplates:schema.*) and placed: the question or
 * section it is about and the builder's field name ("textEn", "options", "showIf", …).
 */

export interface DefinitionProblem {
  /** Key under taskTemplates:schema. */
  key: string;
  params: Record<string, string>;
  sectionId?: string;
  questionId?: string;
  /** The builder's field: textEn, textNo, helpEn, options, unitEn, min, max, showIf, weight, titleEn, … */
  field: string;
}

const MESSAGES: Array<[RegExp, string]> = [
  [/^the English text is required$/, "englishRequired"],
  [/^a section needs at least one question$/, "sectionNeedsQuestion"],
  [/^a survey needs at least one section$/, "surveyNeedsSection"],
  [/^a choice question needs at least two options$/, "twoOptions"],
  [/^only choice questions have options$/, "invalid"],
  [/^option (.+) is used twice$/, "optionTwice"],
  [/^min is above max$/, "minAboveMax"],
  [/^a condition refers to an earlier question$/, "conditionEarlier"],
  [/^a yes\/no condition equals yes or no$/, "conditionValue"],
  [/^a condition equals one of the question's options$/, "conditionValue"],
  [/^a condition refers to a yes\/no or choice question$/, "conditionType"],
  [/^(section|question) id (.+) is used twice$/, "idTwice"],
];

function fieldOf(rest: PropertyKey[]): string {
  const [head, sub] = rest;
  const lang = sub === "no" ? "No" : "En";
  switch (head) {
    case "text":
    case "help":
    case "unit":
    case "title":
    case "description":
      return `${String(head)}${lang}`;
    case undefined:
      return "";
    default:
      return String(head);
  }
}

export function checkDefinition(definition: SurveyDefinition): { ok: true; definition: SurveyDefinition } | { ok: false; problems: DefinitionProblem[] } {
  const result = surveyDefinitionSchema.safeParse(definition);
  if (result.success) return { ok: true, definition: result.data as SurveyDefinition };
  const problems = result.error.issues.map((issue): DefinitionProblem => {
    const match = MESSAGES.find(([re]) => re.test(issue.message));
    const tooMany = issue.code === "too_big" && "origin" in issue && issue.origin === "array";
    const key = match?.[1] ?? (tooMany ? "tooMany" : issue.code === "too_big" ? "tooLong" : "invalid");
    const path = issue.path;
    const problem: DefinitionProblem = { key, params: {}, field: "" };
    if (issue.code === "too_big" && "maximum" in issue) problem.params.max = String(issue.maximum);
    if (path[0] === "sections" && typeof path[1] === "number") {
      const section = definition.sections[path[1]];
      problem.sectionId = section?.id;
      if (path[2] === "questions" && typeof path[3] === "number") {
        problem.questionId = section?.questions[path[3]]?.id;
        problem.field = fieldOf(path.slice(4));
      } else problem.field = fieldOf(path.slice(2));
    } else problem.field = fieldOf(path);
    return problem;
  });
  return { ok: false, problems };
}
