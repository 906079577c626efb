import { randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import { fileURLToPath } from "node:url";
import { listenOnLoopback } from "./loopback";

/**
 * A loopback stand-in for Creditsafe Connect v1, so the adapter is tested over real HTTP.
 *
 * No recorded Creditsafe responses exist in ../shared/data (the service needs a paid account), so the
 * fixtures in tests/fixtures/creditsafe are hand-written in the shapes public sources show:
 * doc.creditsafe.com (authenticate → {token}; reportLanguages → {reportLanguages, correlationId};
 * 400/404 → {correlationId, message, details}; Accept: application/pdf for the report), Creditsafe's
 * OpenAPI models as generated in EngageCRM/creditsafe_client (company search hit, address, the
 * no-results body with messages[{code, text, type}], {error} for a bad token, {message} for a refused
 * login), flexbase-eng/creditsafe-node-client and the search responses mocked in PassFort's Creditsafe
 * integration tests. Companies and ids in them are invented.
 *
 * Like Creditsafe it issues JWTs that live an hour, rejects unknown or expired bearer tokens with 401,
 * answers the report as PDF only when asked for application/pdf, and refuses a language the country
 * does not offer.
 */

export type CreditsafeEndpoint = "authenticate" | "search" | "reportLanguages" | "report";

export interface FakeReply {
  /** Defaults to 200. */
  status?: number;
  /** A file in tests/fixtures/creditsafe, sent as JSON. */
  fixture?: string;
  /** An inline JSON body. */
  json?: unknown;
  /** Never answer, to exercise timeouts. */
  hang?: boolean;
}

export interface FakeRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: http.IncomingHttpHeaders;
  body: string;
  endpoint: CreditsafeEndpoint | null;
  /** The status answered; null while unanswered (a hung request). */
  status: number | null;
}

export interface CreditsafeFakeOptions {
  username?: string;
  password?: string;
  /** `jwt` (default, like Creditsafe) or `opaque`, for a client that cannot read an expiry. */
  tokens?: "jwt" | "opaque";
  tokenLifetimeSeconds?: number;
  /** The fake's clock in milliseconds; share it with the adapter to age tokens without waiting. */
  now?: () => number;
}

export interface CreditsafeFake {
  baseUrl: string;
  username: string;
  password: string;
  requests: FakeRequest[];
  /** Every token handed out, oldest first. */
  issuedTokens: string[];
  requestsTo(endpoint: CreditsafeEndpoint): FakeRequest[];
  /** From now on every token issued so far answers 401, as when Creditsafe's hour has run out. */
  expireTokens(): void;
  /** Replace the normal answer of an endpoint (null restores it). Bearer tokens are still checked first. */
  answer(endpoint: CreditsafeEndpoint, reply: FakeReply | null): void;
  failWith(endpoint: CreditsafeEndpoint, status: number): void;
  hang(endpoint: CreditsafeEndpoint): void;
  /** Answer the login with 401, whatever the credentials. */
  refuseLogin(): void;
  /** How a search without hits is answered: 200 with an empty list (default) or 404. */
  emptySearchStatus: 200 | 404;
  /** The report's Content-Disposition file name; null sends no Content-Disposition. */
  reportFileName: string | null;
  close(): Promise<void>;
}

export function creditsafeFixture(name: string): string {
  return fileURLToPath(new URL(`../fixtures/creditsafe/${name}`, import.meta.url));
}

export function readCreditsafeFixture<T = unknown>(name: string): T {
  return JSON.parse(fs.readFileSync(creditsafeFixture(name), "utf8")) as T;
}

/** The small but well-formed PDF the fake serves as the report of a company in a language. */
export function fakeReportPdf(connectId: string, language: string): Buffer {
  const text = `Credit report ${connectId} (${language})`.replace(/[()\\]/g, "\\$&");
  const stream = `BT /F1 12 Tf 72 720 Td (${text}) Tj ET`;
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ];
  let pdf = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(pdf.length);
    pdf += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  pdf += offsets.map((offset) => `${String(offset).padStart(10, "0")} 00000 n \n`).join("");
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, "latin1");
}

interface SearchHit {
  id: string;
  country?: string;
  regNo?: string;
  name?: string;
}

interface IssuedToken {
  expiresAt: number;
  revoked: boolean;
}

function base64url(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString("base64url");
}

/** Starts on 127.0.0.1 with a free port; inside a test it closes itself when the test finishes. */
export async function startCreditsafeFake(options: CreditsafeFakeOptions = {}): Promise<CreditsafeFake> {
  const username = options.username ?? "integration-user";
  const password = options.password ?? "Corr3ct-H0rse!";
  const lifetimeMs = (options.tokenLifetimeSeconds ?? 3600) * 1000;
  const now = options.now ?? (() => Date.now());
  const tokenStyle = options.tokens ?? "jwt";

  const requests: FakeRequest[] = [];
  const issuedTokens: string[] = [];
  const tokens = new Map<string, IssuedToken>();
  const overrides = new Map<CreditsafeEndpoint, FakeReply>();
  const searchResponse = readCreditsafeFixture<{ companies: SearchHit[] }>("companies-search.json");

  function issueToken(): string {
    const issuedAt = now();
    const expiresAt = issuedAt + lifetimeMs;
    const token =
      tokenStyle === "jwt"
        ? [
            base64url({ alg: "RS256", typ: "JWT" }),
            base64url({ sub: username, iat: Math.floor(issuedAt / 1000), exp: Math.floor(expiresAt / 1000), jti: issuedTokens.length + 1 }),
            randomBytes(32).toString("base64url"),
          ].join(".")
        : randomBytes(24).toString("hex");
    tokens.set(token, { expiresAt, revoked: false });
    issuedTokens.push(token);
    return token;
  }

  function bearerIsValid(header: string | undefined): boolean {
    const match = /^Bearer (.+)$/.exec(header ?? "");
    const issued = match ? tokens.get(match[1]) : undefined;
    return issued !== undefined && !issued.revoked && now() < issued.expiresAt;
  }

  function languagesOf(country: string): string[] {
    const { reportLanguages } = readCreditsafeFixture<{ reportLanguages: string[] }>("report-languages.json");
    // Every country offers English; Norwegian only Norway, as the order dialog expects.
    return country === "NO" ? reportLanguages : ["EN"];
  }

  function endpointOf(method: string, path: string): CreditsafeEndpoint | null {
    if (method === "POST" && path === "/authenticate") return "authenticate";
    if (method !== "GET") return null;
    if (path === "/companies") return "search";
    if (/^\/access\/countries\/[^/]+\/reportLanguages$/.test(path)) return "reportLanguages";
    if (/^\/companies\/[^/]+$/.test(path)) return "report";
    return null;
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      const method = (req.method ?? "GET").toUpperCase();
      const endpoint = endpointOf(method, url.pathname);
      const record: FakeRequest = {
        method,
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
        endpoint,
        status: null,
      };
      requests.push(record);

      const send = (status: number, body: Buffer | string, headers: Record<string, string>) => {
        record.status = status;
        res.writeHead(status, headers);
        res.end(body);
      };
      const json = (status: number, body: unknown) => send(status, JSON.stringify(body), { "Content-Type": "application/json; charset=utf-8" });
      const fixture = (status: number, name: string) => json(status, readCreditsafeFixture(name));
      const reply = (override: FakeReply) => {
        if (override.hang) return;
        const status = override.status ?? 200;
        if (override.fixture) fixture(status, override.fixture);
        else json(status, override.json ?? null);
      };

      if (endpoint === null) return json(404, { message: "Not Found", path: url.pathname });

      if (endpoint === "authenticate") {
        const override = overrides.get("authenticate");
        if (override) return reply(override);
        let credentials: unknown;
        try {
          credentials = JSON.parse(record.body);
        } catch {
          return fixture(400, "bad-request.json");
        }
        const given = credentials as { username?: unknown; password?: unknown } | null;
        if (given?.username === username && given?.password === password) return json(200, { token: issueToken() });
        return fixture(401, "authenticate-unauthorised.json");
      }

      if (!bearerIsValid(req.headers.authorization)) return fixture(401, "invalid-token.json");
      const override = overrides.get(endpoint);
      if (override) return reply(override);

      if (endpoint === "search") {
        const countries = (url.searchParams.get("countries") ?? "").toUpperCase().split(",").filter(Boolean);
        const regNo = url.searchParams.get("regNo");
        const name = url.searchParams.get("name")?.toLowerCase();
        const pageSize = Number(url.searchParams.get("pageSize") ?? "10");
        if (countries.length === 0 || (!regNo && !name)) return fixture(400, "bad-request.json");
        const hits = searchResponse.companies.filter(
          (hit) => countries.includes(hit.country ?? "") && (!regNo || hit.regNo === regNo) && (!name || (hit.name ?? "").toLowerCase().includes(name)),
        );
        if (hits.length === 0) {
          return fake.emptySearchStatus === 404 ? fixture(404, "companies-search-not-found.json") : fixture(200, "companies-search-no-results.json");
        }
        return json(200, { ...searchResponse, totalSize: hits.length, companies: hits.slice(0, pageSize) });
      }

      if (endpoint === "reportLanguages") {
        const country = decodeURIComponent(url.pathname.split("/")[3]).toUpperCase();
        return json(200, { reportLanguages: languagesOf(country), correlationId: randomBytes(8).toString("hex") });
      }

      // endpoint === "report"
      const connectId = decodeURIComponent(url.pathname.slice("/companies/".length));
      const company = searchResponse.companies.find((hit) => hit.id === connectId);
      if (!company) return fixture(404, "report-not-found.json");
      const language = (url.searchParams.get("language") ?? "EN").toUpperCase();
      if (!languagesOf(company.country ?? "").includes(language)) return fixture(400, "bad-request.json");
      // Without Accept: application/pdf Creditsafe answers with the JSON report.
      if (!(req.headers.accept ?? "").includes("application/pdf")) return fixture(200, "report-json.json");
      const headers: Record<string, string> = { "Content-Type": "application/pdf" };
      if (fake.reportFileName !== null) headers["Content-Disposition"] = `attachment; filename="${fake.reportFileName}"`;
      return send(200, fakeReportPdf(connectId, language), headers);
    });
  });

  const { baseUrl, close } = await listenOnLoopback(server);

  const fake: CreditsafeFake = {
    baseUrl,
    username,
    password,
    requests,
    issuedTokens,
    requestsTo: (endpoint) => requests.filter((request) => request.endpoint === endpoint),
    expireTokens() {
      for (const issued of tokens.values()) issued.revoked = true;
    },
    answer(endpoint, reply) {
      if (reply) overrides.set(endpoint, reply);
      else overrides.delete(endpoint);
    },
    failWith(endpoint, status) {
      overrides.set(endpoint, { status, fixture: "server-error.json" });
    },
    hang(endpoint) {
      overrides.set(endpoint, { hang: true });
    },
    refuseLogin() {
      overrides.set("authenticate", { status: 401, fixture: "authenticate-unauthorised.json" });
    },
    emptySearchStatus: 200,
    reportFileName: "Creditsafe report NO-X-998877665.pdf",
    close,
  };
  return fake;
}
