import { z } from "zod";
import { CreditError, type CreditCompany, type CreditCompanyAddress, type CreditProvider } from "./types";

/**
 * The credit provider over Creditsafe Connect v1 (https://connect.creditsafe.com/v1).
 *
 * Response shapes, as far as public sources show them:
 * - POST /authenticate {username, password} → {token}, a JWT valid for one hour
 *   (doc.creditsafe.com, "Authentication" and the Connect Authenticate requests/responses page).
 * - GET /companies?countries=&regNo=&name=&pageSize= → {correlationId, totalSize, companies: [{id (the
 *   connectId), country, regNo, safeNo, name, address {simpleValue, street, houseNo, city, postCode,
 *   province}, status, type, officeType, legalForm, dateOfLatestChange, …}]}; without hits
 *   {totalSize: 0, companies, messages: [{code, text, type}]} (Creditsafe's OpenAPI models as generated in
 *   EngageCRM/creditsafe_client and riccardomerlo/pycsapi; flexbase-eng/creditsafe-node-client
 *   src/company.ts; SynergiTech/creditsafe-connect src/Models/CompanySearchResult.php; the search
 *   responses mocked in PassFort's Creditsafe integration tests).
 * - GET /access/countries/{CC}/reportLanguages → {reportLanguages: ["EN", …], correlationId}
 *   (doc.creditsafe.com, "Return Languages Available For Company Reports For Selected Country").
 * - GET /companies/{connectId}?language= with `Accept: application/pdf` → the report as PDF
 *   (doc.creditsafe.com, "Company Report Response Formats").
 * Where the sources disagree (houseNo or houseNumber, postCode or postalCode) or are silent (the empty
 * answer, the report languages envelope), the schemas accept every variant seen.
 */

export interface CreditsafeProviderOptions {
  baseUrl: string;
  username: string;
  password: string;
  fetch?: typeof globalThis.fetch;
  /** Covers each exchange, body included, so a stalled Creditsafe cannot hang the order dialog. */
  timeoutMs?: number;
  /** Milliseconds since the epoch; tests move it to age the token. */
  now?: () => number;
}

// Small enough for one screen of result cards; the dialog asks the user to narrow a search, not to page.
const SEARCH_PAGE_SIZE = 20;
// Used when the token is not a JWT with an exp claim: Creditsafe documents one hour, minus a margin.
const FALLBACK_TOKEN_LIFETIME_MS = 55 * 60_000;
// Renew this long before exp, so a token cannot expire between our check and Creditsafe's.
const EXPIRY_MARGIN_MS = 60_000;
const PDF_MAGIC = Buffer.from("%PDF-", "latin1");

// Creditsafe fills fields per country and data source, so every field but the id is optional and a field
// of an unexpected type reads as missing instead of rejecting the whole answer. Numbers are accepted as
// text because some sources send house numbers and registration numbers as numbers.
const looseText = z
  .union([z.string(), z.number()])
  .transform((value) => String(value))
  .nullish()
  .catch(null);

const addressSchema = z
  .object({
    simpleValue: looseText,
    street: looseText,
    houseNo: looseText,
    // The node client of flexbase-eng names it houseNumber; the OpenAPI models houseNo.
    houseNumber: looseText,
    city: looseText,
    postCode: looseText,
    // Seen in third-party mocks of the search response.
    postalCode: looseText,
  })
  .nullish()
  .catch(null);

const companySchema = z.object({
  id: z.string().min(1),
  country: looseText,
  regNo: looseText,
  name: looseText,
  address: addressSchema,
  status: looseText,
  // legalForm is the specific form where Creditsafe has it; type is its coarse category (Ltd, NonLtd…).
  legalForm: looseText,
  type: looseText,
});
type SearchHit = z.infer<typeof companySchema>;

const tokenSchema = z.object({ token: z.string().min(1) });
const jwtPayloadSchema = z.object({ exp: z.number() });

function clean(value: string | null | undefined): string | null {
  const trimmed = value?.replace(/\s+/g, " ").trim();
  return trimmed ? trimmed : null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The exp claim of a JWT in milliseconds, or null when the token is not a JWT or has none. */
function jwtExpiry(token: string): number | null {
  const parts = token.split(".");
  if (parts.length !== 3) return null;
  try {
    const payload: unknown = JSON.parse(Buffer.from(parts[1], "base64url").toString("utf8"));
    const parsed = jwtPayloadSchema.safeParse(payload);
    return parsed.success ? parsed.data.exp * 1000 : null;
  } catch {
    return null;
  }
}

// A postcode on its own: short, with a digit (4035, 0153, NW1 6XE, 75008, 343 81).
const POSTCODE = /^(?=.*\d)[A-Z0-9][A-Z0-9 -]{1,8}$/i;
// Nordic and continental "postcode city" in one part: "4005 STAVANGER", "343 81 ÄLMHULT".
const POSTCODE_CITY = /^(\d{4,5}|\d{3} \d{2})\s+(\D.*)$/;
// "Kongens gate 7B" (number after the street, as in Norway) or "221 BAKER STREET" (number first).
const STREET_NUMBER_LAST = /^(.*\D)\s+(\d+\s?[A-Z]?(?:-\d+)?)$/i;
const STREET_NUMBER_FIRST = /^(\d+[A-Z]?(?:-\d+)?)\s+(\D.*)$/i;

/**
 * Creditsafe always sends the one-line address (simpleValue) but fills its parts only for some
 * countries; the parts the dialog shows are read back out of the line when they are missing.
 */
function splitSimpleValue(line: string): CreditCompanyAddress {
  const parts = line
    .split(",")
    .map((part) => clean(part))
    .filter((part): part is string => part !== null);
  const result: CreditCompanyAddress = { street: null, houseNo: null, postCode: null, city: null };
  if (parts.length === 0) return result;

  const first = parts[0];
  // A line that starts with the postcode has no street part.
  const rest = POSTCODE_CITY.test(first) ? parts : parts.slice(1);
  if (rest !== parts) {
    const last = STREET_NUMBER_LAST.exec(first);
    const leading = last ? null : STREET_NUMBER_FIRST.exec(first);
    if (last) {
      result.street = last[1].trim();
      result.houseNo = last[2].replace(/\s+/g, "");
    } else if (leading) {
      result.houseNo = leading[1];
      result.street = leading[2].trim();
    } else {
      result.street = first;
    }
  }

  for (const part of rest) {
    const combined = POSTCODE_CITY.exec(part);
    if (combined) {
      result.postCode ??= combined[1];
      result.city ??= combined[2].trim();
    } else if (POSTCODE.test(part)) {
      result.postCode ??= part;
    } else {
      // The first plain part is the town; later ones are county or region (GB: "LONDON, Greater London").
      result.city ??= part;
    }
  }
  return result;
}

function mapAddress(address: SearchHit["address"]): CreditCompanyAddress {
  const given: CreditCompanyAddress = {
    street: clean(address?.street),
    houseNo: clean(address?.houseNo) ?? clean(address?.houseNumber),
    postCode: clean(address?.postCode) ?? clean(address?.postalCode),
    city: clean(address?.city),
  };
  const line = clean(address?.simpleValue);
  if (!line || (given.street && given.houseNo && given.postCode && given.city)) return given;
  const split = splitSimpleValue(line);
  return {
    street: given.street ?? split.street,
    // A split house number belongs to the split street; paired with a given street it could be wrong.
    houseNo: given.houseNo ?? (given.street && given.street !== split.street ? null : split.houseNo),
    postCode: given.postCode ?? split.postCode,
    city: given.city ?? split.city,
  };
}

function mapCompany(hit: SearchHit, searchedCountry: string): CreditCompany {
  return {
    id: hit.id,
    // A hit without a name still has to be choosable; its registration number or id stands in.
    name: clean(hit.name) ?? clean(hit.regNo) ?? hit.id,
    country: clean(hit.country)?.toUpperCase() ?? searchedCountry,
    regNo: clean(hit.regNo),
    // Creditsafe's own wording (Active, NonActive, Pending…); the screen decides how to show it.
    status: clean(hit.status),
    legalForm: clean(hit.legalForm) ?? clean(hit.type),
    address: mapAddress(hit.address),
  };
}

// Report language lists come in more than one envelope depending on the account and API version.
const LANGUAGE_LIST_KEYS = ["reportLanguages", "languages", "data"] as const;

function languageList(body: unknown, depth = 0): unknown[] | null {
  if (Array.isArray(body)) return body;
  if (!isRecord(body) || depth > 1) return null;
  for (const key of LANGUAGE_LIST_KEYS) {
    const found = languageList(body[key], depth + 1);
    if (found) return found;
  }
  return null;
}

function languageCode(item: unknown): string | null {
  if (typeof item === "string") return clean(item)?.toUpperCase() ?? null;
  if (isRecord(item)) {
    for (const key of ["code", "languageCode", "language"]) {
      const value = item[key];
      if (typeof value === "string") return clean(value)?.toUpperCase() ?? null;
    }
  }
  return null;
}

/** A file name from Content-Disposition (RFC 6266: filename* before filename), made safe to store and send. */
function fileNameFromDisposition(header: string | null): string | null {
  if (!header) return null;
  let raw: string | null = null;
  const extended = /filename\*\s*=\s*([^']*)'[^']*'([^;]+)/i.exec(header);
  if (extended) {
    try {
      raw = decodeURIComponent(extended[2].trim().replace(/^"(.*)"$/, "$1"));
    } catch {
      raw = null;
    }
  }
  if (!raw) {
    const plain = /(?:^|;)\s*filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]*))/i.exec(header);
    if (plain) raw = plain[1] !== undefined ? plain[1].replace(/\\(.)/g, "$1") : plain[2];
  }
  return raw ? sanitizeFileName(raw) : null;
}

function sanitizeFileName(name: string): string | null {
  // Only the last path segment: a name with directories must not steer where the file lands.
  const base = name.split(/[\\/]/).pop() ?? "";
  const stem = base
    // Control characters are what this strips: they must not reach a header or a file name.
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f<>:"|?*]/g, "")
    .replace(/\s+/g, " ")
    .replace(/\.pdf$/i, "")
    .replace(/^[.\s]+|[.\s]+$/g, "")
    .slice(0, 120)
    .trim();
  return stem ? `${stem}.pdf` : null;
}

function defaultFileName(connectId: string): string {
  return `credit-report-${connectId.replace(/[^A-Za-z0-9._-]+/g, "-")}.pdf`;
}

interface Reply {
  status: number;
  headers: Headers;
  body: Buffer;
}

export function createCreditsafeProvider(options: CreditsafeProviderOptions): CreditProvider {
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const timeoutMs = options.timeoutMs ?? 15_000;
  const now = options.now ?? (() => Date.now());
  const { username, password } = options;

  let token: string | null = null;
  let tokenExpiresAt = 0;
  let pendingLogin: Promise<string> | null = null;

  /** Secrets must not reach a message even when Creditsafe echoes them back. */
  function redact(text: string): string {
    let result = text;
    for (const secret of [password, token]) {
      if (secret) result = result.split(secret).join("[redacted]");
    }
    return result;
  }

  /** Creditsafe's own explanation from an error body ({message, details}, {error} or {messages: [{text}]}). */
  function detailOf(reply: Reply): string {
    let body: unknown;
    try {
      body = JSON.parse(reply.body.toString("utf8"));
    } catch {
      return "";
    }
    if (!isRecord(body)) return "";
    const texts: string[] = [];
    for (const key of ["message", "error", "details"]) {
      const value = body[key];
      if (typeof value === "string" && value.trim()) texts.push(value.trim());
    }
    const messages = body.messages;
    if (Array.isArray(messages) && isRecord(messages[0]) && typeof messages[0].text === "string") {
      texts.push(messages[0].text.trim());
    }
    return texts.length > 0 ? `: ${redact(texts.join(" – ")).slice(0, 300)}` : "";
  }

  /** One exchange; resolves for every HTTP status, throws CreditError for timeouts and network failures. */
  async function send(method: "GET" | "POST", path: string, headers: Record<string, string>, body?: string): Promise<Reply> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    try {
      const response = await fetchImpl(`${baseUrl}${path}`, { method, headers, body, signal: controller.signal });
      const bytes = Buffer.from(await response.arrayBuffer());
      return { status: response.status, headers: response.headers, body: bytes };
    } catch {
      // The fetch error is not passed on: its text adds nothing for the user and could carry request details.
      if (controller.signal.aborted) {
        throw new CreditError("timeout", `Creditsafe did not answer within ${timeoutMs} ms for ${describe(method, path)}`);
      }
      throw new CreditError("network", `Creditsafe could not be reached for ${describe(method, path)}`);
    } finally {
      clearTimeout(timer);
    }
  }

  function describe(method: string, path: string): string {
    return `${method} ${path}`;
  }

  function parseJson(reply: Reply, what: string): unknown {
    try {
      return JSON.parse(reply.body.toString("utf8"));
    } catch {
      throw new CreditError("invalid_response", `Creditsafe sent no JSON for ${what}`, reply.status);
    }
  }

  async function login(): Promise<string> {
    const reply = await send(
      "POST",
      "/authenticate",
      { "Content-Type": "application/json", Accept: "application/json" },
      JSON.stringify({ username, password }),
    );
    if (reply.status < 200 || reply.status >= 300) {
      // The refusal's body is left out: a login answer is the one place an echo of the credentials could hide.
      throw new CreditError("auth", `Creditsafe refused the login for user '${username}' (status ${reply.status})`, reply.status);
    }
    const parsed = tokenSchema.safeParse(parseJson(reply, "POST /authenticate"));
    if (!parsed.success) {
      throw new CreditError("auth", "Creditsafe accepted the login but sent no token", reply.status);
    }
    const issued = parsed.data.token;
    const current = now();
    const expiry = jwtExpiry(issued);
    // An exp already past by our clock means the clocks disagree; then the 401 path is the safety net.
    tokenExpiresAt = expiry !== null && expiry - EXPIRY_MARGIN_MS > current ? expiry - EXPIRY_MARGIN_MS : current + FALLBACK_TOKEN_LIFETIME_MS;
    token = issued;
    return issued;
  }

  /** The cached token, or a fresh one; callers who need one at the same time share a single login. */
  function currentToken(): Promise<string> {
    if (token && now() < tokenExpiresAt) return Promise.resolve(token);
    pendingLogin ??= login().finally(() => {
      pendingLogin = null;
    });
    return pendingLogin;
  }

  /** Forget a token Creditsafe rejected, unless another call has already replaced it. */
  function dropToken(rejected: string): void {
    if (token === rejected) {
      token = null;
      tokenExpiresAt = 0;
    }
  }

  /** GET with the bearer token; on 401 logs in again once and retries once, so expiry stays invisible. */
  async function authorizedGet(path: string, accept: string): Promise<Reply> {
    const first = await currentToken();
    const reply = await send("GET", path, { Accept: accept, Authorization: `Bearer ${first}` });
    if (reply.status !== 401) return reply;
    dropToken(first);
    const second = await currentToken();
    const retry = await send("GET", path, { Accept: accept, Authorization: `Bearer ${second}` });
    if (retry.status === 401) {
      throw new CreditError("auth", `Creditsafe rejected a fresh token for ${describe("GET", path)}`, 401);
    }
    return retry;
  }

  function httpError(reply: Reply, path: string): CreditError {
    return new CreditError("http", `Creditsafe answered ${reply.status} for ${describe("GET", path)}${detailOf(reply)}`, reply.status);
  }

  function ok(reply: Reply): boolean {
    return reply.status >= 200 && reply.status < 300;
  }

  /** GET /companies with these parameters: the valid hits; none for a 404 or an empty answer. */
  async function searchHits(params: URLSearchParams): Promise<SearchHit[]> {
    const path = `/companies?${params.toString()}`;
    const reply = await authorizedGet(path, "application/json");
    // Creditsafe answers "no companies" with 404 on some searches and 200 with an empty list on others.
    if (reply.status === 404) return [];
    if (!ok(reply)) throw httpError(reply, path);
    const body = parseJson(reply, describe("GET", path));
    if (!isRecord(body)) {
      throw new CreditError("invalid_response", `Unexpected search answer from Creditsafe for ${describe("GET", path)}`, reply.status);
    }
    // The no-results model types companies as an object, so anything but a list means no hits.
    if (!Array.isArray(body.companies)) return [];
    const hits = body.companies.map((item) => companySchema.safeParse(item));
    const valid = hits.flatMap((hit) => (hit.success ? [hit.data] : []));
    // One malformed hit should not hide the others; only a list with nothing usable is an error.
    if (hits.length > 0 && valid.length === 0) {
      throw new CreditError("invalid_response", `Creditsafe sent search hits without ids for ${describe("GET", path)}`, reply.status);
    }
    return valid;
  }

  return {
    name: "creditsafe",

    async searchCompanies(search) {
      const country = search.country.trim().toUpperCase();
      const name = clean(search.name);
      // Registration numbers carry no meaningful spaces in Creditsafe's regNo ("923 609 016" is 923609016).
      const regNo = search.regNo?.replace(/\s+/g, "") || null;
      // Spec 02 §5: a search needs a name or a registration number; without either there is nothing to ask.
      if (!name && !regNo) return [];
      const params = new URLSearchParams({ countries: country });
      if (regNo) params.set("regNo", regNo);
      if (name) params.set("name", name);
      params.set("page", "1");
      params.set("pageSize", String(SEARCH_PAGE_SIZE));
      return (await searchHits(params)).map((hit) => mapCompany(hit, country));
    },

    async company({ id, country }) {
      const code = country.trim().toUpperCase();
      // The search takes the connectId as `id` (Creditsafe's OpenAPI, GET /companies); one answer is one company.
      const params = new URLSearchParams({ countries: code, id, page: "1", pageSize: "1" });
      const hit = (await searchHits(params)).find((candidate) => candidate.id === id);
      return hit ? mapCompany(hit, code) : null;
    },

    async reportLanguages(country) {
      const path = `/access/countries/${encodeURIComponent(country.trim().toUpperCase())}/reportLanguages`;
      const reply = await authorizedGet(path, "application/json");
      if (!ok(reply)) throw httpError(reply, path);
      const list = languageList(parseJson(reply, describe("GET", path)));
      if (!list) throw new CreditError("invalid_response", `Creditsafe sent no language list for ${describe("GET", path)}`, reply.status);
      const codes = list.map(languageCode).filter((code): code is string => code !== null);
      return [...new Set(codes)];
    },

    async orderReport({ id, language }) {
      const path = `/companies/${encodeURIComponent(id)}?${new URLSearchParams({ language }).toString()}`;
      const reply = await authorizedGet(path, "application/pdf");
      if (reply.status === 404) {
        throw new CreditError("not_found", `Creditsafe has no report for company ${id}${detailOf(reply)}`, 404);
      }
      if (!ok(reply)) throw httpError(reply, path);
      // Anything but a PDF (a JSON report, an HTML error page) must not be stored and billed as one.
      if (reply.body.length < PDF_MAGIC.length || !reply.body.subarray(0, PDF_MAGIC.length).equals(PDF_MAGIC)) {
        const type = reply.headers.get("content-type") ?? "no content type";
        throw new CreditError("invalid_response", `Creditsafe sent no PDF for company ${id} (${type})`, reply.status);
      }
      return {
        pdf: reply.body,
        fileName: fileNameFromDisposition(reply.headers.get("content-disposition")) ?? defaultFileName(id),
      };
    },
  };
}
