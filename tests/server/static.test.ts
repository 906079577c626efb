import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "@server/app";
import { acceptedEncodings } from "@server/static";
import { servedSize, gzipSize } from "../../scripts/page-weight.mjs";
import { brotli, precompress } from "../../scripts/precompress.mjs";
import { fakeServerBuild } from "../helpers/fake-build";

/**
 * The build's assets as served ("compressed, brotli or gzip as served"): a tiny client folder,
 * precompressed by scripts/precompress.mjs, served by server/app.ts, asked for with and without brotli and gzip.
 */
const PAGE = `<!DOCTYPE html><html><body>${"<p>Supplier risk</p>".repeat(200)}</body></html>`;
const build = fakeServerBuild((_request, status) => new Response(PAGE, { status, headers: { "Content-Type": "text/html; charset=utf-8" } }));

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "static-test-"));
const assets = path.join(dir, "client/assets");
const files = {
  "app-1.js": `export function greet(name){return "Hello, "+name+"!"}\n`.repeat(200),
  "style-1.css": `.card{display:flex;padding:1rem;border-radius:.5rem}\n`.repeat(200),
  "icon-1.svg": `<svg xmlns="http://www.w3.org/2000/svg"><path d="M0 0h24v24H0z"/></svg>\n`.repeat(40),
  "late-1.js": `console.log("not precompressed");\n`.repeat(100),
};
fs.mkdirSync(assets, { recursive: true });
for (const [name, text] of Object.entries(files)) if (name !== "late-1.js") fs.writeFileSync(path.join(assets, name), text);
const summary = precompress(assets);
// An asset the precompression never saw (a build without it): compressed on the fly, as before.
fs.writeFileSync(path.join(assets, "late-1.js"), files["late-1.js"]);
// Outside the public folder (where the server build lives), with a brotli copy: never reachable.
fs.writeFileSync(path.join(dir, "secret.js"), "secret");
fs.writeFileSync(path.join(dir, "secret.js.br"), zlib.brotliCompressSync("secret"));

const server = createApp(build, { trustProxy: false, buildDir: dir }).listen(0, "127.0.0.1");

type Answer = { status: number; headers: http.IncomingHttpHeaders; body: Buffer };
function send(method: string, pathname: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(`http://127.0.0.1:${(server.address() as AddressInfo).port}${pathname}`, { method, headers });
    req.on("response", (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on("error", reject);
    req.end();
  });
}

const IMMUTABLE = "public, max-age=31536000, immutable";
const BROWSER = { "Accept-Encoding": "gzip, deflate, br, zstd" };

beforeAll(async () => {
  if (!server.listening) await new Promise((resolve) => server.once("listening", resolve));
});
afterAll(() => {
  server.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("scripts/precompress.mjs", () => {
  it("writes a brotli and a gzip copy beside each asset, smaller than it, decoding to it", () => {
    expect(summary.files).toBe(3);
    expect(summary.written).toBe(6);
    for (const name of ["app-1.js", "style-1.css", "icon-1.svg"]) {
      const original = fs.readFileSync(path.join(assets, name));
      const br = fs.readFileSync(path.join(assets, `${name}.br`));
      const gz = fs.readFileSync(path.join(assets, `${name}.gz`));
      expect(zlib.brotliDecompressSync(br).equals(original)).toBe(true);
      expect(zlib.gunzipSync(gz).equals(original)).toBe(true);
      expect(br.length).toBeLessThan(gz.length);
      expect(gz.length).toBeLessThan(original.length);
    }
  });

  it("leaves copies newer than their asset alone, and compresses what is new", () => {
    const again = precompress(assets);
    expect(again.written).toBe(2);
    expect(again.files).toBe(4);
    fs.rmSync(path.join(assets, "late-1.js.br"));
    fs.rmSync(path.join(assets, "late-1.js.gz"));
  });
});

describe("assets as served", () => {
  it("brotli to a browser that accepts it: the .br file as is, with the asset's type, Vary and a year of immutable caching", async () => {
    const answer = await send("GET", "/assets/app-1.js", BROWSER);
    expect(answer.status).toBe(200);
    expect(answer.headers["content-encoding"]).toBe("br");
    expect(answer.headers["content-type"]).toBe("application/javascript; charset=utf-8");
    expect(answer.headers["vary"]).toMatch(/Accept-Encoding/i);
    expect(answer.headers["cache-control"]).toBe(IMMUTABLE);
    expect(Number(answer.headers["content-length"])).toBe(fs.statSync(path.join(assets, "app-1.js.br")).size);
    // One brotli pass gives the script back: `compression()` did not compress it a second time.
    expect(zlib.brotliDecompressSync(answer.body).toString()).toBe(files["app-1.js"]);
  });

  it("CSS and SVG keep their own types", async () => {
    const css = await send("GET", "/assets/style-1.css", BROWSER);
    expect(css.headers["content-type"]).toBe("text/css; charset=utf-8");
    expect(zlib.brotliDecompressSync(css.body).toString()).toBe(files["style-1.css"]);
    const svg = await send("GET", "/assets/icon-1.svg", BROWSER);
    expect(svg.headers["content-type"]).toBe("image/svg+xml");
    expect(svg.headers["content-encoding"]).toBe("br");
  });

  it("gzip to a browser that accepts only gzip (or refuses brotli)", async () => {
    for (const accept of ["gzip", "gzip, deflate", "br;q=0, gzip"]) {
      const answer = await send("GET", "/assets/app-1.js", { "Accept-Encoding": accept });
      expect(answer.headers["content-encoding"], accept).toBe("gzip");
      expect(answer.headers["content-type"]).toBe("application/javascript; charset=utf-8");
      expect(answer.headers["cache-control"]).toBe(IMMUTABLE);
      expect(zlib.gunzipSync(answer.body).toString()).toBe(files["app-1.js"]);
    }
  });

  it("the file itself to a client that accepts neither, still with Vary and the same caching", async () => {
    for (const headers of [{} as Record<string, string>, { "Accept-Encoding": "identity" }, { "Accept-Encoding": "br;q=0, gzip;q=0" }]) {
      const answer = await send("GET", "/assets/app-1.js", headers);
      expect(answer.status).toBe(200);
      expect(answer.headers["content-encoding"]).toBeUndefined();
      expect(answer.headers["vary"]).toMatch(/Accept-Encoding/i);
      expect(answer.headers["cache-control"]).toBe(IMMUTABLE);
      expect(answer.body.toString()).toBe(files["app-1.js"]);
    }
  });

  it("HEAD answers the same headers without a body", async () => {
    const answer = await send("HEAD", "/assets/app-1.js", BROWSER);
    expect(answer.status).toBe(200);
    expect(answer.headers["content-encoding"]).toBe("br");
    expect(answer.headers["content-type"]).toBe("application/javascript; charset=utf-8");
    expect(Number(answer.headers["content-length"])).toBe(fs.statSync(path.join(assets, "app-1.js.br")).size);
    expect(answer.body.length).toBe(0);
  });

  it("each encoding has its own ETag, and a revalidation with it is a 304", async () => {
    const br = await send("GET", "/assets/app-1.js", BROWSER);
    const gz = await send("GET", "/assets/app-1.js", { "Accept-Encoding": "gzip" });
    const plain = await send("GET", "/assets/app-1.js");
    const tags = [br, gz, plain].map((a) => a.headers.etag);
    expect(new Set(tags).size).toBe(3);
    const again = await send("GET", "/assets/app-1.js", { ...BROWSER, "If-None-Match": String(br.headers.etag) });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    // The brotli validator does not make the gzip answer fresh.
    expect((await send("GET", "/assets/app-1.js", { "Accept-Encoding": "gzip", "If-None-Match": String(br.headers.etag) })).status).toBe(200);
  });

  it("a range request gets the whole file (ranges of compressed bytes are not offered)", async () => {
    const answer = await send("GET", "/assets/app-1.js", { ...BROWSER, Range: "bytes=0-9" });
    expect(answer.status).toBe(200);
    expect(answer.headers["accept-ranges"]).toBeUndefined();
    expect(zlib.brotliDecompressSync(answer.body).toString()).toBe(files["app-1.js"]);
  });

  it("an asset without precompressed copies is compressed on the fly, once", async () => {
    const answer = await send("GET", "/assets/late-1.js", BROWSER);
    expect(answer.status).toBe(200);
    expect(answer.headers["content-encoding"]).toBe("br");
    expect(zlib.brotliDecompressSync(answer.body).toString()).toBe(files["late-1.js"]);
  });

  it("a missing asset is a 404, and nothing outside the public folder is reachable", async () => {
    const missing = await send("GET", "/assets/none-1.js", BROWSER);
    expect(missing.status).toBe(404);
    expect(missing.headers["cache-control"]).not.toBe(IMMUTABLE);
    for (const address of [
      "/assets/..%2F..%2Fsecret.js",
      "/assets/%2e%2e/%2e%2e/secret.js",
      "/assets/..%5c..%5csecret.js",
      "/assets/%2e%2e%2f%2e%2e%2fsecret.js",
    ]) {
      const answer = await send("GET", address, BROWSER);
      expect(answer.body.toString(), address).not.toContain("secret");
      if (answer.headers["content-encoding"] === "br") expect(zlib.brotliDecompressSync(answer.body).toString(), address).not.toBe("secret");
    }
  });
});

describe("pages", () => {
  it("are compressed on the fly: brotli when the browser accepts it, gzip otherwise", async () => {
    const br = await send("GET", "/", BROWSER);
    expect(br.headers["content-encoding"]).toBe("br");
    expect(zlib.brotliDecompressSync(br.body).toString()).toBe(PAGE);
    const gz = await send("GET", "/", { "Accept-Encoding": "gzip" });
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(zlib.gunzipSync(gz.body).toString()).toBe(PAGE);
  });
});

describe("scripts/page-weight.mjs", () => {
  it("weighs an asset as served: its .br (or .gz) copy, or the same compression in memory when there is none", () => {
    expect(servedSize("assets/app-1.js", dir)).toBe(fs.statSync(path.join(assets, "app-1.js.br")).size);
    expect(gzipSize("assets/app-1.js", dir)).toBe(fs.statSync(path.join(assets, "app-1.js.gz")).size);
    expect(servedSize("assets/late-1.js", dir)).toBe(brotli(Buffer.from(files["late-1.js"])).length);
    expect(servedSize("assets/late-1.js", dir)).toBeLessThan(gzipSize("assets/late-1.js", dir));
  });
});

describe("acceptedEncodings", () => {
  it("brotli first, q-values and * honoured, q=0 refused", () => {
    expect(acceptedEncodings(undefined)).toEqual([]);
    expect(acceptedEncodings("")).toEqual([]);
    expect(acceptedEncodings("gzip, deflate, br")).toEqual(["br", "gzip"]);
    expect(acceptedEncodings("gzip;q=1.0, br;q=0.5")).toEqual(["gzip", "br"]);
    expect(acceptedEncodings("BR;Q=0, gzip")).toEqual(["gzip"]);
    expect(acceptedEncodings("*")).toEqual(["br", "gzip"]);
    expect(acceptedEncodings("*;q=0, identity")).toEqual([]);
    expect(acceptedEncodings("x-gzip")).toEqual(["gzip"]);
  });
});
