import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { CompiledQuery, type Kysely } from "kysely";
import Papa from "papaparse";
import { now } from "../db";
import type { DB } from "../db-types";
import { importBrregUnits, importCountries, importKonsernRoller, upsertUnits, type ImportSummary } from "../importers";
import { pickDemoSuppliers } from "./demo-suppliers";
import { ANNOUNCEMENT_SOURCE, NEWS_SOURCES } from "./generate/events";
import { foreignUnits } from "./generate/foreign";
import { GENERATED_RELATION, type WorldCompany } from "./generate/types";
import { generateWorld } from "./generate/world";

/**
 * The registry part of the demo world: the real Brønnøysund sample and
 * generated statements, people, roles, shareholdings, announcements, risk
 * notifications and supplier intelligence. Runs before the organisations.
 *
 * Re-running: the imports upsert by organisation number, the foreign demo
 * units likewise, and every generated row is cleared and written again in
 * one transaction. What counts as generated: statements with source 'seed',
 * shareholdings with the generated relation code, all announcements (no
 * importer writes them), notifications from the invented outlets,
 * intelligence of the companies it is generated for (upserted), and roles
 * and people. Companies the live registry adapter has filled (source
 * 'brreg-api' or statements from it) are left out of the generation and keep
 * their real boards; people without any role or holding left are the
 * generated ones. On a store without live data, people get the same ids on
 * every run, so /people/{id} links survive a re-seed.
 */

const SEED_DATA = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../seed-data");

/** SQLite's default limit of bound parameters per statement is 32 766. */
const MAX_PARAMETERS = 30_000;

/**
 * Multi-row inserts compiled by hand: kysely's query builder spends most of
 * a seed building ASTs for tens of thousands of rows, a plain statement
 * with placeholders costs next to nothing.
 */
async function insertRows<T extends keyof DB & string, R>(
  trx: Kysely<DB>,
  table: T,
  columns: readonly (keyof R & keyof DB[T] & string)[],
  rows: readonly R[],
): Promise<void> {
  const perStatement = Math.max(1, Math.floor(MAX_PARAMETERS / columns.length));
  const tuple = `(${columns.map(() => "?").join(", ")})`;
  const head = `insert into "${table}" (${columns.map((c) => `"${c}"`).join(", ")}) values `;
  for (let i = 0; i < rows.length; i += perStatement) {
    const part = rows.slice(i, i + perStatement);
    const parameters: unknown[] = [];
    for (const row of part) for (const c of columns) parameters.push(row[c] ?? null);
    await trx.executeQuery(CompiledQuery.raw(head + part.map(() => tuple).join(", "), parameters));
  }
}

function akerOrgNumbers(): Set<string> {
  const csv = fs.readFileSync(path.join(SEED_DATA, "brreg/konsern-enheter.csv"), "utf8");
  const { data } = Papa.parse<{ organisasjonsnummer: string }>(csv, { header: true, skipEmptyLines: true });
  return new Set(data.map((r) => r.organisasjonsnummer));
}

const summary = (s: ImportSummary) => `${s.inserted} new, ${s.updated} updated${s.rejectedCount ? `, ${s.rejectedCount} rejected` : ""}`;

export async function seedRegistryWorld(database: Kysely<DB>, opts: { log: (line: string) => void; today: Date }): Promise<void> {
  const { log, today } = opts;
  const started = Date.now();
  log(`Brønnøysund units: ${summary(await importBrregUnits(database, path.join(SEED_DATA, "brreg/enheter-selection.csv")))}`);
  log(`Aker Solutions group units: ${summary(await importBrregUnits(database, path.join(SEED_DATA, "brreg/konsern-enheter.csv")))}`);
  log(`Aker Solutions group ownership: ${summary(await importKonsernRoller(database, path.join(SEED_DATA, "brreg/konsern-roller.csv")))}`);
  log(`Countries: ${summary(await importCountries(database, path.join(SEED_DATA, "countries/countries.csv")))}`);

  const demoIndex = new Map(pickDemoSuppliers().map((u, i) => [u.organisasjonsnummer, i]));
  const aker = akerOrgNumbers();
  const foreign = foreignUnits(today);
  const foreignNumbers = new Set(foreign.map((u) => u.org_number));

  const counts = await database.transaction().execute(async (trx) => {
    const upserted = await upsertUnits(
      trx,
      foreign.map((value, i) => ({ line: i + 1, value })),
      "seed",
    );
    if (upserted.rejected.length) throw new Error(`Foreign demo units rejected: ${upserted.rejected.map((r) => r.reason).join("; ")}`);

    const rows = await trx
      .selectFrom("companies")
      .select([
        "id",
        "org_number",
        "legal_name",
        "org_form",
        "country_code",
        "industry_code",
        "industry_description",
        "number_of_employees",
        "establishment_date",
        "is_bankrupt",
        "date_of_bankruptcy",
        "is_under_liquidation",
        "is_under_forced_liquidation",
        "is_active",
        "street_address",
        "street_postal_code",
        "street_postal_area",
      ])
      .where("deleted_at", "is", null)
      .orderBy("org_number")
      .execute();
    const live = new Set(
      (
        await trx
          .selectFrom("companies")
          .select("id")
          .where((eb) =>
            eb.or([
              eb("source", "=", "brreg-api"),
              eb.exists(
                eb
                  .selectFrom("financial_statements")
                  .select("financial_statements.id")
                  .whereRef("financial_statements.company_id", "=", "companies.id")
                  .where("financial_statements.source", "!=", "seed"),
              ),
            ]),
          )
          .execute()
      ).map((r) => r.id),
    );
    const companies: WorldCompany[] = rows
      .filter((r) => !live.has(r.id))
      .map((r) => ({
        id: r.id,
        orgNumber: r.org_number,
        name: r.legal_name,
        orgForm: r.org_form,
        countryCode: r.country_code,
        industryCode: r.industry_code,
        industryDescription: r.industry_description,
        employees: r.number_of_employees,
        establishmentDate: r.establishment_date,
        isBankrupt: r.is_bankrupt === 1,
        bankruptcyDate: r.date_of_bankruptcy,
        isUnderLiquidation: r.is_under_liquidation === 1,
        isUnderForcedLiquidation: r.is_under_forced_liquidation === 1,
        isActive: r.is_active === 1,
        streetAddress: r.street_address,
        postalCode: r.street_postal_code,
        postalArea: r.street_postal_area,
        isAker: aker.has(r.org_number),
        isForeign: foreignNumbers.has(r.org_number),
        demoIndex: demoIndex.get(r.org_number) ?? -1,
      }));

    const world = generateWorld(companies, today);

    await trx
      .deleteFrom("risk_notifications")
      .where("source", "in", [...NEWS_SOURCES, ANNOUNCEMENT_SOURCE])
      .execute();
    await trx.deleteFrom("announcements").execute();
    await trx.deleteFrom("shareholdings").where("relation_type", "=", GENERATED_RELATION).execute();
    await (live.size ? trx.deleteFrom("roles").where("company_id", "not in", [...live]) : trx.deleteFrom("roles")).execute();
    await trx
      .deleteFrom("persons")
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom("roles")
              .select("roles.id")
              .whereRef("roles.person_id", "=", "persons.id")
              .union(selectFrom("shareholdings").select("shareholdings.id").whereRef("shareholdings.holder_person_id", "=", "persons.id")),
          ),
        ),
      )
      .execute();
    await trx.deleteFrom("financial_statements").where("source", "=", "seed").execute();
    // Normally no one is left and generated people keep ids 1…n; live people push them up.
    const base = Number(
      (
        await trx
          .selectFrom("persons")
          .select((eb) => eb.fn.max("id").as("id"))
          .executeTakeFirst()
      )?.id ?? 0,
    );
    const personId = (id: number | null) => (id === null ? null : id + base);

    const at = now();
    const statements = world.statements.map((s) => ({
      ...s,
      period_start: `${s.financial_year}-01-01`,
      period_end: `${s.financial_year}-12-31`,
      currency: "NOK",
      source: "seed",
      updated_at: at,
    }));
    if (statements.length) {
      const columns = Object.keys(statements[0]) as (keyof (typeof statements)[number] & string)[];
      await insertRows(trx, "financial_statements", columns, statements);
    }
    const persons = world.persons.map((p) => ({ ...p, id: p.id + base }));
    await insertRows(trx, "persons", ["id", "name", "birth_year", "sex", "country_code", "boardscore"], persons);
    const roles = world.roles.map((r) => ({ ...r, person_id: r.person_id + base }));
    await insertRows(trx, "roles", ["person_id", "company_id", "position", "active_from", "active_to"], roles);
    const holdings = world.shareholdings.map((s) => ({ ...s, holder_person_id: personId(s.holder_person_id), updated_at: at }));
    await insertRows(trx, "shareholdings", ["company_id", "holder_company_id", "holder_person_id", "percent", "relation_type", "updated_at"], holdings);
    await insertRows(trx, "announcements", ["company_id", "date", "type", "detail", "risk", "operational_risk", "legal_risk"], world.announcements);
    await insertRows(
      trx,
      "risk_notifications",
      ["company_id", "type", "date", "created_at", "risk_score", "relevance_score", "title", "source", "url", "description"],
      world.notifications,
    );
    for (const row of world.intelligence) {
      await trx
        .insertInto("supplier_intelligence")
        .values(row)
        .onConflict((oc) => oc.column("company_id").doUpdateSet({ data: row.data, generated_at: row.generated_at }))
        .execute();
    }
    return {
      foreign: foreign.length,
      statements: statements.length,
      companiesWithStatements: new Set(statements.map((s) => s.company_id)).size,
      persons: world.persons.length,
      roles: world.roles.length,
      shareholdings: holdings.length,
      announcements: world.announcements.length,
      notifications: world.notifications.length,
      intelligence: world.intelligence.length,
    };
  });
  log(`${counts.foreign} fictional foreign companies`);
  log(`${counts.statements} financial statements for ${counts.companiesWithStatements} companies`);
  log(`${counts.persons} generated people in ${counts.roles} roles; ${counts.shareholdings} generated shareholdings`);
  log(`${counts.announcements} announcements, ${counts.notifications} risk notifications, ${counts.intelligence} supplier intelligence summaries`);
  log(`Registry world ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
