import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import type { BrowserContext, Page } from "@playwright/test";
import { expect, test } from "@playwright/test";
import AxeBuilder from "@axe-core/playwright";
import { hashPassword } from "../../server/auth/password";
import { E2E_BASE_URL, E2E_DATA_DIR } from "./env";

export const DEMO_PASSWORD = "Demo-pass-1";

function openDb() {
  const sqlite = new Database(path.join(E2E_DATA_DIR, "app.db"));
  sqlite.pragma("busy_timeout = 5000");
  return sqlite;
}

export function uniqueEmail(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${randomBytes(3).toString("hex")}@e2e.test`;
}

export interface TestUser {
  id: number;
  email: string;
  password: string;
  organizationId: number;
  organizationName: string;
}

/** A fresh user in a fresh customer organisation, so tests that change settings never meet (or in the given one). */
export async function createUser(opts: { accessLevel?: number; isAdmin?: boolean; language?: "en" | "no"; organizationId?: number } = {}): Promise<TestUser> {
  const email = uniqueEmail("user");
  const password = "Test-pass-1";
  const organizationName = `E2E Org ${randomBytes(3).toString("hex")}`;
  const db = openDb();
  try {
    const now = new Date().toISOString();
    const org =
      opts.organizationId != null
        ? { id: opts.organizationId }
        : (db
            .prepare("insert into organizations (name, kind, org_number, country_code, created_at) values (?, 'customer', null, 'NO', ?) returning id")
            .get(organizationName, now) as { id: number });
    const user = db
      .prepare(
        "insert into users (email, password_hash, language, is_admin, organization_id, access_level, created_at) values (?, ?, ?, ?, ?, ?, ?) returning id",
      )
      .get(email, await hashPassword(password), opts.language ?? "en", opts.isAdmin ? 1 : 0, org.id, opts.accessLevel ?? 2, now) as { id: number };
    return { id: user.id, email, password, organizationId: org.id, organizationName };
  } finally {
    db.close();
  }
}

/** Signs in by creating a session row directly and handing its token to the browser. */
export async function signIn(context: BrowserContext, user: { id: number }): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  const db = openDb();
  try {
    const now = new Date();
    db.prepare("insert into sessions (id, user_id, created_at, expires_at, user_agent) values (?, ?, ?, ?, 'e2e')").run(
      createHash("sha256").update(token).digest("hex"),
      user.id,
      now.toISOString(),
      new Date(now.getTime() + 86_400_000).toISOString(),
    );
  } finally {
    db.close();
  }
  await context.addCookies([{ name: "token", value: token, url: E2E_BASE_URL, httpOnly: true, sameSite: "Lax" }]);
  return token;
}

export function createInvitation(organizationId: number, email: string, accessLevel = 2): string {
  const token = randomBytes(32).toString("base64url");
  const db = openDb();
  try {
    const now = new Date();
    db.prepare(
      "insert into invitations (token_hash, email, organization_id, access_level, invited_by, created_at, expires_at, accepted_at) values (?, ?, ?, ?, null, ?, ?, null)",
    ).run(
      createHash("sha256").update(token).digest("hex"),
      email,
      organizationId,
      accessLevel,
      now.toISOString(),
      new Date(now.getTime() + 86_400_000).toISOString(),
    );
  } finally {
    db.close();
  }
  return token;
}

export function userLanguage(userId: number): string {
  const db = openDb();
  try {
    return (db.prepare("select language from users where id = ?").get(userId) as { language: string }).language;
  } finally {
    db.close();
  }
}

/** The newest mail in the outbox for an address. */
export function latestMailTo(email: string): string | null {
  const dir = path.join(E2E_DATA_DIR, "outbox");
  if (!fs.existsSync(dir)) return null;
  const files = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".eml") && f.includes(email))
    .sort();
  return files.length ? fs.readFileSync(path.join(dir, files[files.length - 1]), "utf8") : null;
}

/** Sign in through the real form, as a person would. */
export async function signInWithForm(page: Page, email: string, password: string) {
  await page.goto("/login");
  const form = page.locator("main form");
  await form.getByLabel("Email").fill(email);
  await form.getByLabel("Password").fill(password);
  await form.getByRole("button", { name: "Sign in" }).click();
}

/** No serious or critical accessibility violations on the page as it is. */
export async function expectAccessible(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(bad.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`)).toEqual([]);
}

/** A demo account's user id (the seed's accounts: admin@, analyst@, viewer@, other@, supplier@demo.test). */
export function demoUser(email: string): { id: number; organizationId: number } {
  const db = openDb();
  try {
    const row = db.prepare("select id, organization_id from users where email = ?").get(email) as { id: number; organization_id: number } | undefined;
    if (!row) throw new Error(`no demo user ${email}`);
    return { id: row.id, organizationId: row.organization_id };
  } finally {
    db.close();
  }
}

/** Runs a read-only query against the e2e server's database (to find demo data by its properties). */
export function queryDb<T>(sql: string, ...params: unknown[]): T[] {
  const db = openDb();
  try {
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}

export interface DemoOrg {
  id: number;
  org_number: string;
  name: string;
}

/** The demo's first supplier: the organisation of the supplier respondent (supplier@demo.test). */
export function firstSupplier(): DemoOrg {
  const [row] = queryDb<DemoOrg>(
    "select o.id, o.org_number, o.name from users u join organizations o on o.id = u.organization_id where u.email = 'supplier@demo.test'",
  );
  if (!row) throw new Error("no supplier@demo.test organisation in the demo world");
  return row;
}

/**
 * A supplier-list import of the demo analyst, ready to confirm, with a long line (its report is a wide table with a choice):
 * made once per e2e database from one of the analyst's seeded CSV files. The phone and axe specs open its screens.
 */
export function demoImport(): { fileId: number; importId: number } {
  const analyst = demoUser("analyst@demo.test");
  const db = openDb();
  try {
    db.pragma("busy_timeout = 5000");
    const file = db
      .prepare("select id from file_uploads where organization_id = ? and user_id = ? and lower(file_name) like '%.csv' order by id limit 1")
      .get(analyst.organizationId, analyst.id) as { id: number } | undefined;
    if (!file) throw new Error("the demo analyst has no CSV file");
    const made = db.prepare("select id from supplier_imports where file_upload_id = ? order by id limit 1").get(file.id) as { id: number } | undefined;
    if (made) return { fileId: file.id, importId: made.id };
    const { lastInsertRowid } = db
      .prepare(
        `insert into supplier_imports (organization_id, user_id, file_upload_id, mapping, status, counts, created_at)
        values (?, ?, ?, '{"orgId":0,"orgName":1,"countryCode":null,"hasHeaders":false,"sheet":0}', 'ready',
        '{"total":2,"matched":0,"ambiguous":0,"not_found":2,"invalid":0,"existing":0,"duplicate":0}', ?)`,
      )
      .run(analyst.organizationId, analyst.id, file.id, new Date().toISOString());
    const row = db.prepare(
      "insert into supplier_import_rows (import_id, row_number, cells, org_id_raw, name_raw, status, reason) values (?, ?, ?, ?, ?, ?, ?)",
    );
    const long = "NORSK LEVERANDØRSAMARBEID OG INNKJØPSSERVICE AS";
    row.run(lastInsertRowid, 1, JSON.stringify(["NO 923 609 016 MVA", long]), "NO 923 609 016 MVA", long, "not_found", "not-in-registry");
    row.run(lastInsertRowid, 2, JSON.stringify(["", "Ukjent leverandør"]), null, "Ukjent leverandør", "not_found", "no-name-match");
    return { fileId: file.id, importId: Number(lastInsertRowid) };
  } finally {
    db.close();
  }
}

/** The demo company with the most announcements that also has statements and intelligence: the supplier screen at its fullest. */
export function richCompanyOrgNumber(): string {
  const [row] = queryDb<{ org_number: string }>(`
    select c.org_number, count(a.id) as n
    from companies c
    join announcements a on a.company_id = c.id
    where exists (select 1 from supplier_intelligence s where s.company_id = c.id)
      and exists (select 1 from financial_statements f where f.company_id = c.id)
    group by c.id
    order by n desc, c.org_number
    limit 1`);
  if (!row) throw new Error("the demo world has no company with statements, intelligence and announcements");
  return row.org_number;
}

/**
 * A fresh organisation's own notifications (news hits of its own, so no other test's organisation sees them): it follows
 * two demo suppliers, and `count` notifications about the first are written, newest first, risk 50–99, dated within the
 * last 20 days. Returns the suppliers' organisation numbers and names.
 */
export function notificationsFor(organizationId: number, count: number): { suppliers: Array<{ orgNumber: string; name: string; id: number }> } {
  const db = openDb();
  try {
    const suppliers = db
      .prepare(
        `select o.id, o.org_number as orgNumber, c.legal_name as name, c.id as companyId from organizations o join companies c on c.org_number = o.org_number
         where o.kind = 'supplier' order by o.id limit 2`,
      )
      .all() as Array<{ id: number; orgNumber: string; name: string; companyId: number }>;
    const now = new Date();
    for (const s of suppliers) {
      db.prepare(
        "insert into organization_connections (parent_organization_id, child_organization_id, is_deleted, created_at, updated_at) values (?, ?, 0, ?, ?)",
      ).run(organizationId, s.id, now.toISOString(), now.toISOString());
    }
    const insert = db.prepare(
      `insert into risk_notifications (company_id, type, date, created_at, risk_score, relevance_score, title, title_no, source, url, description,
         kind, organization_id, dedupe_key) values (?, ?, ?, ?, ?, ?, ?, ?, 'E2E News', 'https://news.example.test/a', ?, 'news', ?, ?)`,
    );
    for (let i = 0; i < count; i++) {
      const date = new Date(now.getTime() - Math.floor(i / 2) * 86_400_000).toISOString().slice(0, 10);
      insert.run(
        suppliers[0].companyId,
        i % 3 === 0 ? "announcement" : "search",
        date,
        now.toISOString(),
        50 + ((i * 13) % 50),
        60 + (i % 40),
        `E2E event ${i + 1}`,
        `E2E-hendelse ${i + 1}`,
        `What happened in event ${i + 1}.`,
        organizationId,
        `e2e:${organizationId}:${i}`,
      );
    }
    return { suppliers: suppliers.map(({ id, orgNumber, name }) => ({ id, orgNumber, name })) };
  } finally {
    db.close();
  }
}

/** Waits until every active connection of the organisation has its stored overall risk (decision 036): the demo seed
 * queues one recomputation, which the server's worker runs shortly after start. */
export async function risksComputed(organizationId: number) {
  await expect
    .poll(
      () =>
        queryDb<{ n: number }>(
          "select count(*) as n from organization_connections where parent_organization_id = ? and is_deleted = 0 and overall_risk_at is null",
          organizationId,
        )[0].n,
      { timeout: 30_000 },
    )
    .toBe(0);
}

/**
 * Time budgets on emulated slow links are checked when asked (`npm run bench:links`), not by `npm test`: on a machine
 * busy with other work a page can miss a budget it keeps alone, and a test must not fail for that. Byte budgets and
 * "no script" are deterministic and always checked. The measured time is always in the test's annotations.
 */
export const TIME_BUDGETS = process.env.E2E_TIME_BUDGETS === "1";

export function expectWithinTimeBudget(ms: number, budgetMs: number, what: string) {
  test.info().annotations.push({ type: "timing", description: `${what}: ${ms} ms (budget ${budgetMs} ms)` });
  if (TIME_BUDGETS) expect(ms, what).toBeLessThanOrEqual(budgetMs);
}
