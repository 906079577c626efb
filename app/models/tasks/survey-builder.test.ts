import { describe, expect, it } from "vitest";
import {
  addQuestion,
  addSection,
  conditionChoices,
  deleteQuestion,
  deleteSection,
  moveQuestion,
  moveSection,
  optionsFromRows,
  questionCount,
  replaceQuestion,
  updateSection,
  type NewTexts,
} from "~/models/tasks/survey-builder";
import type { SurveyDefinition } from "~/models/tasks/survey-definition";
import { surveyDefinitionSchema } from "~/models/tasks/survey-definition-schema";

const texts: NewTexts = {
  section: { en: "New section", no: "Ny seksjon" },
  question: { en: "New question", no: "Nytt spørsmål" },
  option: (n) => ({ en: `Option ${n}`, no: `Alternativ ${n}` }),
};

const base: SurveyDefinition = {
  title: { en: "T", no: "" },
  sections: [
    {
      id: "s1",
      title: { en: "One", no: "" },
      questions: [
        { id: "q1", type: "yes_no", text: { en: "Policy?", no: "" }, required: true },
        { id: "q2", type: "file", text: { en: "Upload", no: "" }, required: false, showIf: { question: "q1", equals: "yes" } },
      ],
    },
    {
      id: "s2",
      title: { en: "Two", no: "" },
      questions: [
        {
          id: "q3",
          type: "single_choice",
          text: { en: "Pick", no: "" },
          required: false,
          options: [
            { value: "a", label: { en: "A", no: "" } },
            { value: "b", label: { en: "B", no: "" } },
          ],
        },
      ],
    },
  ],
};

const valid = (d: SurveyDefinition) => surveyDefinitionSchema.safeParse(d).success;

describe("the builder's changes", () => {
  it("never change their input", () => {
    const copy = structuredClone(base);
    addSection(base, texts);
    addQuestion(base, "s1", "number", texts);
    moveQuestion(base, "q2", "down");
    deleteSection(base, "s2");
    expect(base).toEqual(copy);
  });

  it("a new section starts with one question; new ids are one above the highest in use", () => {
    const { definition, id } = addSection(base, texts);
    expect(id).toBe("s3");
    expect(definition.sections[2].questions.map((q) => q.id)).toEqual(["q4"]);
    expect(valid(definition)).toBe(true);
  });

  it("a new choice question has two options and is valid; every type is", () => {
    for (const type of ["short_text", "long_text", "yes_no", "single_choice", "multiple_choice", "number", "date", "file"] as const) {
      const added = addQuestion(base, "s2", type, texts)!;
      expect(valid(added.definition), type).toBe(true);
    }
    expect(addQuestion(base, "s2", "multiple_choice", texts)!.definition.sections[1].questions[1].options).toHaveLength(2);
    expect(addQuestion(base, "nope", "date", texts)).toBeNull();
  });

  it("moves a question within its section and across the edge into the next one", () => {
    expect(moveQuestion(base, "q1", "up")).toBeNull();
    const down = moveQuestion(base, "q2", "down")!;
    expect(down.sections.map((s) => s.questions.map((q) => q.id))).toEqual([["q1"], ["q2", "q3"]]);
    // Moving the condition above its question breaks the definition: the schema refuses it.
    const up = moveQuestion(base, "q2", "up")!;
    expect(up.sections[0].questions.map((q) => q.id)).toEqual(["q2", "q1"]);
    expect(valid(up)).toBe(false);
  });

  it("moves and deletes sections, renames one, and deleting a referenced question is caught by the schema", () => {
    expect(moveSection(base, "s2", "up")!.sections.map((s) => s.id)).toEqual(["s2", "s1"]);
    expect(moveSection(base, "s2", "down")).toBeNull();
    expect(deleteSection(base, "s2")!.sections.map((s) => s.id)).toEqual(["s1"]);
    expect(updateSection(base, "s1", { title: { en: "First", no: "Første" } })!.sections[0].title).toEqual({ en: "First", no: "Første" });
    expect(valid(deleteQuestion(base, "q1")!)).toBe(false);
    expect(valid(deleteQuestion(base, "q2")!)).toBe(true);
  });

  it("replacing a question keeps its type", () => {
    const next = replaceQuestion(base, {
      id: "q3",
      type: "date",
      text: { en: "Pick one", no: "" },
      required: true,
      options: base.sections[1].questions[0].options,
    })!;
    expect(next.sections[1].questions[0]).toMatchObject({ type: "single_choice", text: { en: "Pick one", no: "" }, required: true });
  });

  it("offers conditions on earlier yes/no and choice questions only", () => {
    expect(conditionChoices(base, "q3").map((c) => [c.question.id, c.values])).toEqual([["q1", ["yes", "no"]]]);
    expect(conditionChoices(base, "q1")).toEqual([]);
  });

  it("option rows: empty ones dropped, new ones get a value not in use (nor just removed)", () => {
    expect(
      optionsFromRows([
        { value: "o1", en: "Yes", no: "Ja", points: 100 },
        { value: "o2", en: "", no: "" },
        { en: " New ", no: "" },
      ]),
    ).toEqual([
      { value: "o1", label: { en: "Yes", no: "Ja" }, points: 100 },
      { value: "o3", label: { en: "New", no: "" } },
    ]);
    expect(questionCount(base)).toBe(3);
  });
});

describe("checkDefinition", () => {
  it("places a problem on the question's field and says 'too many' for a list over its limit", async () => {
    const { checkDefinition } = await import("~/models/tasks/survey-builder.server");
    const broken = replaceQuestion(base, {
      id: "q3",
      type: "single_choice",
      text: { en: "", no: "" },
      required: false,
      options: [{ value: "a", label: { en: "A", no: "" } }],
    })!;
    const result = checkDefinition(broken);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.problems.map((p) => [p.questionId, p.field, p.key])).toEqual([
        ["q3", "textEn", "englishRequired"],
        ["q3", "options", "twoOptions"],
      ]);
    }
    let many: SurveyDefinition = base;
    for (let i = 0; i < 30; i++) many = addSection(many, texts).definition;
    const tooMany = checkDefinition(many);
    expect(tooMany.ok ? [] : tooMany.problems.map((p) => [p.field, p.key, p.params.max])).toEqual([["sections", "tooMany", "30"]]);
  });
});
