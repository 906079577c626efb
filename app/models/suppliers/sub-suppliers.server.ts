import { db } from "@server/db";
import { followsSupplier } from "~/models/suppliers/follows.server";

/**
 * A supplier's own suppliers, as one of its customers sees them (shared/spec/02-supplier-credit-connections.md §3
 * "Sub-supplier", §6). They are the supplier organisation's connections and
 * are shown only to organisations that follow the supplier, and only when
 * the supplier has turned data sharing on.
 */

export const SUB_SUPPLIER_LIMIT = 200;

export interface SubSupplierOut {
  /** The sub-supplier's organisation number (the spec's external id). */
  organizationId: string | null;
  localOrganizationId: number;
  organizationName: string;
  /** country_name is the spec's (English); the Norwegian name and the code let the screen use the UI language. */
  country: { country_name: string | null; country_name_no: string | null; iso_2: string | null };
}

export type SubSuppliersResult = { status: "ok"; data: SubSupplierOut[] } | { status: "not-shared" } | { status: "not-found" };

const collator = new Intl.Collator("nb", { sensitivity: "base", numeric: true });

export async function subSuppliers({
  organizationId,
  supplierOrganizationId,
  searchTerm,
}: {
  organizationId: number;
  supplierOrganizationId: number;
  searchTerm?: string | null;
}): Promise<SubSuppliersResult> {
  // Checked before the sharing flag, so an organisation that does not follow
  // the supplier learns nothing about it, not even whether it shares.
  if (!(await followsSupplier({ organizationId, supplier: { id: supplierOrganizationId } }))) return { status: "not-found" };
  const supplier = await db().selectFrom("organizations").select("data_sharing_enabled").where("id", "=", supplierOrganizationId).executeTakeFirst();
  if (supplier?.data_sharing_enabled !== 1) return { status: "not-shared" };

  const rows = await db()
    .selectFrom("organization_connections as c")
    .innerJoin("organizations as o", "o.id", "c.child_organization_id")
    .leftJoin("countries", (join) => join.on((eb) => eb("countries.iso2", "=", eb.fn<string>("upper", ["o.country_code"]))))
    .select(["o.id", "o.name", "o.org_number", "countries.name_en", "countries.name_no", "countries.iso2"])
    .where("c.parent_organization_id", "=", supplierOrganizationId)
    .where("c.is_deleted", "=", 0)
    .execute();

  // Matched here rather than in SQL: SQLite's lower() and LIKE fold ASCII
  // only, and Norwegian names need Æ/Ø/Å to match æ/ø/å. One supplier's own
  // connections are few enough to filter in memory.
  const term = (searchTerm ?? "").normalize("NFKC").trim().toLocaleLowerCase("nb");
  const digits = term.replace(/\s/g, "");
  const matches = term
    ? rows.filter(
        (r) => r.name.normalize("NFKC").toLocaleLowerCase("nb").includes(term) || (r.org_number != null && digits !== "" && r.org_number.includes(digits)),
      )
    : rows;

  const data = matches
    .sort((a, b) => collator.compare(a.name, b.name) || a.id - b.id)
    .slice(0, SUB_SUPPLIER_LIMIT)
    .map((r) => ({
      organizationId: r.org_number,
      localOrganizationId: r.id,
      organizationName: r.name,
      country: { country_name: r.name_en, country_name_no: r.name_no, iso_2: r.iso2 },
    }));
  return { status: "ok", data };
}

export interface OrganizationCountryOut {
  country_name: string;
  region: string | null;
  iso_2: string;
  risk_score: number | null;
  co2_per_gdp: number | null;
}

/**
 * The country facts of a local organisation (GET /api/organization/country),
 * from the organisation's own country code. Country data is public
 * reference data, so any signed-in analyst may read it for any organisation.
 */
export async function organizationCountry(localOrganizationId: number): Promise<OrganizationCountryOut | null> {
  const row = await db()
    .selectFrom("organizations as o")
    .innerJoin("countries as c", (join) => join.on((eb) => eb("c.iso2", "=", eb.fn<string>("upper", ["o.country_code"]))))
    .select(["c.name_en", "c.region", "c.iso2", "c.risk_score", "c.co2_per_gdp"])
    .where("o.id", "=", localOrganizationId)
    .executeTakeFirst();
  if (!row) return null;
  return { country_name: row.name_en, region: row.region, iso_2: row.iso2, risk_score: row.risk_score, co2_per_gdp: row.co2_per_gdp };
}
