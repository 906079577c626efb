import { sql, type Kysely } from "kysely";

/**
 * The registry store: company data the screens read (shared/spec/02-supplier-credit-connections.md §3), filled by
 * the bulk importers (server/importers), the demo seed and the live registry
 * adapter. Amounts are NOK thousands. Booleans are 0/1 integers.
 *
 * The statement columns are spelled out here rather than imported from app
 * code: a migration is history and must not change when the app's lists do.
 */

const STATEMENT_AMOUNTS = [
  "operating_income",
  "other_operating_income",
  "cost_of_materials",
  "personnel_expenses",
  "other_operating_expenses",
  "depreciation",
  "write_downs",
  "operating_profit",
  "financial_income",
  "other_financial_expenses",
  "financial_expenses",
  "ordinary_result_before_taxes",
  "taxes",
  "ordinary_result_after_taxes",
  "total_taxes",
  "net_income",
  "dividend",
  "intra_group_contribution",
  "transferred_equity",
  "loss_on_receivables",
  "fixed_assets",
  "intangible_assets",
  "deferred_tax_assets",
  "goodwill",
  "tangible_assets",
  "buildings_and_real_estate",
  "machinery_and_equipment",
  "fixed_financial_assets",
  "loan_to_group",
  "current_assets",
  "inventories",
  "receivables",
  "accounts_receivables",
  "short_term_investments",
  "cash_and_deposits",
  "total_assets",
  "equity",
  "paid_up_equity",
  "share_capital",
  "retained_earnings",
  "liabilities",
  "long_term_liabilities",
  "other_long_term_debt",
  "long_term_debt_to_group_companies",
  "subordinated_loan_cap",
  "total_current_debt",
  "overdrafts",
  "overdraft_facility",
  "trade_creditors",
  "value_added_taxes",
  "debt_dividend",
  "sales",
  "number_of_employees",
  // Totals Regnskapsregisteret publishes that shared/spec/02-supplier-credit-connections.md has no name for; kept so
  // a statement read from the register loses nothing.
  "operating_expenses",
  "net_financial_items",
  "total_result",
  "total_equity_and_liabilities",
] as const;

const flag = (name: string) => sql`${sql.ref(name)} in (0, 1)`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("companies")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    // Nine digits for Norwegian units; foreign units keep their own registration id.
    .addColumn("org_number", "text", (c) => c.notNull().unique())
    .addColumn("country_code", "text", (c) => c.notNull().defaultTo("NO"))
    .addColumn("legal_name", "text", (c) => c.notNull())
    .addColumn("org_form", "text")
    .addColumn("org_form_description", "text")
    .addColumn("industry_code", "text")
    .addColumn("industry_description", "text")
    .addColumn("purpose", "text")
    .addColumn("activity", "text")
    .addColumn("number_of_employees", "integer")
    .addColumn("establishment_date", "text")
    .addColumn("registration_date", "text")
    // Address lines separated by '\n' (the register's CSV writes them as '/n').
    .addColumn("street_address", "text")
    // Text: Norwegian postal codes keep their leading zero ('0101').
    .addColumn("street_postal_code", "text")
    .addColumn("street_postal_area", "text")
    .addColumn("municipality", "text")
    .addColumn("municipality_code", "text")
    .addColumn("postal_address", "text")
    .addColumn("postal_code", "text")
    .addColumn("postal_area", "text")
    .addColumn("website", "text")
    .addColumn("is_vat_registered", "integer", (c) => c.notNull().defaultTo(0).check(flag("is_vat_registered")))
    .addColumn("is_bankrupt", "integer", (c) => c.notNull().defaultTo(0).check(flag("is_bankrupt")))
    .addColumn("date_of_bankruptcy", "text")
    .addColumn("is_under_liquidation", "integer", (c) => c.notNull().defaultTo(0).check(flag("is_under_liquidation")))
    .addColumn("is_under_forced_liquidation", "integer", (c) => c.notNull().defaultTo(0).check(flag("is_under_forced_liquidation")))
    .addColumn("is_active", "integer", (c) => c.notNull().defaultTo(1).check(flag("is_active")))
    .addColumn("deleted_at", "text")
    // A number, not a foreign key: the superior unit is often outside the imported selection.
    .addColumn("parent_org_number", "text")
    // Whether the supplier lets its customers see its own sub-suppliers. Local
    // state, never overwritten by an import.
    .addColumn("source", "text", (c) => c.notNull().check(sql`source in ('brreg-csv', 'brreg-json', 'brreg-api', 'seed')`))
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("companies_parent_org_number").on("companies").column("parent_org_number").execute();
  await db.schema.createIndex("companies_country_code").on("companies").column("country_code").execute();

  let statements = db.schema
    .createTable("financial_statements")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("company_id", "integer", (c) => c.notNull().references("companies.id").onDelete("cascade"))
    .addColumn("financial_year", "integer", (c) => c.notNull())
    .addColumn("period_start", "text")
    .addColumn("period_end", "text")
    // The law lets some units report in e.g. EUR; NOK comparisons must skip those.
    .addColumn("currency", "text", (c) => c.notNull().defaultTo("NOK"));
  for (const field of STATEMENT_AMOUNTS) statements = statements.addColumn(field, "real");
  await statements
    // {finalScore, capitalRisk, liquidityRisk, coverageRisk, profitabilityRisk, growthRisk}
    .addColumn("financial_risk_score", "text", (c) => c.check(sql`financial_risk_score is null or json_valid(financial_risk_score)`))
    .addColumn("source", "text", (c) => c.notNull().defaultTo("seed"))
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addUniqueConstraint("financial_statements_company_year", ["company_id", "financial_year"])
    .execute();

  await db.schema
    .createTable("persons")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("birth_year", "integer")
    .addColumn("sex", "text")
    .addColumn("country_code", "text")
    .addColumn("boardscore", "real", (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable("roles")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("person_id", "integer", (c) => c.notNull().references("persons.id").onDelete("cascade"))
    .addColumn("company_id", "integer", (c) => c.notNull().references("companies.id").onDelete("cascade"))
    .addColumn("position", "text", (c) => c.notNull())
    .addColumn("active_from", "text")
    // null while the person still holds the role.
    .addColumn("active_to", "text")
    .execute();
  // Board of a company (current first) and the boards a person sits on.
  await db.schema.createIndex("roles_company").on("roles").columns(["company_id", "active_to"]).execute();
  await db.schema.createIndex("roles_person").on("roles").columns(["person_id", "active_to"]).execute();

  await db.schema
    .createTable("shareholdings")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    // The owned company.
    .addColumn("company_id", "integer", (c) => c.notNull().references("companies.id").onDelete("cascade"))
    .addColumn("holder_company_id", "integer", (c) => c.references("companies.id").onDelete("cascade"))
    .addColumn("holder_person_id", "integer", (c) => c.references("persons.id").onDelete("cascade"))
    // 0–100; null when the source names the owner without a share.
    .addColumn("percent", "real", (c) => c.check(sql`percent is null or (percent >= 0 and percent <= 100)`))
    // The register's relation code, e.g. 'HFOR' (parent company).
    .addColumn("relation_type", "text")
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addCheckConstraint("shareholdings_one_holder", sql`(holder_company_id is null) <> (holder_person_id is null)`)
    .execute();
  await db.schema.createIndex("shareholdings_company").on("shareholdings").column("company_id").execute();
  // Unique per holder so that importing the same edge twice updates it.
  await db.schema
    .createIndex("shareholdings_holder_company")
    .on("shareholdings")
    .columns(["holder_company_id", "company_id"])
    .unique()
    .where("holder_company_id", "is not", null)
    .execute();
  await db.schema
    .createIndex("shareholdings_holder_person")
    .on("shareholdings")
    .columns(["holder_person_id", "company_id"])
    .unique()
    .where("holder_person_id", "is not", null)
    .execute();

  await db.schema
    .createTable("announcements")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("company_id", "integer", (c) => c.notNull().references("companies.id").onDelete("cascade"))
    .addColumn("date", "text", (c) => c.notNull())
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("detail", "text")
    // 1 low, 2 medium, 3 or more high (shared/spec/02-supplier-credit-connections.md §9).
    .addColumn("risk", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("operational_risk", "real")
    .addColumn("legal_risk", "real")
    .execute();
  await db.schema.createIndex("announcements_company_date").on("announcements").columns(["company_id", "date"]).execute();

  await db.schema
    .createTable("countries")
    .addColumn("iso2", "text", (c) => c.primaryKey())
    .addColumn("iso3", "text", (c) => c.notNull().unique())
    .addColumn("name_en", "text", (c) => c.notNull())
    .addColumn("name_no", "text", (c) => c.notNull())
    .addColumn("region", "text")
    // round(100 − governance_percentile): 0 best, 100 worst.
    .addColumn("risk_score", "integer", (c) => c.check(sql`risk_score is null or (risk_score >= 0 and risk_score <= 100)`))
    // 10-year change of CO2 intensity of GDP in percent (negative = improving).
    .addColumn("co2_per_gdp", "real")
    // World Bank WGI Control of Corruption percentile rank (higher = better).
    .addColumn("governance_percentile", "real")
    .execute();

  await db.schema
    .createTable("supplier_intelligence")
    .addColumn("company_id", "integer", (c) => c.primaryKey().references("companies.id").onDelete("cascade"))
    .addColumn("data", "text", (c) => c.notNull().check(sql`json_valid(data)`))
    .addColumn("generated_at", "text", (c) => c.notNull())
    .execute();

  // External-content FTS: the text lives once, in companies; the index holds
  // only tokens. unicode61 folds case and accents ('å' finds 'a'), and the
  // prefix index makes 'aker sol*' cheap for the 2- and 3-letter prefixes a
  // live search sends first.
  await sql`create virtual table companies_fts using fts5(
    legal_name, org_number,
    content = 'companies', content_rowid = 'id',
    tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3'
  )`.execute(db);
  await sql`create trigger companies_fts_insert after insert on companies begin
    insert into companies_fts (rowid, legal_name, org_number) values (new.id, new.legal_name, new.org_number);
  end`.execute(db);
  await sql`create trigger companies_fts_delete after delete on companies begin
    insert into companies_fts (companies_fts, rowid, legal_name, org_number) values ('delete', old.id, old.legal_name, old.org_number);
  end`.execute(db);
  // Re-imports rewrite every row; re-indexing only real changes keeps them fast.
  await sql`create trigger companies_fts_update after update of legal_name, org_number on companies
    when old.legal_name is not new.legal_name or old.org_number is not new.org_number begin
    insert into companies_fts (companies_fts, rowid, legal_name, org_number) values ('delete', old.id, old.legal_name, old.org_number);
    insert into companies_fts (rowid, legal_name, org_number) values (new.id, new.legal_name, new.org_number);
  end`.execute(db);

  await sql`create virtual table persons_fts using fts5(
    name,
    content = 'persons', content_rowid = 'id',
    tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3'
  )`.execute(db);
  await sql`create trigger persons_fts_insert after insert on persons begin
    insert into persons_fts (rowid, name) values (new.id, new.name);
  end`.execute(db);
  await sql`create trigger persons_fts_delete after delete on persons begin
    insert into persons_fts (persons_fts, rowid, name) values ('delete', old.id, old.name);
  end`.execute(db);
  await sql`create trigger persons_fts_update after update of name on persons
    when old.name is not new.name begin
    insert into persons_fts (persons_fts, rowid, name) values ('delete', old.id, old.name);
    insert into persons_fts (rowid, name) values (new.id, new.name);
  end`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ["persons_fts", "companies_fts"]) await sql`drop table if exists ${sql.table(t)}`.execute(db);
  for (const t of ["supplier_intelligence", "countries", "announcements", "shareholdings", "roles", "persons", "financial_statements", "companies"]) {
    await db.schema.dropTable(t).execute();
  }
}
