import fs from "node:fs";
import http from "node:http";
import { fileURLToPath } from "node:url";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { db } from "@server/db";
import { startWorker } from "@server/jobs/worker";
import { writeIntelligenceJob } from "~/models/assistant/intelligence-job.server";
import { WRITE_INTELLIGENCE_JOB } from "~/models/assistant/intelligence-texts.server";
import { supplierIntelligence } from "~/models/registry/registry.server";
import { company } from "../helpers/fixtures";
import { listenOnLoopback } from "../helpers/loopback";
import { until } from "../helpers/until";

/**
 * Supplier intelligence with a language model configured (decision 029): the composed text at once and the writing
 * queued once; the model's text from then on while the facts stay the same; the composed one again when they change.
 */

const ENV_KEYS = ["LLM_PROVIDER", "LLM_BASE_URL", "LLM_MODEL"] as const;
const saved = Object.fromEntries(ENV_KEYS.map((k) => [k, process.env[k]]));
afterEach(() => {
  for (const k of ENV_KEYS) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
});

let companyId: number;
beforeAll(async () => {
  companyId = await company("982309255", "AKTIESELSKAPET VINMONOPOLET");
  await db()
    .updateTable("companies")
    .set({
      industry_code: "47.251",
      industry_description: "Butikkhandel med vin og brennevin",
      purpose: "Detaljsalg av brennevin, vin og sterkøl.",
      number_of_employees: 2100,
    })
    .where("id", "=", companyId)
    .execute();
});

const sse = fs.readFileSync(fileURLToPath(new URL("../fixtures/llm/intelligence.sse", import.meta.url)));
const queued = () => db().selectFrom("jobs").select(["id", "status"]).where("type", "=", WRITE_INTELLIGENCE_JOB).execute();

describe("supplier intelligence with a language model", () => {
  it("is composed with the local provider, and nothing is queued", async () => {
    process.env.LLM_PROVIDER = "local";
    const data = await supplierIntelligence(companyId, "no");
    expect(data?.writtenBy).toEqual({ kind: "registry" });
    expect(data?.label).toBe("Satt sammen fra registerdata");
    expect(await queued()).toEqual([]);
  });

  it("answers composed at once, writes once in the background, then serves the model's text until the facts change", async () => {
    let requests = 0;
    const server = await listenOnLoopback(
      http.createServer((req, res) => {
        requests += 1;
        req.resume();
        req.on("end", () => {
          res.writeHead(200, { "Content-Type": "text/event-stream" });
          res.end(sse);
        });
      }),
    );
    Object.assign(process.env, { LLM_PROVIDER: "openai", LLM_BASE_URL: `${server.baseUrl}/v1`, LLM_MODEL: "gpt-4o-mini" });

    const first = await supplierIntelligence(companyId, "no");
    expect(first?.writtenBy).toEqual({ kind: "registry" });
    await supplierIntelligence(companyId, "no");
    expect((await queued()).map((j) => j.status)).toEqual(["queued"]);

    const worker = startWorker({ db: db(), handlers: { [WRITE_INTELLIGENCE_JOB]: writeIntelligenceJob }, pollMs: 20, log: () => {} });
    try {
      await until(queued, (jobs) => jobs.every((j) => j.status === "done"));
    } finally {
      await worker.stop();
    }
    expect(requests).toBe(1);

    const written = await supplierIntelligence(companyId, "no");
    expect(written?.writtenBy).toEqual({ kind: "model", model: "gpt-4o-mini" });
    expect(written?.overview.description).toMatch(/^Aktieselskapet Vinmonopolet er et statlig aksjeselskap/);
    expect(written?.certifications_and_compliance).toEqual([]);
    // The other language is written on its own.
    expect((await supplierIntelligence(companyId, "en"))?.writtenBy).toEqual({ kind: "registry" });

    await db().updateTable("companies").set({ number_of_employees: 2200 }).where("id", "=", companyId).execute();
    const changed = await supplierIntelligence(companyId, "no");
    expect(changed?.writtenBy).toEqual({ kind: "registry" });
    expect(changed?.overview.description).toMatch(/Registrerte ansatte: 2\s200\./);
    expect((await queued()).filter((j) => j.status === "queued")).toHaveLength(2);
  });
});
