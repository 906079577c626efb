import { describe, expect, it } from "vitest";
import {
  answerLabel,
  answerProblem,
  answerProblems,
  isScored,
  isVisible,
  missingRequired,
  normalizeAnswers,
  parseNumberAnswer,
  surveyScore,
  type SurveyDefinition,
} from "~/models/tasks/survey-definition";
import { parseDefinition, surveyDefinitionSchema } from "~/models/tasks/survey-definition-schema";

const t = (en: string) => ({ en, no: `${en} (no)` });

/** One question of every type, a condition chain and weights. */
const definition: SurveyDefinition = {
  title: t("Every type"),
  sections: [
    {
      id: "a",
      title: t("First"),
      questions: [
        { id: "policy", type: "yes_no", text: t("Policy?"), required: true, weight: 2 },
        { id: "policyFile", type: "file", text: t("Upload it"), required: true, askExpiry: true, showIf: { question: "policy", equals: "yes" }, weight: 1 },
        { id: "why", type: "long_text", text: t("Why not?"), required: true, showIf: { question: "policy", equals: "no" } },
        {
          id: "level",
          type: "single_choice",
          text: t("Level"),
          required: false,
          weight: 1,
          options: [
            { value: "none", label: t("None"), points: 0 },
            { value: "some", label: t("Some"), points: 50 },
            { value: "full", label: t("Full"), points: 100 },
          ],
        },
        { id: "levelDetail", type: "yes_no", text: t("Certified?"), required: true, showIf: { question: "level", equals: "full" } },
        { id: "deeper", type: "short_text", text: t("By whom?"), required: true, showIf: { question: "levelDetail", equals: "yes" } },
      ],
    },
    {
      id: "b",
      title: t("Second"),
      questions: [
        {
          id: "certs",
          type: "multiple_choice",
          text: t("Certifications"),
          required: false,
          weight: 1,
          options: [
            { value: "iso9001", label: t("ISO 9001"), points: 60 },
            { value: "iso14001", label: t("ISO 14001"), points: 60 },
            { value: "other", label: t("Other") },
          ],
        },
        { id: "staff", type: "number", text: t("Employees"), required: true, min: 0, max: 100000, unit: t("people") },
        { id: "audited", type: "date", text: t("Last audit"), required: false },
        { id: "mfa", type: "yes_no", text: t("MFA?"), required: false, weight: 1, goodAnswer: "no" },
      ],
    },
  ],
};

describe("the definition schema", () => {
  it("accepts every question type with conditions", () => {
    expect(surveyDefinitionSchema.safeParse(definition).success).toBe(true);
    expect(parseDefinition(JSON.stringify(definition)).sections[1].questions[1].unit).toEqual(t("people"));
  });

  it.each([
    ["a duplicate question id", (d: SurveyDefinition) => (d.sections[1].questions[0].id = "policy"), "used twice"],
    [
      "a choice question with one option",
      (d: SurveyDefinition) => (d.sections[0].questions[3].options = [{ value: "x", label: t("X") }]),
      "at least two options",
    ],
    [
      "a condition on a later question",
      (d: SurveyDefinition) => (d.sections[0].questions[0].showIf = { question: "level", equals: "full" }),
      "earlier question",
    ],
    [
      "a condition on a value the question cannot have",
      (d: SurveyDefinition) => (d.sections[0].questions[4].showIf = { question: "level", equals: "most" }),
      "one of the question's options",
    ],
    ["a yes/no condition on maybe", (d: SurveyDefinition) => (d.sections[0].questions[1].showIf = { question: "policy", equals: "maybe" }), "yes or no"],
    ["a condition on a number question", (d: SurveyDefinition) => (d.sections[1].questions[2].showIf = { question: "staff", equals: "3" }), "yes/no or choice"],
    ["min above max", (d: SurveyDefinition) => (d.sections[1].questions[1].min = 200000), "min is above max"],
    [
      "options on a text question",
      (d: SurveyDefinition) =>
        (d.sections[0].questions[2].options = [
          { value: "a", label: t("A") },
          { value: "b", label: t("B") },
        ]),
      "only choice",
    ],
    ["an id with spaces", (d: SurveyDefinition) => (d.sections[0].id = "a b"), "letters, digits"],
    ["an empty section", (d: SurveyDefinition) => (d.sections[1].questions = []), "at least one question"],
    ["no English title", (d: SurveyDefinition) => (d.title = { en: " ", no: "Tittel" }), "English text is required"],
  ])("refuses %s", (_, change, message) => {
    const copy = structuredClone(definition);
    change(copy);
    const result = surveyDefinitionSchema.safeParse(copy);
    expect(result.success).toBe(false);
    expect(JSON.stringify(result.error?.issues)).toContain(message);
  });
});

describe("conditions", () => {
  const q = (id: string) => definition.sections.flatMap((s) => s.questions).find((x) => x.id === id)!;
  it.each([
    ["policyFile", {}, false],
    ["policyFile", { policy: "yes" }, true],
    ["why", { policy: "yes" }, false],
    ["why", { policy: "no" }, true],
    ["levelDetail", { level: "full" }, true],
    // A chain: deeper needs levelDetail = yes, which needs level = full.
    ["deeper", { level: "some", levelDetail: "yes" }, false],
    ["deeper", { level: "full", levelDetail: "yes" }, true],
    ["certs", {}, true],
  ])("%s with %j is visible: %s", (id, answers, visible) => {
    expect(isVisible(definition, q(id), answers)).toBe(visible);
  });

  it("a condition on a multiple choice is met when the value is among the chosen", () => {
    const d: SurveyDefinition = {
      title: t("M"),
      sections: [
        {
          id: "s",
          title: t("S"),
          questions: [
            {
              id: "m",
              type: "multiple_choice",
              text: t("M"),
              required: false,
              options: [
                { value: "a", label: t("A") },
                { value: "b", label: t("B") },
              ],
            },
            { id: "x", type: "short_text", text: t("X"), required: true, showIf: { question: "m", equals: "b" } },
          ],
        },
      ],
    };
    expect(isVisible(d, d.sections[0].questions[1], { m: ["a", "b"] })).toBe(true);
    expect(isVisible(d, d.sections[0].questions[1], { m: ["a"] })).toBe(false);
  });
});

describe("answers", () => {
  const q = (id: string) => definition.sections.flatMap((s) => s.questions).find((x) => x.id === id)!;

  it.each([
    ["1 234,5", 1234.5],
    ["1234.5", 1234.5],
    ["-3", -3],
    ["12\u00a0000", 12000],
    ["1e5", null],
    ["twelve", null],
    ["", null],
    ["1,2,3", null],
  ])("reads the number %j as %s", (raw, n) => expect(parseNumberAnswer(raw)).toBe(n));

  it.each([
    ["staff", { staff: "" }, true, { kind: "required" }],
    ["staff", { staff: "" }, false, null],
    ["staff", { staff: "many" }, false, { kind: "notANumber" }],
    ["staff", { staff: "-1" }, false, { kind: "belowMin", min: 0 }],
    ["staff", { staff: "100001" }, false, { kind: "aboveMax", max: 100000 }],
    ["staff", { staff: "100000" }, true, null],
    ["audited", { audited: "2026-02-30" }, false, { kind: "notADate" }],
    ["audited", { audited: "2026-02-28" }, true, null],
    ["level", { level: "most" }, false, { kind: "unknownOption" }],
    ["certs", { certs: ["iso9001", "made-up"] }, false, { kind: "unknownOption" }],
    ["policy", { policy: "maybe" }, false, { kind: "unknownOption" }],
    // Hidden: no problem whatever it holds.
    ["why", { policy: "yes", why: "" }, true, null],
    ["why", { policy: "no", why: "" }, true, { kind: "required" }],
    ["deeper", { level: "full", levelDetail: "yes", deeper: "x".repeat(501) }, false, { kind: "tooLong", max: 500 }],
    ["why", { policy: "no", why: "x".repeat(10_001) }, false, { kind: "tooLong", max: 10_000 }],
  ])("%s with %j (strict %s) → %j", (id, answers, strict, problem) => {
    expect(answerProblem(definition, q(id), answers, { strict })).toEqual(problem);
  });

  it("a required file question counts its files; its expiry date must be a date when given", () => {
    expect(answerProblem(definition, q("policyFile"), { policy: "yes" }, { strict: true, fileCount: 0 })).toEqual({ kind: "required" });
    expect(answerProblem(definition, q("policyFile"), { policy: "yes", policyFile: "" }, { strict: true, fileCount: 1 })).toBeNull();
    expect(answerProblem(definition, q("policyFile"), { policy: "yes", policyFile: "soon" }, { strict: true, fileCount: 1 })).toEqual({ kind: "notADate" });
  });

  it("lists the missing required answers of visible questions, in order", () => {
    expect(missingRequired(definition, { policy: "no", level: "full" }).map((x) => x.id)).toEqual(["why", "levelDetail", "staff"]);
    expect(missingRequired(definition, { policy: "yes", staff: "3" }, { policyFile: 1 })).toEqual([]);
    expect(Object.keys(answerProblems(definition, definition.sections[0].questions, { policy: "yes" }, { strict: true }))).toEqual(["policyFile"]);
  });

  it("normalises what a form posted", () => {
    const posted = { staff: [" 1 200,50 "], certs: ["iso14001", "iso9001", "nope"], why: ["line\r\nline "], audited: ["tomorrow"] };
    expect(normalizeAnswers(definition.sections[1].questions, posted)).toEqual({
      certs: ["iso9001", "iso14001"],
      staff: "1200.5",
      audited: "tomorrow",
      mfa: "",
    });
    expect(normalizeAnswers([q("why")], posted)).toEqual({ why: "line\nline" });
  });

  it("labels answers in the reader's language", () => {
    const words = { yes: "Ja", no: "Nei" };
    expect(answerLabel(q("policy"), "yes", "no", words)).toBe("Ja");
    expect(answerLabel(q("certs"), ["iso9001", "other"], "no", words)).toBe("ISO 9001 (no); Other (no)");
    expect(answerLabel(q("staff"), "12", "en", words)).toBe("12 people");
    expect(answerLabel(q("why"), undefined, "en", words)).toBe("");
  });
});

describe("the score", () => {
  it.each([
    // weights: policy 2, policyFile 1 (only when policy = yes), level 1, certs 1, mfa 1 (good answer: no)
    ["nothing answered", {}, {}, 0],
    ["all best", { policy: "yes", level: "full", certs: ["iso9001", "iso14001"], mfa: "no" }, { policyFile: 1 }, 100],
    // policy no (0×2), policyFile hidden, level some (50), certs one (60), mfa yes (0): (0+50+60+0)/5 = 22
    ["a mixed answer", { policy: "no", level: "some", certs: ["iso9001"], mfa: "yes" }, {}, 22],
    // policy yes (200) + no file (0) + level none (0) + certs other (0) + mfa no (100) = 300/6 = 50
    ["yes without evidence", { policy: "yes", level: "none", certs: ["other"], mfa: "no" }, {}, 50],
  ])("%s → %s", (_, answers, files, score) => {
    expect(surveyScore(definition, answers, files)).toBe(score);
  });

  it("is null when nothing is scored", () => {
    const plain: SurveyDefinition = {
      title: t("P"),
      sections: [{ id: "s", title: t("S"), questions: [{ id: "x", type: "short_text", text: t("X"), required: true }] }],
    };
    expect(surveyScore(plain, { x: "hello" })).toBeNull();
    expect(isScored(plain)).toBe(false);
    expect(isScored(definition)).toBe(true);
  });
});
