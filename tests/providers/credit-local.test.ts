import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@server/db";
import { creditProvider } from "@server/providers/credit";
import { companyStatus, createLocalCreditProvider, MAX_SEARCH_RESULTS, reportFileName, splitStreet } from "@server/providers/credit/local";
import { CreditError } from "@server/providers/credit/types";
import { seedDemoWorld } from "@server/seed/demo";
import { formatDate, formatOwnership } from "~/models/shared/format";
import { board, financialStatements, findCompany, shareholders } from "~/models/registry/registry.server";
import { financialRisk } from "~/models/suppliers/risk";
import { CREDIT_REPORT_TEXTS, localCreditStore } from "~/models/credit/credit-reports.server";
import { pdfPageCount, pdfText, pdfTextLines } from "../helpers/pdf-text";

// Seed and report share one day, so "the last three years" and the file name do not follow the real calendar.
const NOW = new Date(Date.UTC(2026, 10, 22, 10, 0, 0));
// The store and the texts the credit report model hands the provider.
const LOCAL = { store: localCreditStore, texts: CREDIT_REPORT_TEXTS };
const provider = createLocalCreditProvider({ ...LOCAL, now: () => NOW });

const VINMONOPOLET = "817209882";
const AKER_SOLUTIONS = "913748174";
/** Bankrupt since 2023-09-13 in the Brønnøysund sample. */
const P_PLAN = "997097378";

beforeAll(async () => {
  await seedDemoWorld(db(), { today: NOW });
  // A company with nothing but a name, for the empty sections.
  await db()
    .insertInto("companies")
    .values({ org_number: "999999990", legal_name: "Tomt Testselskap AS", country_code: "NO", source: "seed", updated_at: NOW.toISOString() })
    .execute();
}, 60_000);

describe("local credit provider: search", () => {
  it("is the default provider", async () => {
    expect((await creditProvider(LOCAL, {})).name).toBe("local");
  });

  it("finds a company by name, in the spec's shape", async () => {
    const hits = await provider.searchCompanies({ country: "NO", name: "vinmonopolet" });
    expect(hits[0]).toEqual({
      id: `local:${VINMONOPOLET}`,
      name: "Aktieselskapet Vinmonopolet",
      country: "NO",
      regNo: VINMONOPOLET,
      status: "Active",
      legalForm: "Aksjeselskap",
      address: { street: "Dronning Eufemias gate", houseNo: "11", postCode: "0150", city: "OSLO" },
    });
  });

  it("puts the name that matches the query first, and matches a prefix in any case", async () => {
    const hits = await provider.searchCompanies({ country: "NO", name: "aker solutions asa" });
    expect(hits[0].regNo).toBe(AKER_SOLUTIONS);
    const prefix = await provider.searchCompanies({ country: "NO", name: "AKER SOL" });
    expect(prefix.map((h) => h.regNo)).toContain(AKER_SOLUTIONS);
  });

  it("finds by exact organisation number, ignoring spaces", async () => {
    const hits = await provider.searchCompanies({ country: "NO", regNo: "817 209 882" });
    expect(hits.map((h) => h.id)).toEqual([`local:${VINMONOPOLET}`]);
    expect(await provider.searchCompanies({ country: "NO", regNo: "81720988" })).toEqual([]);
  });

  it("needs both to match when name and number are given", async () => {
    expect((await provider.searchCompanies({ country: "NO", name: "Vinmonopolet", regNo: VINMONOPOLET })).map((h) => h.regNo)).toEqual([VINMONOPOLET]);
    expect(await provider.searchCompanies({ country: "NO", name: "Aker", regNo: VINMONOPOLET })).toEqual([]);
  });

  it("searches the demo companies of another country, by name and by their own registration number", async () => {
    const [hit, ...rest] = await provider.searchCompanies({ country: "DE", name: "Nordlicht" });
    expect(rest).toEqual([]);
    expect(hit).toMatchObject({ name: "Nordlicht Demo Anlagenbau GmbH", country: "DE", status: "Active", legalForm: "GmbH" });
    expect(hit.address).toEqual({ street: "Hafenstraße", houseNo: "22", postCode: "20457", city: "Hamburg" });
    expect(hit.regNo).toMatch(/^DE-HRB\d+$/);
    // The stored number carries a 'DE-' prefix; the number as the German register writes it finds it too.
    const byNumber = await provider.searchCompanies({ country: "de", regNo: hit.regNo!.slice(3) });
    expect(byNumber.map((h) => h.id)).toEqual([hit.id]);
    // Only the chosen country is searched.
    expect(await provider.searchCompanies({ country: "SE", name: "Nordlicht" })).toEqual([]);
  });

  it("gives nothing for an unknown company or an empty search", async () => {
    expect(await provider.searchCompanies({ country: "NO", name: "Qzxwv Nonexistent" })).toEqual([]);
    expect(await provider.searchCompanies({ country: "NO", regNo: "000000000" })).toEqual([]);
    expect(await provider.searchCompanies({ country: "NO", name: "  ", regNo: "" })).toEqual([]);
    expect(await provider.searchCompanies({ country: "XX", name: "Vinmonopolet" })).toEqual([]);
  });

  it("returns at most 20 results", async () => {
    const hits = await provider.searchCompanies({ country: "NO", name: "as" });
    expect(hits).toHaveLength(MAX_SEARCH_RESULTS);
  });

  it("reports the status: bankrupt, and inactive while under liquidation", async () => {
    expect((await provider.searchCompanies({ country: "NO", regNo: P_PLAN }))[0].status).toBe("Bankrupt");
    expect((await provider.searchCompanies({ country: "GB", name: "Cotswold" }))[0].status).toBe("Bankrupt");
    expect((await provider.searchCompanies({ country: "BE", name: "Flandria" }))[0].status).toBe("Inactive");
    const base = { deleted_at: null, is_bankrupt: 0, date_of_bankruptcy: null, is_active: 1, is_under_liquidation: 0, is_under_forced_liquidation: 0 };
    expect(companyStatus(base)).toBe("Active");
    expect(companyStatus({ ...base, is_active: 0 })).toBe("Inactive");
    expect(companyStatus({ ...base, is_under_forced_liquidation: 1 })).toBe("Inactive");
    expect(companyStatus({ ...base, is_active: 0, date_of_bankruptcy: "2024-01-01" })).toBe("Bankrupt");
    expect(companyStatus({ ...base, is_bankrupt: 1, deleted_at: "2025-01-01" })).toBe("Deleted");
  });

  it.each([
    ["Rådhusgata 5B", "Rådhusgata", "5B"],
    ["Liebenauer Hauptstrase 204 A", "Liebenauer Hauptstrase", "204 A"],
    ["Eegsvej 14-16", "Eegsvej", "14-16"],
    ["Falksentret Industriveien", "Falksentret Industriveien", null],
    ["200 Bay Street", "200 Bay Street", null],
    ["c/o Stian Eilertsen\nKirkedalsveien 37", "Kirkedalsveien", "37"],
    [null, null, null],
  ])("splits the street line %j", (line, street, houseNo) => {
    expect(splitStreet(line)).toEqual({ street, houseNo });
  });
});

describe("local credit provider: one company by its id", () => {
  it("is the search result of that id, from the store", async () => {
    const [hit] = await provider.searchCompanies({ country: "NO", regNo: VINMONOPOLET });
    expect(await provider.company({ id: `local:${VINMONOPOLET}`, country: "NO" })).toEqual(hit);
    const [foreign] = await provider.searchCompanies({ country: "DE", name: "Nordlicht" });
    expect(await provider.company({ id: foreign.id, country: "de" })).toEqual(foreign);
  });

  it("is null for an unknown id, an id without the local prefix, or a company of another country", async () => {
    expect(await provider.company({ id: "local:000000000", country: "NO" })).toBeNull();
    expect(await provider.company({ id: VINMONOPOLET, country: "NO" })).toBeNull();
    expect(await provider.company({ id: `local:${VINMONOPOLET}`, country: "SE" })).toBeNull();
  });
});

describe("local credit provider: languages", () => {
  it("offers Norwegian and English for Norway, English elsewhere", async () => {
    expect(await provider.reportLanguages("NO")).toEqual(["NO", "EN"]);
    expect(await provider.reportLanguages("no")).toEqual(["NO", "EN"]);
    expect(await provider.reportLanguages("SE")).toEqual(["EN"]);
    expect(await provider.reportLanguages("US")).toEqual(["EN"]);
  });
});

function expectPdf(pdf: Buffer) {
  expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");
  expect(pdf.toString("latin1").trimEnd().endsWith("%%EOF")).toBe(true);
}

describe("local credit provider: the report", () => {
  it("writes a Norwegian report from the store", async () => {
    const company = (await findCompany(VINMONOPOLET))!;
    const { pdf, fileName } = await provider.orderReport({ id: `local:${VINMONOPOLET}`, language: "NO" });
    expectPdf(pdf);
    expect(fileName).toBe(`credit-report-${VINMONOPOLET}-2026-11-22-no.pdf`);
    const lines = pdfTextLines(pdf);
    const text = lines.join("\n");
    expect(text).toContain("Kredittrapport");
    expect(text).not.toContain("Credit report");
    expect(text).toContain("Aktieselskapet Vinmonopolet");
    expect(text).toContain(VINMONOPOLET);
    expect(text).toContain("22.11.2026");
    expect(text).toContain("Nøkkeltall");
    // The risk score stands on its own line, as do its parts.
    const score = financialRisk(await financialStatements(company.id))!;
    expect(lines).toContain(String(score.finalScore));
    expect(lines).toContain(String(score.capitalRisk));
    const members = await board(company.id, "current");
    for (const member of members) expect(text).toContain(member.name);
    expect(text).toContain("Styreleder");
    expect(text).toContain("Inneholder data under Norsk lisens for offentlige data (NLOD) tilgjengeliggjort av Brønnøysundregistrene");
    expect(text).toMatch(/Side 1 av \d/);
  });

  it("writes an English report with shareholders and their percentages", async () => {
    const owned = await db()
      .selectFrom("shareholdings")
      .innerJoin("companies", "companies.id", "shareholdings.company_id")
      .innerJoin("roles", "roles.company_id", "companies.id")
      .select(["companies.id", "companies.org_number", "companies.legal_name"])
      .where("companies.country_code", "=", "NO")
      .where("roles.active_to", "is", null)
      .groupBy("companies.id")
      .orderBy((eb) => eb.fn.count("shareholdings.id"), "desc")
      .orderBy("companies.org_number")
      .executeTakeFirstOrThrow();
    const { pdf, fileName } = await provider.orderReport({ id: `local:${owned.org_number}`, language: "EN" });
    expectPdf(pdf);
    expect(fileName).toBe(`credit-report-${owned.org_number}-2026-11-22-en.pdf`);
    const text = pdfText(pdf);
    expect(text).toContain("Credit report");
    expect(text).not.toContain("Kredittrapport");
    expect(text).toContain(owned.legal_name);
    const owners = await shareholders(owned.id);
    expect(owners.length).toBeGreaterThan(1);
    expect(text).toContain(owners[0].name);
    expect(text).toContain(formatOwnership(owners[0].ownership, "en"));
    expect(text).toContain((await board(owned.id, "current"))[0].name);
    expect(text).toContain("Contains data under the Norwegian licence for Open Government data (NLOD) distributed by Brønnøysundregistrene");
  });

  it("flags a bankrupt company with its date", async () => {
    const text = pdfText((await provider.orderReport({ id: `local:${P_PLAN}`, language: "EN" })).pdf);
    expect(text).toContain("BANKRUPT");
    expect(text).toContain(`Bankrupt since ${formatDate("2023-09-13")}`);
    const norwegian = pdfText((await provider.orderReport({ id: `local:${P_PLAN}`, language: "NO" })).pdf);
    expect(norwegian).toContain("Konkurs fra 13.09.2023");
  });

  it("writes a report on a foreign demo company, in English, without the NLOD attribution", async () => {
    const [hit] = await provider.searchCompanies({ country: "GB", name: "Cotswold" });
    const { pdf, fileName } = await provider.orderReport({ id: hit.id, language: "EN" });
    expect(fileName).toBe(`credit-report-${hit.regNo}-2026-11-22-en.pdf`);
    const text = pdfText(pdf);
    expect(text).toContain("Cotswold Demo Textiles plc");
    expect(text).toContain("United Kingdom (GB)");
    expect(text).toContain("BANKRUPT");
    expect(text).not.toContain("NLOD");
  });

  it("says so when a section is empty", async () => {
    const { pdf } = await provider.orderReport({ id: "local:999999990", language: "EN" });
    expectPdf(pdf);
    expect(pdfPageCount(pdf)).toBe(1);
    const text = pdfText(pdf);
    expect(text).toContain("No announcements in the last three years.");
    expect(text).toContain("No shareholders registered.");
    expect(text).toContain("No annual accounts on file.");
    expect(text).toContain("Address information incomplete");
  });

  it("gives the same bytes for the same moment", async () => {
    const order = { id: `local:${AKER_SOLUTIONS}`, language: "EN" as const };
    const first = await provider.orderReport(order);
    const second = await provider.orderReport(order);
    expect(first.pdf.equals(second.pdf)).toBe(true);
    const later = await createLocalCreditProvider({ ...LOCAL, now: () => new Date(NOW.getTime() + 1000) }).orderReport(order);
    expect(later.pdf.equals(first.pdf)).toBe(false);
  });

  it("does not know a company that is not in the store", async () => {
    for (const id of ["local:000000000", "817209882", "cs:NO-X-817209882"]) {
      const error = await provider.orderReport({ id, language: "EN" }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CreditError);
      expect((error as CreditError).kind).toBe("not_found");
    }
  });

  it("names the file with safe characters only", () => {
    expect(reportFileName("AT-FN587563b", "2026-01-02", "EN")).toBe("credit-report-AT-FN587563b-2026-01-02-en.pdf");
    expect(reportFileName("../x y/z", "2026-01-02", "NO")).toBe("credit-report-x-y-z-2026-01-02-no.pdf");
  });
});
