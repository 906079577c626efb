import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Kysely } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createDb, db, type DB } from "@server/db";
import { migrateToLatest } from "@server/migrate";
import { seedDemoWorld } from "@server/seed/demo";
import { pickDemoSuppliers } from "@server/seed/demo-suppliers";
import { boardRelations, person } from "~/models/registry/registry.server";
import { isCeo, isChairman, roleOrganisationStatus } from "~/models/suppliers/risk";

// A day well after the sample was taken: every "last 2/3 years" below must hold
// because the generated dates follow `today`, not because of the real calendar.
const TODAY = new Date(Date.UTC(2029, 5, 15));
const DAY = 86_400_000;
const yearsAgo = (years: number) => new Date(TODAY.getTime() - years * 365 * DAY).toISOString().slice(0, 10);

const TABLES = [
  "companies",
  "countries",
  "financial_statements",
  "persons",
  "roles",
  "shareholdings",
  "announcements",
  "risk_notifications",
  "supplier_intelligence",
] as const;

async function counts(database: Kysely<DB>) {
  const out: Record<string, number> = {};
  for (const t of TABLES) {
    out[t] = Number(
      (
        await database
          .selectFrom(t)
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );
  }
  return out;
}

/** Sums that change if any generated value changes. */
async function fingerprint(database: Kysely<DB>) {
  return database
    .selectFrom("financial_statements")
    .select((eb) => [eb.fn.sum<number>("total_assets").as("assets"), eb.fn.sum<number>("net_income").as("income"), eb.fn.sum<number>("equity").as("equity")])
    .executeTakeFirstOrThrow();
}

async function companyId(orgNumber: string): Promise<number> {
  return (await db().selectFrom("companies").select("id").where("org_number", "=", orgNumber).executeTakeFirstOrThrow()).id;
}

const demoNumbers = pickDemoSuppliers().map((u) => u.organisasjonsnummer);

let firstCounts: Record<string, number>;
let firstFingerprint: Awaited<ReturnType<typeof fingerprint>>;

/** A company the live registry adapter has cached, with its real board and accounts: the seed must leave it alone. */
const LIVE_ORG = "999999990";

beforeAll(async () => {
  const at = new Date().toISOString();
  const live = await db()
    .insertInto("companies")
    .values({
      org_number: LIVE_ORG,
      country_code: "NO",
      legal_name: "LIVE REGISTER TEST AS",
      org_form: "AS",
      number_of_employees: 12,
      source: "brreg-api",
      updated_at: at,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const livePerson = await db().insertInto("persons").values({ name: "Live Registerperson", birth_year: 1970 }).returning("id").executeTakeFirstOrThrow();
  await db()
    .insertInto("roles")
    .values({ person_id: livePerson.id, company_id: live.id, position: "Styreleder", active_from: null, active_to: null })
    .execute();
  await db()
    .insertInto("financial_statements")
    .values({ company_id: live.id, financial_year: 2024, operating_income: 1234, source: "brreg-api", updated_at: at })
    .execute();

  await seedDemoWorld(db(), { today: TODAY });
  firstCounts = await counts(db());
  firstFingerprint = await fingerprint(db());
  // Second run: every later test reads the world as it stands after a re-seed.
  await seedDemoWorld(db(), { today: TODAY });
}, 60_000);

describe("registry demo world", () => {
  it("is re-runnable: a second run leaves the same counts and figures", async () => {
    expect(await counts(db())).toEqual(firstCounts);
    expect(await fingerprint(db())).toEqual(firstFingerprint);
    expect(firstCounts.financial_statements).toBeGreaterThan(5000);
    expect(firstCounts.persons).toBeGreaterThan(3000);
  });

  it("leaves companies filled from the live registry as they are", async () => {
    const id = await companyId(LIVE_ORG);
    const statements = await db()
      .selectFrom("financial_statements")
      .select(["financial_year", "source", "operating_income"])
      .where("company_id", "=", id)
      .execute();
    expect(statements).toEqual([{ financial_year: 2024, source: "brreg-api", operating_income: 1234 }]);
    const board = await db()
      .selectFrom("roles")
      .innerJoin("persons", "persons.id", "roles.person_id")
      .select(["persons.name", "roles.position"])
      .where("company_id", "=", id)
      .execute();
    expect(board).toEqual([{ name: "Live Registerperson", position: "Styreleder" }]);
  });

  it("imports the 4 924 sample units, the Aker Solutions group and its ownership edges", async () => {
    const bySource = await db()
      .selectFrom("companies")
      .select(["source", (eb) => eb.fn.countAll<number>().as("n")])
      .groupBy("source")
      .execute();
    const n = Object.fromEntries(bySource.map((r) => [r.source, Number(r.n)]));
    expect(n["brreg-csv"]).toBe(4924 + 23);
    expect(n["brreg-api"]).toBe(1);
    // Fifteen credit-report countries besides Norway, about four fictional companies each.
    expect(n.seed).toBe(60);
    const aker = await db().selectFrom("companies").select(["id", "legal_name"]).where("org_number", "=", "913748174").executeTakeFirstOrThrow();
    expect(aker.legal_name).toBe("AKER SOLUTIONS ASA");
    const edges = await db().selectFrom("shareholdings").select("id").where("relation_type", "=", "HFOR").execute();
    expect(edges).toHaveLength(22);
    const foreignCountries = await db().selectFrom("companies").select("country_code").distinct().where("source", "=", "seed").execute();
    expect(foreignCountries.map((r) => r.country_code).sort()).toEqual([
      "AT",
      "BE",
      "CA",
      "DE",
      "DK",
      "FR",
      "GB",
      "IE",
      "IT",
      "JP",
      "LU",
      "MX",
      "NL",
      "SE",
      "US",
    ]);
    expect(
      Number(
        (
          await db()
            .selectFrom("countries")
            .select((eb) => eb.fn.countAll<number>().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      ),
    ).toBe(250);
  });

  it("has ownership chains at least four levels deep, some through demo suppliers", async () => {
    const edges = await db()
      .selectFrom("shareholdings")
      .select(["company_id", "holder_company_id", "percent"])
      .where("holder_company_id", "is not", null)
      .execute();
    const totals = new Map<number, number>();
    for (const e of edges) totals.set(e.company_id, (totals.get(e.company_id) ?? 0) + (e.percent ?? 0));
    for (const total of totals.values()) expect(total).toBeLessThanOrEqual(100.0001);

    const children = new Map<number, number[]>();
    for (const e of edges) children.set(e.holder_company_id!, [...(children.get(e.holder_company_id!) ?? []), e.company_id]);
    const deepest = (id: number, seen: Set<number>): number => {
      if (seen.has(id)) throw new Error(`ownership cycle through company ${id}`);
      const below = (children.get(id) ?? []).map((c) => deepest(c, new Set([...seen, id])));
      return below.length ? 1 + Math.max(...below) : 0;
    };
    const depths = [...children.keys()].map((id) => deepest(id, new Set()));
    expect(Math.max(...depths)).toBeGreaterThanOrEqual(4);

    // A demo supplier sits inside a chain: owners above it and subsidiaries below, four links or more in all.
    const owned = await companyId(demoNumbers[0]);
    let above = 0;
    for (let id: number | undefined = owned; id !== undefined; above++) {
      id = edges.find((e) => e.company_id === id && (e.percent ?? 0) > 50)?.holder_company_id ?? undefined;
    }
    expect(above - 1 + deepest(owned, new Set())).toBeGreaterThanOrEqual(4);
    // Person shareholders exist for small companies.
    const personHoldings = await db().selectFrom("shareholdings").select("percent").where("holder_person_id", "is not", null).execute();
    expect(personHoldings.length).toBeGreaterThan(500);
    expect(personHoldings.some((h) => !Number.isInteger(h.percent))).toBe(true);
  });

  it("has announcements of every risk level within the last three years", async () => {
    const rows = await db()
      .selectFrom("announcements")
      .select(["risk", (eb) => eb.fn.countAll<number>().as("n")])
      .where("date", ">=", yearsAgo(3))
      .where("date", "<=", TODAY.toISOString().slice(0, 10))
      .groupBy("risk")
      .execute();
    expect(rows.map((r) => r.risk).sort()).toEqual([1, 2, 3, 4]);
    const companies = await db().selectFrom("announcements").select("company_id").distinct().execute();
    expect(companies.length).toBeGreaterThan(1000);
    const scores = await db().selectFrom("announcements").select(["operational_risk", "legal_risk"]).execute();
    for (const s of scores) {
      expect(s.operational_risk).toBeGreaterThanOrEqual(0);
      expect(s.legal_risk).toBeLessThanOrEqual(100);
    }
  });

  it("gives every demo supplier a full picture: announcements, board with CEO and chair, statements with a risk score, notifications and intelligence", async () => {
    expect(demoNumbers).toHaveLength(15);
    const riskScore = z.object({
      finalScore: z.number().min(0).max(100),
      capitalRisk: z.number().min(0).max(100),
      liquidityRisk: z.number().min(0).max(100),
      coverageRisk: z.number().min(0).max(100),
      profitabilityRisk: z.number().min(0).max(100),
      growthRisk: z.number().min(0).max(100),
    });
    const item = z.object({ name: z.string().min(1), description: z.string().min(1) });
    // Composed from the registry's facts (decision 028): nothing the registry does not say.
    const none = z.array(item).length(0);
    const intelligence = z.object({
      language: z.literal("en"),
      label: z.literal("Composed from registry data"),
      overview: z.object({ description: z.string().min(40) }),
      tags: z.array(z.string()).min(1),
      products: z.array(z.object({ name: z.string().min(1), description: z.string() })).max(1),
      services: none,
      certifications_and_compliance: none,
      esg: z.object({ environmental: none, social: none, governance: none }),
      key_information: z.object({ email: z.literal(""), phone: z.literal(""), address: z.string(), organization_number: z.string() }),
      source: z.object({
        url: z.string().startsWith("https://virksomhet.brreg.no/nb/oppslag/enheter/"),
        title: z.literal("Brønnøysund Register Centre"),
        snippet: z.string().min(1),
      }),
    });

    for (const orgNumber of demoNumbers) {
      const id = await companyId(orgNumber);
      const announcements = await db().selectFrom("announcements").select(["date"]).where("company_id", "=", id).execute();
      expect(announcements.length, orgNumber).toBeGreaterThan(5);
      expect(
        announcements.some((a) => a.date < yearsAgo(2)),
        orgNumber,
      ).toBe(true);

      const board = await db().selectFrom("roles").select(["position"]).where("company_id", "=", id).where("active_to", "is", null).execute();
      expect(
        board.some((r) => isCeo(r.position)),
        orgNumber,
      ).toBe(true);
      expect(
        board.some((r) => isChairman(r.position)),
        orgNumber,
      ).toBe(true);
      expect(board.length, orgNumber).toBeGreaterThanOrEqual(5);
      const former = await db().selectFrom("roles").select("id").where("company_id", "=", id).where("active_to", "is not", null).execute();
      expect(former.length, orgNumber).toBeGreaterThanOrEqual(3);

      const statements = await db()
        .selectFrom("financial_statements")
        .select(["financial_year", "financial_risk_score"])
        .where("company_id", "=", id)
        .orderBy("financial_year", "desc")
        .execute();
      expect(statements.length, orgNumber).toBeGreaterThanOrEqual(3);
      expect(statements[0].financial_year).toBe(TODAY.getUTCFullYear() - 1);
      for (const s of statements) riskScore.parse(JSON.parse(s.financial_risk_score ?? "null"));

      const notifications = await db().selectFrom("risk_notifications").select(["risk_score", "url"]).where("company_id", "=", id).execute();
      expect(notifications.length, orgNumber).toBeGreaterThan(5);
      const scores = notifications.map((n) => n.risk_score);
      expect(Math.max(...scores) - Math.min(...scores), orgNumber).toBeGreaterThan(50);
      for (const n of notifications) expect(new URL(n.url ?? "").hostname).toMatch(/\.example\.com$/);

      const intel = await db().selectFrom("supplier_intelligence").select("data").where("company_id", "=", id).executeTakeFirstOrThrow();
      const stored = intelligence.parse(JSON.parse(intel.data));
      expect(stored.key_information.organization_number).toBe(orgNumber);
      const registered = await db().selectFrom("companies").select(["industry_description"]).where("id", "=", id).executeTakeFirstOrThrow();
      // The only product named is the registered line of business.
      expect(stored.products.map((p) => p.name)).toEqual(registered.industry_description ? [registered.industry_description] : []);
    }
  });

  it("has people on three or more boards, board relations, and role lists showing bankrupt, inactive and active organisations", async () => {
    const multi = await db()
      .selectFrom("roles")
      .select(["person_id", (eb) => eb.fn.count<number>("company_id").distinct().as("boards")])
      .where("active_to", "is", null)
      .groupBy("person_id")
      .having((eb) => eb.fn.count("company_id").distinct(), ">=", 3)
      .execute();
    expect(multi.length).toBeGreaterThan(50);

    const supplier = await companyId(demoNumbers[0]);
    expect((await boardRelations(supplier)).length).toBeGreaterThan(0);

    // Some member of a demo board has roles in bankrupt and inactive organisations besides active ones.
    const members = await db().selectFrom("roles").select("person_id").distinct().where("company_id", "=", supplier).where("active_to", "is", null).execute();
    const statuses = new Set<string>();
    for (const m of members) {
      const p = await person(m.person_id, TODAY);
      for (const r of [...(p?.roles ?? []), ...(p?.inactive_roles ?? [])]) statuses.add(roleOrganisationStatus(r.organization_status).status);
    }
    expect([...statuses].sort()).toEqual(["active", "bankrupt", "inactive"]);

    const scores = await db().selectFrom("persons").select(["boardscore", "country_code"]).execute();
    for (const s of scores) expect(s.boardscore).toBeGreaterThanOrEqual(0);
    expect(Math.max(...scores.map((s) => s.boardscore))).toBeLessThanOrEqual(100);
    expect(scores.filter((s) => s.country_code === "NO").length / scores.length).toBeGreaterThan(0.8);
  });

  it("has bankrupt and inactive companies", async () => {
    const bankrupt = await db().selectFrom("companies").select(["date_of_bankruptcy", "is_active"]).where("is_bankrupt", "=", 1).execute();
    expect(bankrupt.length).toBeGreaterThan(5);
    for (const b of bankrupt) {
      expect(b.date_of_bankruptcy).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(b.is_active).toBe(0);
    }
    const inactive = await db()
      .selectFrom("companies")
      .select("id")
      .where("is_active", "=", 0)
      .where("is_bankrupt", "=", 0)
      .where("is_under_liquidation", "=", 1)
      .execute();
    expect(inactive.length).toBeGreaterThan(5);
  });

  it("keeps the accounting identities in every generated statement", async () => {
    const broken = await db()
      .selectFrom("financial_statements")
      .select("id")
      .where("source", "=", "seed")
      .where((eb) =>
        eb.or([
          eb(eb("fixed_assets", "+", eb.ref("current_assets")), "!=", eb.ref("total_assets")),
          eb(eb("equity", "+", eb.ref("liabilities")), "!=", eb.ref("total_assets")),
          eb(eb("long_term_liabilities", "+", eb.ref("total_current_debt")), "!=", eb.ref("liabilities")),
          eb(eb("paid_up_equity", "+", eb.ref("retained_earnings")), "!=", eb.ref("equity")),
          eb(eb(eb("intangible_assets", "+", eb.ref("tangible_assets")), "+", eb.ref("fixed_financial_assets")), "!=", eb.ref("fixed_assets")),
          eb(
            eb(eb(eb("inventories", "+", eb.ref("receivables")), "+", eb.ref("short_term_investments")), "+", eb.ref("cash_and_deposits")),
            "!=",
            eb.ref("current_assets"),
          ),
          eb(eb("operating_income", "-", eb.ref("operating_expenses")), "!=", eb.ref("operating_profit")),
          eb(eb("ordinary_result_before_taxes", "-", eb.ref("taxes")), "!=", eb.ref("net_income")),
        ]),
      )
      .execute();
    expect(broken).toEqual([]);
    const lossMaking = await db().selectFrom("financial_statements").select("id").where("net_income", "<", 0).execute();
    expect(lossMaking.length).toBeGreaterThan(100);
  });

  it("is deterministic: two fresh databases seeded for the same day hold the same figures", async () => {
    const dir = fs.mkdtempSync(path.join(process.env.TEST_ROOT ?? os.tmpdir(), "determinism-"));
    const [a, b] = [createDb(path.join(dir, "a.db")), createDb(path.join(dir, "b.db"))];
    try {
      for (const d of [a, b]) {
        await migrateToLatest(d);
        await seedDemoWorld(d, { today: TODAY });
      }
      const figures = (d: Kysely<DB>) =>
        d
          .selectFrom("financial_statements")
          .innerJoin("companies", "companies.id", "financial_statements.company_id")
          .select(["financial_year", "operating_income", "operating_profit", "net_income", "total_assets", "equity", "financial_risk_score"])
          .where("companies.org_number", "=", demoNumbers[6])
          .orderBy("financial_year")
          .execute();
      const fromA = await figures(a);
      expect(fromA.length).toBeGreaterThanOrEqual(3);
      expect(await figures(b)).toEqual(fromA);
      // And the same as the per-file database seeded twice above.
      expect(await figures(db())).toEqual(fromA);
      expect(await counts(b)).toEqual(await counts(a));
    } finally {
      await a.destroy();
      await b.destroy();
    }
  }, 60_000);
});
