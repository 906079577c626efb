/**
 * npm run bench — server response times of the main pages on the demo world,
 * and again with the data grown a hundredfold. Runs the production build on a
 * loopback port with its own data folder; sends a bounded number of requests.
 *
 *   npm run bench            (defaults: 200 requests per page)
 *   BENCH_REQUESTS=500 npm run bench
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createDb } from "../server/db";
import { migrateToLatest } from "../server/migrate";
import { seedDemoWorld } from "../server/seed/demo";

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);
const PORT = Number(process.env.BENCH_PORT ?? 3299);
const BASE = `http://127.0.0.1:${PORT}`;
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");

async function prepare(dataDir: string, grow: number) {
  const database = createDb(path.join(dataDir, "app.db"));
  await migrateToLatest(database);
  await seedDemoWorld(database);
  if (grow > 1) {
    // A hundredfold world: many organisations, users and live sessions.
    const now = new Date().toISOString();
    const later = new Date(Date.now() + 86_400_000).toISOString();
    await database.transaction().execute(async (trx) => {
      for (let o = 0; o < 18 * grow; o++) {
        const org = await trx.insertInto("organizations").values({ name: `Bench Org ${o}`, kind: "customer", org_number: null, country_code: "NO", created_at: now }).returning("id").executeTakeFirstOrThrow();
        if (o % 4 === 0) {
          const user = await trx.insertInto("users").values({ email: `bench${o}@bench.test`, password_hash: "x", language: "en", is_admin: 0, organization_id: org.id, access_level: 2, created_at: now }).returning("id").executeTakeFirstOrThrow();
          const rows = Array.from({ length: 100 }, () => ({ id: randomBytes(32).toString("hex"), user_id: user.id, created_at: now, expires_at: later, user_agent: "bench" }));
          await trx.insertInto("sessions").values(rows).execute();
        }
      }
    });
  }
  const analyst = await database.selectFrom("users").select("id").where("email", "=", "analyst@demo.test").executeTakeFirstOrThrow();
  const token = randomBytes(32).toString("base64url");
  await database
    .insertInto("sessions")
    .values({ id: createHash("sha256").update(token).digest("hex"), user_id: analyst.id, created_at: new Date().toISOString(), expires_at: new Date(Date.now() + 86_400_000).toISOString(), user_agent: "bench" })
    .execute();
  const counts = {
    organizations: Number((await database.selectFrom("organizations").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow()).n),
    users: Number((await database.selectFrom("users").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow()).n),
    sessions: Number((await database.selectFrom("sessions").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow()).n),
  };
  await database.destroy();
  return { token, counts };
}

function startServer(dataDir: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [path.join(root, "node_modules/tsx/dist/cli.mjs"), "server/main.ts"], {
    cwd: root,
    stdio: ["ignore", "pipe", "inherit"],
    env: { ...process.env, NODE_ENV: "production", HOST: "127.0.0.1", PORT: String(PORT), DATA_DIR: dataDir, SESSION_SECRET: "bench-secret-bench-secret" },
  });
  return new Promise((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("is running at")) resolve(child);
    });
    child.on("exit", (code) => reject(new Error(`server exited with ${code}`)));
  });
}

async function measure(label: string, url: string, headers: Record<string, string>) {
  const times: number[] = [];
  for (let i = 0; i < REQUESTS; i++) {
    const t0 = performance.now();
    const res = await fetch(BASE + url, { headers, redirect: "manual" });
    await res.arrayBuffer();
    times.push(performance.now() - t0);
    if (res.status >= 400) throw new Error(`${url} answered ${res.status}`);
  }
  times.sort((a, b) => a - b);
  const pct = (p: number) => times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))].toFixed(1);
  console.log(`  ${label.padEnd(38)} p50 ${pct(50).padStart(6)} ms   p95 ${pct(95).padStart(6)} ms   max ${times[times.length - 1].toFixed(1).padStart(6)} ms`);
}

async function run(grow: number) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sr-bench-"));
  const { token, counts } = await prepare(dataDir, grow);
  const server = await startServer(dataDir);
  try {
    console.log(`\n${grow === 1 ? "Demo world" : `Grown ×${grow}`}: ${counts.organizations} organisations, ${counts.users} users, ${counts.sessions} sessions; ${REQUESTS} sequential requests each`);
    const auth = { Cookie: `token=${token}` };
    await measure("GET /login (visitor)", "/login", {});
    await measure("GET /overview (signed in, document)", "/overview", auth);
    await measure("GET /overview data request", "/overview?_data=root", auth);
    await measure("GET /api/users/me (Bearer)", "/api/users/me", { Authorization: `Bearer ${token}` });
  } finally {
    server.kill("SIGTERM");
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (!fs.existsSync(path.join(root, "build/server/index.js"))) {
  console.error("No build: run `npm run build` (or `npm start` once) first.");
  process.exit(1);
}
await run(1);
await run(100);
