import { describe, expect, it } from "vitest";
import { createBrregProvider } from "@server/providers/registry/brreg";
import { liveRegistryProvider } from "@server/providers/registry";
import {
  FINANCIAL_AMOUNT_FIELDS,
  RegistryError,
  normalizeOrgNumber,
  type FinancialAmountField,
  type RegistryFinancialStatement,
  type RegistryOrganization,
} from "@server/providers/registry/types";
import { brregFixture, readFixtureJson, startReplayServer, type ReplayRoute } from "../helpers/replay-server";

// The recorded responses use documentation numbers that fail the mod-11 check,
// so requests go to valid numbers and the replay server answers with the recording.
const ORG = "923609016";
const DELETED_ORG = "123456785";
const ROLES_PERSON_ORG = "810004622";
const ROLES_UNIT_ORG = "810005912";
const ACCOUNTS_ORG = "974760673";

async function providerWith(routes: ReplayRoute[], timeoutMs = 2000) {
  const server = await startReplayServer(routes);
  return { server, provider: createBrregProvider({ baseUrl: server.baseUrl, timeoutMs }) };
}

async function expectRegistryError(promise: Promise<unknown>, kind: RegistryError["kind"], status: number | null = null) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RegistryError);
  expect((error as RegistryError).kind).toBe(kind);
  expect((error as RegistryError).status).toBe(status);
}

describe("organisation numbers", () => {
  it.each([
    ["923609016", "923609016"],
    ["923 609 016", "923609016"],
    ["974760673", "974760673"],
    ["123456785", "123456785"],
    ["123456789", null], // wrong control digit
    ["112233445", null], // remainder 1: no control digit exists
    ["92360901", null],
    ["9236090160", null],
    ["92360901a", null],
    ["", null],
  ])("%j → %j", (input, expected) => {
    expect(normalizeOrgNumber(input)).toBe(expected);
  });
});

describe("brreg registry provider", () => {
  it("maps every field of a unit", async () => {
    const { server, provider } = await providerWith([{ path: `/enhetsregisteret/api/enheter/${ORG}`, file: brregFixture("enheter-details-response.json") }]);

    const organization = await provider.getOrganization(ORG);

    const expected: RegistryOrganization = {
      organization_id: "112233445",
      legal_name: "SESAM STASJON",
      type: "AS",
      type_description: "Aksjeselskap",
      industry_code: "52.292",
      industry_description: "Skipsmegling",
      purpose: null, // vedtektsfestetFormaal is [""] and aktivitet is []
      number_of_employees: 50,
      establishment_date: "2017-10-20",
      registration_date: "2017-10-20",
      street_address: "Tyvholmen 1",
      street_postal_code: "0101",
      street_postal_area: "OSLO",
      postal_address: "c/o reder K. Rusing, Postboks 1752 Vika",
      postal_code: "0122",
      postal_area: "OSLO",
      country_code: "NO",
      municipality: "OSLO",
      municipality_code: "0301",
      website: null,
      parent_org_number: null,
      is_vat_registered: true,
      is_bankrupt: false,
      date_of_bankruptcy: null, // konkursdato is ""
      is_under_liquidation: false,
      is_under_forced_liquidation: false,
      deleted: false,
      deletion_date: null,
      is_active: true,
    };
    expect(organization).toStrictEqual(expected);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0].method).toBe("GET");
    expect(server.requests[0].path).toBe(`/enhetsregisteret/api/enheter/${ORG}`);
    expect(server.requests[0].headers.accept).toBe("application/json");
  });

  it("maps a unit's purpose, website, bankruptcy and liquidation when the register has them", async () => {
    const recorded = readFixtureJson<Record<string, unknown>>(brregFixture("enheter-details-response.json"));
    const { provider } = await providerWith([
      {
        path: `/enhetsregisteret/api/enheter/${ORG}`,
        json: {
          ...recorded,
          vedtektsfestetFormaal: ["Skipsmegling og", "tilknyttet virksomhet.", ""],
          hjemmeside: "www.sesam.no",
          overordnetEnhet: "974760673",
          konkurs: true,
          konkursdato: "2024-03-01",
          underTvangsavviklingEllerTvangsopplosning: true,
          antallAnsatte: undefined,
        },
      },
    ]);

    const organization = await provider.getOrganization(ORG);

    expect(organization).toMatchObject({
      purpose: "Skipsmegling og tilknyttet virksomhet.",
      website: "www.sesam.no",
      parent_org_number: "974760673",
      is_bankrupt: true,
      date_of_bankruptcy: "2024-03-01",
      is_under_liquidation: true,
      is_under_forced_liquidation: true,
      number_of_employees: null,
      is_active: false,
    });
  });

  it("returns a deleted unit (410 Gone) as deleted with its deletion date", async () => {
    const { provider } = await providerWith([
      {
        path: `/enhetsregisteret/api/enheter/${DELETED_ORG}`,
        status: 410,
        file: brregFixture("enheter-details-deleted-response.json"),
      },
    ]);

    const organization = await provider.getOrganization(DELETED_ORG);

    expect(organization).toStrictEqual({
      organization_id: "123456789",
      legal_name: "SLETTET ENHET AS",
      type: "UTBG",
      type_description: "Frivillig registrert utleiebygg",
      industry_code: null,
      industry_description: null,
      purpose: null,
      number_of_employees: null,
      establishment_date: null,
      registration_date: null,
      street_address: null,
      street_postal_code: null,
      street_postal_area: null,
      postal_address: null,
      postal_code: null,
      postal_area: null,
      country_code: null,
      municipality: null,
      municipality_code: null,
      website: null,
      parent_org_number: null,
      is_vat_registered: false,
      is_bankrupt: false,
      date_of_bankruptcy: null,
      is_under_liquidation: false,
      is_under_forced_liquidation: false,
      deleted: true,
      deletion_date: "2017-10-20",
      is_active: false,
    } satisfies RegistryOrganization);
  });

  it("treats 410 Gone as deleted even when the body has no deletion date", async () => {
    const recorded = readFixtureJson<Record<string, unknown>>(brregFixture("enheter-details-deleted-response.json"));
    const { provider } = await providerWith([
      { path: `/enhetsregisteret/api/enheter/${DELETED_ORG}`, status: 410, json: { ...recorded, slettedato: undefined } },
    ]);

    expect(await provider.getOrganization(DELETED_ORG)).toMatchObject({
      legal_name: "SLETTET ENHET AS",
      deleted: true,
      deletion_date: null,
      is_active: false,
    });
  });

  it("returns null for a number the register does not know", async () => {
    const { server, provider } = await providerWith([]);

    expect(await provider.getOrganization(ORG)).toBeNull();
    expect(server.requests.map((r) => r.path)).toEqual([`/enhetsregisteret/api/enheter/${ORG}`]);
  });

  it("maps a board chairman held by a person", async () => {
    const { server, provider } = await providerWith([
      {
        path: `/enhetsregisteret/api/enheter/${ROLES_PERSON_ORG}/roller`,
        file: brregFixture("enheter-roller-person-response.json"),
      },
    ]);

    const roles = await provider.getRoles(ROLES_PERSON_ORG);

    expect(roles).toStrictEqual([
      {
        group_code: "STYR",
        group_description: "Styre",
        role_code: "LEDE",
        role_description: "Styrets leder",
        position: "chairman",
        is_board: true,
        name: "Ove Olsen",
        birth_date: "1981-01-01",
        holder: {
          kind: "person",
          name: "Ove Olsen",
          first_name: "Ove",
          middle_name: null,
          last_name: "Olsen",
          birth_date: "1981-01-01",
          is_deceased: false,
        },
        resigned: false,
        elected_by: "Representant for A-aksjonærene",
        responsibility_share: null,
        order: 0,
        group_last_changed: "2019-01-01",
      },
    ]);
    expect(server.requests[0].path).toBe(`/enhetsregisteret/api/enheter/${ROLES_PERSON_ORG}/roller`);
    expect(server.requests[0].headers.accept).toBe("application/json");
  });

  it("maps roles held by organisations", async () => {
    const { provider } = await providerWith([
      {
        path: `/enhetsregisteret/api/enheter/${ROLES_UNIT_ORG}/roller`,
        file: brregFixture("enheter-roller-enhet-response.json"),
      },
    ]);

    const roles = await provider.getRoles(ROLES_UNIT_ORG);

    expect(roles).toHaveLength(2);
    expect(roles[0]).toStrictEqual({
      group_code: "DELT",
      group_description: "Deltakere",
      role_code: "DTPR",
      role_description: "Deltaker med delt ansvar",
      position: "partner",
      is_board: false,
      name: "Rolfsens Deltakerorganisasjon AS",
      birth_date: null,
      holder: {
        kind: "organization",
        name: "Rolfsens Deltakerorganisasjon AS",
        organization_id: "810006242",
        type: "AS",
        is_deleted: false,
      },
      resigned: false,
      elected_by: null,
      responsibility_share: "50%",
      order: 0,
      group_last_changed: "2021-02-01",
    });
    expect(roles[1]).toMatchObject({
      name: "Sult AS",
      holder: { kind: "organization", organization_id: "810004282" },
      responsibility_share: "50%",
      order: 1,
    });
  });

  it("maps the CEO, board members, deputies and resigned roles", async () => {
    // The recordings hold one role group each; this combines the recorded person
    // role into the groups a typical AS has, with the live API's `fratraadt` flag.
    type RolesBody = { rollegrupper: Array<{ type: object; sistEndret: string; roller: Array<Record<string, unknown>> }> };
    const recorded = readFixtureJson<RolesBody>(brregFixture("enheter-roller-person-response.json"));
    const chairman = recorded.rollegrupper[0].roller[0];
    const as = (kode: string, beskrivelse: string, extra: Record<string, unknown> = {}) => ({
      ...chairman,
      type: { kode, beskrivelse },
      valgtAv: undefined,
      ...extra,
    });
    const body = {
      rollegrupper: [
        {
          type: { kode: "DAGL", beskrivelse: "Daglig leder/ adm.direktør" },
          sistEndret: "2020-05-05",
          roller: [
            as("DAGL", "Daglig leder/ adm.direktør", {
              person: { fodselsdato: "1970-02-03", navn: { fornavn: "Kari", mellomnavn: "Nordmann", etternavn: "Berg" }, erDoed: false },
              fratraadt: false,
            }),
          ],
        },
        {
          ...recorded.rollegrupper[0],
          roller: [
            chairman,
            as("MEDL", "Styremedlem", { person: { navn: { fornavn: "Per", etternavn: "Hansen" } }, rekkefolge: 1 }),
            as("VARA", "Varamedlem", { fratraadt: true, rekkefolge: 2 }),
          ],
        },
        {
          type: { kode: "REVI", beskrivelse: "Revisor" },
          sistEndret: "2018-01-01",
          roller: [as("REVI", "Revisor", { person: undefined, enhet: { organisasjonsnummer: "987654321", navn: ["REVISJON", "AS"] } })],
        },
      ],
    };
    const { provider } = await providerWith([{ path: `/enhetsregisteret/api/enheter/${ROLES_PERSON_ORG}/roller`, json: body }]);

    const roles = await provider.getRoles(ROLES_PERSON_ORG);

    expect(
      roles.map((r) => ({
        position: r.position,
        role_code: r.role_code,
        is_board: r.is_board,
        name: r.name,
        birth_date: r.birth_date,
        resigned: r.resigned,
      })),
    ).toStrictEqual([
      { position: "ceo", role_code: "DAGL", is_board: false, name: "Kari Nordmann Berg", birth_date: "1970-02-03", resigned: false },
      { position: "chairman", role_code: "LEDE", is_board: true, name: "Ove Olsen", birth_date: "1981-01-01", resigned: false },
      { position: "board_member", role_code: "MEDL", is_board: true, name: "Per Hansen", birth_date: null, resigned: false },
      { position: "deputy_board_member", role_code: "VARA", is_board: true, name: "Ove Olsen", birth_date: "1981-01-01", resigned: true },
      { position: "auditor", role_code: "REVI", is_board: false, name: "REVISJON AS", birth_date: null, resigned: false },
    ]);
    expect(roles[0].role_description).toBe("Daglig leder/ adm.direktør");
    expect(roles[4].holder).toMatchObject({ kind: "organization", organization_id: "987654321" });
  });

  it("returns no roles for an unknown unit", async () => {
    const { provider } = await providerWith([]);
    expect(await provider.getRoles(ORG)).toEqual([]);
  });

  it("maps search hits, the total and sends name and paging", async () => {
    const { server, provider } = await providerWith([{ path: "/enhetsregisteret/api/enheter", file: brregFixture("enheter-search-response.json") }]);

    const result = await provider.searchOrganizations("  Sesam ", { page: 2, size: 5 });

    expect(result.total).toBe(1);
    expect(result.items).toHaveLength(1);
    expect(result.items[0]).toMatchObject({
      organization_id: "112233445",
      legal_name: "SESAM STASJON",
      type: "AS",
      industry_code: "52.292",
      number_of_employees: 50,
      street_address: "Tyvholmen 1",
      street_postal_code: "0101",
      street_postal_area: "OSLO",
      date_of_bankruptcy: null, // the search hit has no konkursdato at all
      deleted: false,
      is_active: true,
    });
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0].query).toEqual({ navn: "Sesam", page: "2", size: "5" });
    expect(server.requests[0].headers.accept).toBe("application/json");
  });

  it("defaults and bounds paging", async () => {
    const { server, provider } = await providerWith([{ path: "/enhetsregisteret/api/enheter", file: brregFixture("enheter-search-response.json") }]);

    await provider.searchOrganizations("Sesam");
    await provider.searchOrganizations("Sesam", { page: -3, size: 5000 });

    expect(server.requests.map((r) => r.query)).toEqual([
      { navn: "Sesam", page: "0", size: "20" },
      { navn: "Sesam", page: "0", size: "100" },
    ]);
  });

  it("gives an empty list when the search has no hits", async () => {
    const { provider } = await providerWith([
      {
        path: "/enhetsregisteret/api/enheter",
        json: {
          _links: { self: { href: "https://data.brreg.no/enhetsregisteret/api/enheter?navn=zzzxq" } },
          page: { size: 20, totalElements: 0, totalPages: 0, number: 0 },
        },
      },
    ]);

    expect(await provider.searchOrganizations("zzzxq")).toEqual({ total: 0, items: [] });
  });

  it("does not ask the register about a blank name", async () => {
    const { server, provider } = await providerWith([]);
    expect(await provider.searchOrganizations("   ")).toEqual({ total: 0, items: [] });
    expect(server.requests).toHaveLength(0);
  });

  it("maps financial statements into thousands", async () => {
    const { server, provider } = await providerWith([
      { path: `/regnskapsregisteret/regnskap/${ACCOUNTS_ORG}`, file: brregFixture("regnskap-OrgnrResponseDefault.json") },
    ]);

    const statements = await provider.getFinancialStatements(ACCOUNTS_ORG);

    const amounts = Object.fromEntries(FINANCIAL_AMOUNT_FIELDS.map((f) => [f, null])) as Record<FinancialAmountField, number | null>;
    const expected: RegistryFinancialStatement = {
      ...amounts,
      organization_id: "123456789",
      financial_year: 2019,
      period_start: "2019-01-01",
      period_end: "2019-12-31",
      // The recording has the placeholder 'valutakode', read as the register's default.
      currency: "NOK",
      statement_type: "company",
      is_audited: false,
      is_liquidation_statement: true,
      number_of_employees: null,
      total_assets: 2.024,
      fixed_assets: 2.025,
      current_assets: 2.026,
      total_equity_and_liabilities: 2.027,
      equity: 2.028,
      paid_up_equity: 2.029,
      retained_earnings: 2.03,
      liabilities: 2.031,
      total_current_debt: 2.032,
      long_term_liabilities: 2.033,
      ordinary_result_before_taxes: 2.034,
      net_income: 2.038,
      total_result: 2.039,
      operating_profit: 2.04,
      operating_income: 2.042,
      operating_expenses: 2.044,
      net_financial_items: 2.045,
      financial_income: 2.046,
      financial_expenses: 2.049,
    };
    expect(statements).toStrictEqual([expected]);
    expect(statements[0].depreciation).toBeNull();
    expect(server.requests[0].path).toBe(`/regnskapsregisteret/regnskap/${ACCOUNTS_ORG}`);
    expect(server.requests[0].headers.accept).toBe("application/json");
  });

  it("keeps the reporting currency and sorts newest year first", async () => {
    const [recorded] = readFixtureJson<Array<Record<string, unknown>>>(brregFixture("regnskap-OrgnrResponseDefault.json"));
    const { provider } = await providerWith([
      {
        path: `/regnskapsregisteret/regnskap/${ACCOUNTS_ORG}`,
        json: [
          { ...recorded, valuta: "NOK" },
          {
            ...recorded,
            valuta: "USD",
            regnskapsperiode: { fraDato: "2022-07-01", tilDato: "2023-06-30" },
            eiendeler: { sumEiendeler: 1_234_567_890, goodwill: 500, sumBankinnskuddOgKontanter: 0 },
          },
        ],
      },
    ]);

    const statements = await provider.getFinancialStatements(ACCOUNTS_ORG);

    expect(statements.map((s) => [s.financial_year, s.currency])).toEqual([
      [2023, "USD"],
      [2019, "NOK"],
    ]);
    expect(statements[0].total_assets).toBe(1_234_567.89);
    expect(statements[0].goodwill).toBe(0.5);
    expect(statements[0].cash_and_deposits).toBe(0);
    expect(statements[0].fixed_assets).toBeNull();
  });

  it("returns no statements when nothing is filed", async () => {
    const { provider } = await providerWith([]);
    expect(await provider.getFinancialStatements(ACCOUNTS_ORG)).toEqual([]);
  });

  it("rejects an invalid organisation number without a request", async () => {
    const { server, provider } = await providerWith([]);

    await expectRegistryError(provider.getOrganization("123456789"), "invalid_org_number");
    await expectRegistryError(provider.getOrganization("12345"), "invalid_org_number");
    await expectRegistryError(provider.getRoles("112233445"), "invalid_org_number");
    await expectRegistryError(provider.getFinancialStatements("abcdefghi"), "invalid_org_number");
    expect(server.requests).toHaveLength(0);
  });

  it("turns a server error into a RegistryError with the status", async () => {
    const { provider } = await providerWith([
      { path: `/enhetsregisteret/api/enheter/${ORG}`, status: 500, json: { error: "Internal Server Error" } },
      { path: "/enhetsregisteret/api/enheter", status: 503, json: {} },
    ]);

    await expectRegistryError(provider.getOrganization(ORG), "http", 500);
    await expectRegistryError(provider.searchOrganizations("Sesam"), "http", 503);
  });

  it("turns a response of the wrong shape into a RegistryError", async () => {
    const { provider } = await providerWith([{ path: `/enhetsregisteret/api/enheter/${ORG}`, json: { organisasjonsnummer: 923609016 } }]);

    await expectRegistryError(provider.getOrganization(ORG), "invalid_response", 200);
  });

  it("gives up on a server that never answers", async () => {
    const { server, provider } = await providerWith([{ path: `/enhetsregisteret/api/enheter/${ORG}`, hang: true }], 100);

    const started = Date.now();
    await expectRegistryError(provider.getOrganization(ORG), "timeout");
    expect(Date.now() - started).toBeLessThan(2000);
    expect(server.requests).toHaveLength(1);
  });

  it("reports an unreachable server as a network error", async () => {
    const { server, provider } = await providerWith([]);
    await server.close();

    await expectRegistryError(provider.getOrganization(ORG), "network");
  });
});

describe("liveRegistryProvider()", () => {
  it("defaults to local: no live provider, the store is the registry", () => {
    expect(liveRegistryProvider({})).toBeNull();
    expect(liveRegistryProvider({ REGISTRY_PROVIDER: "" })).toBeNull();
    expect(liveRegistryProvider({ REGISTRY_PROVIDER: "local" })).toBeNull();
  });

  it("uses Brønnøysund at BRREG_BASE_URL when REGISTRY_PROVIDER=brreg", async () => {
    const server = await startReplayServer([{ path: `/enhetsregisteret/api/enheter/${ORG}`, file: brregFixture("enheter-details-response.json") }]);

    const provider = liveRegistryProvider({ REGISTRY_PROVIDER: "brreg", BRREG_BASE_URL: server.baseUrl })!;

    expect((await provider.getOrganization(ORG))?.legal_name).toBe("SESAM STASJON");
    expect(server.requests).toHaveLength(1);
  });

  it("refuses an unknown provider name", () => {
    expect(() => liveRegistryProvider({ REGISTRY_PROVIDER: "proff" })).toThrow(/REGISTRY_PROVIDER/);
  });
});
