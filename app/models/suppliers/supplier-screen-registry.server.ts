import { db } from "@server/db";
import { UNSEARCHABLE_STATUSES } from "@server/importers/gleif-lei2";
import { companyComplianceFlags } from "~/models/suppliers/compliance";
import { notificationsForCompany } from "~/models/notifications/notifications.server";
import { softLoad } from "~/models/shared/soft-load.server";
import { refreshCompany } from "~/models/registry/registry-live.server";
import {
  announcements,
  board,
  boardRelations,
  companyShares,
  country,
  financialStatements,
  findCompany,
  ownershipTree,
  shareholders,
  supplierIntelligence,
  type OwnershipNode,
} from "~/models/registry/registry.server";

/**
 * Everything the supplier screen shows about one company, read in one go.
 * Registry sections come from the store; the URL says which trees are open.
 */
export interface SupplierScreenInput {
  externalId: string;
  /** The expanded ownership trees (org numbers), from `tree=` parameters. */
  trees: string[];
  /** Whose notifications count (their organisation's news hits and dismissals), in which language. */
  viewer?: { organizationId: number | null; language: "en" | "no" };
  now?: Date;
}

export const MAX_OPEN_TREES = 10;

/** Reputation risk counts notifications scoring at least this (shared/spec/02-supplier-credit-connections.md §9). */
export const REPUTATION_MIN_RISK_SCORE = 20;

export async function loadSupplierScreen(input: SupplierScreenInput) {
  await refreshCompany(input.externalId);
  const company = await findCompany(input.externalId);
  if (!company) return null;
  const soft = <T>(section: string, load: Promise<T>, empty: T) => softLoad(`supplier screen: ${section}`, load, empty, { orgNumber: company.org_number });
  const [statements, owners, shares, currentBoard, formerBoard, relations, news, geography, intelligence, notifications, trees, lei] = await Promise.all([
    soft("statements", financialStatements(company.id), []),
    soft("shareholders", shareholders(company.id), []),
    soft("shares", companyShares(company.id), []),
    soft("board", board(company.id, "current"), []),
    soft("former board", board(company.id, "former"), []),
    soft("board relations", boardRelations(company.id), []),
    soft("announcements", announcements(company.id), []),
    soft("country", country(company.country_code), null),
    soft("intelligence", supplierIntelligence(company.id, input.viewer?.language), null),
    soft(
      "notifications",
      notificationsForCompany({ orgNumber: company.org_number, minRiskScore: REPUTATION_MIN_RISK_SCORE, viewer: input.viewer }).then((n) => n ?? []),
      [],
    ),
    soft("ownership trees", openTrees(input.trees), {}),
    soft("LEI", companyLei({ orgNumber: company.org_number, countryCode: company.country_code }), null),
  ]);
  const newest = statements[0];
  return {
    company: {
      organization_id: company.org_number,
      legal_name: company.legal_name,
      industry_code: company.industry_code,
      industry_description: company.industry_description,
      purpose: company.purpose ?? company.activity,
      type: company.org_form,
      type_description: company.org_form_description,
      number_of_employees: company.number_of_employees,
      establishment_date: company.establishment_date,
      // Address lines are stored one per line; the screen shows them on one.
      street_address: company.street_address?.split("\n").join(", ") ?? null,
      street_postal_code: company.street_postal_code,
      street_postal_area: company.street_postal_area,
      country_code: company.country_code,
      date_of_bankruptcy: company.date_of_bankruptcy,
      is_active: company.is_active === 1,
      // The overall risk's flags (decision 036).
      is_bankrupt: company.is_bankrupt === 1,
      is_under_liquidation: company.is_under_liquidation === 1 || company.is_under_forced_liquidation === 1,
      is_deleted: company.deleted_at != null,
      website: company.website,
      lei,
    },
    compliance: companyComplianceFlags(company, newest),
    statements,
    shareholders: owners,
    shares,
    board: currentBoard,
    boardFormer: formerBoard,
    boardRelations: relations,
    announcements: news,
    country: geography,
    intelligence,
    notifications,
    trees,
  };
}

/**
 * The company's LEI: the record GLEIF registered under its organisation number (`registered_as`) in its country
 * (the jurisdiction NO for a Norwegian company; a country's subdivisions, such as US-DE, count as the country).
 * Retired, annulled, merged or duplicate registrations no longer identify the company and are passed over; an
 * issued one is preferred to a lapsed one. Read on the (registered_as, jurisdiction) index.
 */
export async function companyLei(company: { orgNumber: string; countryCode: string | null }): Promise<string | null> {
  const country = company.countryCode?.toUpperCase();
  if (!country) return null;
  const rows = await db()
    .selectFrom("lei_records")
    .select(["lei", "registration_status"])
    .where("registered_as", "=", company.orgNumber)
    .where((eb) => eb.or([eb("jurisdiction", "=", country), eb("jurisdiction", "like", `${country}-%`)]))
    .orderBy("lei")
    .execute();
  const usable = rows.filter((r) => !UNSEARCHABLE_STATUSES.has(r.registration_status));
  return (usable.find((r) => r.registration_status === "ISSUED") ?? usable[0])?.lei ?? null;
}

export type SupplierScreen = NonNullable<Awaited<ReturnType<typeof loadSupplierScreen>>>;

/** The ownership trees the URL opened (`tree=`), at most MAX_OPEN_TREES; also the organisation structure screens'. */
export async function openTrees(orgNumbers: string[]): Promise<Record<string, OwnershipNode>> {
  const out: Record<string, OwnershipNode> = {};
  for (const orgNumber of [...new Set(orgNumbers)].slice(0, MAX_OPEN_TREES)) {
    const tree = await ownershipTree(orgNumber, 1);
    if (tree) out[orgNumber] = tree;
  }
  return out;
}
