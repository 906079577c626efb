import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import Papa from "papaparse";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@server/db";
import { importBrregUnits } from "@server/importers/index";
import { enqueueJob } from "@server/jobs/queue";
import { startWorker, type Worker } from "@server/jobs/worker";
import { createBrregUpdatesClient } from "@server/providers/registry/brreg-updates";
import { createBrregProvider } from "@server/providers/registry/index";
import {
  BRREG_UPDATES_CURSOR,
  BRREG_UPDATES_JOB,
  brregUpdatesFromEnv,
  createBrregUpdatesMonitor,
  readCursor,
  type BrregUpdatesMonitorDeps,
} from "~/models/notifications/monitor-brreg-updates-job.server";
import { jobSchedules } from "~/entry.server";
import { follow, makeOrg } from "../helpers/fixtures";
import { listenOnLoopback } from "../helpers/loopback";
import { until } from "../helpers/until";

const SAMPLE = path.resolve("server/seed-data/brreg/enheter-selection.csv");
const FIXTURES = path.resolve("tests/fixtures/brreg-updates");
const BANKRUPT = "832175692";
const NOT_FOLLOWED = "919602139";
const MOVED = "993020923";
const DELETED = "920024785";
const REMOVED = "927717468";

type Row = Record<string, string>;
const rows = new Map(Papa.parse<Row>(fs.readFileSync(SAMPLE, "utf8"), { header: true, skipEmptyLines: true }).data.map((r) => [r.organisasjonsnummer, r]));

/** A unit as `/enhetsregisteret/api/enheter/{orgnr}` answers it, built from its row of the bulk CSV. */
function unitJson(orgNumber: string, overrides: Record<string, unknown> = {}) {
  const r = rows.get(orgNumber)!;
  const address = (p: string) =>
    r[`${p}.adresse`] || r[`${p}.postnummer`]
      ? {
          adresse: r[`${p}.adresse`].split("/n"),
          postnummer: r[`${p}.postnummer`],
          poststed: r[`${p}.poststed`],
          kommune: r[`${p}.kommune`],
          kommunenummer: r[`${p}.kommunenummer`],
          land: r[`${p}.land`],
          landkode: r[`${p}.landkode`],
        }
      : undefined;
  return {
    organisasjonsnummer: orgNumber,
    navn: r.navn,
    organisasjonsform: { kode: r["organisasjonsform.kode"], beskrivelse: r["organisasjonsform.beskrivelse"] },
    naeringskode1: r["naeringskode1.kode"] ? { kode: r["naeringskode1.kode"], beskrivelse: r["naeringskode1.beskrivelse"] } : undefined,
    antallAnsatte: r.antallAnsatte ? Number(r.antallAnsatte) : undefined,
    forretningsadresse: address("forretningsadresse"),
    postadresse: address("postadresse"),
    registreringsdatoEnhetsregisteret: r.registreringsdatoenhetsregisteret,
    stiftelsesdato: r.stiftelsesdato,
    registrertIMvaregisteret: r.registrertIMvaRegisteret === "true",
    konkurs: r.konkurs === "true",
    underAvvikling: r.underAvvikling === "true",
    underTvangsavviklingEllerTvangsopplosning: r.underTvangsavviklingEllerTvangsopplosning === "true",
    ...overrides,
  };
}

interface Registry {
  baseUrl: string;
  feedQueries: string[];
  unitRequests: string[];
  /** What the feed answers for a page starting at this oppdateringsid (by default the fixtures). */
  feed: (from: number) => { status: number; body: string };
}

async function registry(): Promise<Registry> {
  const state: Registry = {
    baseUrl: "",
    feedQueries: [],
    unitRequests: [],
    feed: (from) => ({
      status: 200,
      body: fs.readFileSync(path.join(FIXTURES, from <= 1001 ? "page-1.json" : from <= 1004 ? "page-2.json" : "empty.json"), "utf8"),
    }),
  };
  const units: Record<string, { status: number; body: unknown }> = {
    [BANKRUPT]: { status: 200, body: unitJson(BANKRUPT, { konkurs: true, konkursdato: "2026-11-20" }) },
    [MOVED]: { status: 200, body: unitJson(MOVED, { forretningsadresse: { ...unitJson(MOVED).forretningsadresse, adresse: ["Nedre Langgate 20"] } }) },
    [DELETED]: {
      status: 410,
      body: {
        organisasjonsnummer: DELETED,
        navn: rows.get(DELETED)!.navn,
        organisasjonsform: { kode: "AS", beskrivelse: "Aksjeselskap" },
        slettedato: "2026-11-22",
      },
    },
    [NOT_FOLLOWED]: { status: 200, body: unitJson(NOT_FOLLOWED) },
  };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { "Content-Type": "application/json;charset=UTF-8" });
      res.end(typeof body === "string" ? body : JSON.stringify(body));
    };
    if (url.pathname === "/enhetsregisteret/api/oppdateringer/enheter") {
      const from = Number(url.searchParams.get("oppdateringsid") ?? 0);
      state.feedQueries.push(String(from));
      const answer = state.feed(from);
      return send(answer.status, answer.body);
    }
    const unit = /^\/enhetsregisteret\/api\/enheter\/(\d{9})(\/roller)?$/.exec(url.pathname);
    if (unit) {
      state.unitRequests.push(url.pathname);
      const known = units[unit[1]];
      if (!known) return send(404, { status: 404, error: "Not Found" });
      return unit[2] ? send(200, { rollegrupper: [] }) : send(known.status, known.body);
    }
    return send(404, { status: 404, error: "Not Found" });
  });
  const { baseUrl, close } = await listenOnLoopback(server);
  afterAll(close);
  state.baseUrl = baseUrl;
  return state;
}

const job = (id: number) => db().selectFrom("jobs").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

const notifications = () =>
  db()
    .selectFrom("risk_notifications")
    .innerJoin("companies", "companies.id", "risk_notifications.company_id")
    .select(["companies.org_number", "risk_notifications.kind", "risk_notifications.risk_score"])
    .orderBy("risk_notifications.id")
    .execute();

const setCursor = (value: unknown) =>
  db()
    .insertInto("monitor_state")
    .values({ key: BRREG_UPDATES_CURSOR, value: JSON.stringify(value), updated_at: new Date().toISOString() })
    .onConflict((oc) => oc.column("key").doUpdateSet({ value: JSON.stringify(value) }))
    .execute();

describe("the monitor.brreg-updates job", () => {
  let reg: Registry;
  let worker: Worker;
  const lines: string[] = [];

  beforeAll(async () => {
    await importBrregUnits(db(), SAMPLE);
    const customer = await makeOrg("Kunde AS", "customer");
    for (const orgNumber of [BANKRUPT, MOVED, DELETED, REMOVED]) await follow(customer, await makeOrg(`Supplier ${orgNumber}`, "supplier", orgNumber));
    reg = await registry();
    const deps = (): BrregUpdatesMonitorDeps => ({
      client: createBrregUpdatesClient({ baseUrl: reg.baseUrl, timeoutMs: 2000 }),
      provider: createBrregProvider({ baseUrl: reg.baseUrl }),
      pageSize: 3,
      log: (l) => lines.push(l),
    });
    worker = startWorker({
      db: db(),
      handlers: { [BRREG_UPDATES_JOB]: createBrregUpdatesMonitor(deps) },
      pollMs: 20,
      backoff: () => 0,
      log: (l) => lines.push(l),
    });
  });
  afterAll(async () => {
    await worker.stop();
  });

  it("interrupted between pages (a 500), resumes after the last page written: each change raised once, the cursor at the end", async () => {
    await setCursor({ afterId: 1000 });
    let failures = 1;
    const normal = reg.feed;
    reg.feed = (from) => (from === 1004 && failures-- > 0 ? { status: 500, body: '{"status":500}' } : normal(from));

    const id = await enqueueJob(db(), { type: BRREG_UPDATES_JOB, organizationId: null, userId: null, payload: null });
    const done = await until(
      () => job(id),
      (j) => j.status === "done" || j.status === "failed",
      8_000,
    );
    reg.feed = normal;

    expect(done).toMatchObject({ status: "done", attempts: 2 });
    // Page 1 was written with its cursor by the first attempt; the second began after it.
    expect(reg.feedQueries).toEqual(["1001", "1004", "1004"]);
    expect(await readCursor(db())).toEqual({ afterId: 1005 });
    expect(await notifications()).toEqual([
      { org_number: BANKRUPT, kind: "bankruptcy", risk_score: 95 },
      { org_number: MOVED, kind: "address_change", risk_score: 20 },
      { org_number: DELETED, kind: "deletion", risk_score: 85 },
    ]);
    // Only followed companies are refreshed; the unit removed from the open data (Fjernet) answers 404 and is left alone.
    expect(reg.unitRequests.some((p) => p.includes(NOT_FOLLOWED))).toBe(false);
    expect(reg.unitRequests).toContain(`/enhetsregisteret/api/enheter/${REMOVED}`);
    expect(JSON.parse(done.result!)).toMatchObject({ pages: 1, updates: 2, refreshed: 1, notifications: 1, cursor: { afterId: 1005 } });
  });

  it("run again from an older cursor (the same pages read twice), it writes no duplicates", async () => {
    const before = await notifications();
    await setCursor({ afterId: 1000 });
    reg.feedQueries.length = 0;
    const id = await enqueueJob(db(), { type: BRREG_UPDATES_JOB, organizationId: null, userId: null, payload: null });
    const done = await until(
      () => job(id),
      (j) => j.status === "done" || j.status === "failed",
      8_000,
    );
    expect(done.status).toBe("done");
    expect(reg.feedQueries).toEqual(["1001", "1004"]);
    expect(await notifications()).toEqual(before);
    expect(await readCursor(db())).toEqual({ afterId: 1005 });
  });

  it("a malformed page is logged and fails the run at once (no retry loop), the cursor untouched", async () => {
    const normal = reg.feed;
    reg.feed = () => ({ status: 200, body: fs.readFileSync(path.join(FIXTURES, "malformed.json"), "utf8") });
    const id = await enqueueJob(db(), { type: BRREG_UPDATES_JOB, organizationId: null, userId: null, payload: null });
    const done = await until(
      () => job(id),
      (j) => j.status === "done" || j.status === "failed",
      8_000,
    );
    reg.feed = normal;
    expect(done).toMatchObject({ status: "failed", attempts: 1 });
    expect(lines.some((l) => l.startsWith(`${BRREG_UPDATES_JOB}: the update feed could not be read`))).toBe(true);
    expect(await readCursor(db())).toEqual({ afterId: 1005 });
  });

  it("is declared as a schedule every 15 minutes, and is off unless the operator asks (live registry or MONITOR_BRREG_UPDATES=on)", async () => {
    expect(jobSchedules).toContainEqual({ name: BRREG_UPDATES_JOB, every: 15, type: BRREG_UPDATES_JOB });
    expect(brregUpdatesFromEnv({})).toBeNull();
    expect(brregUpdatesFromEnv({ MONITOR_BRREG_UPDATES: "off", REGISTRY_PROVIDER: "brreg" })).toBeNull();
    expect(brregUpdatesFromEnv({ REGISTRY_PROVIDER: "brreg" })).not.toBeNull();
    expect(brregUpdatesFromEnv({ MONITOR_BRREG_UPDATES: "on" })).not.toBeNull();
    expect(() => brregUpdatesFromEnv({ MONITOR_BRREG_UPDATES: "sometimes" })).toThrow(/MONITOR_BRREG_UPDATES/);

    // Off: the run asks no one and leaves the cursor alone.
    const queries = reg.feedQueries.length;
    const off = startWorker({ db: db(), handlers: { "monitor.off": createBrregUpdatesMonitor(() => null) }, pollMs: 20, log: () => {} });
    try {
      const id = await enqueueJob(db(), { type: "monitor.off", organizationId: null, userId: null, payload: null });
      const done = await until(
        () => job(id),
        (j) => j.status === "done",
        8_000,
      );
      expect(JSON.parse(done.result!)).toMatchObject({ skipped: "off" });
    } finally {
      await off.stop();
    }
    expect(reg.feedQueries.length).toBe(queries);
  });
});
