import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeFeed, FeedError, htmlToText, parseFeed, readFeed, type FeedRead } from "@server/monitoring/news/feed";
import { checkFeedUrl, checkFeedUrlForm, isPrivateAddress } from "@server/monitoring/news/url";
import { listenOnLoopback } from "../helpers/loopback";

/**
 * The RSS/Atom reader against recorded feeds served on loopback (tests/fixtures/news, written for the tests from the
 * RSS 2.0 and Atom 1.0 specifications): both formats, a broken item, Windows-1252 and ISO-8859-1, a 304 Not Modified,
 * a timeout, answers that are not XML or not a feed, a size cap, redirects, and the URL rules (SSRF).
 */

const fixture = (name: string) => fs.readFileSync(path.join(__dirname, "../fixtures/news", name));

// A Norwegian feed saved in Windows-1252 (€ is 0x80 there; æøå are the Latin-1 bytes).
const CP1252 = Buffer.from(
  `<?xml version="1.0" encoding="windows-1252"?>
<rss version="2.0"><channel><title>Lokalavis på Windows-1252</title>
<item><title>Bjørnstad Maskin AS får bot på 50 000 \u0080 \u0096 \u0093sier\u0094</title><link>https://lokal.example.test/1</link>
<description>Årsaken er brudd på miljøreglene.</description></item>
</channel></rss>`,
  "latin1",
);
const LATIN1 = Buffer.from(
  `<?xml version="1.0"?><rss version="2.0"><channel><title>Østlandsposten</title><item><title>Ærlig talt: Åpent brev</title><guid>l1</guid></item></channel></rss>`,
  "latin1",
);

let base = "";
let close: () => Promise<void>;
const seen: Record<string, http.IncomingHttpHeaders> = {};

beforeAll(async () => {
  const server = http.createServer((req, res) => {
    const url = req.url ?? "/";
    seen[url] = req.headers;
    const send = (status: number, type: string | null, body: Buffer | string, headers: Record<string, string> = {}) => {
      res.writeHead(status, { ...(type ? { "Content-Type": type } : {}), ...headers });
      res.end(body);
    };
    switch (url) {
      case "/rss.xml":
        return send(200, "application/rss+xml", fixture("rss.xml"));
      case "/atom.xml":
        return send(200, "application/atom+xml; charset=utf-8", fixture("atom.xml"));
      case "/broken.xml":
        return send(200, "text/xml", fixture("broken-item.xml"));
      case "/cp1252.xml":
        return send(200, "text/xml", CP1252);
      case "/latin1.xml":
        return send(200, "application/xml; charset=ISO-8859-1", LATIN1);
      case "/etag.xml":
        if (req.headers["if-none-match"] === '"v1"') return send(304, null, "", { ETag: '"v1"' });
        return send(200, "application/rss+xml", fixture("rss.xml"), { ETag: '"v1"', "Last-Modified": "Mon, 23 Nov 2026 08:00:00 GMT" });
      case "/slow.xml":
        return; // never answers
      case "/page.html":
        return send(200, "text/html; charset=utf-8", "<!doctype html><html><body>Not a feed</body></html>");
      case "/plain.txt":
        return send(200, "text/plain", "Service temporarily unavailable");
      case "/data.json":
        return send(200, "application/json", '{"items":[]}');
      case "/html-as-xml.xml":
        return send(200, "application/xml", "<html><body>Not a feed</body></html>");
      case "/unclosed.xml":
        return send(200, "application/rss+xml", "<rss><channel><title>Broken</title><item></channel></rss>");
      case "/entities.xml":
        return send(200, "application/rss+xml", '<?xml version="1.0"?><!DOCTYPE r [<!ENTITY a "aaaa">]><rss><channel><title>&a;</title></channel></rss>');
      case "/big.xml":
        return send(200, "application/rss+xml", `<rss><channel><title>${"x".repeat(5000)}</title></channel></rss>`);
      case "/gzip.xml":
        return send(200, "application/rss+xml", zlib.gzipSync(fixture("rss.xml")), { "Content-Encoding": "gzip" });
      case "/moved":
        return send(301, null, "", { Location: "/atom.xml" });
      case "/loop":
        return send(302, null, "", { Location: "/loop" });
      case "/unknown-charset.xml":
        return send(200, "text/xml; charset=x-klingon", "<rss/>");
      default:
        return send(404, "text/plain", "Not found");
    }
  });
  ({ baseUrl: base, close } = await listenOnLoopback(server));
});

afterAll(() => close());

async function failure(promise: Promise<unknown>): Promise<FeedError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof FeedError) return error;
    throw error;
  }
  throw new Error("expected a FeedError");
}

const ok = (read: FeedRead) => {
  if (read.status !== "ok") throw new Error(`expected ok, got ${read.status}`);
  return read;
};

describe("readFeed over HTTP", () => {
  it("reads RSS 2.0: entities, CDATA, HTML stripped, dates, an item without a title", async () => {
    const read = ok(await readFeed(`${base}/rss.xml`));
    expect(read.format).toBe("rss");
    expect(read.title).toBe("Fixture Næringsnytt");
    expect(read.items).toEqual([
      {
        guid: "fixture-rss-1",
        link: "https://news.example.test/eltera-konkurs",
        title: "Eltera AS slått konkurs",
        summary: "Bobestyrer er oppnevnt for Eltera AS & datterselskapene.",
        date: "2026-11-23T07:30:00.000Z",
      },
      {
        guid: "https://news.example.test/vinmonopolet",
        link: "https://news.example.test/vinmonopolet",
        title: "Vinmonopolet & leverandørene: nye avtaler",
        summary: "Avtalene gjelder fra januar .",
        date: "2026-11-22T10:00:00.000Z",
      },
      {
        guid: "fixture-rss-3",
        link: null,
        title: "An item without a title still has a summary that can stand in for its headline.",
        summary: "",
        date: null,
      },
    ]);
    expect(read.skipped).toEqual([]);
    expect(seen["/rss.xml"]!["user-agent"]).toMatch(/NewsMonitor/);
  });

  it("reads Atom 1.0: the alternate link, html title and summary as text, updated or published", async () => {
    const read = ok(await readFeed(`${base}/atom.xml`));
    expect(read.format).toBe("atom");
    expect(read.title).toBe("Fixture Industry Wire");
    expect(read.items.map((i) => [i.title, i.link, i.summary, i.date, i.guid])).toEqual([
      [
        "Aneo charged with bribery in tender case",
        "https://wire.example.test/aneo-bribery",
        "Prosecutors say the company paid €2 million.",
        "2026-11-23T08:00:00.000Z",
        "urn:uuid:1f4b1c6e-0000-4000-8000-000000000002",
      ],
      [
        "Svipp opens in Bergen",
        "https://wire.example.test/svipp-bergen",
        "Neutral news.",
        "2026-11-20T11:00:00.000Z",
        "urn:uuid:1f4b1c6e-0000-4000-8000-000000000003",
      ],
    ]);
  });

  it("skips a broken item with its reason and keeps the rest", async () => {
    const read = ok(await readFeed(`${base}/broken.xml`));
    expect(read.items.map((i) => [i.title, i.link, i.date])).toEqual([
      ["First good item about Eltera", "https://news.example.test/good-1", null],
      ["Last good item", "https://news.example.test/good-2", null],
    ]);
    expect(read.skipped).toEqual([
      { index: 1, reason: "not_an_item" },
      { index: 2, reason: "no_title" },
    ]);
  });

  it("decodes Windows-1252 by the XML declaration and ISO-8859-1 by the HTTP charset", async () => {
    const cp = ok(await readFeed(`${base}/cp1252.xml`));
    expect(cp.title).toBe("Lokalavis på Windows-1252");
    expect(cp.items[0]).toMatchObject({ title: "Bjørnstad Maskin AS får bot på 50 000 € – “sier”", summary: "Årsaken er brudd på miljøreglene." });
    const latin = ok(await readFeed(`${base}/latin1.xml`));
    expect([latin.title, latin.items[0]!.title]).toEqual(["Østlandsposten", "Ærlig talt: Åpent brev"]);
  });

  it("asks conditionally and answers not_modified on a 304, keeping the validators", async () => {
    const first = ok(await readFeed(`${base}/etag.xml`));
    expect([first.etag, first.lastModified]).toEqual(['"v1"', "Mon, 23 Nov 2026 08:00:00 GMT"]);
    const second = await readFeed(`${base}/etag.xml`, { etag: first.etag, lastModified: first.lastModified });
    expect(second).toEqual({ status: "not_modified", etag: '"v1"', lastModified: "Mon, 23 Nov 2026 08:00:00 GMT", url: `${base}/etag.xml` });
    expect(seen["/etag.xml"]!["if-modified-since"]).toBe("Mon, 23 Nov 2026 08:00:00 GMT");
  });

  it("gives up after the timeout", async () => {
    const started = Date.now();
    expect((await failure(readFeed(`${base}/slow.xml`, { timeoutMs: 300 }))).code).toBe("timeout");
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it.each([
    ["/page.html", "not_a_feed"],
    ["/data.json", "not_a_feed"],
    ["/plain.txt", "not_xml"],
    ["/html-as-xml.xml", "not_a_feed"],
    ["/unclosed.xml", "not_xml"],
    ["/entities.xml", "not_xml"],
    ["/unknown-charset.xml", "unsupported_charset"],
    ["/loop", "too_many_redirects"],
  ])("refuses %s as %s", async (route, code) => {
    expect((await failure(readFeed(`${base}${route}`))).code).toBe(code);
  });

  it("reports the HTTP status of an error answer", async () => {
    const error = await failure(readFeed(`${base}/missing.xml`));
    expect([error.code, error.detail]).toEqual(["http_status", "404"]);
  });

  it("caps the size, also after decompression, and reads a gzip answer", async () => {
    expect((await failure(readFeed(`${base}/big.xml`, { maxBytes: 1000 }))).code).toBe("too_large");
    expect(ok(await readFeed(`${base}/gzip.xml`)).items).toHaveLength(3);
    expect((await failure(readFeed(`${base}/gzip.xml`, { maxBytes: 500 }))).code).toBe("too_large");
  });

  it("follows a redirect", async () => {
    const read = ok(await readFeed(`${base}/moved`));
    expect([read.format, read.url]).toEqual(["atom", `${base}/atom.xml`]);
  });

  it("refuses loopback when private addresses are not allowed (production)", async () => {
    expect((await failure(readFeed(`${base}/rss.xml`, { allowPrivate: false }))).code).toBe("private_address");
  });

  it("is stopped by the caller's signal", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("stopping")), 100);
    await expect(readFeed(`${base}/slow.xml`, { signal: controller.signal, timeoutMs: 5000 })).rejects.toThrow("stopping");
  });
});

describe("the pieces", () => {
  it("decodes a UTF-8 byte-order mark and UTF-16", () => {
    expect(decodeFeed(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("<rss>æ</rss>")]))).toBe("<rss>æ</rss>");
    expect(decodeFeed(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("<rss>ø</rss>", "utf16le")]))).toBe("<rss>ø</rss>");
  });

  it("turns HTML into text", () => {
    expect(htmlToText("<p>A&nbsp;&amp;&#160;B</p><style>p{}</style><!-- x --><br/>C&#x2013;D &unknown;")).toBe("A & B C–D &unknown;");
  });

  it("parses text without HTTP", () => {
    expect(() => parseFeed("not xml at all")).toThrow(FeedError);
    expect(parseFeed('<feed xmlns="http://www.w3.org/2005/Atom"><title>Empty</title></feed>')).toEqual({
      format: "atom",
      title: "Empty",
      items: [],
      skipped: [],
    });
  });
});

describe("feed URLs (SSRF)", () => {
  it.each([
    ["ftp://example.com/feed.xml", "scheme"],
    ["file:///etc/passwd", "scheme"],
    ["javascript:alert(1)", "scheme"],
    ["https://user:secret@example.com/feed", "credentials"],
    ["not a url", "invalid"],
    [`https://example.com/${"a".repeat(2001)}`, "too_long"],
  ])("%s → %s", (url, problem) => expect(checkFeedUrlForm(url).problem).toBe(problem));

  it.each([
    ["http://127.0.0.1/feed", "private_address"],
    ["http://localhost:3000/feed", "private_address"],
    ["http://10.1.2.3/feed", "private_address"],
    ["http://192.168.0.10/feed", "private_address"],
    ["http://169.254.169.254/latest/meta-data", "private_address"],
    ["http://[::1]/feed", "private_address"],
    ["http://[::ffff:127.0.0.1]/feed", "private_address"],
    ["http://[fd00::1]/feed", "private_address"],
    ["http://0.0.0.0/feed", "private_address"],
  ])("in production %s → %s", async (url, problem) => {
    expect((await checkFeedUrl(url, false)).problem).toBe(problem);
    expect((await checkFeedUrl(url, true)).problem).toBeNull();
  });

  it("tells public from private addresses", () => {
    expect(["8.8.8.8", "151.101.1.69", "2001:4860:4860::8888"].map(isPrivateAddress)).toEqual([false, false, false]);
    expect(["172.16.0.1", "172.31.255.255", "100.64.0.1", "224.0.0.1", "fe80::1", "not-an-ip"].map(isPrivateAddress)).toEqual([
      true,
      true,
      true,
      true,
      true,
      true,
    ]);
  });
});
