import { describe, expect, it } from "vitest";
import { COMMON_PASSWORDS, isTrivialPattern, passwordWeakness } from "~/models/accounts/common-passwords";

describe("passwordWeakness", () => {
  it.each(["123456", "password", "qwerty123", "passord", "sommer2024", "Passord123", "Summer2025!", "velkommen1"])("refuses the common %j", (p) =>
    expect(passwordWeakness(p, "someone@example.test")).toBe("common"),
  );
  it.each(["kari.nordmann2026", "XKARI.NORDMANNX", "kari.nordmann@firma.no"])("refuses %j, which contains the email's local part", (p) =>
    expect(passwordWeakness(p, "kari.nordmann@firma.no")).toBe("email"),
  );
  it.each(["aaaaaaaa", "11111111111", "abcdefghij", "87654321", "poiuytre", "zyxwvuts", "abcabcabcabc", "12121212"])("refuses the pattern %j", (p) =>
    expect(passwordWeakness(p, "x@example.test")).toBe("pattern"),
  );
  it.each(["Fresh-meadow-river-42", "Lang-fjord-morgen-77", "korrekt hest batteri stift", "Tr0ub4dor&3x"])("takes %j", (p) =>
    expect(passwordWeakness(p, "kari.nordmann@firma.no")).toBeNull(),
  );
  it("ignores an email local part too short to mean anything", () => expect(passwordWeakness("Fresh-meadow-ab-42", "ab@x.test")).toBeNull());
});

describe("the list", () => {
  it("is lower-case, without repeats, and has the Norwegian ones", () => {
    expect(COMMON_PASSWORDS.every((p) => p === p.toLowerCase())).toBe(true);
    expect(new Set(COMMON_PASSWORDS).size).toBe(COMMON_PASSWORDS.length);
    expect(COMMON_PASSWORDS).toEqual(expect.arrayContaining(["passord", "sommer2024", "hemmelig"]));
  });
  it("a mixed password is no pattern", () => expect(isTrivialPattern("abc1def2")).toBe(false));
});
