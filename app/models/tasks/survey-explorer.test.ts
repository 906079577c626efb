import { describe, expect, it } from "vitest";
import type { SurveyDefinition } from "~/models/tasks/survey-definition";
import { explorerFigures, histogram, median, type ExplorerResponse } from "~/models/tasks/survey-explorer";

const definition: SurveyDefinition = {
  title: { en: "T", no: "" },
  sections: [
    {
      id: "s",
      title: { en: "S", no: "" },
      questions: [
        { id: "p", type: "yes_no", text: { en: "Policy?", no: "" }, required: true },
        { id: "why", type: "short_text", text: { en: "Why not?", no: "" }, required: false, showIf: { question: "p", equals: "no" } },
        { id: "n", type: "number", text: { en: "N", no: "" }, required: false },
        {
          id: "m",
          type: "multiple_choice",
          text: { en: "M", no: "" },
          required: false,
          options: [
            { value: "a", label: { en: "A", no: "" } },
            { value: "b", label: { en: "B", no: "" } },
          ],
        },
        { id: "f", type: "file", text: { en: "F", no: "" }, required: false },
      ],
    },
  ],
};

const r = (id: number, answers: ExplorerResponse["answers"], files: Record<string, number> = {}): ExplorerResponse => ({
  id,
  supplierOrganizationId: id,
  supplierName: `S${id}`,
  supplierOrgNumber: null,
  answers,
  files,
});

describe("the explorer's figures", () => {
  it("count only responses that showed the question; a hidden question's stale answer is not counted", () => {
    const figures = explorerFigures(definition, [
      r(1, { p: "yes", why: "stale", n: "3", m: ["a", "b"] }, { f: 2 }),
      r(2, { p: "no", why: "Too small", n: "10", m: ["b"] }),
      r(3, { p: "no", n: "x" }),
    ]);
    const by = Object.fromEntries(figures.map((f) => [f.question.id, f.figures]));
    expect(by.p).toEqual({
      kind: "counts",
      answered: 3,
      shown: 3,
      counts: [
        { value: "yes", count: 1 },
        { value: "no", count: 2 },
      ],
    });
    expect(by.why).toEqual({
      kind: "texts",
      answered: 1,
      shown: 2,
      texts: [{ responseId: 2, supplierName: "S2", supplierOrgNumber: null, text: "Too small" }],
    });
    expect(by.n).toMatchObject({ kind: "numbers", answered: 2, min: 3, median: 6.5, max: 10 });
    expect(by.m).toMatchObject({
      answered: 2,
      counts: [
        { value: "a", count: 1 },
        { value: "b", count: 2 },
      ],
    });
    expect(by.f).toEqual({ kind: "files", answered: 1, shown: 3 });
  });

  it("median and histogram", () => {
    expect(median([1, 2, 3])).toBe(2);
    expect(median([1, 2, 3, 4])).toBe(2.5);
    expect(histogram([5, 5])).toEqual([{ from: 5, to: 5, count: 2 }]);
    const bins = histogram([0, 1, 2, 3, 4, 5, 6, 7, 8], 4);
    expect(bins.map((b) => b.count)).toEqual([2, 2, 2, 3]);
    expect(bins.reduce((n, b) => n + b.count, 0)).toBe(9);
    expect(histogram([])).toEqual([]);
  });
});
