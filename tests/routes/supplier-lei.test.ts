import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@server/db";
import { writeLeiRecords, type LeiRecordInput } from "@server/importers";
import { companyLei } from "~/models/suppliers/supplier-screen-registry.server";
import { leiCheckDigits } from "~/models/registry/lei";
import { loader } from "~/routes/_app.supplier";
import { company, makeOrg, request, signedIn } from "../helpers/fixtures";

/**
 * The supplier screen's LEI: the record whose registered id is the company's organisation number in the
 * company's country, read by the screen's loader; nothing for a company without one.
 */

const WITH_LEI = "910000201";
const WITHOUT_LEI = "910000202";
/** Registered under this number in Sweden only: not this Norwegian company's LEI. */
const ELSEWHERE = "910000203";
const LAPSED_AND_RETIRED = "910000204";

const lei = (body: string) => body + leiCheckDigits(body);
const LEI = lei("TEST00NO9100002010");
const SWEDISH_LEI = lei("TEST00SE9100002030");
const RETIRED_LEI = lei("TEST00NO9100002040");
const LAPSED_LEI = lei("TEST00NO9100002041");

function record(value: string, registeredAs: string, jurisdiction: string, registrationStatus = "ISSUED"): LeiRecordInput {
  return {
    record: {
      lei: value,
      legal_name: `RECORD ${value}`,
      registered_as: registeredAs,
      registered_at: "RA000472",
      jurisdiction,
      registration_status: registrationStatus,
      legal_address_lines: "[]",
      hq_address_lines: "[]",
    },
    otherNames: [],
  };
}

let token: string;

beforeAll(async () => {
  for (const [orgNumber, name] of [
    [WITH_LEI, "LEI HAVER AS"],
    [WITHOUT_LEI, "NO LEI AS"],
    [ELSEWHERE, "SAME NUMBER ABROAD AS"],
    [LAPSED_AND_RETIRED, "LAPSED AS"],
  ]) {
    await company(orgNumber, name);
  }
  await db()
    .transaction()
    .execute((trx) =>
      writeLeiRecords(
        trx,
        [
          record(LEI, WITH_LEI, "NO"),
          record(SWEDISH_LEI, ELSEWHERE, "SE"),
          record(RETIRED_LEI, LAPSED_AND_RETIRED, "NO", "RETIRED"),
          record(LAPSED_LEI, LAPSED_AND_RETIRED, "NO", "LAPSED"),
        ].map((value, i) => ({ line: i + 1, value })),
      ),
    );
  token = await signedIn("analyst@supplier-lei.test", await makeOrg("LEI Customer AS", "customer"), 2);
});

async function screen(orgNumber: string) {
  const res = await request(loader, `/supplier?externalId=${orgNumber}`, {}, token);
  expect(res.status).toBe(200);
  return (await res.json()) as { company: { organization_id: string; lei: string | null } };
}

describe("the supplier screen's LEI", () => {
  it("is the LEI registered under the company's organisation number in Norway", async () => {
    const data = await screen(WITH_LEI);
    expect(data.company).toMatchObject({ organization_id: WITH_LEI, lei: LEI });
  });

  it("is null for a company without an LEI record", async () => {
    expect((await screen(WITHOUT_LEI)).company.lei).toBeNull();
  });

  it("is not an LEI registered under the same number in another jurisdiction", async () => {
    expect((await screen(ELSEWHERE)).company.lei).toBeNull();
    expect(await companyLei({ orgNumber: ELSEWHERE, countryCode: "SE" })).toBe(SWEDISH_LEI);
  });

  it("passes over a retired registration and takes the lapsed one", async () => {
    expect((await screen(LAPSED_AND_RETIRED)).company.lei).toBe(LAPSED_LEI);
  });

  it("counts a country's subdivisions as the country (US-DE for a US company)", async () => {
    await db()
      .transaction()
      .execute((trx) => writeLeiRecords(trx, [{ line: 1, value: record(lei("TEST00US0000000001"), "4348344", "US-DE") }]));
    expect(await companyLei({ orgNumber: "4348344", countryCode: "US" })).toBe(lei("TEST00US0000000001"));
    expect(await companyLei({ orgNumber: "4348344", countryCode: "NO" })).toBeNull();
    expect(await companyLei({ orgNumber: "4348344", countryCode: null })).toBeNull();
  });
});
