import { describe, expect, it } from "vitest";
import { NACE_SECTIONS, naceSection, naceSectionOfDivision } from "~/models/registry/nace";

describe("naceSection", () => {
  it.each([
    ["01.110", "A"],
    ["03.220", "A"],
    ["05.100", "B"],
    ["09.900", "B"],
    ["10.110", "C"],
    ["33.200", "C"],
    ["35.111", "D"],
    ["36.000", "E"],
    ["39.000", "E"],
    ["41.101", "F"],
    ["43.990", "F"],
    ["45.111", "G"],
    ["47.190", "G"],
    ["49.100", "H"],
    ["53.200", "H"],
    ["55.101", "I"],
    ["56.101", "I"],
    ["58.110", "J"],
    ["62.010", "J"],
    ["63.990", "J"],
    ["64.190", "K"],
    ["66.300", "K"],
    ["68.209", "L"],
    ["69.201", "M"],
    ["75.000", "M"],
    ["77.110", "N"],
    ["82.990", "N"],
    ["84.110", "O"],
    ["85.201", "P"],
    ["86.101", "Q"],
    ["88.991", "Q"],
    ["90.011", "R"],
    ["93.290", "R"],
    ["94.110", "S"],
    ["96.090", "S"],
    ["97.000", "T"],
    ["98.100", "T"],
    ["99.000", "U"],
    ["62", "J"],
    ["62010", "J"],
  ])("%s → %s", (code, section) => expect(naceSection(code)).toBe(section));

  it.each([
    null,
    undefined,
    "",
    "  ",
    "00.000",
    "04.000",
    "34.100",
    "40.000",
    "44.000",
    "48.000",
    "54.000",
    "57.000",
    "67.000",
    "76.000",
    "83.000",
    "89.000",
    "6",
    "x2.010",
    "7a",
  ])("%j → null", (code) => expect(naceSection(code)).toBeNull());

  it("every section has at least one division", () => {
    const found = new Set(Array.from({ length: 100 }, (_, d) => naceSectionOfDivision(d)).filter(Boolean));
    expect([...found].sort()).toEqual([...NACE_SECTIONS]);
  });
});
