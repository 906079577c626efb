/**
 * npm run bench — server response times of the main pages on the demo world,
 * and again with the data grown a hundredfold. Runs the production build on a
 * loopback port with its own data folder; sends a bounded number of requests.
 *
 *   npm run bench            (defaults: 200 requests per page)
 *   BENCH_REQUESTS=500 npm run bench
 *   BENCH_ONLY=suppliers npm run bench   (only the "My suppliers" run with 10 000 connections)
 *   BENCH_ONLY=imports npm run bench     (only the supplier-list analysis: a 10 000-row xlsx and a 100 000-row CSV)
 *   BENCH_ONLY=overview npm run bench    (only /overview and /dashboard: 10 000 connections, 1 000 000 notifications)
 *   BENCH_ONLY=notifications npm run bench (only the notifications: 1 000 000 across 100 organisations, each following
 *                                         200 suppliers; GET /api/notifications first page and Show more at offset 500,
 *                                         /notifications, the bell's count; BENCH_NOTIFICATIONS to change the number)
 *   BENCH_ONLY=admin npm run bench       (only the administration and my-organisation screens on a grown installation: 300
 *                                         customers, 10 000 supplier organisations, ≈ 6 000 users, 45 000 sessions, 200 000
 *                                         security events, 30 000 mails and 30 000 credit reports, ≈ 20 000 connections)
 *   BENCH_ONLY=budgets npm run bench     (only the list queries of the scale tests, in process, each printed with its budget:
 *                                         /supplier_tasks at 10 000 items, /suppliers at 10 000 followed suppliers and
 *                                         their risk recomputation, /dashboard with a year of snapshots and its CSVs,
 *                                         the spreadsheet readers on a zip bomb and a 100 MB CSV)
 *   BENCH_ONLY=lei npm run bench         (only the GLEIF golden-copy import of a generated 3 000 000-row LEI2 file, and
 *                                         full-text autocomplete over it; BENCH_LEI_ROWS to change the size;
 *                                         BENCH_LEI_DB=<file> keeps the imported store there, and a later run with
 *                                         the file present times only the autocomplete over it)
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { createDb } from "../server/db";
import { migrateToLatest } from "../server/migrate";
import { seedDemoWorld } from "../server/seed/demo";

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);
/** Demo suppliers: the largest (most board relations), and the first one (tasks, sub-suppliers). */
const SUPPLIERS: Array<[string, string]> = [
  ["Vinmonopolet (large)", "817209882"],
  ["ELTERA (tasks, sub-suppliers)", "811600792"],
];
const PORT = Number(process.env.BENCH_PORT ?? 3299);
const BASE = `http://127.0.0.1:${PORT}`;
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");

async function prepare(dataDir: string, grow: number) {
  const database = createDb(path.join(dataDir, "app.db"));
  await migrateToLatest(database);
  await seedDemoWorld(database);
  if (grow > 1) {
    await growRegistry(database, grow);
    // A hundredfold world: many organisations, users and live sessions.
    const now = new Date().toISOString();
    const later = new Date(Date.now() + 86_400_000).toISOString();
    await database.transaction().execute(async (trx) => {
      for (let o = 0; o < 18 * grow; o++) {
        const org = await trx
          .insertInto("organizations")
          .values({ name: `Bench Org ${o}`, kind: "customer", org_number: null, country_code: "NO", created_at: now })
          .returning("id")
          .executeTakeFirstOrThrow();
        if (o % 4 === 0) {
          const user = await trx
            .insertInto("users")
            .values({
              email: `bench${o}@bench.test`,
              password_hash: "x",
              language: "en",
              is_admin: 0,
              organization_id: org.id,
              access_level: 2,
              created_at: now,
            })
            .returning("id")
            .executeTakeFirstOrThrow();
          const rows = Array.from({ length: 100 }, () => ({
            id: randomBytes(32).toString("hex"),
            user_id: user.id,
            created_at: now,
            expires_at: later,
            user_agent: "bench",
          }));
          await trx.insertInto("sessions").values(rows).execute();
        }
      }
    });
  }
  const analyst = await database.selectFrom("users").select("id").where("email", "=", "analyst@demo.test").executeTakeFirstOrThrow();
  const token = randomBytes(32).toString("base64url");
  await database
    .insertInto("sessions")
    .values({
      id: createHash("sha256").update(token).digest("hex"),
      user_id: analyst.id,
      created_at: new Date().toISOString(),
      expires_at: new Date(Date.now() + 86_400_000).toISOString(),
      user_agent: "bench",
    })
    .execute();
  const counts = {
    organizations: Number(
      (
        await database
          .selectFrom("organizations")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    ),
    users: Number(
      (
        await database
          .selectFrom("users")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    ),
    sessions: Number(
      (
        await database
          .selectFrom("sessions")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    ),
    companies: Number(
      (
        await database
          .selectFrom("companies")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    ),
    statements: Number(
      (
        await database
          .selectFrom("financial_statements")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    ),
    persons: Number(
      (
        await database
          .selectFrom("persons")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    ),
  };
  await database.destroy();
  return { token, counts };
}

/**
 * Copies the registry (companies and everything hanging off them) `grow − 1`
 * more times under new ids, so every query meets a hundredfold store while
 * each company keeps the same amount of data.
 */
async function growRegistry(database: ReturnType<typeof createDb>, grow: number) {
  const columns = async (table: string) =>
    (await sql<{ name: string }>`select name from pragma_table_info(${table})`.execute(database)).rows.map((r) => r.name).filter((c) => c !== "id");
  const maxId = async (table: string) => Number((await sql<{ m: number }>`select max(id) as m from ${sql.table(table)}`.execute(database)).rows[0].m ?? 0);
  const companyOffset = await maxId("companies");
  const personOffset = await maxId("persons");
  const shift: Record<string, (k: number) => Record<string, string>> = {
    financial_statements: (k) => ({ company_id: `company_id + ${k * companyOffset}` }),
    roles: (k) => ({ company_id: `company_id + ${k * companyOffset}`, person_id: `person_id + ${k * personOffset}` }),
    shareholdings: (k) => ({
      company_id: `company_id + ${k * companyOffset}`,
      holder_company_id: `holder_company_id + ${k * companyOffset}`,
      holder_person_id: `holder_person_id + ${k * personOffset}`,
    }),
    announcements: (k) => ({ company_id: `company_id + ${k * companyOffset}` }),
    risk_notifications: (k) => ({ company_id: `company_id + ${k * companyOffset}` }),
    supplier_intelligence: (k) => ({ company_id: `company_id + ${k * companyOffset}` }),
  };
  // Read before the transactions: the SQLite driver has one connection, which a transaction holds.
  const tableColumns: Record<string, string[]> = {};
  for (const table of ["companies", "persons", ...Object.keys(shift)]) tableColumns[table] = await columns(table);
  const started = performance.now();
  for (let k = 1; k < grow; k++) {
    await database.transaction().execute(async (trx) => {
      const cc = tableColumns.companies;
      const cexpr = cc.map((c) => (c === "org_number" ? `'B${k}-' || org_number` : c === "legal_name" ? `legal_name || ' ${k}'` : c));
      await sql
        .raw(`insert into companies (id, ${cc.join(", ")}) select id + ${k * companyOffset}, ${cexpr.join(", ")} from companies where id <= ${companyOffset}`)
        .execute(trx);
      const pc = tableColumns.persons;
      await sql
        .raw(
          `insert into persons (id, ${pc.join(", ")}) select id + ${k * personOffset}, ${pc.map((c) => (c === "name" ? `name || ' ${k}'` : c)).join(", ")} from persons where id <= ${personOffset}`,
        )
        .execute(trx);
      for (const [table, shifted] of Object.entries(shift)) {
        const cols = tableColumns[table];
        const map = shifted(k);
        await sql
          .raw(`insert into ${table} (${cols.join(", ")}) select ${cols.map((c) => map[c] ?? c).join(", ")} from ${table} where company_id <= ${companyOffset}`)
          .execute(trx);
      }
    });
  }
  console.log(`  (grew the registry ×${grow} in ${((performance.now() - started) / 1000).toFixed(0)} s)`);
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

async function measure(label: string, url: string, headers: Record<string, string>, requests = REQUESTS) {
  const times: number[] = [];
  for (let i = 0; i < requests; i++) {
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
    console.log(
      `\n${grow === 1 ? "Demo world" : `Grown ×${grow}`}: ${counts.companies} companies, ${counts.statements} statements, ${counts.persons} people, ${counts.organizations} organisations, ${counts.users} users, ${counts.sessions} sessions; ${REQUESTS} sequential requests each`,
    );
    const auth = { Cookie: `token=${token}` };
    await measure("GET /login (visitor)", "/login", {});
    await measure("GET /overview (signed in, document)", "/overview", auth);
    await measure("GET /overview data request", "/overview?_data=root", auth);
    await measure("GET /api/users/me (Bearer)", "/api/users/me", { Authorization: `Bearer ${token}` });
    for (const [label, orgNumber] of SUPPLIERS) {
      await measure(`GET /supplier ${label} (document)`, `/supplier?externalId=${orgNumber}`, auth);
      await measure(`GET /supplier ${label} (data request)`, `/supplier?externalId=${orgNumber}&_data=routes%2Fsupplier`, auth);
    }
    await measure("GET /supplier full statements page", `/supplier?externalId=${SUPPLIERS[0][1]}&view=statements`, auth);
    await measure("search 'aker' (dropdown data)", "/search?q=aker&tab=organizations&limit=dropdown&_data=routes%2Fsearch", auth);
    await measure("search 'nor' prefix (dropdown data)", "/search?q=nor&tab=organizations&limit=dropdown&_data=routes%2Fsearch", auth);
    await measure("search people 'hansen' (dropdown data)", "/search?q=hansen&tab=people&limit=dropdown&_data=routes%2Fsearch", auth);
    await measure("GET /api/business-api/search_organizations", "/api/business-api/search_organizations?term=aker%20sol", { Authorization: `Bearer ${token}` });
  } finally {
    server.kill("SIGTERM");
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

// The LEI and budget runs import and query the store directly: they need no build.
if (
  process.env.BENCH_ONLY !== "lei" &&
  process.env.BENCH_ONLY !== "budgets" &&
  !fs.existsSync(path.join(root, process.env.BUILD_DIR ?? "build", "server/index.js"))
) {
  console.error("No build: run `npm run build` (or `npm start` once) first.");
  process.exit(1);
}
/**
 * "My suppliers" at scale: the analyst's customer follows 10 000 supplier
 * organisations made from registry companies (copied under new numbers when
 * the store has fewer), with the organisation's tags on most of them.
 */
async function runSupplierList(connections: number) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sr-bench-"));
  const { token } = await prepare(dataDir, 1);
  const database = createDb(path.join(dataDir, "app.db"));
  const analyst = await database.selectFrom("users").select("organization_id").where("email", "=", "analyst@demo.test").executeTakeFirstOrThrow();
  const customer = analyst.organization_id!;
  const started = performance.now();
  const now = new Date().toISOString();
  const tagIds = (await database.selectFrom("organization_tags").select("id").where("organization_id", "=", customer).orderBy("id").execute()).map((t) => t.id);
  const logistics = await database
    .selectFrom("organization_tags")
    .select("id")
    .where("organization_id", "=", customer)
    .where("title", "=", "Logistics")
    .executeTakeFirstOrThrow();
  const companies = await database.selectFrom("companies").select(["org_number", "legal_name", "country_code"]).orderBy("id").execute();
  await database.transaction().execute(async (trx) => {
    const existing = Number(
      (
        await trx
          .selectFrom("organization_connections")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .where("parent_organization_id", "=", customer)
          .where("is_deleted", "=", 0)
          .executeTakeFirstOrThrow()
      ).n,
    );
    for (let i = 0; i < connections - existing; i++) {
      const c = companies[i % companies.length];
      const round = Math.floor(i / companies.length);
      const org = await trx
        .insertInto("organizations")
        .values({
          name: round ? `${c.legal_name} ${round}` : c.legal_name,
          kind: "supplier",
          org_number: round ? `B${round}-${c.org_number}` : `S-${c.org_number}`,
          country_code: c.country_code,
          created_at: now,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      const connection = await trx
        .insertInto("organization_connections")
        .values({
          parent_organization_id: customer,
          child_organization_id: org.id,
          is_priority: i % 7 === 0 ? 1 : 0,
          is_due_diligence: i % 9 === 0 ? 1 : 0,
          created_at: new Date(Date.now() - i * 3_600_000).toISOString(),
          updated_at: now,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      const tags = [tagIds[i % tagIds.length], tagIds[(i * 3 + 1) % tagIds.length]].filter((t, k, all) => all.indexOf(t) === k && i % 5 !== 0);
      if (tags.length)
        await trx
          .insertInto("organization_connection_tags")
          .values(tags.map((tagId) => ({ connection_id: connection.id, tag_id: tagId, created_at: now })))
          .execute();
    }
  });
  const total = Number(
    (
      await database
        .selectFrom("organization_connections")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("parent_organization_id", "=", customer)
        .where("is_deleted", "=", 0)
        .executeTakeFirstOrThrow()
    ).n,
  );
  await database.destroy();
  console.log(`  (made ${total} connections in ${((performance.now() - started) / 1000).toFixed(1)} s)`);
  const server = await startServer(dataDir);
  try {
    console.log(`\nMy suppliers with ${total} connections (${tagIds.length} tags); ${REQUESTS} sequential requests each`);
    const auth = { Cookie: `token=${token}` };
    const pages = Math.ceil(total / 25);
    await measure("GET /suppliers (document)", "/suppliers", auth);
    await measure("GET /suppliers (data request)", "/suppliers?_data=routes%2Fsuppliers", auth);
    await measure("search 'bygg' (data)", "/suppliers?q=bygg&_data=routes%2Fsuppliers", auth);
    await measure("search 'ø' (data)", "/suppliers?q=%C3%B8&_data=routes%2Fsuppliers", auth);
    await measure("tag filter Logistics (data)", `/suppliers?tag=${logistics.id}&_data=routes%2Fsuppliers`, auth);
    await measure("sort by country desc (data)", "/suppliers?sort=country&dir=desc&_data=routes%2Fsuppliers", auth);
    await measure(`last page ${pages} by name (data)`, `/suppliers?page=${pages}&_data=routes%2Fsuppliers`, auth);
    await measure(`CSV export, all ${total}`, "/suppliers.csv", auth, Math.min(REQUESTS, 50));
  } finally {
    server.kill("SIGTERM");
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/* ---------------- supplier-list analysis  ---------------- */

const ORG_WEIGHTS = [3, 2, 7, 6, 5, 4, 3, 2];

/** A nine-digit number with a valid MOD11 check digit (the bench's own generator, from a seed). */
function validOrgNumber(seed: number): string {
  for (let n = seed; ; n++) {
    const body = String(80_000_000 + (n % 19_999_999)).padStart(8, "0");
    const sum = [...body].reduce((acc, d, i) => acc + Number(d) * ORG_WEIGHTS[i], 0);
    const remainder = sum % 11;
    if (remainder === 1) continue;
    return body + String(remainder === 0 ? 0 : 11 - remainder);
  }
}

/**
 * The lines of a generated supplier list: most name a registry company by number (written as people do: spaces, NO …
 * MVA), some a valid number the registry does not have, some a wrong check digit, and one in twenty only a name (the
 * full-text path, the costly one).
 */
function listRows(count: number, companies: Array<{ org_number: string; legal_name: string }>): string[][] {
  const rows: string[][] = [["Organisasjonsnummer", "Leverandør", "Land"]];
  for (let i = 0; i < count; i++) {
    const c = companies[(i * 7) % companies.length];
    const kind = i % 20;
    if (kind === 0) rows.push(["", c.legal_name, "NO"]);
    else if (kind === 1) rows.push([c.org_number.slice(0, 8) + String((Number(c.org_number[8]) + 1) % 10), c.legal_name, "NO"]);
    else if (kind < 6) rows.push([validOrgNumber(i * 7919), `Ukjent leverandør ${i}`, "NO"]);
    else if (kind < 9) rows.push([`NO ${c.org_number.replace(/(\d{3})(\d{3})(\d{3})/, "$1 $2 $3")} MVA`, c.legal_name, "NO"]);
    else rows.push([c.org_number, c.legal_name, "NO"]);
  }
  return rows;
}

/** The process and its descendants (tsx runs the script in a child process of its own). */
function processTree(pid: number): number[] {
  let children: number[] = [];
  try {
    for (const task of fs.readdirSync(`/proc/${pid}/task`))
      children = children.concat(fs.readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number));
  } catch {
    return [pid];
  }
  return [pid, ...children.flatMap(processTree)];
}

/** Current and peak resident memory (VmRSS, VmHWM) of a process tree, from /proc (Linux), in MB. */
function memoryOf(pid: number): { rss: number; hwm: number } | null {
  let rss = 0;
  let hwm = 0;
  for (const p of processTree(pid)) {
    try {
      const status = fs.readFileSync(`/proc/${p}/status`, "utf8");
      const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0);
      rss += kb("VmRSS") / 1024;
      hwm += kb("VmHWM") / 1024;
    } catch {
      // gone meanwhile
    }
  }
  return rss ? { rss, hwm } : null;
}

/**
 * The "supplier-analysis" job on a 10 000-row xlsx and a 100 000-row CSV, each analysed by `npm run worker` (the build's
 * handler in a process of its own) on the demo world: wall time from enqueue to done, and that process's resident memory
 * sampled every 50 ms (VmRSS) and its peak (VmHWM), against its memory when idle.
 */
async function runImports() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sr-bench-"));
  await prepare(dataDir, 1);
  const database = createDb(path.join(dataDir, "app.db"));
  const analyst = await database.selectFrom("users").select(["id", "organization_id"]).where("email", "=", "analyst@demo.test").executeTakeFirstOrThrow();
  const companies = await database.selectFrom("companies").select(["org_number", "legal_name"]).where("country_code", "=", "NO").orderBy("id").execute();
  const { default: writeExcelFile } = await import("write-excel-file/node");
  const { enqueueJob } = await import("../server/jobs/queue");
  fs.mkdirSync(path.join(dataDir, "uploads"), { recursive: true });
  const store = async (fileName: string, write: (file: string) => Promise<void>) => {
    const key = randomBytes(16).toString("hex");
    const file = path.join(dataDir, "uploads", key);
    await write(file);
    const row = await database
      .insertInto("file_uploads")
      .values({
        organization_id: analyst.organization_id!,
        user_id: analyst.id,
        file_name: fileName,
        file_size: fs.statSync(file).size,
        mime_type: "application/octet-stream",
        storage_key: key,
        created_at: new Date().toISOString(),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    return row.id;
  };
  const xlsxRows = Number(process.env.BENCH_XLSX_ROWS ?? 10_000);
  const csvRows = Number(process.env.BENCH_CSV_ROWS ?? 100_000);
  const files: Array<[string, number, number]> = [
    [`xlsx, ${xlsxRows} rows`, xlsxRows, await store("bench.xlsx", (file) => writeExcelFile(listRows(xlsxRows, companies)).toFile(file))],
    [
      `CSV, ${csvRows} rows`,
      csvRows,
      await store("bench.csv", async (file) => {
        fs.writeFileSync(
          file,
          listRows(csvRows, companies)
            .map((r) => r.map((c) => (/[;"\n]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c)).join(";"))
            .join("\r\n"),
        );
      }),
    ],
  ];

  const worker = spawn(process.execPath, [path.join(root, "node_modules/tsx/dist/cli.mjs"), "server/cli/worker.ts"], {
    cwd: root,
    stdio: ["ignore", "pipe", "inherit"],
    env: { ...process.env, NODE_ENV: "production", DATA_DIR: dataDir, DATABASE_FILE: path.join(dataDir, "app.db") },
  });
  let log = "";
  await new Promise<void>((resolve, reject) => {
    worker.stdout!.on("data", (chunk: Buffer) => {
      log += chunk.toString();
      if (log.includes("Worker ")) resolve();
    });
    worker.on("exit", (code) => reject(new Error(`worker exited with ${code}\n${log}`)));
  });
  try {
    await new Promise((r) => setTimeout(r, 1000));
    console.log(`\nSupplier-list analysis (npm run worker, one job at a time; ${companies.length} registry companies)`);
    for (const [label, rows, fileId] of files) {
      const idle = memoryOf(worker.pid!);
      const imp = await database
        .insertInto("supplier_imports")
        .values({
          organization_id: analyst.organization_id!,
          user_id: analyst.id,
          file_upload_id: fileId,
          mapping: JSON.stringify({ orgId: 0, orgName: 1, countryCode: 2, hasHeaders: true, sheet: 0 }),
          status: "analysing",
          created_at: new Date().toISOString(),
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      const t0 = performance.now();
      const jobId = await enqueueJob(database, {
        type: "supplier-analysis",
        organizationId: analyst.organization_id!,
        userId: analyst.id,
        payload: { importId: imp.id },
      });
      await database.updateTable("supplier_imports").set({ job_id: jobId }).where("id", "=", imp.id).execute();
      let peak = idle?.rss ?? 0;
      // The lines' pass (until progress reaches the total) apart from the result file's writing after it.
      let peakMatching = idle?.rss ?? 0;
      let matchedAt = 0;
      for (;;) {
        const job = await database
          .selectFrom("jobs")
          .select(["status", "error_detail", "progress_done", "progress_total"])
          .where("id", "=", jobId)
          .executeTakeFirstOrThrow();
        const m = memoryOf(worker.pid!);
        const matching = job.status !== "done" && (job.progress_total === null || job.progress_done < job.progress_total);
        if (!matching && !matchedAt) matchedAt = performance.now();
        if (m) {
          peak = Math.max(peak, m.rss);
          if (matching) peakMatching = Math.max(peakMatching, m.rss);
        }
        if (job.status === "done") break;
        if (job.status === "failed") throw new Error(`${label}: the job failed: ${job.error_detail}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      const seconds = (performance.now() - t0) / 1000;
      const done = await database.selectFrom("supplier_imports").select(["status", "counts"]).where("id", "=", imp.id).executeTakeFirstOrThrow();
      const hwm = memoryOf(worker.pid!)?.hwm ?? 0;
      console.log(
        `  ${label.padEnd(20)} ${seconds.toFixed(1).padStart(6)} s  (${Math.round(rows / seconds)} rows/s; lines ${((matchedAt - t0) / 1000).toFixed(1)} s, ` +
          `result file ${((performance.now() - matchedAt) / 1000).toFixed(1)} s)   RSS idle ${idle?.rss.toFixed(0)} MB, peak while matching ` +
          `${peakMatching.toFixed(0)} MB, peak ${peak.toFixed(0)} MB (VmHWM ${hwm.toFixed(0)} MB)   ${done.status} ${done.counts}`,
      );
    }
  } finally {
    worker.kill("SIGTERM");
    await database.destroy();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Words for generated entity names: enough variety that a prefix matches some rows, not all. */
const LEI_WORDS = (
  "nordic global atlantic fjord polar aurora granite harbor summit meridian alpine coastal delta pioneer horizon vertex " +
  "evergreen silver iron copper oak pine birch maple cedar willow falcon eagle raven wolf bear lynx otter beacon anchor " +
  "keystone crown royal union federal central pacific baltic arctic boreal lumen solar terra aqua nova zenith apex"
).split(" ");
const LEI_KINDS = ["Holding", "Capital", "Energy", "Logistics", "Shipping", "Foods", "Systems", "Partners", "Industries", "Invest"];
const LEI_FORMS = ["AS", "ASA", "AB", "GmbH", "AG", "Ltd", "LLC", "Inc.", "S.A.", "B.V.", "Oy", "ApS"];
const LEI_COUNTRIES = ["NO", "SE", "DK", "FI", "DE", "GB", "US", "NL", "FR", "ES"];

/** The LEI-CDF columns the importer reads, in GLEIF's order, plus some it ignores (as a real file has many). */
function lei2Header(): string[] {
  const address = (p: string) => [
    `${p}.xmllang`,
    `${p}.FirstAddressLine`,
    `${p}.AddressNumber`,
    `${p}.AddressNumberWithinBuilding`,
    `${p}.MailRouting`,
    `${p}.AdditionalAddressLine.1`,
    `${p}.AdditionalAddressLine.2`,
    `${p}.AdditionalAddressLine.3`,
    `${p}.City`,
    `${p}.Region`,
    `${p}.Country`,
    `${p}.PostalCode`,
  ];
  const names = (base: string) => [1, 2, 3, 4, 5].flatMap((n) => [`${base}.${n}`, `${base}.${n}.xmllang`, `${base}.${n}.type`]);
  return [
    "LEI",
    "Entity.LegalName",
    "Entity.LegalName.xmllang",
    ...names("Entity.OtherEntityNames.OtherEntityName"),
    ...names("Entity.TransliteratedOtherEntityNames.TransliteratedOtherEntityName"),
    ...address("Entity.LegalAddress"),
    ...address("Entity.HeadquartersAddress"),
    "Entity.RegistrationAuthority.RegistrationAuthorityID",
    "Entity.RegistrationAuthority.OtherRegistrationAuthorityID",
    "Entity.RegistrationAuthority.RegistrationAuthorityEntityID",
    "Entity.LegalJurisdiction",
    "Entity.EntityCategory",
    "Entity.EntitySubCategory",
    "Entity.LegalForm.EntityLegalFormCode",
    "Entity.LegalForm.OtherLegalForm",
    "Entity.AssociatedEntity.type",
    "Entity.AssociatedEntity.AssociatedLEI",
    "Entity.AssociatedEntity.AssociatedEntityName",
    "Entity.EntityStatus",
    "Entity.EntityCreationDate",
    "Entity.EntityExpirationDate",
    "Entity.EntityExpirationReason",
    "Entity.SuccessorEntity.SuccessorLEI",
    "Entity.SuccessorEntity.SuccessorEntityName",
    "Registration.InitialRegistrationDate",
    "Registration.LastUpdateDate",
    "Registration.RegistrationStatus",
    "Registration.NextRenewalDate",
    "Registration.ManagingLOU",
    "Registration.ValidationSources",
    "Registration.ValidationAuthority.ValidationAuthorityID",
    "Registration.ValidationAuthority.ValidationAuthorityEntityID",
    "Registration.OtherValidationAuthorities.OtherValidationAuthority.1.ValidationAuthorityID",
    "Registration.OtherValidationAuthorities.OtherValidationAuthority.1.ValidationAuthorityEntityID",
  ];
}

/** A generated LEI2 golden copy: deterministic, valid check digits, every field GLEIF fills for an ordinary entity. */
async function writeLei2File(file: string, rows: number): Promise<void> {
  const { leiCheckDigits } = await import("../app/models/registry/lei");
  const header = lei2Header();
  const index = new Map(header.map((h, i) => [h, i]));
  const quote = (v: string) => `"${v.replace(/"/g, '""')}"`;
  const out = fs.openSync(file, "w");
  let random = 42;
  const next = (n: number) => {
    random = (random * 1103515245 + 12345) % 2147483648;
    return random % n;
  };
  try {
    fs.writeSync(out, header.map(quote).join(",") + "\r\n");
    let buffer: string[] = [];
    for (let i = 0; i < rows; i++) {
      const cells: string[] = new Array(header.length).fill("");
      const set = (column: string, value: string) => (cells[index.get(column)!] = value);
      const prefix = `9845BE${i.toString(36).toUpperCase().padStart(12, "0")}`;
      const country = LEI_COUNTRIES[next(LEI_COUNTRIES.length)];
      const name = `${LEI_WORDS[next(LEI_WORDS.length)]} ${LEI_WORDS[next(LEI_WORDS.length)]} ${LEI_KINDS[next(LEI_KINDS.length)]} ${LEI_FORMS[next(LEI_FORMS.length)]} ${i}`;
      const legalName = name[0].toUpperCase() + name.slice(1);
      set("LEI", prefix + leiCheckDigits(prefix));
      set("Entity.LegalName", legalName);
      set("Entity.LegalName.xmllang", "en");
      if (i % 5 === 0) {
        set("Entity.OtherEntityNames.OtherEntityName.1", `${legalName.split(" ").slice(0, 2).join(" ")} Group`);
        set("Entity.OtherEntityNames.OtherEntityName.1.xmllang", "en");
        set("Entity.OtherEntityNames.OtherEntityName.1.type", "TRADING_OR_OPERATING_NAME");
      }
      for (const p of ["Entity.LegalAddress", "Entity.HeadquartersAddress"]) {
        set(`${p}.xmllang`, "en");
        set(`${p}.FirstAddressLine`, `${1 + next(300)} ${LEI_WORDS[next(LEI_WORDS.length)]} street`);
        if (i % 3 === 0) set(`${p}.AdditionalAddressLine.1`, `Floor ${1 + next(20)}, suite ${next(900)}`);
        set(`${p}.City`, `${LEI_WORDS[next(LEI_WORDS.length)]}by`);
        set(`${p}.Region`, `${country}-${10 + next(20)}`);
        set(`${p}.Country`, country);
        set(`${p}.PostalCode`, String(1000 + next(9000)));
      }
      set("Entity.RegistrationAuthority.RegistrationAuthorityID", `RA000${100 + next(700)}`);
      set("Entity.RegistrationAuthority.RegistrationAuthorityEntityID", String(900_000_000 + i));
      set("Entity.LegalJurisdiction", country);
      set("Entity.EntityCategory", "GENERAL");
      set("Entity.LegalForm.EntityLegalFormCode", "YI42");
      set("Entity.EntityStatus", i % 50 === 0 ? "INACTIVE" : "ACTIVE");
      set("Entity.EntityCreationDate", "2004-06-06T22:00:00Z");
      set("Registration.InitialRegistrationDate", "2013-06-03T13:29:41Z");
      set("Registration.LastUpdateDate", "2025-04-09T08:12:40Z");
      set("Registration.RegistrationStatus", i % 50 === 0 ? "RETIRED" : i % 7 === 0 ? "LAPSED" : "ISSUED");
      set("Registration.NextRenewalDate", "2026-06-03T13:29:41Z");
      set("Registration.ManagingLOU", "5967007LIEEXZX4NU938");
      set("Registration.ValidationSources", "FULLY_CORROBORATED");
      set("Registration.ValidationAuthority.ValidationAuthorityID", "RA000472");
      buffer.push(cells.map(quote).join(","));
      if (buffer.length === 20_000) {
        fs.writeSync(out, buffer.join("\r\n") + "\r\n");
        buffer = [];
      }
    }
    if (buffer.length) fs.writeSync(out, buffer.join("\r\n") + "\r\n");
  } finally {
    fs.closeSync(out);
  }
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/**
 * `npm run import -- gleif-lei2` on a generated LEI2 golden copy of `rows` rows, in a process of its own (as an operator
 * runs it): wall time, and the process's resident memory sampled every 250 ms. Then prefix autocomplete over the
 * imported store: the full-text query by legal name and by LEI prefix, with and without ranking.
 */
async function runLeiBench(rows: number) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sr-bench-lei-"));
  const file = path.join(dataDir, "lei2-golden-copy.csv");
  const databaseFile = path.join(dataDir, "app.db");
  try {
    let t0 = performance.now();
    await writeLei2File(file, rows);
    console.log(
      `\nGLEIF LEI2 golden copy: ${rows.toLocaleString("en-GB")} generated rows, ${(fs.statSync(file).size / 1_048_576).toFixed(0)} MB, ` +
        `${lei2Header().length} columns (written in ${((performance.now() - t0) / 1000).toFixed(1)} s)`,
    );
    const migrated = createDb(databaseFile);
    await migrateToLatest(migrated);
    await migrated.destroy();

    const loadBefore = os.loadavg()[0].toFixed(1);
    t0 = performance.now();
    const child = spawn(process.execPath, [path.join(root, "node_modules/tsx/dist/cli.mjs"), "server/cli/import.ts", "gleif-lei2", file], {
      cwd: root,
      stdio: ["ignore", "pipe", "inherit"],
      env: { ...process.env, NODE_ENV: "production", DATA_DIR: dataDir, DATABASE_FILE: databaseFile },
    });
    let log = "";
    child.stdout!.on("data", (chunk: Buffer) => (log = (log + chunk.toString()).slice(-4000)));
    const samples: Array<{ at: number; rss: number }> = [];
    // CPU seconds of the import process tree (utime + stime, in clock ticks of 1/100 s): on a machine shared with other
    // work, wall time says more about the neighbours than about the importer.
    let cpuSeconds = 0;
    const sampler = setInterval(() => {
      const m = memoryOf(child.pid!);
      if (m) samples.push({ at: performance.now() - t0, rss: m.rss });
      let ticks = 0;
      for (const p of processTree(child.pid!)) {
        try {
          const fields = fs.readFileSync(`/proc/${p}/stat`, "utf8").split(") ")[1].split(" ");
          ticks += Number(fields[11]) + Number(fields[12]);
        } catch {
          // gone meanwhile
        }
      }
      // A process that has exited (a zombie until reaped) reads as zero: keep the highest count seen.
      cpuSeconds = Math.max(cpuSeconds, ticks / 100);
    }, 250);
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    clearInterval(sampler);
    const seconds = (performance.now() - t0) / 1000;
    if (code !== 0) throw new Error(`the import exited with ${code}\n${log}`);
    const summary = log.split("\n").filter((l) => /rows in|inserted/.test(l));
    const at = (fraction: number) => (samples.find((s) => s.at >= fraction * seconds * 1000) ?? samples[samples.length - 1])?.rss ?? 0;
    const peak = Math.max(...samples.map((s) => s.rss));
    console.log(
      `  import (npm run import -- gleif-lei2, own process): ${seconds.toFixed(1)} s, ${Math.round(rows / seconds).toLocaleString("en-GB")} rows/s; ` +
        `CPU time ${cpuSeconds.toFixed(0)} s (until the last sample); load average before/after ${loadBefore} / ${os.loadavg()[0].toFixed(1)}`,
    );
    for (const line of summary) console.log(`  ${line.trim()}`);
    console.log(
      `  RSS at 10/25/50/75/95 % of the time: ${[0.1, 0.25, 0.5, 0.75, 0.95].map((f) => at(f).toFixed(0)).join(" / ")} MB, peak ${peak.toFixed(0)} MB; ` +
        `database ${(fs.statSync(databaseFile).size / 1_048_576).toFixed(0)} MB`,
    );

    const keep = process.env.BENCH_LEI_DB;
    if (keep) for (const suffix of ["", "-wal", "-shm"]) if (fs.existsSync(databaseFile + suffix)) fs.renameSync(databaseFile + suffix, keep + suffix);
    await benchLeiAutocomplete(keep || databaseFile);
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * The local provider's `autocomplete` (what `/api/lei-api/autocomplete` answers, minus HTTP) over an imported store,
 * with the terms a user types: name prefixes of one to four words, one- and two-letter prefixes, LEI prefixes and
 * full LEIs. Sequential, in process; p50 / p95 / max per kind and over all of them.
 */
async function benchLeiAutocomplete(databaseFile: string) {
  const { createLocalLeiProvider } = await import("../server/providers/lei/local");
  const database = createDb(databaseFile);
  try {
    const provider = createLocalLeiProvider(() => database);
    let seed = 7;
    const pick = <T>(list: T[]) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return list[seed % list.length];
    };
    const queries = Number(process.env.BENCH_REQUESTS ?? 200);
    // Real names and LEIs of the store, spread over it, so that multi-word prefixes match what is there.
    const { count } = await database
      .selectFrom("lei_records")
      .select((eb) => eb.fn.countAll<number>().as("count"))
      .executeTakeFirstOrThrow();
    const sample = await sql<{ lei: string; legal_name: string }>`
      select lei, legal_name from lei_records where id % ${Math.max(1, Math.floor(Number(count) / queries))} = 0 limit ${queries}`.execute(database);
    const records = sample.rows;
    const namePrefix = (name: string, words: number, i: number) => {
      const parts = name.split(" ").slice(0, words);
      const last = parts[parts.length - 1];
      parts[parts.length - 1] = last.slice(0, Math.max(1, Math.min(last.length, 2 + (i % 5))));
      return parts.join(" ");
    };
    const kinds: Array<[string, string[]]> = [
      ["name, 1 word (2–6 letters)", records.map((r, i) => namePrefix(r.legal_name, 1, i + 1))],
      ["name, 2 words", records.map((r, i) => namePrefix(r.legal_name, 2, i))],
      ["name, 3–4 words", records.map((r, i) => namePrefix(r.legal_name, 3 + (i % 2), i))],
      // Words from inside the name ("cedar Industries", "Shipping AS"): no legal name starts with them.
      [
        "name, 2 inner words",
        records.map((r, i) =>
          namePrefix(
            r.legal_name
              .split(" ")
              .slice(1 + (i % 2))
              .join(" "),
            2,
            i,
          ),
        ),
      ],
      ["short prefix (1–2 letters)", records.map((r, i) => (i % 2 ? pick(LEI_WORDS).slice(0, 1) : pick(LEI_WORDS).slice(0, 2)))],
      ["LEI prefix (4–19 characters)", records.map((r, i) => r.lei.slice(0, 4 + (i % 16)).toLowerCase())],
      ["full LEI", records.map((r) => r.lei)],
    ];
    console.log(`  autocomplete (the local provider, in process, no HTTP), ${records.length} sequential terms per kind, p50 / p95 / max:`);
    const all: number[] = [];
    let empty = 0;
    for (const [label, terms] of kinds) {
      const times: number[] = [];
      for (const term of terms) {
        const started = performance.now();
        const items = await provider.autocomplete(term);
        times.push(performance.now() - started);
        if (items.length === 0) empty += 1;
      }
      all.push(...times);
      times.sort((a, b) => a - b);
      console.log(
        `    ${label.padEnd(32)} ${percentile(times, 50).toFixed(1)} / ${percentile(times, 95).toFixed(1)} / ${times[times.length - 1].toFixed(1)} ms`,
      );
    }
    all.sort((a, b) => a - b);
    console.log(
      `    ${"all kinds".padEnd(32)} ${percentile(all, 50).toFixed(1)} / ${percentile(all, 95).toFixed(1)} / ${all[all.length - 1].toFixed(1)} ms` +
        ` (${empty} of ${all.length} terms found nothing)`,
    );
  } finally {
    await database.destroy();
  }
}

/* ---------------- notifications  ---------------- */

/**
 * 1 000 000 notifications across 100 customer organisations: 2 000 registry companies as suppliers, each organisation
 * following 200 of them (overlapping), notifications spread over a year with every risk score, a tenth of them news hits
 * of one organisation's own feed, a third read by the analyst. Written with one prepared statement in one transaction.
 */
async function runNotificationsBench(total: number) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sr-bench-"));
  const { token } = await prepare(dataDir, 1);
  const started = performance.now();
  const { default: Database } = await import("better-sqlite3");
  const sqlite = new Database(path.join(dataDir, "app.db"));
  sqlite.pragma("journal_mode = WAL");
  const analyst = sqlite.prepare("select id, organization_id as org from users where email = 'analyst@demo.test'").get() as { id: number; org: number };
  const now = new Date();
  const iso = now.toISOString();
  const companies = sqlite
    .prepare("select id, org_number, legal_name, country_code from companies where country_code = 'NO' order by id limit 2000")
    .all() as Array<{
    id: number;
    org_number: string;
    legal_name: string;
    country_code: string;
  }>;
  const write = sqlite.transaction(() => {
    // One supplier organisation per company (the demo's own where it exists).
    const supplierOf = new Map<number, number>();
    const findSupplier = sqlite.prepare("select id from organizations where org_number = ? and kind = 'supplier'");
    const addSupplier = sqlite.prepare(
      "insert into organizations (name, kind, org_number, country_code, created_at) values (?, 'supplier', ?, ?, ?) returning id",
    );
    for (const c of companies) {
      const found = findSupplier.get(c.org_number) as { id: number } | undefined;
      supplierOf.set(c.id, found?.id ?? (addSupplier.get(c.legal_name, c.org_number, c.country_code, iso) as { id: number }).id);
    }
    const orgs = [analyst.org];
    const addOrg = sqlite.prepare(
      "insert into organizations (name, kind, org_number, country_code, created_at) values (?, 'customer', null, 'NO', ?) returning id",
    );
    for (let o = 1; o < 100; o++) orgs.push((addOrg.get(`Bench Customer ${o}`, iso) as { id: number }).id);
    sqlite.prepare("update organization_connections set is_deleted = 1 where parent_organization_id = ?").run(analyst.org);
    const follow = sqlite.prepare(
      "insert into organization_connections (parent_organization_id, child_organization_id, created_at, updated_at) values (?, ?, ?, ?)",
    );
    orgs.forEach((org, o) => {
      for (let k = 0; k < 200; k++) follow.run(org, supplierOf.get(companies[(o * 20 + k) % companies.length].id)!, iso, iso);
    });
    const insert = sqlite.prepare(
      `insert into risk_notifications (company_id, type, date, created_at, risk_score, relevance_score, title, title_no, source, url, kind,
         organization_id, dedupe_key) values (?, ?, ?, ?, ?, ?, ?, ?, 'Bench', 'https://bench.example.test/n', ?, ?, ?)`,
    );
    const read = sqlite.prepare("insert into notification_reads (user_id, notification_id, read_at) values (?, ?, ?)");
    const analystCompanies = new Set(Array.from({ length: 200 }, (_, k) => companies[k % companies.length].id));
    for (let i = 0; i < total; i++) {
      const company = companies[(i * 7919) % companies.length];
      const daysAgo = (i * 31) % 365;
      const news = i % 10 === 0;
      const { lastInsertRowid } = insert.run(
        company.id,
        news || i % 3 === 0 ? "search" : "announcement",
        new Date(now.getTime() - daysAgo * 86_400_000).toISOString().slice(0, 10),
        iso,
        (i * 37) % 101,
        (i * 53) % 101,
        `Bench event ${i} about ${company.legal_name}`,
        `Benkhendelse ${i} om ${company.legal_name}`,
        news ? "news" : "board_change",
        news ? orgs[i % orgs.length] : null,
        `bench:${i}`,
      );
      if (analystCompanies.has(company.id) && i % 3 === 0) read.run(analyst.id, lastInsertRowid, iso);
    }
  });
  write();
  sqlite.pragma("wal_checkpoint(TRUNCATE)");
  sqlite.exec("analyze");
  sqlite.close();
  console.log(`  (wrote ${total.toLocaleString("en-GB")} notifications for 100 organisations in ${((performance.now() - started) / 1000).toFixed(1)} s)`);
  const server = await startServer(dataDir);
  try {
    console.log(`
Notifications: ${total.toLocaleString("en-GB")} across 100 organisations following 200 suppliers each; ${REQUESTS} sequential requests each`);
    const auth = { Cookie: `token=${token}` };
    await measure("GET /api/notifications (first page)", "/api/notifications", auth);
    await measure("GET /api/notifications offset=500", "/api/notifications?offset=500", auth);
    await measure("GET /api/notifications risk 0, 365 days", "/api/notifications?minRiskScore=0&lookbackDays=365", auth);
    await measure("GET /api/notifications type=search", "/api/notifications?type=search", auth);
    await measure("bell count (layout data request)", "/credit_reports?_data=routes%2F_app", auth);
    await measure("GET /notifications (document)", "/notifications", auth);
    await measure("GET /notifications unread, page 5 (data)", "/notifications?read=unread&page=5&_data=routes%2F_app.notifications", auth);
    await measure("GET /notifications.csv (30 days, risk 50)", "/notifications.csv", auth, Math.min(REQUESTS, 20));
  } finally {
    server.kill("SIGTERM");
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/* ---------------- the overview and the dashboard at scale  ---------------- */

/**
 * The landing page and the portfolio dashboard of a customer that follows 10 000 suppliers, in a store with 1 000 000
 * notifications: the registry grown ×3 (so 10 000 distinct companies), the analyst's organisation following 10 000 of
 * them with a stored overall risk, due-diligence and priority flags and tags, five audit events per connection, 5 000
 * tasks sent over ±60 days, 3 000 credit reports over a year, and the notifications over every company and a year.
 */
async function runOverviewBench(connections: number, total: number) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sr-bench-"));
  const { token } = await prepare(dataDir, 3);
  const started = performance.now();
  const { default: Database } = await import("better-sqlite3");
  const sqlite = new Database(path.join(dataDir, "app.db"));
  sqlite.pragma("journal_mode = WAL");
  const analyst = sqlite.prepare("select id, organization_id as org from users where email = 'analyst@demo.test'").get() as { id: number; org: number };
  const now = new Date();
  const iso = now.toISOString();
  const dayIso = (offset: number) => new Date(now.getTime() + offset * 86_400_000).toISOString();
  const companies = sqlite.prepare("select id, org_number, legal_name, country_code from companies order by id").all() as Array<{
    id: number;
    org_number: string;
    legal_name: string;
    country_code: string;
  }>;
  const tagIds = (sqlite.prepare("select id from organization_tags where organization_id = ? order by id").all(analyst.org) as Array<{ id: number }>).map(
    (t) => t.id,
  );
  const write = sqlite.transaction(() => {
    const followed = new Set(
      (
        sqlite
          .prepare(
            "select o.org_number from organization_connections c join organizations o on o.id = c.child_organization_id where c.parent_organization_id = ? and c.is_deleted = 0",
          )
          .all(analyst.org) as Array<{ org_number: string | null }>
      ).map((r) => r.org_number),
    );
    const findSupplier = sqlite.prepare("select id from organizations where org_number = ? and kind = 'supplier'");
    const addSupplier = sqlite.prepare(
      "insert into organizations (name, kind, org_number, country_code, created_at) values (?, 'supplier', ?, ?, ?) returning id",
    );
    const follow = sqlite.prepare(
      `insert into organization_connections (parent_organization_id, child_organization_id, is_priority, is_due_diligence, created_at, updated_at,
         overall_risk, overall_risk_band, overall_risk_reasons, overall_risk_at, nace_section, compliance_flags)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) returning id`,
    );
    const tag = sqlite.prepare("insert into organization_connection_tags (connection_id, tag_id, created_at) values (?, ?, ?)");
    const event = sqlite.prepare(
      "insert into connection_events (connection_id, organization_id, user_id, action, detail, created_at) values (?, ?, ?, ?, ?, ?)",
    );
    const compliance = sqlite.prepare(
      "insert into compliance_tasks (organization_id, supplier_organization_id, template_id, title, due_date, created_at, updated_at) values (?, ?, null, ?, ?, ?, ?) returning id",
    );
    const supplierTask = sqlite.prepare(
      `insert into supplier_tasks (organization_id, supplier_organization_id, kind, compliance_task_id, title, due_date, status, sent_at, updated_at)
       values (?, ?, 'task', ?, ?, ?, ?, ?, ?)`,
    );
    const statuses = ["sent", "opened", "draft", "submitted", "accepted", "returned"];
    let made = followed.size;
    for (let i = 0; made < connections && i < companies.length; i++) {
      const c = companies[i];
      if (followed.has(c.org_number)) continue;
      const child =
        (findSupplier.get(c.org_number) as { id: number } | undefined)?.id ??
        (addSupplier.get(c.legal_name, c.org_number, c.country_code, iso) as { id: number }).id;
      const risk = i % 13 === 0 ? null : (i * 37) % 101;
      const band = risk === null ? null : risk <= 33 ? "green" : risk <= 66 ? "yellow" : "red";
      const reasons = risk === null ? null : JSON.stringify([{ kind: "line", key: ["credit", "reputation", "legal"][i % 3], value: risk }]);
      const connection = (
        follow.get(
          analyst.org,
          child,
          i % 7 === 0 ? 1 : 0,
          i % 9 === 0 ? 1 : 0,
          dayIso(-(i % 365)),
          iso,
          risk,
          band,
          reasons,
          iso,
          "ABCDEFGHIJKLMNOPQRSTU"[i % 21],
          i % 8,
        ) as { id: number }
      ).id;
      if (i % 5 !== 0) tag.run(connection, tagIds[i % tagIds.length], iso);
      for (let e = 0; e < 5; e++)
        event.run(
          connection,
          analyst.org,
          analyst.id,
          ["created", "tag_added", "comment_added", "is_priority", "file_attached"][e],
          "{}",
          dayIso(-((i * 5 + e) % 365)),
        );
      if (made % 2 === 0 && made < 10_000) {
        const due = dayIso(((made * 7) % 121) - 60).slice(0, 10);
        const ct = (compliance.get(analyst.org, child, `Bench task ${made}`, due, iso, iso) as { id: number }).id;
        supplierTask.run(analyst.org, child, ct, `Bench task ${made}`, due, statuses[made % statuses.length], iso, iso);
      }
      made++;
    }
    const report = sqlite.prepare(
      `insert into credit_reports (organization_id, user_id, company_name, reg_no, country_code, language, provider, provider_id, file_name, storage_key,
         file_size, price_nok, idempotency_key, created_at) values (?, ?, ?, ?, 'NO', 'EN', 'local', ?, 'r.pdf', ?, 1, 80, ?, ?)`,
    );
    for (let r = 0; r < 3000; r++)
      report.run(analyst.org, analyst.id, `Bench ${r}`, "923609016", "923609016", `bench-${r}`, `bench-${r}`, dayIso(-((r * 11) % 365)));
    const insert = sqlite.prepare(
      `insert into risk_notifications (company_id, type, date, created_at, risk_score, relevance_score, title, title_no, source, url, kind, dedupe_key)
       values (?, ?, ?, ?, ?, ?, ?, ?, 'Bench', 'https://bench.example.test/n', 'board_change', ?)`,
    );
    for (let i = 0; i < total; i++) {
      const company = companies[(i * 7919) % companies.length];
      insert.run(
        company.id,
        i % 3 === 0 ? "search" : "announcement",
        dayIso(-((i * 31) % 365)).slice(0, 10),
        iso,
        (i * 37) % 101,
        (i * 53) % 101,
        `Bench event ${i} about ${company.legal_name}`,
        `Benkhendelse ${i} om ${company.legal_name}`,
        `bench:${i}`,
      );
    }
    // A year of daily risk snapshots (decision 038), each day the connections' state as it is now.
    const snapshotAll = sqlite.prepare(
      `insert or replace into risk_snapshots (organization_id, day, tag_id, band, is_priority, is_due_diligence, count)
       select parent_organization_id, ?, 0, coalesce(overall_risk_band, 'unknown'), is_priority, is_due_diligence, count(*)
       from organization_connections where parent_organization_id = ? and is_deleted = 0 group by 4, 5, 6`,
    );
    const snapshotTags = sqlite.prepare(
      `insert or replace into risk_snapshots (organization_id, day, tag_id, band, is_priority, is_due_diligence, count)
       select c.parent_organization_id, ?, ct.tag_id, coalesce(c.overall_risk_band, 'unknown'), c.is_priority, c.is_due_diligence, count(*)
       from organization_connections c join organization_connection_tags ct on ct.connection_id = c.id
       where c.parent_organization_id = ? and c.is_deleted = 0 group by 3, 4, 5, 6`,
    );
    for (let d = 0; d < 365; d++) {
      const day = dayIso(-d).slice(0, 10);
      snapshotAll.run(day, analyst.org);
      snapshotTags.run(day, analyst.org);
    }
  });
  write();
  sqlite.pragma("wal_checkpoint(TRUNCATE)");
  sqlite.exec("analyze");
  const firstTag = tagIds[0];
  const followedCount = (
    sqlite.prepare("select count(*) as n from organization_connections where parent_organization_id = ? and is_deleted = 0").get(analyst.org) as { n: number }
  ).n;
  sqlite.close();
  console.log(
    `  (${followedCount.toLocaleString("en-GB")} connections, ${total.toLocaleString("en-GB")} notifications written in ${((performance.now() - started) / 1000).toFixed(1)} s)`,
  );
  const server = await startServer(dataDir);
  try {
    console.log(
      `\nOverview with ${followedCount.toLocaleString("en-GB")} connections and ${total.toLocaleString("en-GB")} notifications; ${REQUESTS} sequential requests each`,
    );
    const auth = { Cookie: `token=${token}` };
    await measure("GET /overview (document)", "/overview", auth);
    await measure("GET /overview (data request)", "/overview?_data=routes%2F_app.overview", auth);
    await measure("GET /dashboard (document)", "/dashboard", auth);
    await measure("GET /dashboard (data request)", "/dashboard?_data=routes%2F_app.dashboard", auth);
    await measure("GET /dashboard tag filter (document)", `/dashboard?tag=${firstTag}`, auth);
    await measure("GET /dashboard priority, due diligence (data)", "/dashboard?priority=yes&dd=yes&_data=routes%2F_app.dashboard", auth);
    await measure("GET /dashboard.csv?chart=regimes", "/dashboard.csv?chart=regimes", auth, Math.min(REQUESTS, 50));
  } finally {
    server.kill("SIGTERM");
    if (process.env.BENCH_KEEP) console.log(`  (kept ${dataDir})`);
    else fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/* ---------------- administration and my organisation at scale  ---------------- */

/**
 * The operator's screens and an organisation administrator's on a grown installation: 300 customer organisations,
 * 10 000 supplier organisations (2 000 with a respondent), about 6 000 users (levels 1–3, a few administrators, some
 * deactivated), 45 000 sessions, 200 000 security events over a year, 30 000 logged mails (5 % failed), 30 000 credit
 * reports over 12 months, 200 announcements, ≈ 20 000 connections (a few suppliers followed by many customers), and the
 * demo analyst's organisation with 300 members and 50 open invitations. Timed signed in as admin@demo.test (is_admin,
 * level 3 in that organisation).
 */
async function runAdminBench() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sr-bench-"));
  await prepare(dataDir, 1);
  const started = performance.now();
  const { default: Database } = await import("better-sqlite3");
  const sqlite = new Database(path.join(dataDir, "app.db"));
  sqlite.pragma("journal_mode = WAL");
  const admin = sqlite.prepare("select id, organization_id as org from users where email = 'admin@demo.test'").get() as { id: number; org: number };
  const now = Date.now();
  const iso = new Date(now).toISOString();
  const ago = (ms: number) => new Date(now - ms).toISOString();
  const DAY = 86_400_000;
  // A small deterministic generator, so every run builds the same world.
  let seed = 16;
  const random = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)];
  const token = randomBytes(32).toString("base64url");
  const write = sqlite.transaction(() => {
    sqlite
      .prepare("insert into sessions (id, user_id, created_at, expires_at, user_agent, last_seen_at) values (?, ?, ?, ?, 'bench', ?)")
      .run(createHash("sha256").update(token).digest("hex"), admin.id, iso, new Date(now + DAY).toISOString(), iso);
    const addOrg = sqlite.prepare("insert into organizations (name, kind, org_number, country_code, created_at) values (?, ?, ?, 'NO', ?) returning id");
    const addUser = sqlite.prepare(
      `insert into users (email, password_hash, language, is_admin, organization_id, access_level, created_at, deactivated_at)
       values (?, 'x', ?, ?, ?, ?, ?, ?) returning id`,
    );
    const users: Array<{ id: number; org: number; email: string }> = (
      sqlite.prepare("select id, organization_id as org, email from users").all() as Array<{ id: number; org: number; email: string }>
    ).slice();
    const user = (email: string, org: number, level: number, isAdmin = 0) => {
      const id = (
        addUser.get(
          email,
          random() < 0.3 ? "en" : "no",
          isAdmin,
          org,
          level,
          ago(random() * 700 * DAY),
          random() < 0.04 ? ago(random() * 200 * DAY) : null,
        ) as {
          id: number;
        }
      ).id;
      users.push({ id, org, email });
      return id;
    };
    // The demo analyst's organisation: 300 members in all, 50 open invitations.
    const existing = (sqlite.prepare("select count(*) as n from users where organization_id = ?").get(admin.org) as { n: number }).n;
    for (let m = existing; m < 300; m++) user(`member${m}@demo.test`, admin.org, m % 10 === 0 ? 3 : m % 3 === 0 ? 1 : 2);
    const invite = sqlite.prepare(
      "insert into invitations (token_hash, email, organization_id, access_level, invited_by, created_at, expires_at) values (?, ?, ?, ?, ?, ?, ?)",
    );
    for (let i = 0; i < 50; i++)
      invite.run(
        randomBytes(32).toString("hex"),
        `invited${i}@bench.test`,
        admin.org,
        1 + (i % 3),
        admin.id,
        ago(i * 3_600_000),
        new Date(now + 13 * DAY).toISOString(),
      );
    // 300 customer organisations (the demo's included), about 12 users each; a few administrators.
    const customers = (sqlite.prepare("select id from organizations where kind = 'customer'").all() as Array<{ id: number }>).map((r) => r.id);
    for (let o = customers.length; o < 300; o++) {
      const org = (addOrg.get(`Bench Kunde ${o} AS`, "customer", null, ago(random() * 900 * DAY)) as { id: number }).id;
      customers.push(org);
      for (let u = 0; u < 12; u++) user(`user${u}@kunde${o}.bench.test`, org, u === 0 ? 3 : 1 + (u % 3), o % 60 === 0 && u === 0 ? 1 : 0);
    }
    // 10 000 supplier organisations: the registry's companies first, then made-up numbers; 2 000 with a respondent.
    const companies = sqlite.prepare("select org_number, legal_name from companies where country_code = 'NO' order by id").all() as Array<{
      org_number: string;
      legal_name: string;
    }>;
    const findSupplier = sqlite.prepare("select id from organizations where org_number = ? and kind = 'supplier'");
    const suppliers: number[] = [];
    for (let s = 0; suppliers.length < 10_000; s++) {
      const c = companies[s % companies.length];
      const round = Math.floor(s / companies.length);
      const number = round ? `B${round}-${c.org_number}` : c.org_number;
      const found = findSupplier.get(number) as { id: number } | undefined;
      suppliers.push(
        found?.id ?? (addOrg.get(round ? `${c.legal_name} ${round}` : c.legal_name, "supplier", number, ago(random() * 900 * DAY)) as { id: number }).id,
      );
    }
    for (let s = 0; s < 2000; s++) user(`respondent${s}@leverandor.bench.test`, suppliers[s * 5], 1);
    // 45 000 sessions over the users, last seen within a month.
    const session = sqlite.prepare("insert into sessions (id, user_id, created_at, expires_at, user_agent, last_seen_at) values (?, ?, ?, ?, ?, ?)");
    const agents = ["Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/131.0", "Mozilla/5.0 (Macintosh) Safari/605.1.15", "Mozilla/5.0 (iPhone) Mobile/15E148"];
    const existingSessions = (sqlite.prepare("select count(*) as n from sessions").get() as { n: number }).n;
    for (let s = existingSessions; s < 45_000; s++) {
      const seen = random() * 30 * DAY;
      session.run(
        randomBytes(32).toString("hex"),
        pick(users).id,
        ago(seen + random() * 30 * DAY),
        new Date(now + 30 * DAY - seen).toISOString(),
        pick(agents),
        ago(seen),
      );
    }
    // 200 000 security events over a year, oldest first.
    const event = sqlite.prepare(
      "insert into security_events (at, kind, user_id, email, actor_user_id, organization_id, ip, user_agent, detail) values (?, ?, ?, ?, ?, ?, ?, ?, ?)",
    );
    const kinds: Array<[string, number]> = [
      ["sign_in", 0.55],
      ["sign_in_failed", 0.15],
      ["sign_out", 0.1],
      ["level_changed", 0.04],
      ["admin_action", 0.06],
      ["password_changed", 0.03],
      ["password_reset", 0.02],
      ["sessions_ended", 0.01],
      ["user_deactivated", 0.01],
      ["user_reactivated", 0.01],
      ["invitation_sent", 0.015],
      ["invitation_revoked", 0.005],
    ];
    for (let e = 0; e < 200_000; e++) {
      let r = random();
      const kind = kinds.find(([, share]) => (r -= share) < 0)?.[0] ?? "sign_in";
      const account = pick(users);
      const byAdmin = kind === "admin_action" || kind === "level_changed" || kind.startsWith("user_") || kind.startsWith("invitation_");
      const detail =
        kind === "level_changed"
          ? { from: 1 + (e % 3), to: 1 + ((e + 1) % 3) }
          : kind === "admin_action"
            ? { action: pick(["level_changed", "admin_granted", "data_sharing_on", "password_reset_sent", "organization_created"]), userId: account.id }
            : null;
      const unknown = kind === "sign_in_failed" && e % 4 === 0;
      event.run(
        ago(((200_000 - e) / 200_000) * 365 * DAY),
        kind,
        unknown ? null : account.id,
        unknown ? `nobody${e % 500}@bench.test` : account.email,
        byAdmin ? admin.id : null,
        account.org,
        `10.${e % 256}.${(e >> 8) % 256}.${(e >> 16) % 256}`,
        pick(agents),
        detail ? JSON.stringify(detail) : null,
      );
    }
    // 30 000 logged mails over three months, 5 % failed.
    const mail = sqlite.prepare(
      `insert into mail_log (to_address, subject, kind, body, status, error, attempts, created_at, last_attempt_at, sent_at)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const body = "Hei,\n\n".concat("Dette er en melding fra Supplier Risk. ".repeat(12), "\n\nhttps://app.example.test/overview\n");
    for (let m = 0; m < 30_000; m++) {
      const failed = m % 20 === 0;
      const at = ago(((30_000 - m) / 30_000) * 90 * DAY);
      mail.run(
        pick(users).email,
        `Melding ${m}`,
        pick(["digest", "invitation", "password_reset", "announcement", "task_reminder"]),
        body,
        failed ? "failed" : "sent",
        failed ? "connect ECONNREFUSED 10.0.0.25:587" : null,
        failed ? 1 + (m % 3) : 1,
        at,
        at,
        failed ? null : at,
      );
    }
    // 30 000 credit reports over 12 months across the customers (the demo's first organisation orders more).
    const report = sqlite.prepare(
      `insert into credit_reports (organization_id, user_id, company_name, reg_no, country_code, language, provider, provider_id, file_name, storage_key,
         file_size, price_nok, idempotency_key, created_at) values (?, ?, ?, ?, 'NO', 'EN', 'local', ?, 'r.pdf', ?, 1, 80, ?, ?)`,
    );
    const customerUsers = users.filter((u) => customers.includes(u.org));
    for (let r = 0; r < 30_000; r++) {
      const orderer = r % 10 === 0 ? { id: admin.id, org: admin.org } : pick(customerUsers);
      const c = companies[r % companies.length];
      report.run(orderer.org, orderer.id, c.legal_name, c.org_number, c.org_number, `admin-bench-${r}`, `admin-bench-${r}`, ago(random() * 365 * DAY));
    }
    // 200 announcements: most to everyone, some to one organisation, a few withdrawn.
    const announce = sqlite.prepare(
      "insert into admin_announcements (organization_id, title, body, created_by, created_at, mailed_at, withdrawn_at, mailed_count) values (?, ?, ?, ?, ?, ?, ?, ?)",
    );
    for (let a = 0; a < 200; a++) {
      const at = ago((200 - a) * 1.8 * DAY);
      announce.run(
        a % 4 === 0 ? pick(customers) : null,
        `Kunngjøring ${a}`,
        body,
        admin.id,
        at,
        a % 3 === 0 ? at : null,
        a % 10 === 0 ? at : null,
        a % 3 === 0 ? 5000 : 0,
      );
    }
    // ≈ 20 000 connections: each customer follows about 67 suppliers, skewed so that some are followed by many.
    const follow = sqlite.prepare(
      `insert or ignore into organization_connections (parent_organization_id, child_organization_id, is_priority, created_at, updated_at, overall_risk,
         overall_risk_band, overall_risk_at) values (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    let connections = 0;
    for (const customer of customers) {
      for (let k = 0; k < 67; k++) {
        const risk = random() < 0.1 ? null : Math.floor(random() * 101);
        const result = follow.run(
          customer,
          suppliers[Math.floor(random() ** 2 * suppliers.length)],
          k % 7 === 0 ? 1 : 0,
          ago(random() * 365 * DAY),
          iso,
          risk,
          risk === null ? null : risk <= 33 ? "green" : risk <= 66 ? "yellow" : "red",
          risk === null ? null : iso,
        );
        connections += result.changes;
      }
    }
    return connections;
  });
  const connections = write();
  sqlite.pragma("wal_checkpoint(TRUNCATE)");
  sqlite.exec("analyze");
  const count = (table: string) => (sqlite.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n;
  const world = {
    customers: (sqlite.prepare("select count(*) as n from organizations where kind = 'customer'").get() as { n: number }).n,
    suppliers: (sqlite.prepare("select count(*) as n from organizations where kind = 'supplier'").get() as { n: number }).n,
    users: count("users"),
    sessions: count("sessions"),
    events: count("security_events"),
    mails: count("mail_log"),
    reports: count("credit_reports"),
    connections: (sqlite.prepare("select count(*) as n from organization_connections where is_deleted = 0").get() as { n: number }).n,
  };
  sqlite.close();
  console.log(`  (written in ${((performance.now() - started) / 1000).toFixed(1)} s; ${connections} new connections)`);
  const server = await startServer(dataDir);
  try {
    console.log(
      `\nAdministration: ${world.customers} customers, ${world.suppliers} supplier organisations, ${world.users} users, ${world.sessions} sessions, ${world.events} security events, ${world.mails} mails, ${world.reports} credit reports, ${world.connections} connections; load ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(" ")}; ${REQUESTS} sequential requests each`,
    );
    const auth = { Cookie: `token=${token}` };
    await measure("warm-up", "/admin/organizations", auth, 1);
    await measure("/admin/organizations (document)", "/admin/organizations", auth);
    await measure("/admin/organizations (data)", "/admin/organizations?_data=routes%2F_app.admin.organizations", auth);
    await measure("/admin/organizations?q=demo (document)", "/admin/organizations?q=demo", auth);
    await measure("/admin/organizations last page (document)", "/admin/organizations?page=9999", auth);
    await measure("/admin/users (document)", "/admin/users", auth);
    await measure("/admin/users (data)", "/admin/users?_data=routes%2F_app.admin.users", auth);
    await measure("/admin/users?q=demo (document)", "/admin/users?q=demo", auth);
    await measure("/admin/users last page (document)", "/admin/users?page=9999", auth);
    await measure("/admin/users?view=audit (document)", "/admin/users?view=audit", auth);
    await measure("/admin/users?view=audit (data)", "/admin/users?view=audit&_data=routes%2F_app.admin.users", auth);
    await measure("audit kind=level_changed (document)", "/admin/users?view=audit&kind=level_changed", auth);
    await measure("audit kind=sign_in_failed, page 50 (data)", "/admin/users?view=audit&kind=sign_in_failed&page=50&_data=routes%2F_app.admin.users", auth);
    await measure("/admin/credit-reports (document)", "/admin/credit-reports", auth);
    await measure("/admin/credit-reports (data)", "/admin/credit-reports?_data=routes%2F_app.admin.credit-reports", auth);
    // A month half a year back (the orders span the last 12 months): its last page of orders, and its CSV.
    const olderMonth = new Date(Date.now() - 180 * 86_400_000).toISOString().slice(0, 7);
    await measure("/admin/credit-reports?month=…&page=9999 (document)", `/admin/credit-reports?month=${olderMonth}&page=9999`, auth);
    await measure("/admin/credit-reports.csv", "/admin/credit-reports.csv", auth, Math.min(REQUESTS, 50));
    await measure("/admin/credit-reports.csv?month=…", `/admin/credit-reports.csv?month=${olderMonth}`, auth, Math.min(REQUESTS, 50));
    await measure("/admin/suppliers-overview (document)", "/admin/suppliers-overview", auth);
    await measure("/admin/suppliers-overview (data)", "/admin/suppliers-overview?_data=routes%2F_app.admin.suppliers-overview", auth);
    await measure("/admin/notifications (document)", "/admin/notifications", auth);
    await measure("/admin/notifications (data)", "/admin/notifications?_data=routes%2F_app.admin.notifications", auth);
    await measure("/admin/send-old (document)", "/admin/send-old", auth);
    await measure("/admin/send-old (data)", "/admin/send-old?_data=routes%2F_app.admin.send-old", auth);
    await measure("/my-organization/users (document)", "/my-organization/users", auth);
    await measure("/my-organization/users (data)", "/my-organization/users?_data=routes%2F_app.my-organization.users", auth);
    await measure("/my-organization/users?q=member1 (document)", "/my-organization/users?q=member1", auth);
    await measure("/my-organization/users last page (document)", "/my-organization/users?page=9999", auth);
    await measure("/my-organization/overview (document)", "/my-organization/overview", auth);
    await measure("/my-organization/overview (data)", "/my-organization/overview?_data=routes%2F_app.my-organization.overview", auth);
  } finally {
    server.kill("SIGTERM");
    if (process.env.BENCH_KEEP) console.log(`  (kept ${dataDir})`);
    else fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * The list queries of the scale tests against their budgets (scripts/bench-budgets.ts), run through vitest: the route
 * modules need Vite (path aliases, `import.meta.glob`).
 */
async function runBudgets() {
  await new Promise<void>((resolve, reject) => {
    const vitest = path.join(root, "node_modules/vitest/vitest.mjs");
    const child = spawn(process.execPath, [vitest, "run", "--config", path.join(root, "scripts/bench-budgets.config.ts")], { cwd: root, stdio: "inherit" });
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`the budgets run exited with ${code}`))));
  });
}

if (process.env.BENCH_ONLY === "admin") {
  await runAdminBench();
} else if (process.env.BENCH_ONLY === "budgets") {
  await runBudgets();
} else if (process.env.BENCH_ONLY === "overview") {
  await runOverviewBench(Number(process.env.BENCH_CONNECTIONS ?? 10_000), Number(process.env.BENCH_NOTIFICATIONS ?? 1_000_000));
} else if (process.env.BENCH_ONLY === "notifications") {
  await runNotificationsBench(Number(process.env.BENCH_NOTIFICATIONS ?? 1_000_000));
} else if (process.env.BENCH_ONLY === "lei" && process.env.BENCH_LEI_DB && fs.existsSync(process.env.BENCH_LEI_DB)) {
  // An already imported store (kept by an earlier run with BENCH_LEI_DB): only the autocomplete timings.
  console.log(`\nLEI store ${process.env.BENCH_LEI_DB}`);
  await benchLeiAutocomplete(process.env.BENCH_LEI_DB);
} else if (process.env.BENCH_ONLY === "lei") {
  await runLeiBench(Number(process.env.BENCH_LEI_ROWS ?? 3_000_000));
} else if (process.env.BENCH_ONLY === "imports") {
  await runImports();
} else {
  if (process.env.BENCH_ONLY !== "suppliers") {
    if (!process.env.BENCH_SKIP_DEMO) await run(1);
    await run(Number(process.env.BENCH_GROW ?? 100));
  }
  await runSupplierList(Number(process.env.BENCH_CONNECTIONS ?? 10_000));
  if (!process.env.BENCH_ONLY) await runImports();
}
