import { db } from "@server/db";
import { findCompany, type OwnershipNode } from "~/models/registry/registry.server";
import { openTrees } from "~/models/suppliers/supplier-screen-registry.server";

/**
 * A company's group from the registry (decision 041): who owns it, what it owns (the supplier screen's
 * ownership trees, opened lazily by `tree=` in the URL), its sub-units, and which companies of it are customer
 * organisations of this installation. Registry data only: no organisation's own data is read.
 */

export const MAX_SUB_UNITS = 100;

export interface GroupEntry {
  orgNumber: string;
  name: string;
  /** Percent 0–100, as the registry gives it. */
  ownership: number | null;
}

export interface CompanyGroup {
  company: { orgNumber: string; name: string; orgForm: string | null };
  /** The superior unit when the company is a sub-unit (underenhet). */
  superior: { orgNumber: string; name: string } | null;
  owners: GroupEntry[];
  /** Owners that are people: only counted, people are not part of the group. */
  personOwners: number;
  subsidiaries: GroupEntry[];
  subUnits: { orgNumber: string; name: string; municipality: string | null }[];
  subUnitsTotal: number;
  trees: Record<string, OwnershipNode>;
  /** Org numbers of the group (as far as it is shown) that are customer organisations of this app. */
  appOrganizations: string[];
}

/** The companies that own `companyId` (its parents), largest stake first. */
function companyOwners(companyId: number) {
  return db()
    .selectFrom("shareholdings")
    .innerJoin("companies as holder", "holder.id", "shareholdings.holder_company_id")
    .select(["holder.org_number", "holder.legal_name", "shareholdings.percent"])
    .where("shareholdings.company_id", "=", companyId)
    .orderBy("shareholdings.percent", "desc")
    .execute();
}

/** The companies `companyId` owns (its subsidiaries and holdings), largest stake first. */
function ownedCompanies(companyId: number) {
  return db()
    .selectFrom("shareholdings")
    .innerJoin("companies", "companies.id", "shareholdings.company_id")
    .select(["companies.org_number", "companies.legal_name", "shareholdings.percent"])
    .where("shareholdings.holder_company_id", "=", companyId)
    .orderBy("shareholdings.percent", "desc")
    .execute();
}

const entry = (r: { org_number: string; legal_name: string; percent: number | null }): GroupEntry => ({
  orgNumber: r.org_number,
  name: r.legal_name,
  ownership: r.percent,
});

function treeOrgNumbers(node: OwnershipNode, into: Set<string>) {
  into.add(node.organization_id);
  for (const child of node.children) treeOrgNumbers(child, into);
}

export async function companyGroup(orgNumber: string, trees: string[] = []): Promise<CompanyGroup | null> {
  const company = await findCompany(orgNumber);
  if (!company) return null;
  const [owners, shares, personOwners, subUnits, subUnitsCount, superior, opened] = await Promise.all([
    companyOwners(company.id),
    ownedCompanies(company.id),
    db()
      .selectFrom("shareholdings")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("company_id", "=", company.id)
      .where("holder_person_id", "is not", null)
      .executeTakeFirstOrThrow(),
    db()
      .selectFrom("companies")
      .select(["org_number", "legal_name", "municipality"])
      .where("parent_org_number", "=", company.org_number)
      .orderBy("legal_name")
      .limit(MAX_SUB_UNITS)
      .execute(),
    db()
      .selectFrom("companies")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("parent_org_number", "=", company.org_number)
      .executeTakeFirstOrThrow(),
    company.parent_org_number ? findCompany(company.parent_org_number) : Promise.resolve(undefined),
    openTrees(trees),
  ]);
  const ownerEntries = owners.map(entry);
  const subsidiaries = shares.map(entry);
  const group = new Set<string>([company.org_number]);
  if (superior) group.add(superior.org_number);
  for (const entry of [...ownerEntries, ...subsidiaries]) group.add(entry.orgNumber);
  for (const unit of subUnits) group.add(unit.org_number);
  for (const tree of Object.values(opened)) treeOrgNumbers(tree, group);
  const customers = await db()
    .selectFrom("organizations")
    .select("org_number")
    .where("kind", "=", "customer")
    .where("deactivated_at", "is", null)
    .where("org_number", "in", [...group])
    .execute();
  return {
    company: { orgNumber: company.org_number, name: company.legal_name, orgForm: company.org_form },
    superior: superior ? { orgNumber: superior.org_number, name: superior.legal_name } : null,
    owners: ownerEntries,
    personOwners: Number(personOwners.n),
    subsidiaries,
    subUnits: subUnits.map((u) => ({ orgNumber: u.org_number, name: u.legal_name, municipality: u.municipality })),
    subUnitsTotal: Number(subUnitsCount.n),
    trees: opened,
    appOrganizations: [...new Set(customers.map((c) => c.org_number).filter((n): n is string => n != null))].sort(),
  };
}

/** The organisation number of the user's own organisation, when registered. */
export async function ownOrgNumber(organizationId: number): Promise<string | null> {
  const row = await db().selectFrom("organizations").select("org_number").where("id", "=", organizationId).executeTakeFirst();
  return row?.org_number ?? null;
}
