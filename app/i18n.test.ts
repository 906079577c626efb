import { describe, expect, it } from "vitest";
import { uiLanguage } from "./i18n";

describe("uiLanguage", () => {
  it.each([
    ["en", "en"],
    ["no", "no"],
    ["nb", "en"],
    ["", "en"],
    [undefined, "en"],
  ] as const)("%s → %s", (input, expected) => {
    expect(uiLanguage(input)).toBe(expected);
  });
});
