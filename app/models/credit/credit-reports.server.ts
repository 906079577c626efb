import type { Readable } from "node:stream";
import { sql, type RawBuilder } from "kysely";
import { deleteReportPdf, openReportPdf, saveReportPdf } from "@server/credit-files";
import { db, now as nowIso } from "@server/db";
import { noteIntegration } from "@server/integration-status";
import { cleanStoredName } from "@server/storage";
import {
  CreditError,
  creditProvider,
  type CreditCompany,
  type CreditProvider,
  type LocalCreditStore,
  type ReportLanguage,
  type ReportTextLanguage,
  type ReportTexts,
} from "@server/providers/credit";
import reportEn from "../../../locales/en/creditReport.json";
import reportNo from "../../../locales/no/creditReport.json";
import {
  CREDIT_REPORT_PRICE_NOK,
  DEFAULT_REPORT_FILE_NAME,
  isCreditCountry,
  isReportLanguage,
  reportLanguageOptions,
  reportWindowStart,
} from "~/models/credit/credit";
import { ftsQuery } from "~/models/registry/fts";
import { refuse } from "~/models/shared/refusal";
import { announcements, board, country, financialStatements, findCompany, shareholders } from "~/models/registry/registry.server";

/**
 * Credit report orders for one organisation (taken from the session).
 * Every read and write here is filtered by that organisation: a report is
 * only ever listed, shown or downloaded for the organisation that ordered it.
 */

export interface OrderInput {
  organizationId: number;
  userId: number;
  /** One per confirm form; a repeated key returns the first order instead of ordering again. */
  idempotencyKey: string;
  /** The provider's id of the company (a search result's id). Its name and number are the provider's, never the client's. */
  connectId: string;
  countryCode: string;
  language: ReportLanguage;
  /** The registration number the client expects the company to have: an order whose company has another is refused. */
  expectedRegNo?: string | null;
}

export interface OrderResult {
  id: number;
  fileName: string;
  companyName: string;
  /** False when the idempotency key had been used: nothing new was ordered or billed. */
  created: boolean;
}

export interface CreditReportListItem {
  id: number;
  companyName: string;
  fileName: string;
  createdAt: string;
  user: { email: string | null };
}

/** One order as /credit_reports and its CSV export show it. */
export interface CreditOrderRow extends CreditReportListItem {
  regNo: string | null;
  countryCode: string;
  language: ReportLanguage;
  priceNok: number;
}

/**
 * Input the caller can correct (the API's 400, the dialog's field message): a Refusal with reason "invalid", the
 * input's `field` and these codes; its message says what is wrong with the field, in English, for the API.
 */
export const CREDIT_ORDER_REFUSALS = [
  "country-not-offered",
  "idempotency-key-invalid",
  "connect-id-invalid",
  "reg-no-too-long",
  "language-unknown",
  "language-not-offered",
  "reg-no-mismatch",
] as const;
export type CreditOrderRefusal = (typeof CREDIT_ORDER_REFUSALS)[number];

const refuseOrder = (code: CreditOrderRefusal, field: string, message: string) => refuse("invalid", code, { field, message });

export const IDEMPOTENCY_KEY_MAX = 200;
export const CONNECT_ID_MAX = 200;
const COMPANY_NAME_MAX = 300;
const REG_NO_MAX = 50;

function trimmed(value: string | null | undefined): string {
  return (value ?? "").trim();
}

/** Registration numbers are compared without spaces: '923 609 016' and '923609016' are one company. */
function compactRegNo(regNo: string): string {
  return regNo.replace(/\s+/g, "");
}

/** Whether two registration numbers name one company (spaces and letter case ignored; the demo's country prefix too). */
function sameRegNo(given: string, actual: string | null): boolean {
  const a = compactRegNo(given).toUpperCase();
  const b = compactRegNo(actual ?? "").toUpperCase();
  return a === b || b.endsWith(`-${a}`);
}

function creditCountry(code: string): string {
  const country = trimmed(code).toUpperCase();
  if (!isCreditCountry(country))
    throw refuseOrder(
      "country-not-offered",
      "country",
      "must be one of the credit report countries (NO, AT, BE, CA, DK, FR, DE, IE, IT, JP, LU, MX, NL, SE, GB, US)",
    );
  return country;
}

const likePrefix = (text: string) => `${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;

/** The registry store as the local credit provider reads it (docs/architecture.md: a provider gets what it needs from the database handed to it). */
export const localCreditStore: LocalCreditStore = {
  /**
   * Best first: name equal to the query, then starting with it, then units
   * not deleted, active ones, full-text rank, and larger companies. The
   * foreign demo numbers carry their country as a prefix ('DE-HRB214941');
   * the number as the local register writes it ('HRB214941') finds them too.
   */
  async searchCompanies({ country: countryCode, name, regNo, limit }) {
    let query = db().selectFrom("companies").selectAll("companies").where("companies.country_code", "=", countryCode);
    if (regNo) query = query.where("companies.org_number", "in", [regNo, `${countryCode}-${regNo}`]);

    // Without a name there is nothing to rank by; a constant ORDER BY 0 would be read as a column number.
    let nameOrder: RawBuilder<number> | null = null;
    let rank: RawBuilder<number> | null = null;
    if (name) {
      const match = ftsQuery(name);
      const prefix = likePrefix(name);
      // LIKE folds ASCII case only; the full-text index folds case and accents for the rest.
      const startsWith = sql<boolean>`companies.legal_name like ${prefix} escape '\\'`;
      if (match) {
        query = query.where(sql<boolean>`(companies.id in (select rowid from companies_fts where companies_fts match ${match}) or ${startsWith})`);
        rank = sql<number>`coalesce((select rank from companies_fts where companies_fts match ${match} and rowid = companies.id), 0)`;
      } else {
        query = query.where(startsWith);
      }
      nameOrder = sql<number>`case when lower(companies.legal_name) = lower(${name}) then 0 when ${startsWith} then 1 else 2 end`;
    }
    if (nameOrder) query = query.orderBy(nameOrder);
    query = query.orderBy(sql`companies.deleted_at is not null`).orderBy("companies.is_active", "desc");
    if (rank) query = query.orderBy(rank);
    return query
      .orderBy(sql`coalesce(companies.number_of_employees, 0)`, "desc")
      .orderBy("companies.legal_name")
      .limit(limit)
      .execute();
  },
  findCompany,
  async reportFacts(company) {
    const [statements, members, owners, news, land] = await Promise.all([
      financialStatements(company.id),
      board(company.id, "current"),
      shareholders(company.id),
      announcements(company.id),
      country(company.country_code),
    ]);
    return { statements, board: members, shareholders: owners, announcements: news, country: land };
  },
};

// Typing the Norwegian texts as the English ones makes a key missing in either a compile error.
export const CREDIT_REPORT_TEXTS: Record<ReportTextLanguage, ReportTexts> = { en: reportEn, no: reportNo };

function provider(): Promise<CreditProvider> {
  return creditProvider({ store: localCreditStore, texts: CREDIT_REPORT_TEXTS });
}

/** Provider search; a failing provider gives an empty list (shared/spec/02-supplier-credit-connections.md §8), logged. */
export async function searchCreditCompanies(search: { country: string; name?: string; regNo?: string }): Promise<CreditCompany[]> {
  const country = creditCountry(search.country);
  const name = trimmed(search.name).slice(0, COMPANY_NAME_MAX);
  const regNo = trimmed(search.regNo).slice(0, REG_NO_MAX);
  // Spec 02 §5: no search without a name or a registration number.
  if (!name && !regNo) return [];
  let live = false;
  try {
    const credit = await provider();
    live = credit.name !== "local";
    const companies = await credit.searchCompanies({ country, ...(name ? { name } : {}), ...(regNo ? { regNo } : {}) });
    // The live service's last success and error for /admin/integrations (decision 043).
    if (live) await noteIntegration("credit", { ok: true });
    return companies;
  } catch (error) {
    if (live) await noteIntegration("credit", { ok: false, error });
    console.error("credit search failed", { country, error: String(error) });
    return [];
  }
}

/** The report language choice (shared/spec/02-supplier-credit-connections.md §4): Norwegian only when offered; only English when the lookup fails. */
export async function reportLanguageChoice(country: string): Promise<{ options: ReportLanguage[]; selected: ReportLanguage }> {
  const code = creditCountry(country);
  let languages: string[] | null;
  try {
    languages = await (await provider()).reportLanguages(code);
  } catch (error) {
    console.error("credit report languages failed", { country: code, error: String(error) });
    languages = null;
  }
  return reportLanguageOptions(languages);
}

async function orderByKey(organizationId: number, idempotencyKey: string): Promise<OrderResult | null> {
  const row = await db()
    .selectFrom("credit_reports")
    .select(["id", "file_name", "company_name"])
    .where("organization_id", "=", organizationId)
    .where("idempotency_key", "=", idempotencyKey)
    .executeTakeFirst();
  return row ? { id: row.id, fileName: row.file_name, companyName: row.company_name, created: false } : null;
}

function isUniqueViolation(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "SQLITE_CONSTRAINT_UNIQUE";
}

function validOrder(input: OrderInput): OrderInput {
  const idempotencyKey = trimmed(input.idempotencyKey);
  if (!idempotencyKey || idempotencyKey.length > IDEMPOTENCY_KEY_MAX)
    throw refuseOrder("idempotency-key-invalid", "idempotencyKey", `must be 1 to ${IDEMPOTENCY_KEY_MAX} characters`);
  const connectId = trimmed(input.connectId);
  if (!connectId || connectId.length > CONNECT_ID_MAX) throw refuseOrder("connect-id-invalid", "connectId", `must be 1 to ${CONNECT_ID_MAX} characters`);
  const expectedRegNo = trimmed(input.expectedRegNo);
  if (expectedRegNo.length > REG_NO_MAX) throw refuseOrder("reg-no-too-long", "regNo", `must be at most ${REG_NO_MAX} characters`);
  const countryCode = creditCountry(input.countryCode);
  if (!isReportLanguage(input.language)) throw refuseOrder("language-unknown", "language", "must be NO or EN");
  return { ...input, idempotencyKey, connectId, expectedRegNo: expectedRegNo || null, countryCode };
}

// Two submits of one confirm form that arrive together (double click, a
// retried request) share the first one's provider order instead of both
// buying a report; the unique key in the database covers other processes.
const inFlight = new Map<string, Promise<OrderResult>>();

/**
 * Orders a report once per idempotency key and organisation: a repeated key
 * returns the first order with `created: false` and orders nothing. The
 * company's name and registration number are the provider's answer for the
 * connect id, never what the client sent. Throws a Refusal for bad input
 * (CREDIT_ORDER_REFUSALS, "invalid") or a company the provider does not know
 * ("company-not-found", "not-found"), and CreditError when the provider fails
 * (creditProviderFailure).
 */
export async function placeCreditOrder(input: OrderInput): Promise<OrderResult> {
  const order = validOrder(input);
  const existing = await orderByKey(order.organizationId, order.idempotencyKey);
  if (existing) return existing;
  const flightKey = `${order.organizationId}\u0000${order.idempotencyKey}`;
  const pending = inFlight.get(flightKey);
  if (pending) return { ...(await pending), created: false };
  const placing = orderFromProvider(order)
    .catch(unknownCompanyRefused)
    .finally(() => inFlight.delete(flightKey));
  inFlight.set(flightKey, placing);
  return placing;
}

async function orderFromProvider(order: OrderInput): Promise<OrderResult> {
  const { options } = await reportLanguageChoice(order.countryCode);
  if (!options.includes(order.language))
    throw refuseOrder("language-not-offered", "language", `${order.language} reports are not offered for ${order.countryCode}`);
  const credit = await provider();
  const company = await credit.company({ id: order.connectId, country: order.countryCode });
  if (!company) throw new CreditError("not_found", `The credit provider has no company ${order.connectId} in ${order.countryCode}`, 404);
  if (order.expectedRegNo && sameRegNo(order.expectedRegNo, company.regNo) === false) {
    throw refuseOrder("reg-no-mismatch", "regNo", "is not the registration number of the company with this connectId");
  }
  const companyName = company.name.trim().slice(0, COMPANY_NAME_MAX);
  const regNo = company.regNo?.trim().slice(0, REG_NO_MAX) || null;
  const report = await credit.orderReport({ id: order.connectId, language: order.language });
  // An order delivered is the provider's last success on /admin/integrations (the built-in provider's too).
  await noteIntegration("credit", { ok: true });
  // What is kept and later served as application/pdf must be one.
  if (!Buffer.isBuffer(report.pdf) || report.pdf.subarray(0, 5).toString("latin1") !== "%PDF-") {
    throw new CreditError("invalid_response", "The credit provider did not return a PDF");
  }
  const fileName = cleanStoredName(report.fileName || DEFAULT_REPORT_FILE_NAME);
  const stored = await saveReportPdf(report.pdf);
  try {
    const row = await db()
      .insertInto("credit_reports")
      .values({
        organization_id: order.organizationId,
        user_id: order.userId,
        company_name: companyName,
        reg_no: regNo,
        country_code: order.countryCode,
        language: order.language,
        provider: credit.name,
        provider_id: order.connectId,
        file_name: fileName,
        storage_key: stored.storageKey,
        file_size: stored.fileSize,
        price_nok: CREDIT_REPORT_PRICE_NOK,
        idempotency_key: order.idempotencyKey,
        created_at: nowIso(),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    return { id: row.id, fileName, companyName, created: true };
  } catch (error) {
    await deleteReportPdf(stored.storageKey);
    // Another process stored this key first: its order is the one.
    const winner = isUniqueViolation(error) ? await orderByKey(order.organizationId, order.idempotencyKey) : null;
    if (winner) return winner;
    throw error;
  }
}

function listed(row: { id: number; company_name: string; file_name: string; created_at: string; email: string | null }): CreditReportListItem {
  return { id: row.id, companyName: row.company_name, fileName: row.file_name, createdAt: row.created_at, user: { email: row.email } };
}

/** The organisation's reports on one company from the last 24 months, newest first. */
export async function supplierCreditReports(input: { organizationId: number; regNo: string; country: string; now?: Date }): Promise<CreditReportListItem[]> {
  const regNo = compactRegNo(trimmed(input.regNo));
  const country = trimmed(input.country).toUpperCase();
  if (!regNo || !country) return [];
  // Stored timestamps are ISO-8601 UTC text, so text order is time order.
  const since = reportWindowStart(input.now ?? new Date()).toISOString();
  const rows = await db()
    .selectFrom("credit_reports as r")
    .leftJoin("users as u", "u.id", "r.user_id")
    .select(["r.id", "r.company_name", "r.file_name", "r.created_at", "u.email"])
    .where("r.organization_id", "=", input.organizationId)
    .where("r.country_code", "=", country)
    .where(sql<string>`replace(r.reg_no, ' ', '')`, "=", regNo)
    .where("r.created_at", ">=", since)
    .orderBy("r.created_at", "desc")
    .orderBy("r.id", "desc")
    .execute();
  return rows.map(listed);
}

/** The order as the done step shows it; null for another organisation's order. */
export async function creditOrder(input: { organizationId: number; id: number }): Promise<{ id: number; companyName: string; fileName: string } | null> {
  const row = await db()
    .selectFrom("credit_reports")
    .select(["id", "company_name", "file_name"])
    .where("organization_id", "=", input.organizationId)
    .where("id", "=", input.id)
    .executeTakeFirst();
  return row ? { id: row.id, companyName: row.company_name, fileName: row.file_name } : null;
}

/** Every order of the organisation, newest first (/credit_reports and its CSV export; billing history, so no window). */
export async function organizationCreditReports(input: { organizationId: number }): Promise<CreditOrderRow[]> {
  const rows = await db()
    .selectFrom("credit_reports as r")
    .leftJoin("users as u", "u.id", "r.user_id")
    .select(["r.id", "r.company_name", "r.file_name", "r.created_at", "r.reg_no", "r.country_code", "r.language", "r.price_nok", "u.email"])
    .where("r.organization_id", "=", input.organizationId)
    .orderBy("r.created_at", "desc")
    .orderBy("r.id", "desc")
    .execute();
  return rows.map((r) => ({ ...listed(r), regNo: r.reg_no, countryCode: r.country_code, language: r.language, priceNok: r.price_nok }));
}

/** The stored PDF of one of the organisation's reports; null for another organisation's or an unknown id. */
export async function creditReportFile(input: {
  organizationId: number;
  id: number;
}): Promise<{ fileName: string; storageKey: string; fileSize: number } | null> {
  const row = await db()
    .selectFrom("credit_reports")
    .select(["file_name", "storage_key", "file_size"])
    .where("organization_id", "=", input.organizationId)
    .where("id", "=", input.id)
    .executeTakeFirst();
  return row ? { fileName: row.file_name, storageKey: row.storage_key, fileSize: row.file_size } : null;
}

/** The PDF of one of the organisation's reports, opened for download; null for another organisation's, an unknown id or bytes that are gone. */
export async function openCreditReportPdf(input: { organizationId: number; id: number }): Promise<{ fileName: string; stream: Readable; size: number } | null> {
  const report = await creditReportFile(input);
  const stored = report ? await openReportPdf(report.storageKey) : null;
  return report && stored ? { fileName: report.fileName, stream: stored.stream, size: stored.size } : null;
}

/** A credit provider that failed (not a refusal: the order may be tried again), as the route logs it before its 502; null for any other error. */
export function creditProviderFailure(error: unknown): { kind: string; status: number | undefined; message: string } | null {
  return error instanceof CreditError ? { kind: error.kind, status: error.status, message: error.message } : null;
}

/** A provider that knows no company with the connect id refused the order: the caller named a company that is not there. */
function unknownCompanyRefused(error: unknown): never {
  if (error instanceof CreditError && error.kind === "not_found") {
    throw refuse("not-found", "company-not-found", { field: "connectId", message: "the credit provider has no company with this id" });
  }
  throw error;
}
