import http from "node:http";
import https from "node:https";
import zlib from "node:zlib";
import type { Readable } from "node:stream";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { checkFeedUrl, ownDemoFeedUrl, privateAddressesAllowed, publicOnlyLookup, type FeedUrlProblem } from "./url";
import { textDecoder, type Decoder } from "../../text-decoding";

/**
 * The RSS 2.0 / Atom 1.0 reader of the news monitor (decision 024): one HTTP GET (conditional when an ETag or
 * Last-Modified is known), with a timeout, a size cap (after decompression), a content-type check and at most three
 * redirects, each checked like the URL itself; the bytes decoded by BOM, HTTP charset or XML declaration (UTF-8,
 * UTF-16, Windows-1252, ISO-8859-1…); parsed by fast-xml-parser. An item that cannot be used is skipped with a reason
 * and the rest are kept. Summaries are reduced to plain text.
 */

export type FeedErrorCode =
  | FeedUrlProblem
  | "network"
  | "timeout"
  | "http_status"
  | "too_large"
  | "too_many_redirects"
  | "not_a_feed"
  | "not_xml"
  | "unsupported_charset";

/** Why a feed could not be read; `code` is a key of the feeds screen's messages, `detail` its parameter (an HTTP status). */
export class FeedError extends Error {
  constructor(
    public code: FeedErrorCode,
    public detail?: string,
  ) {
    super(detail ? `${code}: ${detail}` : code);
    this.name = "FeedError";
  }
}

export interface FeedItem {
  guid: string | null;
  link: string | null;
  title: string;
  summary: string;
  /** ISO 8601, or null when the feed gives none (or one that cannot be read). */
  date: string | null;
}

export type SkipReason = "not_an_item" | "no_title" | "no_identity";

export interface ParsedFeed {
  format: "rss" | "atom";
  title: string | null;
  items: FeedItem[];
  /** The items left out, by position in the feed (0-based), and why. */
  skipped: Array<{ index: number; reason: SkipReason }>;
}

export type FeedRead =
  | ({ status: "ok"; etag: string | null; lastModified: string | null; url: string } & ParsedFeed)
  | { status: "not_modified"; etag: string | null; lastModified: string | null; url: string };

export interface ReadOptions {
  etag?: string | null;
  lastModified?: string | null;
  signal?: AbortSignal;
  timeoutMs?: number;
  maxBytes?: number;
  allowPrivate?: boolean;
}

export const FEED_TIMEOUT_MS = 10_000;
export const FEED_MAX_BYTES = 2 * 1024 * 1024;
const MAX_REDIRECTS = 3;
const USER_AGENT = "SupplierRiskNewsMonitor/1.0 (+RSS/Atom reader)";

const ACCEPT = "application/rss+xml, application/atom+xml, application/xml;q=0.9, text/xml;q=0.9, */*;q=0.1";

/** Content types that are certainly not a feed; anything XML-like, text/plain, octet-stream or none is sniffed instead. */
function refusedContentType(contentType: string): boolean {
  const type = contentType.split(";")[0]!.trim().toLowerCase();
  if (!type || type.includes("xml") || type === "text/plain" || type === "application/octet-stream") return false;
  return true;
}

interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

function decompress(response: http.IncomingMessage): Readable {
  const encoding = String(response.headers["content-encoding"] ?? "").toLowerCase();
  if (encoding === "gzip" || encoding === "x-gzip") return response.pipe(zlib.createGunzip());
  if (encoding === "deflate") return response.pipe(zlib.createInflate());
  if (encoding === "br") return response.pipe(zlib.createBrotliDecompress());
  return response;
}

function requestOnce(url: URL, headers: Record<string, string>, signal: AbortSignal, maxBytes: number, allowPrivate: boolean): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const client = url.protocol === "https:" ? https : http;
    const req = client.request(url, { method: "GET", headers, signal, lookup: publicOnlyLookup(allowPrivate) }, (response) => {
      const status = response.statusCode ?? 0;
      // Only a 200 has a body worth reading; the rest are decided by status and headers.
      if (status !== 200) {
        response.resume();
        resolve({ status, headers: response.headers, body: Buffer.alloc(0) });
        return;
      }
      if (refusedContentType(String(response.headers["content-type"] ?? ""))) {
        response.destroy();
        reject(new FeedError("not_a_feed", String(response.headers["content-type"])));
        return;
      }
      const declared = Number(response.headers["content-length"]);
      if (Number.isFinite(declared) && declared > maxBytes && !response.headers["content-encoding"]) {
        response.destroy();
        reject(new FeedError("too_large"));
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      const stream = decompress(response);
      stream.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBytes) {
          response.destroy();
          stream.destroy();
          reject(new FeedError("too_large"));
          return;
        }
        chunks.push(chunk);
      });
      stream.on("end", () => resolve({ status, headers: response.headers, body: Buffer.concat(chunks) }));
      stream.on("error", (error) => reject(signal.aborted ? signal.reason : new FeedError("network", error.message)));
      response.on("error", (error) => reject(signal.aborted ? signal.reason : new FeedError("network", error.message)));
    });
    req.on("error", (error: NodeJS.ErrnoException) => {
      if (signal.aborted) return reject(signal.reason);
      if (error.code === "EPRIVATE") return reject(new FeedError("private_address"));
      if (error.code === "ENOTFOUND" || error.code === "EAI_AGAIN") return reject(new FeedError("unresolvable"));
      reject(new FeedError("network", error.code ?? error.message));
    });
    req.end();
  });
}

/** Reads a feed: `not_modified` on a 304; throws FeedError for everything that keeps it from being read. */
export async function readFeed(address: string, options: ReadOptions = {}): Promise<FeedRead> {
  const allowPrivate = options.allowPrivate ?? privateAddressesAllowed();
  const maxBytes = options.maxBytes ?? FEED_MAX_BYTES;
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(new FeedError("timeout")), options.timeoutMs ?? FEED_TIMEOUT_MS);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout.signal]) : timeout.signal;
  try {
    let current = address;
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      const own = ownDemoFeedUrl(current);
      const checked = own ? { url: own, problem: null } : await checkFeedUrl(current, allowPrivate);
      if (!checked.url) throw new FeedError(checked.problem);
      const headers: Record<string, string> = { Accept: ACCEPT, "User-Agent": USER_AGENT, "Accept-Encoding": "gzip, deflate, br" };
      // The validators belong to the URL they came from: only sent to it.
      if (hop === 0 && options.etag) headers["If-None-Match"] = options.etag;
      if (hop === 0 && options.lastModified) headers["If-Modified-Since"] = options.lastModified;
      const response = await requestOnce(checked.url, headers, signal, maxBytes, allowPrivate || own !== null);
      if ([301, 302, 303, 307, 308].includes(response.status) && response.headers.location && !own) {
        current = new URL(response.headers.location, checked.url).toString();
        continue;
      }
      const etag = (response.headers.etag as string | undefined) ?? null;
      const lastModified = (response.headers["last-modified"] as string | undefined) ?? null;
      if (response.status === 304)
        return { status: "not_modified", etag: etag ?? options.etag ?? null, lastModified: lastModified ?? options.lastModified ?? null, url: current };
      if (response.status !== 200) throw new FeedError("http_status", String(response.status));
      const text = decodeFeed(response.body, String(response.headers["content-type"] ?? ""));
      return { status: "ok", etag, lastModified, url: current, ...parseFeed(text) };
    }
    throw new FeedError("too_many_redirects");
  } catch (error) {
    if (error instanceof FeedError) throw error;
    if (timeout.signal.aborted) throw new FeedError("timeout");
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/** The charset named by a Content-Type header, or null. */
function httpCharset(contentType: string): string | null {
  const match = contentType.match(/charset\s*=\s*"?([\w.:-]+)"?/i);
  return match ? match[1]!.toLowerCase() : null;
}

/** The encoding of an XML declaration (read as ASCII from the first bytes), or null. */
function declaredCharset(bytes: Buffer): string | null {
  const head = bytes.subarray(0, 256).toString("latin1");
  const match = head.match(/^\s*<\?xml[^>]*\bencoding\s*=\s*["']([\w.:-]+)["']/i);
  return match ? match[1]!.toLowerCase() : null;
}

/**
 * Bytes to text, by the rules of RFC 7303 as browsers apply them: a byte-order mark first, then the HTTP charset,
 * then the XML declaration, else UTF-8. A charset the platform cannot decode is an error, not mojibake.
 */
export function decodeFeed(bytes: Buffer, contentType = ""): string {
  let label: string;
  let start = 0;
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    label = "utf-8";
    start = 3;
  } else if (bytes[0] === 0xff && bytes[1] === 0xfe) {
    label = "utf-16le";
    start = 2;
  } else if (bytes[0] === 0xfe && bytes[1] === 0xff) {
    label = "utf-16be";
    start = 2;
  } else label = httpCharset(contentType) ?? declaredCharset(bytes) ?? "utf-8";
  let decoder: Decoder;
  try {
    decoder = textDecoder(label);
  } catch {
    throw new FeedError("unsupported_charset", label);
  }
  // ISO-8859-1 and ASCII labels read as Windows-1252 too (the Encoding Standard), through textDecoder.
  return decoder.decode(bytes.subarray(start));
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@_",
  textNodeName: "#text",
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  processEntities: true,
  htmlEntities: true,
  isArray: (name) => ["item", "entry", "link", "category"].includes(name),
});

type Node = Record<string, unknown>;

function isNode(value: unknown): value is Node {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The text of an element whatever its shape: a string, `{#text, @_type}`, or the first of several. */
function textOf(value: unknown): string {
  if (Array.isArray(value)) return textOf(value[0]);
  if (typeof value === "string" || typeof value === "number") return String(value);
  if (isNode(value)) return textOf(value["#text"] ?? "");
  return "";
}

const NAMED_ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  aelig: "æ",
  AElig: "Æ",
  oslash: "ø",
  Oslash: "Ø",
  aring: "å",
  Aring: "Å",
  auml: "ä",
  ouml: "ö",
  uuml: "ü",
  eacute: "é",
  egrave: "è",
  hellip: "…",
  ndash: "–",
  mdash: "—",
  laquo: "«",
  raquo: "»",
  lsquo: "‘",
  rsquo: "’",
  ldquo: "“",
  rdquo: "”",
  copy: "©",
  reg: "®",
  euro: "€",
};

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === "#") {
      const code = name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : "";
    }
    return NAMED_ENTITIES[name] ?? whole;
  });
}

/** HTML (as summaries and Atom content often are) to plain text: scripts and styles dropped, tags to spaces, entities decoded. */
export function htmlToText(html: string): string {
  return (
    decodeEntities(
      html
        .replace(/<!--[\s\S]*?-->/g, " ")
        .replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, " ")
        .replace(/<\/?[a-z][^>]*>/gi, " "),
    )
      // eslint-disable-next-line no-control-regex -- control characters are exactly what is removed here
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, "")
      .replace(/\s+/g, " ")
      .trim()
  );
}

function httpUrl(text: string): string | null {
  try {
    const url = new URL(text.trim());
    return url.protocol === "http:" || url.protocol === "https:" ? url.toString() : null;
  } catch {
    return null;
  }
}

function isoDate(text: string): string | null {
  if (!text.trim()) return null;
  const time = Date.parse(text.trim());
  return Number.isNaN(time) ? null : new Date(time).toISOString();
}

const MAX_SUMMARY = 2000;
const MAX_TITLE = 500;

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;
}

function atomLink(links: unknown): string | null {
  const list = Array.isArray(links) ? links : [links];
  const candidates = list.filter(isNode);
  const alternate = candidates.find((l) => !l["@_rel"] || l["@_rel"] === "alternate") ?? candidates[0];
  return alternate ? httpUrl(String(alternate["@_href"] ?? "")) : null;
}

function toItem(node: unknown, format: "rss" | "atom"): FeedItem | SkipReason {
  if (!isNode(node)) return "not_an_item";
  const title = clip(htmlToText(textOf(node.title)), MAX_TITLE);
  const summarySource = format === "rss" ? textOf(node.description) || textOf(node["content:encoded"]) : textOf(node.summary) || textOf(node.content);
  const summary = clip(htmlToText(summarySource), MAX_SUMMARY);
  const link = format === "rss" ? httpUrl(textOf(node.link)) : atomLink(node.link);
  const guid = (format === "rss" ? textOf(node.guid) : textOf(node.id)).trim() || null;
  const date = isoDate(format === "rss" ? textOf(node.pubDate) || textOf(node["dc:date"]) : textOf(node.updated) || textOf(node.published));
  // A headline is what the notification shows; a summary can stand in for it (RSS allows an item without a title).
  const headline = title || clip(summary, 160);
  if (!headline) return "no_title";
  if (!guid && !link && !title) return "no_identity";
  return { guid, link, title: headline, summary: title ? summary : "", date };
}

/** Parses RSS 2.0 or Atom 1.0 text; throws FeedError `not_xml` or `not_a_feed`. */
export function parseFeed(text: string): ParsedFeed {
  const trimmed = text.replace(/^\uFEFF/, "").trimStart();
  if (!trimmed.startsWith("<")) throw new FeedError("not_xml");
  // Feeds never declare entities; refusing them rules out entity-expansion attacks whatever the parser's limits.
  if (/<!ENTITY/i.test(trimmed)) throw new FeedError("not_xml", "entity declarations");
  if (XMLValidator.validate(trimmed) !== true) throw new FeedError("not_xml");
  let doc: Node;
  try {
    doc = parser.parse(trimmed) as Node;
  } catch {
    throw new FeedError("not_xml");
  }
  let format: "rss" | "atom";
  let title: string;
  let nodes: unknown[];
  if (isNode(doc.rss) && isNode(doc.rss.channel)) {
    const channel = doc.rss.channel;
    format = "rss";
    title = htmlToText(textOf(channel.title));
    nodes = Array.isArray(channel.item) ? channel.item : [];
  } else if (isNode(doc.feed)) {
    format = "atom";
    title = htmlToText(textOf(doc.feed.title));
    nodes = Array.isArray(doc.feed.entry) ? doc.feed.entry : [];
  } else throw new FeedError("not_a_feed");
  const items: FeedItem[] = [];
  const skipped: ParsedFeed["skipped"] = [];
  nodes.forEach((node, index) => {
    const item = toItem(node, format);
    if (typeof item === "string") skipped.push({ index, reason: item });
    else items.push(item);
  });
  return { format, title: title || null, items, skipped };
}
