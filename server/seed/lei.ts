import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Kysely } from "kysely";
import { leiCheckDigits } from "~/models/registry/lei";
import type { DB } from "../db-types";
import { writeElfCodes, type ElfCodeInput } from "../importers/gleif-elf";
import { writeLeiRecords, type LeiOtherName, type LeiRecordInput } from "../importers/gleif-lei2";
import { writeReportingExceptions, type ReportingExceptionInput } from "../importers/gleif-repex";
import { writeRelationships, type LeiRelationshipInput } from "../importers/gleif-rr";
import type { Staged } from "../importers/run";
import { hash32 } from "./generate/random";

/**
 * The demo world's LEI records, written through the GLEIF importers' writers so that the search
 * index stays in step exactly as an import keeps it:
 *
 * - the recorded real GLEIF API answers in server/seed-data/gleif/ (CC0): their records, the ultimate parent of
 *   Bloomberg Finance, Fraport's direct children, Shell's reporting exception, the ELF code 10UR;
 * - generated records for the Norwegian registry companies the demo shows with an ownership structure: every
 *   demo supplier (but two, so "no LEI" exists) and every company in a majority-ownership chain of the store
 *   (generated and the real Aker group), with direct and ultimate parents following those chains.
 *
 * Generated LEIs are fictional and say so: the LOU prefix "DEMO" (no LOU has it), "00", "NO", the organisation
 * number, "0", then valid ISO 7064 check digits. Their managing LOU is a recorded real one (Nordic Legal Entity
 * Identifier AB). Re-running updates in place: generated records of companies no longer in scope, and every
 * generated relationship, are removed before writing.
 */

const GLEIF_DATA = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../seed-data/gleif");

export const DEMO_LEI_PREFIX = "DEMO00NO";
/** Brønnøysund's Register of Business Enterprises (Foretaksregisteret) in GLEIF's registration authority list. */
export const BRREG_REGISTRATION_AUTHORITY = "RA000472";
/** Nordic Legal Entity Identifier AB, a recorded LOU record (multi_lei_records.json). */
export const DEMO_MANAGING_LOU = "549300O897ZC5H7CY412";
/** Demo suppliers (indices of pickDemoSuppliers) left without an LEI: they have no group structure. */
export const DEMO_SUPPLIERS_WITHOUT_LEI = [9, 11] as const;

/** ISO 20275 codes of the Norwegian forms given an LEI here, with their names in GLEIF's ELF list (2026-02-19). */
const NORWEGIAN_ELF: Record<string, ElfCodeInput> = {
  AS: { code: "YI42", country: "Norway", country_code: "NO", name: "Aksjeselskap", transliterated_name: "Aksjeselskap", lang: "no", status: "ACTV" },
  ASA: {
    code: "IQGE",
    country: "Norway",
    country_code: "NO",
    name: "Allmennaksjeselskap",
    transliterated_name: "Allmennaksjeselskap",
    lang: "no",
    status: "ACTV",
  },
};

/** The LEI generated for a Norwegian organisation number. */
export function demoLei(orgNumber: string): string {
  const prefix = `${DEMO_LEI_PREFIX}${orgNumber}0`;
  return prefix + leiCheckDigits(prefix);
}

// --- The recorded GLEIF API answers ----------------------------------------------------------------------------

interface ApiAddress {
  addressLines?: string[] | null;
  city?: string | null;
  region?: string | null;
  country?: string | null;
  postalCode?: string | null;
}
interface ApiName {
  name: string;
  language?: string | null;
  type?: string | null;
}
interface ApiRecord {
  type: string;
  id: string;
  attributes: {
    lei: string;
    entity: {
      legalName: ApiName;
      otherNames?: ApiName[];
      transliteratedOtherNames?: ApiName[];
      legalAddress: ApiAddress;
      headquartersAddress: ApiAddress;
      registeredAt?: { id?: string | null; other?: string | null } | null;
      registeredAs?: string | null;
      jurisdiction?: string | null;
      category?: string | null;
      legalForm?: { id?: string | null; other?: string | null } | null;
      status?: string | null;
    };
    registration: {
      initialRegistrationDate?: string | null;
      lastUpdateDate?: string | null;
      status: string;
      nextRenewalDate?: string | null;
      managingLou?: string | null;
      corroborationLevel?: string | null;
    };
  };
}

function readJson<T>(file: string): T {
  return JSON.parse(fs.readFileSync(path.join(GLEIF_DATA, file), "utf8")) as T;
}

/** A GLEIF API v1 lei-record as the store keeps it (the LEI-CDF fields the importer reads). */
export function leiRecordFromApi(data: ApiRecord): LeiRecordInput {
  const { entity, registration } = data.attributes;
  const names = (list: ApiName[] | undefined, transliterated: boolean): LeiOtherName[] =>
    (list ?? []).map((n) => ({ name: n.name, type: n.type ?? null, lang: n.language ?? null, transliterated }));
  return {
    record: {
      lei: data.attributes.lei,
      legal_name: entity.legalName.name,
      legal_name_lang: entity.legalName.language ?? null,
      registered_as: entity.registeredAs ?? null,
      registered_at: entity.registeredAt?.id ?? entity.registeredAt?.other ?? null,
      jurisdiction: entity.jurisdiction ?? null,
      legal_form_code: entity.legalForm?.id ?? null,
      legal_form_other: entity.legalForm?.other ?? null,
      entity_status: entity.status ?? null,
      entity_category: entity.category ?? null,
      legal_address_lines: JSON.stringify((entity.legalAddress.addressLines ?? []).filter(Boolean)),
      legal_postal_code: entity.legalAddress.postalCode ?? null,
      legal_city: entity.legalAddress.city ?? null,
      legal_region: entity.legalAddress.region ?? null,
      legal_country: entity.legalAddress.country ?? null,
      hq_address_lines: JSON.stringify((entity.headquartersAddress.addressLines ?? []).filter(Boolean)),
      hq_postal_code: entity.headquartersAddress.postalCode ?? null,
      hq_city: entity.headquartersAddress.city ?? null,
      hq_region: entity.headquartersAddress.region ?? null,
      hq_country: entity.headquartersAddress.country ?? null,
      registration_status: registration.status,
      initial_registration_date: registration.initialRegistrationDate ?? null,
      last_update_date: registration.lastUpdateDate ?? null,
      next_renewal_date: registration.nextRenewalDate ?? null,
      managing_lou: registration.managingLou ?? null,
      validation_sources: registration.corroborationLevel ?? null,
    },
    otherNames: [...names(entity.otherNames, false), ...names(entity.transliteratedOtherNames, true)],
  };
}

interface Recorded {
  records: LeiRecordInput[];
  relationships: LeiRelationshipInput[];
  exceptions: ReportingExceptionInput[];
  elf: ElfCodeInput[];
}

/** Everything the recorded answers say, each record once. */
export function recordedGleifWorld(): Recorded {
  const records = new Map<string, LeiRecordInput>();
  const add = (data: ApiRecord) => records.set(data.attributes.lei, leiRecordFromApi(data));
  readJson<{ data: ApiRecord[] }>("multi_lei_records.json").data.forEach(add);
  add(readJson<{ data: ApiRecord }>("single_lei_record_5299001ERX0K10IZUL40.json").data);
  add(readJson<{ data: ApiRecord }>("managing-lou_5493001KJTIIGC8Y1R12.json").data);

  const relationship = (child: string, parent: string, kind: "direct" | "ultimate"): LeiRelationshipInput => ({
    child_lei: child,
    parent_lei: parent,
    kind,
    relationship_status: "ACTIVE",
    // The answers show the records, not the relationship records: their registration and period are not known.
    registration_status: null,
    start_date: null,
    end_date: null,
    last_update_date: null,
  });
  const relationships: LeiRelationshipInput[] = [];
  const ultimate = readJson<{ data: ApiRecord }>("ultimate-parent_5493001KJTIIGC8Y1R12.json").data;
  add(ultimate);
  relationships.push(relationship("5493001KJTIIGC8Y1R12", ultimate.attributes.lei, "ultimate"));
  for (const [parent, file] of [
    ["5299001ERX0K10IZUL40", "direct-children_5299001ERX0K10IZUL40.json"],
    ["5493001KJTIIGC8Y1R12", "direct-children_5493001KJTIIGC8Y1R12.json"],
  ] as const) {
    for (const child of readJson<{ data: ApiRecord[] }>(file).data) {
      add(child);
      relationships.push(relationship(child.attributes.lei, parent, "direct"));
    }
  }

  const exception = readJson<{ data: { attributes: { lei: string; category: string; reason: string; reference: string | null } } }>(
    "ultimate-parent-reporting-exception_21380068P1DRHMJ8KU70.json",
  ).data.attributes;
  const exceptions: ReportingExceptionInput[] = [
    {
      lei: exception.lei,
      kind: exception.category === "DIRECT_ACCOUNTING_CONSOLIDATION_PARENT" ? "direct" : "ultimate",
      reason: exception.reason,
      reference: exception.reference,
    },
  ];

  const form = readJson<{
    data: {
      attributes: {
        code: string;
        country: string;
        countryCode: string;
        status: string;
        names: { localName: string; languageCode: string; transliteratedName: string | null }[];
      };
    };
  }>("entity_legal_form_10UR.json").data.attributes;
  const elf: ElfCodeInput[] = [
    {
      code: form.code,
      country: form.country,
      country_code: form.countryCode,
      name: form.names[0].localName,
      transliterated_name: form.names[0].transliteratedName,
      lang: form.names[0].languageCode,
      status: form.status,
    },
  ];
  return { records: [...records.values()], relationships, exceptions, elf };
}

// --- Generated records for the Norwegian registry companies -----------------------------------------------------

export interface LeiCompany {
  orgNumber: string;
  name: string;
  orgForm: string | null;
  streetAddress: string | null;
  postalCode: string | null;
  postalArea: string | null;
}

export interface GeneratedLeiWorld {
  records: LeiRecordInput[];
  relationships: LeiRelationshipInput[];
}

const DAY = 86_400_000;
const isoDay = (time: number) => new Date(time).toISOString().slice(0, 10);

/**
 * LEI records for these companies and relationships along their majority owners (`parentOf`: org number → the
 * org number of its majority owner, among these companies). Each record's dates depend on `today` and its
 * organisation number only. `inactiveParentOf`: former parents (the one inactive relationship of the demo).
 */
export function generateLeiWorld(
  companies: readonly LeiCompany[],
  parentOf: ReadonlyMap<string, string>,
  today: Date,
  inactiveParentOf: ReadonlyMap<string, string> = new Map(),
): GeneratedLeiWorld {
  const day = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate());
  const records = companies.map((c): LeiRecordInput => {
    const h = hash32(`lei:${c.orgNumber}`);
    // Renewed yearly: the next renewal within the coming year, the first registration 1–10 years before the last.
    const nextRenewal = day + (1 + (h % 360)) * DAY;
    const lastRenewal = nextRenewal - 365 * DAY;
    const initial = lastRenewal - ((h >>> 9) % 10) * 365 * DAY;
    const lines = c.streetAddress ? c.streetAddress.split("\n").filter(Boolean) : [];
    const address = JSON.stringify(lines);
    const form = c.orgForm ? NORWEGIAN_ELF[c.orgForm] : undefined;
    return {
      record: {
        lei: demoLei(c.orgNumber),
        legal_name: c.name,
        legal_name_lang: "no",
        registered_as: c.orgNumber,
        registered_at: BRREG_REGISTRATION_AUTHORITY,
        jurisdiction: "NO",
        legal_form_code: form ? form.code : null,
        legal_form_other: form ? null : c.orgForm,
        entity_status: "ACTIVE",
        entity_category: "GENERAL",
        legal_address_lines: address,
        legal_postal_code: c.postalCode,
        legal_city: c.postalArea,
        legal_region: null,
        legal_country: "NO",
        hq_address_lines: address,
        hq_postal_code: c.postalCode,
        hq_city: c.postalArea,
        hq_region: null,
        hq_country: "NO",
        registration_status: "ISSUED",
        initial_registration_date: `${isoDay(initial)}T09:00:00Z`,
        last_update_date: `${isoDay(lastRenewal)}T09:00:00Z`,
        next_renewal_date: `${isoDay(nextRenewal)}T09:00:00Z`,
        managing_lou: DEMO_MANAGING_LOU,
        validation_sources: "FULLY_CORROBORATED",
      },
      otherNames: [],
    };
  });

  const known = new Set(companies.map((c) => c.orgNumber));
  const relationships: LeiRelationshipInput[] = [];
  const edge = (child: string, parent: string, kind: "direct" | "ultimate", status = "ACTIVE", endDate: string | null = null) =>
    relationships.push({
      child_lei: demoLei(child),
      parent_lei: demoLei(parent),
      kind,
      relationship_status: status,
      registration_status: "PUBLISHED",
      start_date: null,
      end_date: endDate,
      last_update_date: null,
    });
  for (const c of companies) {
    const direct = parentOf.get(c.orgNumber);
    if (direct === undefined || !known.has(direct)) continue;
    edge(c.orgNumber, direct, "direct");
    // The top of the chain (the guard stops on a cycle, which the registry's ownership should never have).
    let top = direct;
    const seen = new Set([c.orgNumber, direct]);
    for (let next = parentOf.get(top); next !== undefined && known.has(next) && !seen.has(next); next = parentOf.get(top)) {
      seen.add(next);
      top = next;
    }
    edge(c.orgNumber, top, "ultimate");
  }
  for (const [child, parent] of inactiveParentOf) {
    if (known.has(child) && known.has(parent) && !parentOf.has(child)) edge(child, parent, "direct", "INACTIVE", `${isoDay(day - 400 * DAY)}T00:00:00Z`);
  }
  return { records, relationships };
}

/** Which companies of the store get a generated LEI, their majority owners, and the one former parent. */
async function leiCompaniesOfStore(database: Kysely<DB>, demoSuppliers: readonly string[]) {
  const rows = await database
    .selectFrom("companies")
    .select(["id", "org_number", "legal_name", "org_form", "street_address", "street_postal_code", "street_postal_area"])
    .where("deleted_at", "is", null)
    .where("country_code", "=", "NO")
    .execute();
  const norwegian = rows.filter((r) => /^\d{9}$/.test(r.org_number));
  const byId = new Map(norwegian.map((r) => [r.id, r]));
  const holdings = await database
    .selectFrom("shareholdings")
    .select(["company_id", "holder_company_id", "percent"])
    .where("holder_company_id", "is not", null)
    .orderBy("company_id")
    .orderBy("percent", "desc")
    .orderBy("holder_company_id")
    .execute();

  const holdersOf = new Map<number, typeof holdings>();
  for (const h of holdings) {
    const list = holdersOf.get(h.company_id);
    if (list) list.push(h);
    else holdersOf.set(h.company_id, [h]);
  }
  const chosen = new Set<number>();
  const parentOf = new Map<string, string>();
  for (const h of holdings) {
    const child = byId.get(h.company_id);
    const parent = byId.get(h.holder_company_id!);
    if (!child || !parent || (h.percent ?? 0) <= 50 || parentOf.has(child.org_number)) continue;
    parentOf.set(child.org_number, parent.org_number);
    chosen.add(child.id);
    chosen.add(parent.id);
  }
  const without = new Set<string>(DEMO_SUPPLIERS_WITHOUT_LEI.map((i) => demoSuppliers[i]).filter((n): n is string => !!n));
  for (const orgNumber of demoSuppliers) {
    const row = norwegian.find((r) => r.org_number === orgNumber);
    if (row && !without.has(row.org_number)) chosen.add(row.id);
  }
  for (const r of norwegian) if (without.has(r.org_number)) chosen.delete(r.id);
  for (const [child, parent] of parentOf) if (without.has(child) || without.has(parent)) parentOf.delete(child);

  // A former parent, so that one relationship has an inactive status: the largest company holder of a company with
  // company owners but no majority owner (an investor that once held the majority) — a demo supplier if one has
  // such owners, else the first such company by organisation number.
  const inactiveParentOf = new Map<string, string>();
  const demoRows = demoSuppliers.flatMap((orgNumber) => norwegian.filter((r) => r.org_number === orgNumber));
  const others = [...norwegian].sort((a, b) => a.org_number.localeCompare(b.org_number));
  for (const row of [...demoRows, ...others]) {
    if (without.has(row.org_number) || parentOf.has(row.org_number)) continue;
    const holder = holdersOf.get(row.id)?.find((h) => byId.has(h.holder_company_id!) && !without.has(byId.get(h.holder_company_id!)!.org_number));
    if (!holder) continue;
    const former = byId.get(holder.holder_company_id!)!;
    chosen.add(row.id);
    chosen.add(former.id);
    inactiveParentOf.set(row.org_number, former.org_number);
    break;
  }

  const companies: LeiCompany[] = norwegian
    .filter((r) => chosen.has(r.id))
    .sort((a, b) => a.org_number.localeCompare(b.org_number))
    .map((r) => ({
      orgNumber: r.org_number,
      name: r.legal_name,
      orgForm: r.org_form,
      streetAddress: r.street_address,
      postalCode: r.street_postal_code,
      postalArea: r.street_postal_area,
    }));
  return { companies, parentOf, inactiveParentOf };
}

const staged = <T>(values: T[]): Staged<T>[] => values.map((value, i) => ({ line: i + 1, value }));

/**
 * The LEI part of the demo world. Runs after the registry world (it reads its companies and ownership).
 * `demoSuppliers`: the demo suppliers' organisation numbers, in pickDemoSuppliers' order.
 */
export async function seedLeiWorld(database: Kysely<DB>, opts: { log: (line: string) => void; today: Date; demoSuppliers: readonly string[] }): Promise<void> {
  const recorded = recordedGleifWorld();
  const { companies, parentOf, inactiveParentOf } = await leiCompaniesOfStore(database, opts.demoSuppliers);
  const generated = generateLeiWorld(companies, parentOf, opts.today, inactiveParentOf);
  const generatedLeis = new Set(generated.records.map((r) => r.record.lei));

  await database.transaction().execute(async (trx) => {
    // Generated records of companies no longer in scope leave the store and the search; every generated
    // relationship is written again (a changed ownership must not leave an old parent behind).
    const stale = await trx
      .selectFrom("lei_records")
      .select(["id", "lei"])
      .where("lei", "like", `${DEMO_LEI_PREFIX}%`)
      .execute()
      .then((rows) => rows.filter((r) => !generatedLeis.has(r.lei)));
    if (stale.length) {
      await trx
        .deleteFrom("lei_fts")
        .where(
          "rowid",
          "in",
          stale.map((r) => r.id),
        )
        .execute();
      await trx
        .deleteFrom("lei_other_names")
        .where(
          "lei",
          "in",
          stale.map((r) => r.lei),
        )
        .execute();
      await trx
        .deleteFrom("lei_records")
        .where(
          "id",
          "in",
          stale.map((r) => r.id),
        )
        .execute();
    }
    await trx.deleteFrom("lei_relationships").where("child_lei", "like", `${DEMO_LEI_PREFIX}%`).execute();
    await writeElfCodes(trx, staged([...recorded.elf, ...Object.values(NORWEGIAN_ELF)]));
    await writeLeiRecords(trx, staged([...recorded.records, ...generated.records]));
    await writeRelationships(trx, staged([...recorded.relationships, ...generated.relationships]));
    await writeReportingExceptions(trx, staged(recorded.exceptions));
  });
  const active = generated.relationships.filter((r) => r.relationship_status === "ACTIVE").length;
  opts.log(
    `LEI records: ${recorded.records.length} recorded from GLEIF, ${generated.records.length} generated for Norwegian companies ` +
      `(${active} active parent relationships, ${generated.relationships.length - active} inactive)`,
  );
}
