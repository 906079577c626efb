import { allQuestions, isVisible, type Answers, type SurveyDefinition, type SurveyQuestion } from "~/models/tasks/survey-definition";

/**
 * The survey explorer's figures (decision 032), pure: per question of one version, what the organisation's submitted
 * responses answered. Only visible questions count (a hidden question's stale answer is not an answer); "answered" is
 * how many responses gave one. Choices: a count per option (a multiple choice counts every chosen option, so the
 * counts may add up to more than the answers). Numbers: min, median, max and a histogram. Texts and dates: listed with
 * the supplier. Files: how many responses attached evidence.
 */

export interface ExplorerResponse {
  id: number;
  supplierOrganizationId: number;
  supplierName: string;
  supplierOrgNumber: string | null;
  answers: Answers;
  /** question id → number of files attached. */
  files: Record<string, number>;
}

export type QuestionFigures =
  | { kind: "counts"; answered: number; shown: number; counts: { value: string; count: number }[] }
  | { kind: "numbers"; answered: number; shown: number; min: number; median: number; max: number; bins: { from: number; to: number; count: number }[] }
  | { kind: "texts"; answered: number; shown: number; texts: { responseId: number; supplierName: string; supplierOrgNumber: string | null; text: string }[] }
  | { kind: "files"; answered: number; shown: number };

export const HISTOGRAM_BINS = 8;

function list(value: Answers[string] | undefined): string[] {
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : [value]).filter((v) => v.trim() !== "");
}

export function median(sorted: number[]): number {
  const n = sorted.length;
  if (n === 0) return NaN;
  return n % 2 ? sorted[(n - 1) / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
}

/** Equal-width bins between min and max (one bin when every value is the same). */
export function histogram(sorted: number[], bins = HISTOGRAM_BINS): { from: number; to: number; count: number }[] {
  if (sorted.length === 0) return [];
  const min = sorted[0];
  const max = sorted[sorted.length - 1];
  if (min === max) return [{ from: min, to: max, count: sorted.length }];
  const width = (max - min) / bins;
  const out = Array.from({ length: bins }, (_, i) => ({ from: min + i * width, to: i === bins - 1 ? max : min + (i + 1) * width, count: 0 }));
  for (const v of sorted) out[Math.min(bins - 1, Math.floor((v - min) / width))].count++;
  return out;
}

export function questionFigures(definition: SurveyDefinition, question: SurveyQuestion, responses: readonly ExplorerResponse[]): QuestionFigures {
  const shownIn = responses.filter((r) => isVisible(definition, question, r.answers));
  const shown = shownIn.length;
  switch (question.type) {
    case "yes_no":
    case "single_choice":
    case "multiple_choice": {
      const values = question.type === "yes_no" ? ["yes", "no"] : (question.options ?? []).map((o) => o.value);
      const counts = new Map(values.map((v) => [v, 0]));
      let answered = 0;
      for (const r of shownIn) {
        const chosen = list(r.answers[question.id]).filter((v) => counts.has(v));
        if (chosen.length) answered++;
        for (const v of new Set(chosen)) counts.set(v, (counts.get(v) ?? 0) + 1);
      }
      return { kind: "counts", answered, shown, counts: values.map((value) => ({ value, count: counts.get(value) ?? 0 })) };
    }
    case "number": {
      const numbers = shownIn
        .map((r) => list(r.answers[question.id])[0])
        .filter((v): v is string => v !== undefined)
        .map(Number)
        .filter((n) => Number.isFinite(n))
        .sort((a, b) => a - b);
      return {
        kind: "numbers",
        answered: numbers.length,
        shown,
        min: numbers[0] ?? NaN,
        median: median(numbers),
        max: numbers[numbers.length - 1] ?? NaN,
        bins: histogram(numbers),
      };
    }
    case "file": {
      return { kind: "files", answered: shownIn.filter((r) => (r.files[question.id] ?? 0) > 0).length, shown };
    }
    default: {
      const texts = shownIn
        .map((r) => ({ responseId: r.id, supplierName: r.supplierName, supplierOrgNumber: r.supplierOrgNumber, text: list(r.answers[question.id])[0] ?? "" }))
        .filter((x) => x.text !== "");
      return { kind: "texts", answered: texts.length, shown, texts };
    }
  }
}

export function explorerFigures(
  definition: SurveyDefinition,
  responses: readonly ExplorerResponse[],
): { question: SurveyQuestion; figures: QuestionFigures }[] {
  return allQuestions(definition).map((question) => ({ question, figures: questionFigures(definition, question, responses) }));
}
