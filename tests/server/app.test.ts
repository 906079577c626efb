import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp, type AppOptions } from "@server/app";
import { checkRequest, contentSecurityPolicy, ownOrigins } from "@server/security";
import { fakeServerBuild } from "../helpers/fake-build";

/**
 * The express app of server/app.ts around a tiny Remix build: a page with an
 * action, and a resource route under /api. What the app adds (headers, the
 * CSP nonce in the load context, the cross-origin check, the build
 * indicator) is the same whatever build it serves.
 */
const seen: { nonce?: string } = {};

const build = fakeServerBuild(
  (_request, status, headers, _context, loadContext) => {
    seen.nonce = loadContext.cspNonce;
    headers.set("Content-Type", "text/html; charset=utf-8");
    return new Response(`<script nonce="${loadContext.cspNonce}"></script>`, { status, headers });
  },
  {
    "routes/page": { path: "page", module: { default: () => null, loader: () => ({ page: true }), action: () => ({ saved: true }) } },
    "routes/api.echo": { path: "api/echo", module: { loader: () => Response.json({ ok: true }), action: () => Response.json({ changed: true }) } },
  },
);

type Answer = { status: number; headers: http.IncomingHttpHeaders; body: string };

function serve(options: AppOptions) {
  const server = createApp(build, options).listen(0, "127.0.0.1");
  const base = () => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const send = (method: string, pathname: string, headers: Record<string, string> = {}, body?: string): Promise<Answer> =>
    new Promise((resolve, reject) => {
      const req = http.request(base() + pathname, {
        method,
        headers: { ...headers, ...(body !== undefined ? { "Content-Length": String(Buffer.byteLength(body)) } : {}) },
      });
      req.on("response", (res) => {
        let text = "";
        res.on("data", (chunk) => (text += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      });
      req.on("error", reject);
      req.end(body);
    });
  return { server, base, send };
}

const staticDir = fs.mkdtempSync(path.join(os.tmpdir(), "app-test-"));
fs.mkdirSync(path.join(staticDir, "client/assets"), { recursive: true });
fs.writeFileSync(path.join(staticDir, "client/assets/app-1.js"), "console.log(1)");
fs.writeFileSync(path.join(staticDir, "client/agreement.pdf"), "%PDF-1.4\n%%EOF\n");

const direct = serve({ trustProxy: false, buildDir: staticDir });
const proxied = serve({ trustProxy: true, appUrl: "https://risk.example" });
const form = { "Content-Type": "application/x-www-form-urlencoded" };

beforeAll(async () => {
  await Promise.all([direct, proxied].map((s) => new Promise((r) => (s.server.listening ? r(null) : s.server.once("listening", r)))));
});
afterAll(() => {
  direct.server.close();
  proxied.server.close();
  fs.rmSync(staticDir, { recursive: true, force: true });
});

function expectSecurityHeaders(answer: Answer) {
  const csp = String(answer.headers["content-security-policy"]);
  expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]{24}'/);
  expect(csp.match(/script-src[^;]*/)![0]).not.toContain("unsafe-inline");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("frame-src 'self'");
  expect(answer.headers["x-frame-options"]).toBe("DENY");
  expect(answer.headers["x-content-type-options"]).toBe("nosniff");
  expect(answer.headers["referrer-policy"]).toBe("same-origin");
}

describe("security headers", () => {
  it("are on pages, JSON, static files, unknown paths and refusals", async () => {
    for (const answer of [
      await direct.send("GET", "/page"),
      await direct.send("GET", "/api/echo"),
      await direct.send("GET", "/assets/app-1.js"),
      await direct.send("GET", "/no/such/path"),
      await direct.send("POST", "/page", { ...form, Origin: "http://evil.example" }, "a=1"),
    ]) {
      expectSecurityHeaders(answer);
    }
  });

  it("a page's scripts carry the nonce of its own answer, new for every answer", async () => {
    const first = await direct.send("GET", "/page");
    const nonce = String(first.headers["content-security-policy"]).match(/'nonce-([^']+)'/)![1];
    expect(seen.nonce).toBe(nonce);
    expect(first.body).toContain(`<script nonce="${nonce}">`);
    const second = await direct.send("GET", "/page");
    expect(String(second.headers["content-security-policy"])).not.toContain(nonce);
  });

  it("a PDF gets a policy its viewer can work with, framable only by this origin (the file preview) and without scripts", async () => {
    const pdf = await direct.send("GET", "/agreement.pdf");
    expect(pdf.headers["content-type"]).toBe("application/pdf");
    expect(pdf.headers["content-security-policy"]).toBe("default-src 'none'; object-src 'self'; frame-ancestors 'self'");
    expect(pdf.headers["x-frame-options"]).toBe("DENY");
    expect(pdf.headers["x-content-type-options"]).toBe("nosniff");
  });

  it("HSTS only over HTTPS, which behind a trusted proxy is X-Forwarded-Proto", async () => {
    expect((await direct.send("GET", "/page")).headers["strict-transport-security"]).toBeUndefined();
    expect((await direct.send("GET", "/page", { "X-Forwarded-Proto": "https" })).headers["strict-transport-security"]).toBeUndefined();
    expect((await proxied.send("GET", "/page", { "X-Forwarded-Proto": "https" })).headers["strict-transport-security"]).toMatch(/max-age=\d+/);
  });
});

describe("cross-site request forgery", () => {
  it("refuses a page post, a data post and an API call from another origin with 403, and changes nothing", async () => {
    const foreign = { Origin: "http://evil.example" };
    const page = await direct.send("POST", "/page", { ...form, ...foreign }, "a=1");
    expect(page.status).toBe(403);
    const data = await direct.send("POST", "/page?_data=routes%2Fpage", { ...form, ...foreign }, "a=1");
    expect(data.status).toBe(403);
    expect(JSON.parse(data.body)).toMatchObject({ error: "Forbidden" });
    const api = await direct.send("PATCH", "/api/echo", { "Content-Type": "application/json", Cookie: "token=abc", ...foreign }, "{}");
    expect(api.status).toBe(403);
    expect(api.body).not.toContain("changed");
  });

  it("refuses another port of the same host, a null origin and a cross-site Sec-Fetch-Site", async () => {
    const other = `http://127.0.0.1:${Number(new URL(direct.base()).port) + 1}`;
    const refused: Record<string, string>[] = [{ Origin: other }, { Origin: "null" }, { "Sec-Fetch-Site": "same-site" }, { "Sec-Fetch-Site": "cross-site" }];
    for (const headers of refused) {
      expect((await direct.send("POST", "/page", { ...form, ...headers }, "a=1")).status).toBe(403);
    }
  });

  it("lets through its own origin, Sec-Fetch-Site: same-origin, and a client that sends neither (curl, a server)", async () => {
    const accepted: Record<string, string>[] = [{ Origin: direct.base() }, { "Sec-Fetch-Site": "same-origin" }, {}];
    for (const headers of accepted) {
      const answer = await direct.send("POST", "/page?_data=routes%2Fpage", { ...form, ...headers }, "a=1");
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body)).toEqual({ saved: true });
    }
  });

  it("behind a trusted proxy, the forwarded scheme and host are the request's origin, and so is APP_URL", async () => {
    const forwarded = { "X-Forwarded-Proto": "https", "X-Forwarded-Host": "risk.internal:8443" };
    expect((await proxied.send("POST", "/page?_data=routes%2Fpage", { ...form, ...forwarded, Origin: "https://risk.internal:8443" }, "a=1")).status).toBe(200);
    expect((await proxied.send("POST", "/page?_data=routes%2Fpage", { ...form, ...forwarded, Origin: "http://risk.internal:8443" }, "a=1")).status).toBe(403);
    expect((await proxied.send("POST", "/page?_data=routes%2Fpage", { ...form, Origin: "https://risk.example" }, "a=1")).status).toBe(200);
    // Without TRUST_PROXY the forwarded headers are anyone's to send: they do not make an origin.
    expect((await direct.send("POST", "/page", { ...form, ...forwarded, Origin: "https://risk.internal:8443" }, "a=1")).status).toBe(403);
  });

  it("API calls signed in by the cookie must send JSON (or no body); Bearer calls are not bound to the cookie", async () => {
    const own = { Origin: direct.base(), Cookie: "token=abc" };
    expect((await direct.send("POST", "/api/echo", { ...own, "Content-Type": "text/plain" }, "{}")).status).toBe(415);
    expect((await direct.send("POST", "/api/echo", { ...own, "Content-Type": "multipart/form-data; boundary=x" }, "--x--")).status).toBe(415);
    expect((await direct.send("POST", "/api/echo", { Cookie: "token=abc", "Content-Type": "text/plain" }, "{}")).status).toBe(415);
    expect((await direct.send("POST", "/api/echo", { ...own, "Content-Type": "application/json; charset=utf-8" }, "{}")).status).toBe(200);
    expect((await direct.send("DELETE", "/api/echo", own)).status).toBe(200);
    const bearer = { Authorization: "Bearer abc", "Content-Type": "text/plain" };
    expect((await direct.send("POST", "/api/echo", bearer, "{}")).status).toBe(200);
    expect((await direct.send("POST", "/api/echo", { ...bearer, Origin: "http://evil.example", Cookie: "token=abc" }, "{}")).status).toBe(200);
  });
});

describe("latest-build indicator", () => {
  it("answers the running build's id, never cached", async () => {
    const answer = await direct.send("GET", "/_build/latest.json?t=1");
    expect(JSON.parse(answer.body)).toEqual({ id: "build-1" });
    expect(answer.headers["cache-control"]).toBe("no-store");
  });
});

describe("the rules without a server", () => {
  it("ownOrigins drops default ports and ignores forwarded hosts unless trusted", () => {
    expect([...ownOrigins({ protocol: "https", host: "risk.example:443", trustProxy: false })]).toEqual(["https://risk.example"]);
    expect([...ownOrigins({ protocol: "http", host: "a.example", forwardedHost: "b.example, c.example", trustProxy: true })]).toEqual(["http://b.example"]);
    expect([...ownOrigins({ protocol: "http", host: "a.example", forwardedHost: "b.example", trustProxy: false })]).toEqual(["http://a.example"]);
  });

  it("GET, HEAD and OPTIONS are never refused", () => {
    for (const method of ["GET", "HEAD", "OPTIONS"]) {
      expect(checkRequest({ method, path: "/page", header: (n) => (n === "origin" ? "http://evil.example" : undefined), ownOrigins: new Set() })).toEqual({
        ok: true,
      });
    }
  });

  it("styles may be inline, scripts may not", () => {
    const csp = contentSecurityPolicy("abc");
    expect(csp).toContain("style-src 'self' 'unsafe-inline'");
    expect(csp).toContain("script-src 'self' 'nonce-abc';");
    expect(csp).toContain("object-src 'none'");
  });
});
