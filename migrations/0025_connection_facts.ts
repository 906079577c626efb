import { sql, type Kysely } from "kysely";

/**
 * Per followed supplier, the registry facts the dashboard groups by (decision 038): the NACE section of the
 * company's industry code and its compliance regimes (shared/spec/02-supplier-credit-connections.md §9, bit 1 ARP, 2 Transparency Act, 4 CSRD), written with
 * the overall risk by the one recomputation (decision 036), so the dashboard counts a 10 000-supplier portfolio in one
 * pass over the organisation's connections instead of reading every company and its newest accounts on each request.
 * NULL: no registry company (not assessed), or no NACE code.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("organization_connections")
    .addColumn("nace_section", "text", (c) => c.check(sql`nace_section is null or (length(nace_section) = 1 and nace_section between 'A' and 'U')`))
    .execute();
  await db.schema
    .alterTable("organization_connections")
    .addColumn("compliance_flags", "integer", (c) => c.check(sql`compliance_flags is null or compliance_flags between 0 and 7`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of ["compliance_flags", "nace_section"]) await db.schema.alterTable("organization_connections").dropColumn(column).execute();
}
