import { describe, expect, it } from "vitest";
import {
  companyComplianceFlags,
  complianceFlags,
  decodeComplianceFlags,
  encodeComplianceFlags,
  isArpRequired,
  isCsrdRequired,
  isTransparencyActRequired,
  type ComplianceFacts,
} from "~/models/suppliers/compliance";

describe("isArpRequired (employees ≥ 50)", () => {
  it.each([
    [0, false],
    [49, false],
    [50, true],
    [51, true],
    [null, false],
    [undefined, false],
    [Number.NaN, false],
  ])("%s employees → %s", (number_of_employees, expected) => {
    expect(isArpRequired({ number_of_employees })).toBe(expected);
  });
});

describe("isTransparencyActRequired (ASA, or 2 of: balance ≥ 35 000, revenue ≥ 70 000, employees ≥ 50)", () => {
  it.each<[string, ComplianceFacts, boolean]>([
    ["ASA alone", { type: "ASA" }, true],
    ["ASA in other case and padding", { type: " asa " }, true],
    ["AS alone", { type: "AS" }, false],
    ["nothing known", {}, false],
    // balance + revenue
    ["balance 35 000 + revenue 70 000", { total_assets: 35_000, operating_income: 70_000 }, true],
    ["balance 34 999 + revenue 70 000", { total_assets: 34_999, operating_income: 70_000 }, false],
    ["balance 35 000 + revenue 69 999", { total_assets: 35_000, operating_income: 69_999 }, false],
    // balance + employees
    ["balance 35 000 + employees 50", { total_assets: 35_000, number_of_employees: 50 }, true],
    ["balance 35 000 + employees 49", { total_assets: 35_000, number_of_employees: 49 }, false],
    ["balance 34 999 + employees 50", { total_assets: 34_999, number_of_employees: 50 }, false],
    // revenue + employees
    ["revenue 70 000 + employees 50", { operating_income: 70_000, number_of_employees: 50 }, true],
    ["revenue 69 999 + employees 50", { operating_income: 69_999, number_of_employees: 50 }, false],
    ["revenue 70 000 + employees 49", { operating_income: 70_000, number_of_employees: 49 }, false],
    // one criterion only is never enough
    ["only balance, huge", { type: "AS", total_assets: 9_000_000 }, false],
    ["only revenue, huge", { operating_income: 9_000_000 }, false],
    ["only employees, huge", { number_of_employees: 10_000 }, false],
    ["all three", { total_assets: 35_000, operating_income: 70_000, number_of_employees: 50 }, true],
    ["all three just below", { total_assets: 34_999, operating_income: 69_999, number_of_employees: 49 }, false],
    ["missing values are not met", { total_assets: null, operating_income: 70_000, number_of_employees: undefined }, false],
  ])("%s → %s", (_name, facts, expected) => {
    expect(isTransparencyActRequired(facts)).toBe(expected);
  });
});

describe("isCsrdRequired (2 of: balance ≥ 275 000, revenue ≥ 550 000, employees ≥ 250)", () => {
  it.each<[string, ComplianceFacts, boolean]>([
    ["nothing known", {}, false],
    ["ASA alone does not trigger CSRD", { type: "ASA" }, false],
    ["balance 275 000 + revenue 550 000", { total_assets: 275_000, operating_income: 550_000 }, true],
    ["balance 274 999 + revenue 550 000", { total_assets: 274_999, operating_income: 550_000 }, false],
    ["balance 275 000 + revenue 549 999", { total_assets: 275_000, operating_income: 549_999 }, false],
    ["balance 275 000 + employees 250", { total_assets: 275_000, number_of_employees: 250 }, true],
    ["balance 275 000 + employees 249", { total_assets: 275_000, number_of_employees: 249 }, false],
    ["revenue 550 000 + employees 250", { operating_income: 550_000, number_of_employees: 250 }, true],
    ["revenue 549 999 + employees 250", { operating_income: 549_999, number_of_employees: 250 }, false],
    ["revenue 550 000 + employees 249", { operating_income: 550_000, number_of_employees: 249 }, false],
    ["only employees", { number_of_employees: 100_000 }, false],
    ["all three just below", { total_assets: 274_999, operating_income: 549_999, number_of_employees: 249 }, false],
    ["missing balance, other two met", { total_assets: null, operating_income: 550_000, number_of_employees: 250 }, true],
  ])("%s → %s", (_name, facts, expected) => {
    expect(isCsrdRequired(facts)).toBe(expected);
  });
});

describe("complianceFlags", () => {
  it.each<[string, ComplianceFacts, { arp: boolean; transparencyAct: boolean; csrd: boolean }]>([
    ["small AS", { type: "AS", number_of_employees: 12, total_assets: 8_000, operating_income: 20_000 }, { arp: false, transparencyAct: false, csrd: false }],
    ["mid-size AS", { type: "AS", number_of_employees: 50, total_assets: 40_000, operating_income: 60_000 }, { arp: true, transparencyAct: true, csrd: false }],
    ["small ASA", { type: "ASA", number_of_employees: 10 }, { arp: false, transparencyAct: true, csrd: false }],
    ["large", { type: "AS", number_of_employees: 250, total_assets: 300_000, operating_income: 100_000 }, { arp: true, transparencyAct: true, csrd: true }],
  ])("%s", (_name, facts, expected) => {
    expect(complianceFlags(facts)).toEqual(expected);
  });
});

describe("companyComplianceFlags (the register's employees, else the newest accounts')", () => {
  it("takes the register's employee count over the statement's", () => {
    expect(companyComplianceFlags({ org_form: "AS", number_of_employees: 10 }, { number_of_employees: 300 }).arp).toBe(false);
    expect(companyComplianceFlags({ org_form: "AS", number_of_employees: null }, { number_of_employees: 300 }).arp).toBe(true);
  });
  it("judges balance and revenue on the newest statement, and nothing without one", () => {
    expect(companyComplianceFlags({ org_form: "AS", number_of_employees: 260 }, { total_assets: 300_000, operating_income: 0 })).toEqual({
      arp: true,
      transparencyAct: true,
      csrd: true,
    });
    expect(companyComplianceFlags({ org_form: "AS", number_of_employees: null }, null)).toEqual({ arp: false, transparencyAct: false, csrd: false });
  });
});

describe("encodeComplianceFlags / decodeComplianceFlags (stored on a connection: 1 ARP, 2 Transparency Act, 4 CSRD)", () => {
  it.each([
    [{ arp: false, transparencyAct: false, csrd: false }, 0],
    [{ arp: true, transparencyAct: false, csrd: false }, 1],
    [{ arp: false, transparencyAct: true, csrd: false }, 2],
    [{ arp: false, transparencyAct: false, csrd: true }, 4],
    [{ arp: true, transparencyAct: true, csrd: true }, 7],
  ])("%o ⇄ %i", (flags, bits) => {
    expect(encodeComplianceFlags(flags)).toBe(bits);
    expect(decodeComplianceFlags(bits)).toEqual(flags);
  });
});
