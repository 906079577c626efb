import type { Kysely } from "kysely";
import { hashPassword } from "../auth/password";
import { now } from "../db";
import type { DB } from "../db-types";
import { pickDemoSuppliers } from "./demo-suppliers";
import { seedRegistryWorld } from "./registry";
import { seedConnectionWork } from "./connection-work";
import { seedSupplierWork } from "./supplier-work";
import { ensureStarterTemplates } from "./starter-templates";
import { seedLeiWorld } from "./lei";
import { seedDemoNews } from "./news";
import { enqueueJob } from "../jobs/queue";
import { RISK_RECOMPUTE_JOB } from "../monitoring/notify";

/**
 * The demo world: fictional customer organisations, supplier organisations
 * taken from the real Brønnøysund sample (NLOD), and the demo accounts.
 * Deterministic and re-runnable: running it again updates, never duplicates.
 */
export const DEMO_PASSWORD = "Demo-pass-1";

export const DEMO_CUSTOMERS = ["Nordvik Demo Industrier AS", "Fjellheim Demo Handel AS", "Kystlys Demo Energi AS"] as const;

export const DEMO_ACCOUNTS = [
  { email: "admin@demo.test", org: DEMO_CUSTOMERS[0], accessLevel: 3, isAdmin: true, description: `administrator, level 3, ${DEMO_CUSTOMERS[0]}` },
  { email: "analyst@demo.test", org: DEMO_CUSTOMERS[0], accessLevel: 2, isAdmin: false, description: `analyst, level 2, ${DEMO_CUSTOMERS[0]}` },
  { email: "viewer@demo.test", org: DEMO_CUSTOMERS[0], accessLevel: 1, isAdmin: false, description: `viewer, level 1, ${DEMO_CUSTOMERS[0]}` },
  { email: "other@demo.test", org: DEMO_CUSTOMERS[1], accessLevel: 2, isAdmin: false, description: `analyst, level 2, ${DEMO_CUSTOMERS[1]}` },
  { email: "supplier@demo.test", org: "supplier", accessLevel: 1, isAdmin: false, description: "supplier respondent" },
] as const;

export async function isDatabaseEmpty(database: Kysely<DB>): Promise<boolean> {
  const row = await database
    .selectFrom("users")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirst();
  return Number(row?.n ?? 0) === 0;
}

async function upsertOrganization(
  database: Kysely<DB>,
  org: { name: string; kind: "customer" | "supplier"; orgNumber: string | null; countryCode: string },
): Promise<number> {
  const existing = await (
    org.orgNumber
      ? database.selectFrom("organizations").select("id").where("org_number", "=", org.orgNumber).where("kind", "=", org.kind)
      : database.selectFrom("organizations").select("id").where("name", "=", org.name).where("kind", "=", org.kind)
  ).executeTakeFirst();
  if (existing) {
    await database.updateTable("organizations").set({ name: org.name, country_code: org.countryCode }).where("id", "=", existing.id).execute();
    return existing.id;
  }
  const row = await database
    .insertInto("organizations")
    .values({ name: org.name, kind: org.kind, org_number: org.orgNumber, country_code: org.countryCode, created_at: now() })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function seedDemoWorld(database: Kysely<DB>, opts: { log?: (line: string) => void; today?: Date } = {}): Promise<void> {
  const log = opts.log ?? (() => {});
  // Generated dates are relative to the day of seeding; everything else is fixed.
  const today = opts.today ?? new Date();
  const suppliers = pickDemoSuppliers();
  await seedRegistryWorld(database, { log, today });
  await seedLeiWorld(database, { log, today, demoSuppliers: suppliers.map((u) => u.organisasjonsnummer) });
  const orgIds = new Map<string, number>();
  for (const name of DEMO_CUSTOMERS) {
    orgIds.set(name, await upsertOrganization(database, { name, kind: "customer", orgNumber: null, countryCode: "NO" }));
  }
  log(`${DEMO_CUSTOMERS.length} customer organisations`);

  const supplierIds: number[] = [];
  for (const unit of suppliers) {
    supplierIds.push(
      await upsertOrganization(database, {
        name: unit.navn,
        kind: "supplier",
        orgNumber: unit.organisasjonsnummer,
        countryCode: unit["forretningsadresse.landkode"] || "NO",
      }),
    );
  }
  log(`${suppliers.length} supplier organisations from the Brønnøysund sample`);

  const passwordHash = await hashPassword(DEMO_PASSWORD);
  for (const account of DEMO_ACCOUNTS) {
    const organizationId = account.org === "supplier" ? supplierIds[0] : orgIds.get(account.org)!;
    const values = {
      password_hash: passwordHash,
      organization_id: organizationId,
      access_level: account.accessLevel,
      is_admin: account.isAdmin ? 1 : 0,
    };
    const existing = await database.selectFrom("users").select("id").where("email", "=", account.email).executeTakeFirst();
    if (existing) await database.updateTable("users").set(values).where("id", "=", existing.id).execute();
    else
      await database
        .insertInto("users")
        .values({ ...values, email: account.email, language: "en", created_at: now() })
        .execute();
  }
  log(`${DEMO_ACCOUNTS.length} demo accounts`);

  const suppliersOut = suppliers.map((unit, i) => ({ id: supplierIds[i], orgNumber: unit.organisasjonsnummer, name: unit.navn }));
  await ensureStarterTemplates(database);
  await seedSupplierWork(database, { customers: orgIds, suppliers: suppliersOut }, { log, today });
  await seedConnectionWork(database, { customers: orgIds, suppliers: suppliersOut }, { log, today });
  await seedDemoNews(database, { organizationId: orgIds.get(DEMO_CUSTOMERS[0])!, log });
  // Every followed supplier's overall risk (decision 036), by the worker: the rule lives in app/models.
  await enqueueJob(database, { type: RISK_RECOMPUTE_JOB, organizationId: null, userId: null, payload: {} });
  log("overall risk recomputation queued");
}
