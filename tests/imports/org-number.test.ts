import { describe, expect, it } from "vitest";
import { checkOrgNumber, hasValidCheckDigit, nameConfidence, normaliseCompanyName, normaliseOrgNumber } from "~/models/shared/org-number";

// Real organisation numbers from the Brønnøysund register (server/seed-data/brreg).
const AKER_SOLUTIONS_ASA = "913748174";
const WAYS_AS = "832175692";
const AKTIVTEK = "998465001"; // remainder 10 → check digit 1
const HAAVARDSHOLM = "969804530"; // remainder 0 → check digit 0

describe("hasValidCheckDigit (MOD11, weights 3 2 7 6 5 4 3 2)", () => {
  it.each([AKER_SOLUTIONS_ASA, WAYS_AS, AKTIVTEK, HAAVARDSHOLM, "913192192"])("accepts the registry's %s", (n) => {
    expect(hasValidCheckDigit(n)).toBe(true);
  });

  it("refuses a wrong last digit", () => {
    expect(hasValidCheckDigit("913748175")).toBe(false);
    expect(hasValidCheckDigit("969804531")).toBe(false);
  });

  it("refuses every digit after eight digits whose remainder is 1 (no check digit exists)", () => {
    for (let d = 0; d <= 9; d++) expect(hasValidCheckDigit(`10000013${d}`)).toBe(false);
  });

  it("refuses anything that is not nine digits", () => {
    expect(hasValidCheckDigit("91374817")).toBe(false);
    expect(hasValidCheckDigit("9137481740")).toBe(false);
    expect(hasValidCheckDigit("91374817a")).toBe(false);
  });
});

describe("normaliseOrgNumber", () => {
  it.each([
    ["913 748 174", AKER_SOLUTIONS_ASA],
    ["913.748.174", AKER_SOLUTIONS_ASA],
    ["913-748-174", AKER_SOLUTIONS_ASA],
    ["913\u00a0748\u00a0174", AKER_SOLUTIONS_ASA],
    ["NO 913 748 174 MVA", AKER_SOLUTIONS_ASA],
    ["NO913748174MVA", AKER_SOLUTIONS_ASA],
    ["no913748174", AKER_SOLUTIONS_ASA],
    ["913748174 mva", AKER_SOLUTIONS_ASA],
    ["'913748174", AKER_SOLUTIONS_ASA],
    ["  913748174  ", AKER_SOLUTIONS_ASA],
    ["913748174.0", AKER_SOLUTIONS_ASA],
    ["9.13748174E+08", AKER_SOLUTIONS_ASA],
    ["9.6980453E8", HAAVARDSHOLM],
  ])("%j → %s", (raw, expected) => {
    expect(normaliseOrgNumber(raw)).toBe(expected);
  });
});

describe("checkOrgNumber", () => {
  it("reads an empty cell as empty", () => {
    expect(checkOrgNumber("")).toEqual({ kind: "empty" });
    expect(checkOrgNumber("   ")).toEqual({ kind: "empty" });
    expect(checkOrgNumber(null)).toEqual({ kind: "empty" });
    expect(checkOrgNumber("NO MVA")).toEqual({ kind: "empty" });
  });

  it("accepts a formatted registry number", () => {
    expect(checkOrgNumber("NO 832 175 692 MVA")).toEqual({ kind: "valid", orgNumber: WAYS_AS });
  });

  it("says why a number is invalid", () => {
    expect(checkOrgNumber("913 748 175")).toEqual({ kind: "invalid", problem: "check-digit", cleaned: "913748175" });
    expect(checkOrgNumber("91374817")).toEqual({ kind: "invalid", problem: "wrong-length", cleaned: "91374817" });
    expect(checkOrgNumber("9137481740")).toEqual({ kind: "invalid", problem: "wrong-length", cleaned: "9137481740" });
    expect(checkOrgNumber("913 74B 174")).toEqual({ kind: "invalid", problem: "not-digits", cleaned: "91374B174" });
    expect(checkOrgNumber("SE556012579001").kind).toBe("invalid");
  });
});

describe("company names", () => {
  it("drops case, punctuation and a trailing legal form", () => {
    expect(normaliseCompanyName("AKER SOLUTIONS ASA")).toBe("aker solutions");
    expect(normaliseCompanyName("Aker Solutions, ASA.")).toBe("aker solutions");
    expect(normaliseCompanyName("Tønsberglivet AS")).toBe("tønsberglivet");
    expect(normaliseCompanyName("AS")).toBe("as");
  });

  it("scores the same normalised name 1 and partial overlaps below it", () => {
    expect(nameConfidence("Aker Solutions", "AKER SOLUTIONS ASA")).toBe(1);
    const partial = nameConfidence("Aker Solutions", "AKER SOLUTIONS HOLDING AS");
    expect(partial).toBeGreaterThan(0.5);
    expect(partial).toBeLessThan(1);
    expect(nameConfidence("Ways", "TØNSBERGLIVET AS")).toBe(0);
  });
});
