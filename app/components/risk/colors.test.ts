import { describe, expect, it } from "vitest";
import { badgeClass } from "./colors";

describe("badgeClass", () => {
  it("gives every colour a badge with a dark text on a light fill", () => {
    for (const color of ["green", "lime", "yellow", "orange", "red", "neutral"] as const) {
      expect(badgeClass(color)).toMatch(/^badge border /);
    }
    expect(badgeClass("red")).toContain("text-red-900");
    expect(badgeClass("lime")).toContain("bg-lime-100");
  });
});
