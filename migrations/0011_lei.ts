import { sql, type Kysely } from "kysely";

/**
 * The LEI store: GLEIF's golden copy as the importers write it (server/importers/gleif-*.ts) and the
 * `local` LEI provider reads it, plus the live adapter's cache. See docs/decisions/019-lei-store-and-importers.md.
 * Dates are kept as GLEIF writes them (ISO 8601 timestamps with their offset), statuses and codes as GLEIF spells them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("lei_records")
    // The full-text row's id (lei_fts.rowid). A text key's implicit rowid may change on VACUUM, so the index needs its own.
    .addColumn("id", "integer", (c) => c.primaryKey())
    .addColumn("lei", "text", (c) => c.notNull().unique())
    .addColumn("legal_name", "text", (c) => c.notNull())
    .addColumn("legal_name_lang", "text")
    // Entity.RegistrationAuthority: the authority's entity id (for NO entities the organisation number) and the authority (RA000472…).
    .addColumn("registered_as", "text")
    .addColumn("registered_at", "text")
    .addColumn("jurisdiction", "text")
    .addColumn("legal_form_code", "text")
    .addColumn("legal_form_other", "text")
    // ACTIVE | INACTIVE (GLEIF also writes NULL for a few old records: kept as null).
    .addColumn("entity_status", "text")
    .addColumn("entity_category", "text")
    // A JSON array of strings: the first address line, then the additional ones, blanks dropped.
    .addColumn("legal_address_lines", "text", (c) =>
      c
        .notNull()
        .defaultTo("[]")
        .check(sql`json_valid(legal_address_lines)`),
    )
    .addColumn("legal_postal_code", "text")
    .addColumn("legal_city", "text")
    .addColumn("legal_region", "text")
    .addColumn("legal_country", "text")
    .addColumn("hq_address_lines", "text", (c) =>
      c
        .notNull()
        .defaultTo("[]")
        .check(sql`json_valid(hq_address_lines)`),
    )
    .addColumn("hq_postal_code", "text")
    .addColumn("hq_city", "text")
    .addColumn("hq_region", "text")
    .addColumn("hq_country", "text")
    // ISSUED, LAPSED, PENDING_TRANSFER, PENDING_ARCHIVAL, MERGED, RETIRED, ANNULLED, DUPLICATE, TRANSFERRED, …
    .addColumn("registration_status", "text", (c) => c.notNull())
    .addColumn("initial_registration_date", "text")
    .addColumn("last_update_date", "text")
    .addColumn("next_renewal_date", "text")
    // The managing LOU's own LEI.
    .addColumn("managing_lou", "text")
    .addColumn("validation_sources", "text")
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  // The supplier screen finds a company's LEI by its organisation number.
  await db.schema.createIndex("lei_records_registered_as").on("lei_records").columns(["registered_as", "jurisdiction"]).execute();

  await db.schema
    .createTable("lei_other_names")
    .addColumn("id", "integer", (c) => c.primaryKey())
    .addColumn("lei", "text", (c) => c.notNull().references("lei_records.lei").onDelete("cascade"))
    // Order in the file (1 = OtherEntityName.1; transliterated names follow).
    .addColumn("position", "integer", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    // PREVIOUS_LEGAL_NAME, TRADING_OR_OPERATING_NAME, ALTERNATIVE_LANGUAGE_LEGAL_NAME, AUTO_ASCII_TRANSLITERATED_LEGAL_NAME, …
    .addColumn("type", "text")
    .addColumn("lang", "text")
    .addColumn("transliterated", "integer", (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`transliterated in (0, 1)`),
    )
    .execute();
  await db.schema.createIndex("lei_other_names_lei").on("lei_other_names").columns(["lei", "position"]).execute();

  // Not tied to lei_records by a foreign key: GLEIF's relationship file may name an entity the LEI file of the day lacks.
  await db.schema
    .createTable("lei_relationships")
    .addColumn("id", "integer", (c) => c.primaryKey())
    .addColumn("child_lei", "text", (c) => c.notNull())
    .addColumn("parent_lei", "text", (c) => c.notNull())
    // IS_DIRECTLY_CONSOLIDATED_BY → direct, IS_ULTIMATELY_CONSOLIDATED_BY → ultimate.
    .addColumn("kind", "text", (c) => c.notNull().check(sql`kind in ('direct', 'ultimate')`))
    // ACTIVE | INACTIVE: only active ones are parents today.
    .addColumn("relationship_status", "text", (c) => c.notNull())
    // The relationship record's Registration.RegistrationStatus (PUBLISHED, LAPSED, RETIRED, …).
    .addColumn("registration_status", "text")
    .addColumn("start_date", "text")
    .addColumn("end_date", "text")
    .addColumn("last_update_date", "text")
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("lei_relationships_edge").unique().on("lei_relationships").columns(["child_lei", "kind", "parent_lei"]).execute();
  await db.schema.createIndex("lei_relationships_parent").on("lei_relationships").columns(["parent_lei", "kind"]).execute();

  await db.schema
    .createTable("lei_reporting_exceptions")
    .addColumn("id", "integer", (c) => c.primaryKey())
    .addColumn("lei", "text", (c) => c.notNull())
    .addColumn("kind", "text", (c) => c.notNull().check(sql`kind in ('direct', 'ultimate')`))
    // NATURAL_PERSONS, NON_CONSOLIDATING, NO_KNOWN_PERSON, NON_PUBLIC, … (ExceptionReason.1)
    .addColumn("reason", "text", (c) => c.notNull())
    .addColumn("reference", "text")
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("lei_reporting_exceptions_lei").unique().on("lei_reporting_exceptions").columns(["lei", "kind"]).execute();

  await db.schema
    .createTable("lei_elf_codes")
    .addColumn("code", "text", (c) => c.primaryKey())
    .addColumn("country", "text")
    .addColumn("country_code", "text")
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("transliterated_name", "text")
    .addColumn("lang", "text")
    // ACTI | INAC
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();

  // Its own content (the names come from two tables), rowid = lei_records.id, kept in step by the importer:
  // a retired, annulled, merged or duplicate record has no row here. unicode61 folds case and accents.
  await sql`create virtual table lei_fts using fts5(
    lei, legal_name, other_names,
    tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3'
  )`.execute(db);

  await db.schema
    .createTable("lei_cache")
    // The API path and query the live adapter asked (e.g. 'lei-records/5299001ERX0K10IZUL40').
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("body", "text", (c) => c.notNull().check(sql`json_valid(body)`))
    .addColumn("fetched_at", "text", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("lei_cache").execute();
  await sql`drop table if exists lei_fts`.execute(db);
  for (const table of ["lei_elf_codes", "lei_reporting_exceptions", "lei_relationships", "lei_other_names", "lei_records"]) {
    await db.schema.dropTable(table).execute();
  }
}
