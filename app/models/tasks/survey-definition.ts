/**
 * A survey template version's definition (decision 031): bilingual sections of questions, the conditions that
 * show a question, and the scoring rule that gives a submitted survey a 0–100 score. Pure: used by the builder, the
 * respondent pages, the read view, the explorer and the server alike. The shape is checked by
 * `survey-definition-schema.ts` (zod) whenever a definition is written; everything here assumes a checked definition.
 *
 * Answers are stored as `{ [questionId]: string | string[] }`: yes/no "yes" | "no", a number as its decimal text with a
 * dot, a date "YYYY-MM-DD", a choice the option's `value`, a multiple choice the values in the order of the options; a
 * file question's answer is the evidence's expiry date ("" when none) — its files are rows of survey_response_files.
 */

export type SurveyLanguage = "en" | "no";

/** A text in both interface languages. An empty Norwegian text falls back to the English one. */
export interface Bilingual {
  en: string;
  no: string;
}

export const QUESTION_TYPES = ["short_text", "long_text", "yes_no", "single_choice", "multiple_choice", "number", "date", "file"] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];

export interface ChoiceOption {
  /** Stable within the question: stored in answers. */
  value: string;
  label: Bilingual;
  /** 0–100: how good this answer is, for scoring. Missing: 0. */
  points?: number;
}

export interface SurveyQuestion {
  /** Stable within the definition (and kept across versions for the explorer): letters, digits, '_' and '-'. */
  id: string;
  type: QuestionType;
  text: Bilingual;
  help?: Bilingual;
  required: boolean;
  /** single_choice and multiple_choice. */
  options?: ChoiceOption[];
  /** number: the unit shown after the field ("employees", "tonnes CO2e") and its bounds. */
  unit?: Bilingual;
  min?: number;
  max?: number;
  /** file: ask for the evidence's expiry date. */
  askExpiry?: boolean;
  /** Shown only when the answer to an earlier question equals `equals` (for a multiple choice: includes it). */
  showIf?: { question: string; equals: string };
  /** Scoring weight (≥ 0); 0 or missing: not scored. */
  weight?: number;
  /** yes_no scoring: which answer earns the points (default "yes"). */
  goodAnswer?: "yes" | "no";
}

export interface SurveySection {
  id: string;
  title: Bilingual;
  description?: Bilingual;
  questions: SurveyQuestion[];
}

export interface SurveyDefinition {
  title: Bilingual;
  description?: Bilingual;
  sections: SurveySection[];
}

export type AnswerValue = string | string[];
export type Answers = Record<string, AnswerValue>;

/** Limits every writer and reader shares. */
export const SURVEY_LIMITS = {
  sections: 30,
  questionsPerSection: 60,
  options: 40,
  textLength: 2000,
  shortAnswer: 500,
  longAnswer: 10_000,
  idLength: 40,
} as const;

export function localized(text: Bilingual | undefined, language: SurveyLanguage): string {
  if (!text) return "";
  return (language === "no" ? text.no || text.en : text.en || text.no) ?? "";
}

export function allQuestions(definition: SurveyDefinition): SurveyQuestion[] {
  return definition.sections.flatMap((s) => s.questions);
}

export function findQuestion(definition: SurveyDefinition, id: string): SurveyQuestion | undefined {
  for (const s of definition.sections) for (const q of s.questions) if (q.id === id) return q;
  return undefined;
}

function asList(value: AnswerValue | undefined): string[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : value === "" ? [] : [value];
}

/**
 * Whether the question is shown, given the answers so far. A condition on a hidden question is not met (a chain of
 * conditions hides everything after its first unmet link).
 */
export function isVisible(definition: SurveyDefinition, question: SurveyQuestion, answers: Answers): boolean {
  const seen = new Set<string>();
  let current: SurveyQuestion | undefined = question;
  while (current?.showIf) {
    if (seen.has(current.id)) return false;
    seen.add(current.id);
    const { question: on, equals } = current.showIf;
    if (!asList(answers[on]).includes(equals)) return false;
    current = findQuestion(definition, on);
  }
  return true;
}

/** Whether the question has an answer (a file question: whether it has files, which the caller counts). */
export function isAnswered(question: SurveyQuestion, answers: Answers, fileCount = 0): boolean {
  if (question.type === "file") return fileCount > 0;
  const value = answers[question.id];
  return asList(value).some((v) => v.trim() !== "");
}

export type AnswerProblem =
  | { kind: "required" }
  | { kind: "notANumber" }
  | { kind: "belowMin"; min: number }
  | { kind: "aboveMax"; max: number }
  | { kind: "notADate" }
  | { kind: "unknownOption" }
  | { kind: "tooLong"; max: number };

const DATE = /^\d{4}-\d{2}-\d{2}$/;

export function isIsoDate(value: string): boolean {
  if (!DATE.test(value)) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
}

/**
 * Reads a number as people type it: "1 234,5", "1234.5", "-3". Returns null for anything else (no exponent, no
 * thousands separators other than spaces).
 */
export function parseNumberAnswer(raw: string): number | null {
  const s = raw.replace(/[\s\u00a0\u202f]/g, "").replace(",", ".");
  if (!/^-?\d+(\.\d+)?$/.test(s)) return null;
  const n = Number(s);
  return Number.isFinite(n) ? n : null;
}

/**
 * The problems of one question's answer, or null. Hidden questions have none (their answers are ignored). `strict`
 * (submitting) also reports missing required answers; saving a draft does not.
 */
export function answerProblem(
  definition: SurveyDefinition,
  question: SurveyQuestion,
  answers: Answers,
  opts: { strict: boolean; fileCount?: number },
): AnswerProblem | null {
  if (!isVisible(definition, question, answers)) return null;
  if (!isAnswered(question, answers, opts.fileCount ?? 0)) return opts.strict && question.required ? { kind: "required" } : null;
  const values = asList(answers[question.id]);
  switch (question.type) {
    case "short_text":
      return values[0].length > SURVEY_LIMITS.shortAnswer ? { kind: "tooLong", max: SURVEY_LIMITS.shortAnswer } : null;
    case "long_text":
      return values[0].length > SURVEY_LIMITS.longAnswer ? { kind: "tooLong", max: SURVEY_LIMITS.longAnswer } : null;
    case "yes_no":
      return values[0] === "yes" || values[0] === "no" ? null : { kind: "unknownOption" };
    case "single_choice":
    case "multiple_choice": {
      const known = new Set((question.options ?? []).map((o) => o.value));
      if (question.type === "single_choice" && values.length > 1) return { kind: "unknownOption" };
      return values.every((v) => known.has(v)) ? null : { kind: "unknownOption" };
    }
    case "number": {
      const n = parseNumberAnswer(values[0]);
      if (n === null) return { kind: "notANumber" };
      if (question.min !== undefined && n < question.min) return { kind: "belowMin", min: question.min };
      if (question.max !== undefined && n > question.max) return { kind: "aboveMax", max: question.max };
      return null;
    }
    case "date":
    case "file":
      // A file question's value is the evidence's expiry date, which is optional.
      if (question.type === "file" && values.length === 0) return null;
      return isIsoDate(values[0]) ? null : { kind: "notADate" };
  }
}

/** Every problem of the given questions (a section on save, the whole survey on submit), by question id. */
export function answerProblems(
  definition: SurveyDefinition,
  questions: readonly SurveyQuestion[],
  answers: Answers,
  opts: { strict: boolean; fileCounts?: Record<string, number> },
): Record<string, AnswerProblem> {
  const out: Record<string, AnswerProblem> = {};
  for (const q of questions) {
    const problem = answerProblem(definition, q, answers, { strict: opts.strict, fileCount: opts.fileCounts?.[q.id] ?? 0 });
    if (problem) out[q.id] = problem;
  }
  return out;
}

/** The required visible questions still without an answer, in order, for the summary before submitting. */
export function missingRequired(definition: SurveyDefinition, answers: Answers, fileCounts: Record<string, number> = {}): SurveyQuestion[] {
  return allQuestions(definition).filter((q) => q.required && isVisible(definition, q, answers) && !isAnswered(q, answers, fileCounts[q.id] ?? 0));
}

/**
 * Normalises what a form posted for the given questions: trims text, keeps a multiple choice in the options' order,
 * writes numbers with a dot. Unparseable numbers and dates are kept as typed, so that an error shows them back.
 */
export function normalizeAnswers(questions: readonly SurveyQuestion[], posted: Record<string, string[]>): Answers {
  const out: Answers = {};
  for (const q of questions) {
    const raw = (Object.hasOwn(posted, q.id) ? posted[q.id] : []).map((v) => v.replace(/\r\n/g, "\n"));
    if (q.type === "multiple_choice") {
      const chosen = new Set(raw);
      out[q.id] = (q.options ?? []).map((o) => o.value).filter((v) => chosen.has(v));
      continue;
    }
    const value = (raw[0] ?? "").trim();
    if (q.type === "number") {
      const n = parseNumberAnswer(value);
      out[q.id] = n === null ? value : String(n);
    } else out[q.id] = value;
  }
  return out;
}

/** The points (0–100) one answered, visible, scored question earns; null when it does not count. */
function questionPoints(question: SurveyQuestion, answers: Answers, fileCount: number): number | null {
  const values = asList(answers[question.id]);
  switch (question.type) {
    case "yes_no":
      if (values.length === 0) return 0;
      return values[0] === (question.goodAnswer ?? "yes") ? 100 : 0;
    case "single_choice": {
      const option = (question.options ?? []).find((o) => o.value === values[0]);
      return option?.points ?? 0;
    }
    case "multiple_choice": {
      const sum = (question.options ?? []).filter((o) => values.includes(o.value)).reduce((n, o) => n + (o.points ?? 0), 0);
      return Math.min(100, sum);
    }
    case "file":
      return fileCount > 0 ? 100 : 0;
    default:
      // Free text, numbers and dates are read by people, not scored.
      return null;
  }
}

/**
 * The scoring rule (decision 031): every visible question with a weight and a scorable type earns 0–100 points (yes/no:
 * the good answer 100; a choice: its option's points; multiple choice: the sum of the chosen options' points, at most
 * 100; evidence: 100 when a file is attached; unanswered: 0). The score is the weighted mean, rounded to a whole number.
 * Null when no visible question is scored.
 */
export function surveyScore(definition: SurveyDefinition, answers: Answers, fileCounts: Record<string, number> = {}): number | null {
  let weights = 0;
  let total = 0;
  for (const q of allQuestions(definition)) {
    const weight = q.weight ?? 0;
    if (weight <= 0 || !isVisible(definition, q, answers)) continue;
    const points = questionPoints(q, answers, fileCounts[q.id] ?? 0);
    if (points === null) continue;
    weights += weight;
    total += weight * points;
  }
  if (weights === 0) return null;
  return Math.round(total / weights);
}

/** Whether the definition scores anything at all (the read view and the explorer say "not scored" otherwise). */
export function isScored(definition: SurveyDefinition): boolean {
  return allQuestions(definition).some((q) => (q.weight ?? 0) > 0 && ["yes_no", "single_choice", "multiple_choice", "file"].includes(q.type));
}

/** The answer as a reader sees it, in the reader's language (the read view, CSV, the explorer's text answers). */
export function answerLabel(question: SurveyQuestion, value: AnswerValue | undefined, language: SurveyLanguage, words: { yes: string; no: string }): string {
  const values = asList(value);
  if (values.length === 0) return "";
  switch (question.type) {
    case "yes_no":
      return values[0] === "yes" ? words.yes : values[0] === "no" ? words.no : values[0];
    case "single_choice":
    case "multiple_choice":
      return values.map((v) => localized((question.options ?? []).find((o) => o.value === v)?.label, language) || v).join("; ");
    case "number":
      return question.unit ? `${values[0]} ${localized(question.unit, language)}` : values[0];
    default:
      return values[0];
  }
}
