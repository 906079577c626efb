import { describe, expect, it } from "vitest";
import { hitFigure } from "./search-figures";

const NBSP = "\u00a0";
const MINUS = "\u2212";

describe("hitFigure (statement thousands → NOK, compact, no decimals)", () => {
  it.each([
    [12345, "en", `NOK${NBSP}12M`],
    [12345, "no", `12${NBSP}mill.${NBSP}kr`],
    [45, "en", `NOK${NBSP}45K`],
    [45, "no", `45k${NBSP}kr`],
    [2_400_000, "en", `NOK${NBSP}2B`],
    [2_400_000, "no", `2${NBSP}mrd.${NBSP}kr`],
    [-1234, "en", `-NOK${NBSP}1M`],
    [-1234, "no", `${MINUS}1${NBSP}mill.${NBSP}kr`],
    [0, "en", `NOK${NBSP}0`],
    [null, "en", "—"],
    [Number.NaN, "no", "—"],
  ] as const)("%s thousand (%s) → %j", (value, locale, expected) => {
    expect(hitFigure(value, locale)).toBe(expected);
  });
});
