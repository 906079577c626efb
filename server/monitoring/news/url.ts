import dns from "node:dns";
import net from "node:net";
import { newsFeedsEnvSchema } from "../../env";

/**
 * Which feed URLs the news monitor may read (decision 024). A feed URL is typed by an organisation's administrator and
 * then fetched by the server, so it is a way to make the server send requests (SSRF): only http(s), no credentials in
 * the URL, and — in production, unless NEWS_FEEDS_ALLOW_PRIVATE says otherwise — no loopback, private, link-local or
 * other non-public address, checked when the URL is saved and again at every connection (the reader resolves the name
 * itself and refuses a private answer, so a name that later points inside cannot be used either).
 */

export type FeedUrlProblem = "invalid" | "scheme" | "credentials" | "too_long" | "private_address" | "unresolvable";

export const MAX_FEED_URL_LENGTH = 2000;

/** Private addresses are refused in production unless NEWS_FEEDS_ALLOW_PRIVATE=true; development and tests read loopback feeds. */
export function privateAddressesAllowed(): boolean {
  const parsed = newsFeedsEnvSchema.safeParse(process.env);
  if (!parsed.success) return false;
  return parsed.data.NEWS_FEEDS_ALLOW_PRIVATE || parsed.data.NODE_ENV !== "production";
}

/** The URL's form alone: http(s), a host, no user or password, not too long. */
export function checkFeedUrlForm(input: string): { url: URL; problem: null } | { url: null; problem: FeedUrlProblem } {
  const text = input.trim();
  if (text.length > MAX_FEED_URL_LENGTH) return { url: null, problem: "too_long" };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { url: null, problem: "invalid" };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return { url: null, problem: "scheme" };
  if (url.username || url.password) return { url: null, problem: "credentials" };
  if (!url.hostname) return { url: null, problem: "invalid" };
  url.hash = "";
  return { url, problem: null };
}

function ipv4Private(address: string): boolean {
  const [a, b] = address.split(".").map(Number) as [number, number];
  return (
    a === 0 ||
    a === 10 ||
    a === 127 ||
    (a === 100 && b >= 64 && b <= 127) ||
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 192 && b === 0) ||
    (a === 198 && (b === 18 || b === 19)) ||
    a >= 224
  );
}

/** Loopback, private, link-local, CGNAT, multicast, reserved: anything that is not a public unicast address. */
export function isPrivateAddress(address: string): boolean {
  const kind = net.isIP(address);
  if (kind === 4) return ipv4Private(address);
  if (kind !== 6) return true;
  const lower = address.toLowerCase();
  const mapped = lower.match(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/);
  if (mapped) return ipv4Private(mapped[1]!);
  if (lower === "::" || lower === "::1") return true;
  const first = parseInt(lower.split(":")[0] || "0", 16);
  // 0000::/16 holds no public address and carries the IPv4-compatible form ("::7f00:1" is 127.0.0.1), fc00::/7 unique
  // local, fe80::/10 link-local, ff00::/8 multicast, and the IPv4-mapped/translated forms.
  return (
    first === 0 ||
    (first & 0xfe00) === 0xfc00 ||
    (first & 0xffc0) === 0xfe80 ||
    (first & 0xff00) === 0xff00 ||
    lower.startsWith("::ffff:") ||
    lower.startsWith("64:ff9b:")
  );
}

function hostOf(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, "");
}

/**
 * The URL's form and where it points: a private address (a literal, or any address the name resolves to) is refused
 * unless allowed. A name that does not resolve is reported, so the administrator can correct a typo.
 */
export async function checkFeedUrl(
  input: string,
  allowPrivate = privateAddressesAllowed(),
): Promise<{ url: URL; problem: null } | { url: null; problem: FeedUrlProblem }> {
  const form = checkFeedUrlForm(input);
  if (!form.url) return form;
  const host = hostOf(form.url);
  if (allowPrivate) return form;
  if (host === "localhost" || host.endsWith(".localhost")) return { url: null, problem: "private_address" };
  if (net.isIP(host)) return isPrivateAddress(host) ? { url: null, problem: "private_address" } : form;
  let addresses: dns.LookupAddress[];
  try {
    addresses = await dns.promises.lookup(host, { all: true });
  } catch {
    return { url: null, problem: "unresolvable" };
  }
  if (addresses.length === 0) return { url: null, problem: "unresolvable" };
  if (addresses.some((a) => isPrivateAddress(a.address))) return { url: null, problem: "private_address" };
  return form;
}

/**
 * A `lookup` for node:http that refuses private answers at connection time (so a name resolved again between the
 * check and the request cannot point inside).
 */
export function publicOnlyLookup(allowPrivate: boolean): net.LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, "", 0);
      const list = addresses as dns.LookupAddress[];
      const bad = !allowPrivate && list.some((a) => isPrivateAddress(a.address));
      if (bad || list.length === 0) {
        const refused = Object.assign(new Error(`${hostname} resolves to a private address`), { code: "EPRIVATE" });
        return callback(refused as NodeJS.ErrnoException, "", 0);
      }
      if (options.all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list);
      callback(null, list[0]!.address, list[0]!.family);
    });
  };
}

/** The path of the app's own recorded demo feeds (app/routes/demo-feeds.$file.ts). */
export const DEMO_FEED_PATH = /^\/demo-feeds\/[a-z0-9-]{1,60}\.xml$/;

/**
 * The one exception to the private-address rule: the app's own recorded demo feeds, `http://localhost:{port}/demo-feeds/{name}.xml`
 * (or 127.0.0.1/[::1]). It is read from this server's own port, whatever port the URL was written with, so a demo seeded
 * by `npm run seed` works on the port the server runs on. It reaches nothing but a public, read-only route of the app.
 */
export function ownDemoFeedUrl(input: string): URL | null {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return null;
  }
  if (url.protocol !== "http:" || url.username || url.password || url.search) return null;
  if (!["localhost", "127.0.0.1", "::1"].includes(hostOf(url)) || !DEMO_FEED_PATH.test(url.pathname)) return null;
  const port = /^\d{1,5}$/.test(process.env.PORT ?? "") ? process.env.PORT : "3000";
  return new URL(`http://localhost:${port}${url.pathname}`);
}
