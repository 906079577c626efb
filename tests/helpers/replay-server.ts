import fs from "node:fs";
import http from "node:http";
import { fileURLToPath } from "node:url";
import { listenOnLoopback } from "./loopback";

/**
 * A loopback HTTP server that answers with recorded real responses, so adapters
 * are tested over real HTTP against what the outside service actually sends,
 * without patching our own code.
 */

export interface ReplayRoute {
  /** Defaults to GET. */
  method?: string;
  /** Matched against the path without the query string; the query is recorded for assertions. */
  path: string;
  /** Defaults to 200. */
  status?: number;
  /** A recorded response file, sent byte for byte. */
  file?: string;
  /** An inline JSON body, for variations the recordings do not cover. */
  json?: unknown;
  /** Never answer, to exercise timeouts. */
  hang?: boolean;
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: http.IncomingHttpHeaders;
}

export interface ReplayServer {
  baseUrl: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/** The recorded Brønnøysund responses shipped with the seed data. */
export function brregFixture(name: string): string {
  return fileURLToPath(new URL(`../../server/seed-data/brreg/${name}`, import.meta.url));
}

export function readFixtureJson<T = unknown>(file: string): T {
  return JSON.parse(fs.readFileSync(file, "utf8")) as T;
}

/**
 * Starts on 127.0.0.1 with a free port. Inside a test it closes itself when the
 * test finishes, so a failing assertion cannot leak a listening socket.
 */
export async function startReplayServer(routes: ReplayRoute[]): Promise<ReplayServer> {
  const requests: RecordedRequest[] = [];

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const method = (req.method ?? "GET").toUpperCase();
    requests.push({
      method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: req.headers,
    });
    const route = routes.find((r) => (r.method ?? "GET").toUpperCase() === method && r.path === url.pathname);
    if (!route) {
      res.writeHead(404, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ error: "Not Found", path: url.pathname }));
      return;
    }
    if (route.hang) return;
    const body = route.file !== undefined ? fs.readFileSync(route.file) : JSON.stringify(route.json ?? null);
    res.writeHead(route.status ?? 200, { "Content-Type": "application/json;charset=UTF-8" });
    res.end(body);
  });

  const { baseUrl, close } = await listenOnLoopback(server);

  return { baseUrl, requests, close };
}
