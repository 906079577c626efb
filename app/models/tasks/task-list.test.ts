import { describe, expect, it } from "vitest";
import { selfAssessmentBand, selfAssessmentRisk } from "~/models/tasks/task-list";

describe("the supplier self-assessment risk line (decision 034)", () => {
  it.each([
    { scores: [], risk: null },
    { scores: [{ score: null, submittedAt: "2026-01-01T00:00:00Z" }], risk: null },
    { scores: [{ score: 80, submittedAt: null }], risk: null },
    { scores: [{ score: 80, submittedAt: "2026-01-01T00:00:00Z" }], risk: 20 },
    { scores: [{ score: 0, submittedAt: "2026-01-01T00:00:00Z" }], risk: 100 },
    { scores: [{ score: 100, submittedAt: "2026-01-01T00:00:00Z" }], risk: 0 },
    // The latest submitted one counts, not the best nor the mean.
    {
      scores: [
        { score: 90, submittedAt: "2026-01-01T00:00:00Z" },
        { score: 40, submittedAt: "2026-03-01T00:00:00Z" },
        { score: 70, submittedAt: "2026-02-01T00:00:00Z" },
      ],
      risk: 60,
    },
    // An unscored later survey does not hide the earlier score.
    {
      scores: [
        { score: 75, submittedAt: "2026-01-01T00:00:00Z" },
        { score: null, submittedAt: "2026-05-01T00:00:00Z" },
      ],
      risk: 25,
    },
    // Out-of-range stored scores are clamped to the scale.
    { scores: [{ score: 130, submittedAt: "2026-01-01T00:00:00Z" }], risk: 0 },
  ])("$scores → $risk", ({ scores, risk }) => {
    expect(selfAssessmentRisk(scores)).toBe(risk);
  });

  it("bands like every other risk line (shared/spec/02-supplier-credit-connections.md §9: up to 33 green, up to 66 yellow, above red)", () => {
    expect(selfAssessmentBand(null)).toBeNull();
    expect(selfAssessmentBand(33)).toBe("green");
    expect(selfAssessmentBand(34)).toBe("yellow");
    expect(selfAssessmentBand(66)).toBe("yellow");
    expect(selfAssessmentBand(67)).toBe("red");
  });
});
