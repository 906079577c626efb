import type { ClientLoaderFunctionArgs } from "@remix-run/react";
import { sql } from "kysely";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "@server/db";
import { clientLoader, loader } from "~/routes/_app.search";
import { company, makeOrg, request, signedIn } from "../helpers/fixtures";

/**
 * The global search (/search; the top-bar dropdown loads the same route
 * through a fetcher). Spec 01 §8: a failed search shows 'No results found.'
 * and keeps what the user typed — on the server (the registry search fails)
 * and in the browser (the request itself fails: network, server error, a
 * refused query), where the route's clientLoader turns the failure into an
 * empty result instead of an error page that would replace the whole screen.
 */

const w = {} as { analyst: string; viewer: string };

interface SearchData {
  q: string;
  tab: string;
  found: number;
  organizations: Array<{ name: string }>;
  people: unknown[];
  failed: boolean;
}

beforeAll(async () => {
  const org = await makeOrg("Search Customer AS", "customer");
  w.analyst = await signedIn("analyst@search.test", org, 2);
  w.viewer = await signedIn("viewer@search.test", org, 1);
  await company("930000001", "FJELLSTUE SØKBAR AS");
});

describe("GET /search", () => {
  it("finds a company for a level-2 user, keeping the query and tab", async () => {
    const res = await request(loader, "/search?q=fjellstue&tab=organizations", {}, w.analyst);
    expect(res.status).toBe(200);
    const body = (await res.json()) as SearchData;
    expect(body).toMatchObject({ q: "fjellstue", tab: "organizations", failed: false });
    expect(body.organizations.map((o) => o.name)).toContain("FJELLSTUE SØKBAR AS");
  });

  it("reads an unknown tab as organisations", async () => {
    const body = (await (await request(loader, "/search?q=fjellstue&tab=evil", {}, w.analyst)).json()) as SearchData;
    expect(body.tab).toBe("organizations");
  });

  it("is refused below level 2 (403) and sends a visitor to the start page", async () => {
    expect((await request(loader, "/search?q=fjellstue", {}, w.viewer)).status).toBe(403);
    expect((await request(loader, "/search?q=fjellstue")).status).toBe(302);
  });

  it("a NUL in the query is a 400 naming it, never a 500", async () => {
    const res = await request(loader, "/search?q=fjell%00stue", {}, w.analyst);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toMatch(/^q:/);
  });

  it("when the registry search fails on the server, answers no results with the typed text kept (and logs it)", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    await sql`alter table companies_fts rename to companies_fts_away`.execute(db());
    try {
      const res = await request(loader, "/search?q=fjellstue", {}, w.analyst);
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ q: "fjellstue", organizations: [], people: [], found: 0 });
      expect(logged).toHaveBeenCalledWith("search failed", expect.objectContaining({ q: "fjellstue" }));
    } finally {
      await sql`alter table companies_fts_away rename to companies_fts`.execute(db());
      logged.mockRestore();
    }
  });
});

describe("the search in the browser (clientLoader, used by the dropdown's fetcher and by navigations)", () => {
  const url = "http://localhost:3000/search?q=%20aker%20solutions%20&tab=people&limit=dropdown";
  const browserCall = (serverLoader: () => Promise<unknown>, signal = new AbortController().signal) =>
    clientLoader({ request: new Request(url, { signal }), params: {}, serverLoader } as unknown as ClientLoaderFunctionArgs);

  it("passes the server's answer through", async () => {
    const answer = { q: "aker solutions", tab: "people", found: 1, organizations: [], people: [{ pId: 1 }], failed: false, title: "t" };
    expect(await browserCall(async () => answer)).toBe(answer);
  });

  it.each([
    ["a server error", () => new Error("Unexpected Server Error")],
    ["a network failure", () => new TypeError("Failed to fetch")],
    ["a refused query (400)", () => new Response(JSON.stringify({ error: "Bad Request" }), { status: 400 })],
    ["a missing route (404)", () => new Response("Not Found", { status: 404 })],
  ])("turns %s into no results, keeping the typed text and tab", async (_name, failure) => {
    const data = await browserCall(async () => {
      throw failure();
    });
    expect(data).toMatchObject({ q: "aker solutions", tab: "people", organizations: [], people: [], found: 0, failed: true });
  });

  it.each([
    ["a redirect (signed out)", 302],
    ["a missing session", 401],
    ["a missing permission", 403],
  ])("lets %s through to the boundary", async (_name, status) => {
    const thrown = new Response(null, { status });
    await expect(
      browserCall(async () => {
        throw thrown;
      }),
    ).rejects.toBe(thrown);
  });

  it("a superseded request stays aborted (the fetcher has moved on)", async () => {
    const controller = new AbortController();
    controller.abort();
    const abort = new DOMException("aborted", "AbortError");
    await expect(
      browserCall(async () => {
        throw abort;
      }, controller.signal),
    ).rejects.toBe(abort);
  });
});
