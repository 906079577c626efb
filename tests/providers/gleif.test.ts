import http from "node:http";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { createGleifProvider } from "@server/providers/lei/gleif";
import { db } from "@server/db";
import { createMemoryCache, type LeiCache } from "@server/providers/lei/memory-cache";
import { createStoreCache } from "@server/providers/lei/store-cache";
import { LeiProviderError, type LeiRecordData } from "@server/providers/lei/types";
import { listenOnLoopback } from "../helpers/loopback";
import { readFixtureJson } from "../helpers/replay-server";

/** The recorded real GLEIF API v1 answers (CC0), copied from ../shared/data/gleif/. */
function gleifFixture<T = unknown>(name: string): T {
  return readFixtureJson<T>(fileURLToPath(new URL(`../fixtures/gleif/${name}`, import.meta.url)));
}

const FRAPORT = "5299001ERX0K10IZUL40"; // two direct children, no ultimate parent (GLEIF: 404)
const BLOOMBERG = "5493001KJTIIGC8Y1R12"; // no children, ultimate parent Bloomberg Inc., managing LOU recorded
const EXCEPTION = "21380068P1DRHMJ8KU70"; // ultimate parent: a reporting exception (NO_KNOWN_PERSON)

interface Answer {
  status?: number;
  body?: unknown;
  hang?: boolean;
}
type Handler = (path: string, query: URLSearchParams) => Answer | undefined;

/** A loopback GLEIF: `handler` answers a path and query, anything else is GLEIF's 404. */
async function fakeGleif(handler: Handler, options: { timeoutMs?: number; cache?: LeiCache } = {}) {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    requests.push(decodeURIComponent(url.pathname + url.search));
    const answer = handler(url.pathname, url.searchParams) ?? { status: 404, body: { errors: [{ status: "404", title: "Not Found" }] } };
    if (answer.hang) return;
    res.writeHead(answer.status ?? 200, { "Content-Type": "application/vnd.api+json" });
    res.end(JSON.stringify(answer.body ?? null));
  });
  const { baseUrl } = await listenOnLoopback(server);
  const logged: string[] = [];
  const provider = createGleifProvider({ baseUrl, timeoutMs: options.timeoutMs ?? 2000, cache: options.cache, log: (line) => logged.push(line) });
  return { provider, requests, logged };
}

async function providerError(promise: Promise<unknown>): Promise<LeiProviderError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(LeiProviderError);
  return error as LeiProviderError;
}

describe("gleif LEI provider", () => {
  it("asks for full-text autocompletions and keeps items with and without relationships", async () => {
    const { provider, requests } = await fakeGleif((path, query) =>
      path === "/autocompletions" && query.get("field") === "fulltext" && query.get("q") === "global ab"
        ? { body: gleifFixture("autocompletions_all.json") }
        : undefined,
    );

    const items = await provider.autocomplete("  global ab ");

    expect(requests).toEqual(["/autocompletions?field=fulltext&q=global ab"]);
    expect(items).toHaveLength(10);
    expect(items[0]).toEqual({ type: "autocompletions", attributes: { value: "GLOBAL", highlighting: "<b>GLOBAL</b>" } });
    expect(items[2].attributes).toEqual({ value: "B GLOBAL", highlighting: "B <b>GLOBAL</b>" });
    expect(items[2].relationships?.["lei-records"].data).toEqual({ type: "lei-records", id: "984500B447P639364M33" });
    expect(items.filter((item) => !item.relationships).map((item) => item.attributes.value)).toEqual(["GLOBAL", "Global", "AV Global"]);
  });

  it("answers [] for a blank term without a request", async () => {
    const { provider, requests } = await fakeGleif(() => undefined);
    expect(await provider.autocomplete("   ")).toEqual([]);
    expect(requests).toEqual([]);
  });

  it("reads a record in GLEIF's shape, and null for an unknown LEI", async () => {
    const recorded = gleifFixture<{ data: LeiRecordData }>(`single_lei_record_${FRAPORT}.json`);
    const { provider } = await fakeGleif((path) => (path === `/lei-records/${FRAPORT}` ? { body: recorded } : undefined));

    const answer = await provider.record(FRAPORT);

    expect(answer?.data).toEqual(recorded.data);
    const { entity, registration } = answer!.data.attributes;
    expect(entity.legalName.name).toBe("Fraport AG Frankfurt Airport Services Worldwide");
    expect(entity.registeredAs).toBe("HRB 7042");
    expect(entity.legalAddress).toMatchObject({ addressLines: ["Flughafen,Geb. 178"], postalCode: "60547", city: "Frankfurt am Main", country: "DE" });
    expect(registration).toMatchObject({ status: "ISSUED", nextRenewalDate: "2026-06-03T13:29:41Z", managingLou: "5299000J2N45DDNE4Y28" });
    expect(await provider.record(BLOOMBERG)).toBeNull();
  });

  it("keeps answers in its cache: the second lookup makes no request", async () => {
    const { provider, requests } = await fakeGleif((path) =>
      path === `/lei-records/${FRAPORT}` ? { body: gleifFixture(`single_lei_record_${FRAPORT}.json`) } : undefined,
    );
    await provider.record(FRAPORT);
    await provider.record(FRAPORT);
    expect(requests).toHaveLength(1);
  });

  it("finds the ultimate parent, and none when GLEIF knows no parent (404)", async () => {
    const recorded = gleifFixture<{ data: LeiRecordData }>(`ultimate-parent_${BLOOMBERG}.json`);
    const { provider } = await fakeGleif((path) => (path === `/lei-records/${BLOOMBERG}/ultimate-parent` ? { body: recorded } : undefined));

    const parent = await provider.ultimateParent(BLOOMBERG);
    expect(parent?.data.id).toBe("549300RMUDWPHCUQNE66");
    expect(parent?.data.attributes.entity.legalName.name).toBe("Bloomberg Inc.");

    expect(await provider.ultimateParent(FRAPORT)).toBeNull();
  });

  it("does not take a reporting exception for a parent", async () => {
    const { provider } = await fakeGleif((path) =>
      path === `/lei-records/${EXCEPTION}/ultimate-parent` ? { body: gleifFixture(`ultimate-parent-reporting-exception_${EXCEPTION}.json`) } : undefined,
    );
    expect(await provider.ultimateParent(EXCEPTION)).toBeNull();
  });

  it("follows meta.pagination to the last page of direct children", async () => {
    // The recording has both children on one page; page 1 and page 2 here split it in two (one child a page).
    const recorded = gleifFixture<{ meta: Record<string, unknown>; links: unknown; data: LeiRecordData[] }>(`direct-children_${FRAPORT}.json`);
    const page = (n: number) => ({
      ...recorded,
      meta: { ...recorded.meta, pagination: { currentPage: n, perPage: 1, from: n, to: n, total: 2, lastPage: 2 } },
      data: [recorded.data[n - 1]],
    });
    const { provider, requests } = await fakeGleif((path, query) =>
      path === `/lei-records/${FRAPORT}/direct-children` ? { body: page(Number(query.get("page[number]"))) } : undefined,
    );

    const children = await provider.directChildren(FRAPORT);

    expect(children.map((child) => child.id)).toEqual(recorded.data.map((child) => child.id));
    expect(children[0].attributes.entity.legalName.name).toBe("Lima Airport Partners S.R.L.");
    expect(requests).toEqual([
      `/lei-records/${FRAPORT}/direct-children?page[number]=1&page[size]=200`,
      `/lei-records/${FRAPORT}/direct-children?page[number]=2&page[size]=200`,
    ]);
  });

  it("answers [] for a record without children", async () => {
    const { provider, requests } = await fakeGleif((path) =>
      path === `/lei-records/${BLOOMBERG}/direct-children` ? { body: gleifFixture(`direct-children_${BLOOMBERG}.json`) } : undefined,
    );
    expect(await provider.directChildren(BLOOMBERG)).toEqual([]);
    expect(requests).toHaveLength(1);
  });

  it("resolves the managing LOU's record", async () => {
    const { provider } = await fakeGleif((path) =>
      path === `/lei-records/${BLOOMBERG}/managing-lou` ? { body: gleifFixture(`managing-lou_${BLOOMBERG}.json`) } : undefined,
    );
    const lou = await provider.managingLou(BLOOMBERG);
    expect(lou?.data.attributes.lei).toBe(BLOOMBERG);
    expect(lou?.data.attributes.entity.legalName.name).toBe("Bloomberg Finance L.P.");
  });

  it("answers null for a failed managing-LOU call (500) and logs it", async () => {
    const { provider, logged } = await fakeGleif((path) =>
      path === `/lei-records/${BLOOMBERG}/managing-lou` ? { status: 500, body: { errors: [{ status: "500" }] } } : undefined,
    );
    expect(await provider.managingLou(BLOOMBERG)).toBeNull();
    expect(logged).toHaveLength(1);
    expect(logged[0]).toContain("500");
    expect(logged[0]).toContain(BLOOMBERG);
  });

  it("turns a server error into a typed provider error, and does not cache it", async () => {
    let status = 503;
    const { provider, requests } = await fakeGleif((path) =>
      path === `/lei-records/${FRAPORT}` ? { status, body: status === 200 ? gleifFixture(`single_lei_record_${FRAPORT}.json`) : {} } : undefined,
    );
    const error = await providerError(provider.record(FRAPORT));
    expect(error.kind).toBe("http");
    expect(error.status).toBe(503);
    status = 200;
    expect((await provider.record(FRAPORT))?.data.id).toBe(FRAPORT);
    expect(requests).toHaveLength(2);
  });

  it("turns an unexpected body into a typed provider error", async () => {
    const { provider } = await fakeGleif((path) => (path === `/lei-records/${FRAPORT}` ? { body: { data: { type: "lei-records", id: FRAPORT } } } : undefined));
    expect((await providerError(provider.record(FRAPORT))).kind).toBe("invalid_response");
  });

  it("gives up after its timeout with a typed provider error", async () => {
    const { provider } = await fakeGleif(() => ({ hang: true }), { timeoutMs: 150 });
    expect((await providerError(provider.autocomplete("bloomberg"))).kind).toBe("timeout");
  });

  it("reports an unreachable GLEIF as a network error", async () => {
    const provider = createGleifProvider({ baseUrl: "http://127.0.0.1:9", timeoutMs: 2000 });
    expect((await providerError(provider.record(FRAPORT))).kind).toBe("network");
  });
});

describe("the adapter's in-memory cache", () => {
  it("forgets entries after their time to live and drops the least recently used first", async () => {
    let clock = 0;
    const cache = createMemoryCache({ maxEntries: 2, ttlMs: 1000, now: () => clock });
    await cache.set("a", 1);
    await cache.set("b", null);
    expect(await cache.get("a")).toEqual({ value: 1 }); // a is now the most recently used
    await cache.set("c", 3);
    expect(await cache.get("b")).toBeUndefined(); // the least recently used went when c came
    expect(await cache.get("a")).toEqual({ value: 1 });
    clock = 1000;
    expect(await cache.get("c")).toBeUndefined();
  });
});

describe("the adapter's cache in the store (lei_cache)", () => {
  it("answers what was kept, null included, until the time to live; prunes expired rows", async () => {
    let clock = Date.UTC(2025, 4, 15, 8, 0, 0);
    const cache = createStoreCache(db, { ttlMs: 1000, now: () => clock, pruneEvery: 2 });
    await cache.set("/lei-records/A", { data: { id: "A" } });
    await cache.set("/lei-records/B", null);
    expect(await cache.get("/lei-records/A")).toEqual({ value: { data: { id: "A" } } });
    expect(await cache.get("/lei-records/B")).toEqual({ value: null });
    expect(await cache.get("/lei-records/C")).toBeUndefined();

    clock += 1000;
    expect(await cache.get("/lei-records/A")).toBeUndefined();
    await cache.set("/lei-records/A", { data: { id: "A2" } }); // replaces the old row
    await cache.set("/lei-records/C", { data: { id: "C" } }); // the second write prunes B
    const keys = (await db().selectFrom("lei_cache").select("key").orderBy("key").execute()).map((r) => r.key);
    expect(keys).toEqual(["/lei-records/A", "/lei-records/C"]);
    expect(await cache.get("/lei-records/A")).toEqual({ value: { data: { id: "A2" } } });
  });

  it("lets a new adapter (a restarted server) answer from the store without asking GLEIF", async () => {
    const store = createStoreCache(db);
    const { provider, requests } = await fakeGleif(
      (path) => (path === `/lei-records/${BLOOMBERG}/managing-lou` ? { body: gleifFixture(`managing-lou_${BLOOMBERG}.json`) } : undefined),
      { cache: store },
    );
    const first = await provider.managingLou(BLOOMBERG);
    expect(requests).toHaveLength(1);

    // Nothing listens on port 9: an answer can only come from the store.
    const restarted = createGleifProvider({ baseUrl: "http://127.0.0.1:9", cache: store });
    expect(await restarted.managingLou(BLOOMBERG)).toEqual(first);
    expect(first?.data.attributes.entity.legalName.name).toBe("Bloomberg Finance L.P.");
  });
});
