import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createBrregUpdatesClient } from "@server/providers/registry/brreg-updates";
import { RegistryError } from "@server/providers/registry/types";
import { listenOnLoopback } from "../helpers/loopback";

const FIXTURES = path.resolve("tests/fixtures/brreg-updates");
const fixture = (name: string) => fs.readFileSync(path.join(FIXTURES, name));

type Answer = { status?: number; body?: Buffer | string; hang?: boolean };

/** The update feed on loopback: answers by the query's oppdateringsid, as the register does, and records the queries. */
async function feed(answer: (query: URLSearchParams) => Answer) {
  const queries: URLSearchParams[] = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (url.pathname !== "/enhetsregisteret/api/oppdateringer/enheter") {
      res.writeHead(404).end();
      return;
    }
    queries.push(url.searchParams);
    const a = answer(url.searchParams);
    if (a.hang) return;
    res.writeHead(a.status ?? 200, { "Content-Type": "application/hal+json;charset=UTF-8" });
    res.end(a.body ?? "");
  });
  const { baseUrl } = await listenOnLoopback(server);
  return { baseUrl, queries };
}

const byCursor = (query: URLSearchParams): Answer => {
  const from = Number(query.get("oppdateringsid") ?? 0);
  if (from <= 1001) return { body: fixture("page-1.json") };
  if (from <= 1004) return { body: fixture("page-2.json") };
  return { body: fixture("empty.json") };
};

describe("Brønnøysund's update feed", () => {
  it("reads pages after the cursor: updates in id order, their change type and JSON Patch, and whether more follow", async () => {
    const { baseUrl, queries } = await feed(byCursor);
    const client = createBrregUpdatesClient({ baseUrl });

    const first = await client.page({ afterId: 1000, size: 3 });
    expect(first.hasMore).toBe(true);
    expect(first.updates.map((u) => [u.id, u.orgNumber, u.changeType])).toEqual([
      [1001, "832175692", "Endring"],
      [1002, "919602139", "Endring"],
      [1003, "993020923", "Endring"],
    ]);
    expect(first.updates[0]).toMatchObject({
      date: "2026-11-23T05:01:26.374Z",
      changes: [
        { op: "replace", path: "/konkurs", value: true },
        { op: "add", path: "/konkursdato", value: "2026-11-20" },
      ],
    });

    const second = await client.page({ afterId: 1003, size: 3 });
    expect(second.hasMore).toBe(false);
    // A deleted unit (Sletting) and one removed from the open data (Fjernet, no changes sent).
    expect(second.updates).toEqual([
      {
        id: 1004,
        date: "2026-11-23T05:10:44.051Z",
        orgNumber: "920024785",
        changeType: "Sletting",
        changes: [{ op: "add", path: "/slettedato", value: "2026-11-22" }],
      },
      { id: 1005, date: "2026-11-23T05:11:02.700Z", orgNumber: "927717468", changeType: "Fjernet", changes: [] },
    ]);

    // Nothing after the last one: the register leaves _embedded out.
    expect(await client.page({ afterId: 1005, size: 3 })).toEqual({ updates: [], hasMore: false });

    expect(queries.map((q) => Object.fromEntries(q))).toEqual([
      { includeChanges: "true", size: "3", oppdateringsid: "1001" },
      { includeChanges: "true", size: "3", oppdateringsid: "1004" },
      { includeChanges: "true", size: "3", oppdateringsid: "1006" },
    ]);
  });

  it("without a cursor asks from an instant (dato), and caps the page size", async () => {
    const { baseUrl, queries } = await feed(byCursor);
    await createBrregUpdatesClient({ baseUrl }).page({ since: "2026-11-23T05:00:00.000Z", size: 50_000 });
    expect(Object.fromEntries(queries[0])).toEqual({ includeChanges: "true", size: "1000", dato: "2026-11-23T05:00:00.000Z" });
  });

  it("reads an unknown change type as Ukjent rather than refusing the page", async () => {
    const body = JSON.parse(fixture("page-2.json").toString("utf8")) as { _embedded: { oppdaterteEnheter: Array<{ endringstype: string }> } };
    body._embedded.oppdaterteEnheter[0].endringstype = "Sammenslåing";
    const { baseUrl } = await feed(() => ({ body: JSON.stringify(body) }));
    const page = await createBrregUpdatesClient({ baseUrl }).page({ afterId: 1003 });
    expect(page.updates[0].changeType).toBe("Ukjent");
  });

  it("a 500 is an http error with its status (the job retries)", async () => {
    const { baseUrl } = await feed(() => ({ status: 500, body: '{"status":500,"error":"Internal Server Error"}' }));
    const error = await createBrregUpdatesClient({ baseUrl })
      .page({ afterId: 1000 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RegistryError);
    expect(error).toMatchObject({ kind: "http", status: 500 });
  });

  it("an answer that never comes is a timeout", async () => {
    const { baseUrl } = await feed(() => ({ hang: true }));
    const error = await createBrregUpdatesClient({ baseUrl, timeoutMs: 150 })
      .page({ afterId: 1000 })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "RegistryError", kind: "timeout" });
  });

  it("a malformed answer or one that is not JSON is an invalid response", async () => {
    for (const body of [fixture("malformed.json"), "<html>Service unavailable</html>"]) {
      const { baseUrl } = await feed(() => ({ body }));
      const error = await createBrregUpdatesClient({ baseUrl })
        .page({ afterId: 1000 })
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ name: "RegistryError", kind: "invalid_response" });
    }
  });
});
