import { afterEach, describe, expect, it, vi } from "vitest";
import { createCreditsafeProvider } from "@server/providers/credit/creditsafe";
import { creditProvider } from "@server/providers/credit";
import { CreditError, type CreditCompany } from "@server/providers/credit/types";
import { CREDIT_REPORT_TEXTS, localCreditStore } from "~/models/credit/credit-reports.server";
import { fakeReportPdf, readCreditsafeFixture, startCreditsafeFake, type CreditsafeFake, type CreditsafeFakeOptions } from "../helpers/creditsafe-fake";

const PASSWORD = "Sup3r-S3cret:pa55word!";
const LOCAL = { store: localCreditStore, texts: CREDIT_REPORT_TEXTS };
const MINUTE = 60_000;

/** A fake Creditsafe that knows PASSWORD and an adapter on a shared, movable clock. */
async function setup(options: { tokens?: CreditsafeFakeOptions["tokens"]; timeoutMs?: number; providerPassword?: string } = {}) {
  let clock = Date.UTC(2024, 5, 3, 8, 0, 0);
  const now = () => clock;
  const fake = await startCreditsafeFake({ password: PASSWORD, now, tokens: options.tokens });
  const provider = createCreditsafeProvider({
    baseUrl: fake.baseUrl,
    username: fake.username,
    password: options.providerPassword ?? PASSWORD,
    timeoutMs: options.timeoutMs ?? 2000,
    now,
  });
  return {
    fake,
    provider,
    advance(ms: number) {
      clock += ms;
    },
  };
}

async function caught(promise: Promise<unknown>): Promise<CreditError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CreditError);
  return error as CreditError;
}

async function expectCreditError(promise: Promise<unknown>, kind: CreditError["kind"], status?: number): Promise<CreditError> {
  const error = await caught(promise);
  expect({ kind: error.kind, status: error.status }).toEqual({ kind, status });
  return error;
}

function exchanges(fake: CreditsafeFake) {
  return fake.requests.map((request) => [request.endpoint, request.status]);
}

const FJORDLYS_ENERGI: CreditCompany = {
  id: "NO-X-998877665",
  name: "FJORDLYS ENERGI AS",
  country: "NO",
  regNo: "998877665",
  status: "Active",
  legalForm: "Aksjeselskap",
  address: { street: "Strandkaien", houseNo: "12", postCode: "4005", city: "STAVANGER" },
};

describe("creditsafe credit provider: authentication", () => {
  it("logs in once with the credentials as JSON and reuses the token", async () => {
    const { fake, provider } = await setup();

    await provider.searchCompanies({ country: "NO", regNo: "998877665" });
    await provider.reportLanguages("NO");
    await provider.orderReport({ id: "NO-X-998877665", language: "EN" });

    const logins = fake.requestsTo("authenticate");
    expect(logins).toHaveLength(1);
    expect(JSON.parse(logins[0].body)).toEqual({ username: fake.username, password: PASSWORD });
    expect(logins[0].headers["content-type"]).toBe("application/json");
    const calls = fake.requests.filter((request) => request.endpoint !== "authenticate");
    expect(calls).toHaveLength(3);
    for (const call of calls) expect(call.headers.authorization).toBe(`Bearer ${fake.issuedTokens[0]}`);
  });

  it("keeps a JWT until shortly before its exp claim, then logs in again before using it", async () => {
    const { fake, provider, advance } = await setup();

    await provider.reportLanguages("NO");
    advance(58 * MINUTE);
    await provider.reportLanguages("NO");
    expect(fake.requestsTo("authenticate")).toHaveLength(1);

    // Within the last minute of the hour the token is renewed instead of risking a 401.
    advance(90_000);
    await provider.reportLanguages("NO");
    expect(fake.requestsTo("authenticate")).toHaveLength(2);
    expect(fake.requests.every((request) => request.status === 200)).toBe(true);
    expect(fake.requestsTo("reportLanguages")[2].headers.authorization).toBe(`Bearer ${fake.issuedTokens[1]}`);
  });

  it("assumes 55 minutes for a token that is not a JWT", async () => {
    const { fake, provider, advance } = await setup({ tokens: "opaque" });

    await provider.reportLanguages("NO");
    advance(54 * MINUTE);
    await provider.reportLanguages("NO");
    expect(fake.requestsTo("authenticate")).toHaveLength(1);

    advance(2 * MINUTE);
    await provider.reportLanguages("NO");
    expect(fake.requestsTo("authenticate")).toHaveLength(2);
    expect(fake.requests.every((request) => request.status === 200)).toBe(true);
  });

  it("on a 401 logs in again once and retries, invisibly to the caller", async () => {
    const { fake, provider } = await setup();
    await provider.reportLanguages("NO");
    fake.expireTokens();

    const companies = await provider.searchCompanies({ country: "NO", regNo: "998877665" });

    expect(companies).toStrictEqual([FJORDLYS_ENERGI]);
    expect(exchanges(fake)).toEqual([
      ["authenticate", 200],
      ["reportLanguages", 200],
      ["search", 401],
      ["authenticate", 200],
      ["search", 200],
    ]);
    const searches = fake.requestsTo("search");
    expect(searches[0].headers.authorization).toBe(`Bearer ${fake.issuedTokens[0]}`);
    expect(searches[1].headers.authorization).toBe(`Bearer ${fake.issuedTokens[1]}`);
  });

  it("recovers from expiry on a report order too", async () => {
    const { fake, provider } = await setup();
    await provider.reportLanguages("NO");
    fake.expireTokens();

    const report = await provider.orderReport({ id: "NO-X-998877665", language: "NO" });

    expect(report.pdf.equals(fakeReportPdf("NO-X-998877665", "NO"))).toBe(true);
    expect(fake.requestsTo("report").map((request) => request.status)).toEqual([401, 200]);
    expect(fake.requestsTo("authenticate")).toHaveLength(2);
  });

  it("shares one login between calls that need a token at the same time", async () => {
    const { fake, provider } = await setup();

    const [search, languages, report] = await Promise.all([
      provider.searchCompanies({ country: "NO", name: "fjordlys" }),
      provider.reportLanguages("NO"),
      provider.orderReport({ id: "NO-X-998877665", language: "EN" }),
    ]);

    expect(search).toHaveLength(3);
    expect(languages).toEqual(["EN", "NO"]);
    expect(report.pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    expect(fake.requestsTo("authenticate")).toHaveLength(1);

    // Expired under three calls at once: still a single re-login.
    fake.expireTokens();
    await Promise.all([provider.reportLanguages("NO"), provider.reportLanguages("GB"), provider.searchCompanies({ country: "NO", regNo: "911223344" })]);
    expect(fake.requestsTo("authenticate")).toHaveLength(2);
    expect(fake.requests.filter((request) => request.status === 401)).toHaveLength(3);
  });

  it("refuses bad credentials with an auth error and does not call Creditsafe further", async () => {
    const { fake, provider } = await setup({ providerPassword: "wrong-password" });

    const error = await expectCreditError(provider.searchCompanies({ country: "NO", name: "fjordlys" }), "auth", 401);

    expect(error.message).toContain("refused the login");
    expect(exchanges(fake)).toEqual([["authenticate", 401]]);
  });

  it("gives every waiting call the refused login's auth error, and tries again on the next call", async () => {
    const { fake, provider } = await setup();
    fake.refuseLogin();

    const errors = await Promise.all([caught(provider.reportLanguages("NO")), caught(provider.searchCompanies({ country: "NO", name: "x" }))]);
    expect(errors.map((error) => error.kind)).toEqual(["auth", "auth"]);
    expect(fake.requestsTo("authenticate")).toHaveLength(1);

    fake.answer("authenticate", null);
    expect(await provider.reportLanguages("NO")).toEqual(["EN", "NO"]);
    expect(fake.requestsTo("authenticate")).toHaveLength(2);
  });

  it("gives up with an auth error when a fresh token is rejected as well", async () => {
    const { fake, provider } = await setup();
    fake.answer("reportLanguages", { status: 401, fixture: "invalid-token.json" });

    await expectCreditError(provider.reportLanguages("NO"), "auth", 401);
    expect(exchanges(fake)).toEqual([
      ["authenticate", 200],
      ["reportLanguages", 401],
      ["authenticate", 200],
      ["reportLanguages", 401],
    ]);
  });
});

describe("creditsafe credit provider: company search", () => {
  it("searches by registration number and maps every field", async () => {
    const { fake, provider } = await setup();

    const companies = await provider.searchCompanies({ country: "no", regNo: " 998 877 665 " });

    expect(companies).toStrictEqual([FJORDLYS_ENERGI]);
    const [request] = fake.requestsTo("search");
    expect(request.query).toEqual({ countries: "NO", regNo: "998877665", page: "1", pageSize: "20" });
    expect(request.headers.accept).toBe("application/json");
  });

  it("searches by name and fills missing address parts from the one-line address", async () => {
    const { fake, provider } = await setup();

    const companies = await provider.searchCompanies({ country: "NO", name: "  Fjordlys " });

    expect(companies).toStrictEqual([
      FJORDLYS_ENERGI,
      {
        // Only simpleValue and the coarse company type in the hit.
        id: "NO-X-911223344",
        name: "FJORDLYS HOLDING AS",
        country: "NO",
        regNo: "911223344",
        status: "Active",
        legalForm: "Ltd",
        address: { street: "Kongens gate", houseNo: "7B", postCode: "0153", city: "OSLO" },
      },
      {
        // houseNumber and postalCode instead of houseNo and postCode.
        id: "NO-X-977665544",
        name: "FJORDLYS SERVICE ANS",
        country: "NO",
        regNo: "977665544",
        status: "NonActive",
        legalForm: "NonLtd",
        address: { street: "Bryggen", houseNo: "3", postCode: "5003", city: "BERGEN" },
      },
    ]);
    expect(fake.requestsTo("search")[0].query).toEqual({ countries: "NO", name: "Fjordlys", page: "1", pageSize: "20" });
  });

  it("reads a British one-line address, house number first and county after the town", async () => {
    const { provider } = await setup();

    const companies = await provider.searchCompanies({ country: "GB", name: "thames" });

    expect(companies).toStrictEqual([
      {
        id: "GB-0-01234567",
        name: "THAMES LEDGER LIMITED",
        country: "GB",
        regNo: "01234567",
        status: "Active",
        legalForm: "Ltd",
        address: { street: "BAKER STREET", houseNo: "221", postCode: "NW1 6XE", city: "LONDON" },
      },
    ]);
  });

  it("sends name and registration number together when both are given", async () => {
    const { fake, provider } = await setup();

    const companies = await provider.searchCompanies({ country: "NO", name: "fjordlys", regNo: "977665544" });

    expect(companies.map((company) => company.id)).toEqual(["NO-X-977665544"]);
    expect(fake.requestsTo("search")[0].query).toMatchObject({ countries: "NO", name: "fjordlys", regNo: "977665544" });
  });

  it("gives no hits as an empty list, whether Creditsafe answers 200 with an empty list or 404", async () => {
    const { fake, provider } = await setup();

    expect(await provider.searchCompanies({ country: "NO", name: "no such company" })).toEqual([]);
    fake.emptySearchStatus = 404;
    expect(await provider.searchCompanies({ country: "NO", regNo: "000000000" })).toEqual([]);

    expect(fake.requestsTo("search").map((request) => request.status)).toEqual([200, 404]);
  });

  it("skips a malformed hit but keeps the others, and rejects a list without any usable hit", async () => {
    const { fake, provider } = await setup();
    const recorded = readCreditsafeFixture<{ companies: Array<Record<string, unknown>> }>("companies-search.json");
    fake.answer("search", { json: { ...recorded, companies: [{ name: "NO ID AS" }, recorded.companies[0]] } });

    expect(await provider.searchCompanies({ country: "NO", name: "fjordlys" })).toStrictEqual([FJORDLYS_ENERGI]);

    fake.answer("search", { json: { totalSize: 1, companies: [{ name: "NO ID AS" }] } });
    await expectCreditError(provider.searchCompanies({ country: "NO", name: "fjordlys" }), "invalid_response", 200);
  });

  it("asks Creditsafe nothing for a blank search", async () => {
    const { fake, provider } = await setup();

    expect(await provider.searchCompanies({ country: "NO", name: "  ", regNo: "" })).toEqual([]);
    expect(fake.requests).toHaveLength(0);
  });
});

describe("creditsafe credit provider: one company by its connectId", () => {
  // The loopback fake answers only name and number searches; an id search is answered as Creditsafe documents it:
  // the search envelope with the one company.
  it("asks the company search for the id in the country and maps the hit", async () => {
    const { fake, provider } = await setup();
    const recorded = readCreditsafeFixture<{ companies: Array<Record<string, unknown>> }>("companies-search.json");
    fake.answer("search", { json: { ...recorded, totalSize: 1, companies: [recorded.companies[0]] } });

    expect(await provider.company({ id: "NO-X-998877665", country: "no" })).toStrictEqual(FJORDLYS_ENERGI);
    expect(fake.requestsTo("search").map((request) => request.query)).toEqual([{ countries: "NO", id: "NO-X-998877665", page: "1", pageSize: "1" }]);
  });

  it("is null when Creditsafe has no company by that id, or answers with another one", async () => {
    const { fake, provider } = await setup();
    const recorded = readCreditsafeFixture<{ companies: Array<Record<string, unknown>> }>("companies-search.json");
    fake.answer("search", { fixture: "companies-search-no-results.json" });
    expect(await provider.company({ id: "NO-X-000000000", country: "NO" })).toBeNull();
    fake.answer("search", { status: 404, fixture: "companies-search-not-found.json" });
    expect(await provider.company({ id: "NO-X-000000000", country: "NO" })).toBeNull();
    fake.answer("search", { json: { ...recorded, totalSize: 1, companies: [recorded.companies[1]] } });
    expect(await provider.company({ id: "NO-X-998877665", country: "NO" })).toBeNull();
  });

  it("passes a failing Creditsafe on as an error", async () => {
    const { fake, provider } = await setup();
    fake.failWith("search", 500);
    await expectCreditError(provider.company({ id: "NO-X-998877665", country: "NO" }), "http", 500);
  });
});

describe("creditsafe credit provider: report languages", () => {
  it("reads the documented {reportLanguages} answer per country", async () => {
    const { fake, provider } = await setup();

    expect(await provider.reportLanguages("no")).toEqual(["EN", "NO"]);
    expect(await provider.reportLanguages("GB")).toEqual(["EN"]);
    expect(fake.requestsTo("reportLanguages").map((request) => request.path)).toEqual([
      "/access/countries/NO/reportLanguages",
      "/access/countries/GB/reportLanguages",
    ]);
  });

  it("accepts a plain list and other envelopes, upper-cased and without repeats", async () => {
    const { fake, provider } = await setup();

    fake.answer("reportLanguages", { fixture: "report-languages-list.json" });
    expect(await provider.reportLanguages("NO")).toEqual(["EN", "NO"]);

    fake.answer("reportLanguages", { json: { languages: ["en", "NO", "en"] } });
    expect(await provider.reportLanguages("NO")).toEqual(["EN", "NO"]);

    fake.answer("reportLanguages", { json: { data: [{ code: "no" }, { code: "en" }] } });
    expect(await provider.reportLanguages("NO")).toEqual(["NO", "EN"]);

    fake.answer("reportLanguages", { json: { correlationId: "x" } });
    await expectCreditError(provider.reportLanguages("NO"), "invalid_response", 200);
  });
});

describe("creditsafe credit provider: report order", () => {
  it("returns the PDF bytes and the file name, asking for a PDF in the chosen language", async () => {
    const { fake, provider } = await setup();

    const report = await provider.orderReport({ id: "NO-X-998877665", language: "NO" });

    expect(report.pdf.equals(fakeReportPdf("NO-X-998877665", "NO"))).toBe(true);
    expect(report.fileName).toBe("Creditsafe report NO-X-998877665.pdf");
    const [request] = fake.requestsTo("report");
    expect(request.path).toBe("/companies/NO-X-998877665");
    expect(request.query).toEqual({ language: "NO" });
    expect(request.headers.accept).toBe("application/pdf");
  });

  it("names the file after the company id without Content-Disposition, and sanitises a given name", async () => {
    const { fake, provider } = await setup();
    const order = () => provider.orderReport({ id: "NO-X-998877665", language: "EN" });

    fake.reportFileName = null;
    expect((await order()).fileName).toBe("credit-report-NO-X-998877665.pdf");

    fake.reportFileName = "../../reports/rapport:2024*.PDF";
    expect((await order()).fileName).toBe("rapport2024.pdf");

    fake.reportFileName = "..";
    expect((await order()).fileName).toBe("credit-report-NO-X-998877665.pdf");
  });

  it("reports an unknown company as not_found", async () => {
    const { provider } = await setup();

    const error = await expectCreditError(provider.orderReport({ id: "NO-X-000000000", language: "EN" }), "not_found", 404);
    expect(error.message).toContain("Company not found");
  });

  it("refuses an answer that is not a PDF", async () => {
    const { fake, provider } = await setup();
    fake.answer("report", { fixture: "report-json.json" });

    const error = await expectCreditError(provider.orderReport({ id: "NO-X-998877665", language: "EN" }), "invalid_response", 200);
    expect(error.message).toContain("application/json");
  });

  it("passes Creditsafe's refusal of a language on as an http error", async () => {
    const { provider } = await setup();

    const error = await expectCreditError(provider.orderReport({ id: "GB-0-01234567", language: "NO" }), "http", 400);
    expect(error.message).toContain("language is not available");
  });
});

describe("creditsafe credit provider: failures", () => {
  it("turns a server error into an http error with the status", async () => {
    const { fake, provider } = await setup();
    fake.failWith("search", 500);
    fake.failWith("reportLanguages", 503);
    fake.failWith("report", 500);

    const error = await expectCreditError(provider.searchCompanies({ country: "NO", name: "fjordlys" }), "http", 500);
    expect(error.message).toContain("An error has occurred");
    await expectCreditError(provider.reportLanguages("NO"), "http", 503);
    await expectCreditError(provider.orderReport({ id: "NO-X-998877665", language: "EN" }), "http", 500);
  });

  it("gives up on a Creditsafe that never answers", async () => {
    const { fake, provider } = await setup({ timeoutMs: 150 });
    fake.hang("search");

    const started = Date.now();
    await expectCreditError(provider.searchCompanies({ country: "NO", name: "fjordlys" }), "timeout");
    expect(Date.now() - started).toBeLessThan(2000);
    expect(fake.requestsTo("search")).toHaveLength(1);
  });

  it("gives up on a login that never answers", async () => {
    const { fake, provider } = await setup({ timeoutMs: 150 });
    fake.hang("authenticate");

    await expectCreditError(provider.reportLanguages("NO"), "timeout");
    expect(fake.requestsTo("reportLanguages")).toHaveLength(0);
  });

  it("reports an unreachable Creditsafe as a network error", async () => {
    const { fake, provider } = await setup();
    await fake.close();

    await expectCreditError(provider.reportLanguages("NO"), "network");
  });
});

describe("creditsafe credit provider: secrets", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("never puts the password or the token into an error message or the console", async () => {
    const consoleSpies = (["log", "info", "warn", "error", "debug"] as const).map((method) => vi.spyOn(console, method));
    const errors: CreditError[] = [];

    const refused = await setup({ providerPassword: `${PASSWORD}-wrong` });
    errors.push(await caught(refused.provider.reportLanguages("NO")));

    const { fake, provider } = await setup({ timeoutMs: 150 });
    await provider.reportLanguages("NO");
    const token = fake.issuedTokens[0];
    // A server that echoes the secrets back in its error body.
    fake.answer("search", { status: 500, json: { message: `bad password ${PASSWORD}`, details: `token ${token}` } });
    errors.push(await caught(provider.searchCompanies({ country: "NO", name: "fjordlys" })));
    fake.answer("report", { fixture: "report-json.json" });
    errors.push(await caught(provider.orderReport({ id: "NO-X-998877665", language: "EN" })));
    fake.answer("reportLanguages", { status: 401, json: { error: `Invalid token ${token}` } });
    errors.push(await caught(provider.reportLanguages("NO")));
    fake.hang("report");
    errors.push(await caught(provider.orderReport({ id: "NO-X-998877665", language: "EN" })));
    await fake.close();
    errors.push(await caught(provider.reportLanguages("GB")));

    expect(errors.map((error) => error.kind)).toEqual(["auth", "http", "invalid_response", "auth", "timeout", "network"]);
    expect(errors[1].message).toContain("[redacted]");
    for (const error of errors) {
      const text = `${error.message} ${String(error)} ${JSON.stringify(error)}`;
      expect(text).not.toContain(PASSWORD);
      expect(text).not.toContain(token);
    }
    for (const spy of consoleSpies) expect(spy).not.toHaveBeenCalled();
  });
});

describe("creditProvider() with CREDIT_PROVIDER=creditsafe", () => {
  it("returns the Creditsafe adapter at CREDITSAFE_BASE_URL", async () => {
    const fake = await startCreditsafeFake({ password: PASSWORD });

    const provider = await creditProvider(LOCAL, {
      CREDIT_PROVIDER: "creditsafe",
      CREDITSAFE_BASE_URL: fake.baseUrl,
      CREDITSAFE_USERNAME: fake.username,
      CREDITSAFE_PASSWORD: PASSWORD,
    });

    expect(provider.name).toBe("creditsafe");
    expect(await provider.reportLanguages("NO")).toEqual(["EN", "NO"]);
    expect(exchanges(fake)).toEqual([
      ["authenticate", 200],
      ["reportLanguages", 200],
    ]);
  });

  it("refuses to start without a user name or password, saying which variables are missing", async () => {
    for (const environment of [
      { CREDIT_PROVIDER: "creditsafe", CREDITSAFE_PASSWORD: PASSWORD },
      { CREDIT_PROVIDER: "creditsafe", CREDITSAFE_USERNAME: "integration-user", CREDITSAFE_PASSWORD: "" },
    ]) {
      const error = await expectCreditError(creditProvider(LOCAL, environment), "not_configured");
      expect(error.message).toMatch(/CREDITSAFE_USERNAME and CREDITSAFE_PASSWORD/);
      expect(error.message).not.toContain(PASSWORD);
    }
  });
});
