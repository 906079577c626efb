import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { db } from "@server/db";
import { createSession } from "@server/auth/session";
import { hashPassword } from "@server/auth/password";
import { saveFile } from "@server/storage";
import { company, follow, makeOrg } from "../helpers/fixtures";
import { createUser } from "../helpers/factory";

/**
 * The fuzz test's world: two customer organisations, A and B, each following the same supplier and
 * owning a connection, a tag on it, a comment, an attached file and a case file with a comment; the
 * roles that call the routes; a fingerprint of the stored state; and a snapshot to return to after
 * a request that changed something, so every case starts from the same world.
 */

const AT = "2025-01-01T00:00:00.000Z";
export const SUPPLIER_ORG_NUMBER = "910000001";
const OTHER_SUPPLIER_ORG_NUMBER = "910000002";

export interface OrgData {
  orgId: number;
  supplierOrgId: number;
  connectionId: number;
  tagId: number;
  commentId: number;
  fileId: number;
  casefileId: number;
  casefileCommentId: number;
}

export type RoleName = "visitor" | "level-1 of A" | "level-2 of A" | "user of B";

export interface Role {
  name: RoleName;
  userId: number | null;
  token: string | null;
}

export interface World {
  a: OrgData;
  b: OrgData;
  /** A supplier neither A nor B follows (for add-supplier and by-supplier lookups). */
  unfollowedSupplierOrgId: number;
  roles: Role[];
}

/** The level-2 user of A signs in with these, so a sign-in's `redirectTo` is followed. */
export const SIGN_IN = { email: "fuzz@example.test", password: "Fuzz-pass-1" };

async function user(email: string, organizationId: number, accessLevel: number, passwordHash = "x"): Promise<number> {
  return createUser({ email, organizationId, accessLevel, passwordHash, createdAt: AT });
}

async function orgData(name: string, supplierOrgId: number, authorId: number, orgId: number): Promise<OrgData> {
  await follow(orgId, supplierOrgId);
  const database = db();
  const connectionId = (
    await database
      .selectFrom("organization_connections")
      .select("id")
      .where("parent_organization_id", "=", orgId)
      .where("child_organization_id", "=", supplierOrgId)
      .executeTakeFirstOrThrow()
  ).id;
  const tagId = (
    await database
      .insertInto("organization_tags")
      .values({ organization_id: orgId, title: `${name} tag`, created_at: AT })
      .returning("id")
      .executeTakeFirstOrThrow()
  ).id;
  await database.insertInto("organization_connection_tags").values({ connection_id: connectionId, tag_id: tagId, created_at: AT }).execute();
  const commentId = (
    await database
      .insertInto("organization_connection_comments")
      .values({ connection_id: connectionId, user_id: authorId, text: `${name} comment`, created_at: AT })
      .returning("id")
      .executeTakeFirstOrThrow()
  ).id;
  const fileId = (
    await saveFile(Buffer.from(`${name} contract`), { fileName: `${name}.pdf`, mimeType: "application/pdf", organizationId: orgId, userId: authorId })
  ).id;
  await database.insertInto("organization_connection_files").values({ connection_id: connectionId, file_upload_id: fileId, created_at: AT }).execute();
  const casefileId = (
    await database
      .insertInto("casefiles")
      .values({
        organization_id: orgId,
        supplier_organization_id: supplierOrgId,
        title: `${name} case`,
        priority: 2,
        created_by: authorId,
        created_at: AT,
        updated_at: AT,
      })
      .returning("id")
      .executeTakeFirstOrThrow()
  ).id;
  const casefileCommentId = (
    await database
      .insertInto("casefile_comments")
      .values({ casefile_id: casefileId, user_id: authorId, text: `${name} case comment`, created_at: AT })
      .returning("id")
      .executeTakeFirstOrThrow()
  ).id;
  return { orgId, supplierOrgId, connectionId, tagId, commentId, fileId, casefileId, casefileCommentId };
}

export async function buildWorld(): Promise<World> {
  const orgA = await makeOrg("Fuzz Customer A AS", "customer");
  const orgB = await makeOrg("Fuzz Customer B AS", "customer");
  const supplier = await makeOrg("Fuzz Supplier AS", "supplier", SUPPLIER_ORG_NUMBER);
  const unfollowed = await makeOrg("Fuzz Other Supplier AS", "supplier", OTHER_SUPPLIER_ORG_NUMBER);
  await company(SUPPLIER_ORG_NUMBER, "FUZZ SUPPLIER AS");
  await company(OTHER_SUPPLIER_ORG_NUMBER, "FUZZ OTHER SUPPLIER AS");
  const level1A = await user("level1@a.fuzz.test", orgA, 1);
  const level2A = await user(SIGN_IN.email, orgA, 2, await hashPassword(SIGN_IN.password));
  const userB = await user("user@b.fuzz.test", orgB, 2);
  const a = await orgData("A", supplier, level2A, orgA);
  const b = await orgData("B", supplier, userB, orgB);
  const roles: Role[] = [
    { name: "visitor", userId: null, token: null },
    { name: "level-1 of A", userId: level1A, token: null },
    { name: "level-2 of A", userId: level2A, token: null },
    { name: "user of B", userId: userB, token: null },
  ];
  for (const role of roles) if (role.userId !== null) role.token = (await createSession(role.userId, "fuzz")).token;
  return { a, b, unfollowedSupplierOrgId: unfollowed, roles };
}

const DATABASE_FILES = /^app\.db(-wal|-shm|-journal)?$/;
// Sign-in bookkeeping: a refused sign-in rightly records a failure, in the rate limit and in the security log (decision 039).
const NOT_FINGERPRINTED = new Set(["login_failures", "security_events"]);

/** The stored state: a hash per table, per file folder of DATA_DIR, and per table of organisation A's rows. */
export interface Fingerprint {
  all: Map<string, string>;
  ofA: Map<string, string>;
  /** Per table, the rows the snapshot had (by rowid): unchanged when a request only added rows. */
  snapshotRows: Map<string, string>;
}

export class Store {
  private sqlite: Database.Database | null = null;
  private tables: string[] = [];
  private scopedToA: { table: string; sql: string }[] = [];
  private snapshotDir: string;
  private last: { dataVersion: number; folders: string; fingerprint: Fingerprint } | null = null;
  private statements = new Map<string, Database.Statement>();
  /** Per table, the largest rowid at the snapshot. */
  private snapshotRowids = new Map<string, number>();

  constructor(
    private readonly dataDir: string,
    private readonly databaseFile: string,
    private readonly orgA: number,
  ) {
    this.snapshotDir = `${dataDir}-snapshot`;
  }

  /** A connection of its own: it reads the state and writes it back, beside the app's connection. */
  private open(): Database.Database {
    if (this.sqlite) return this.sqlite;
    const sqlite = new Database(this.databaseFile, { fileMustExist: true });
    sqlite.pragma("busy_timeout = 5000");
    // Restoring rewrites tables in any order; the snapshot was consistent.
    sqlite.pragma("foreign_keys = OFF");
    const rows = sqlite.prepare("select name, sql from sqlite_master where type = 'table' order by name").all() as { name: string; sql: string }[];
    this.tables = rows
      .filter((r) => !/^(sqlite_|kysely_)/.test(r.name) && !/^create virtual/i.test(r.sql) && !NOT_FINGERPRINTED.has(r.name))
      .map((r) => r.name);
    // Organisation A's rows: by its id, by its connections or by its case files.
    this.scopedToA = [];
    for (const table of this.tables) {
      const columns = (sqlite.pragma(`table_info("${table}")`) as { name: string }[]).map((c) => c.name);
      const where =
        table === "organizations"
          ? "id = :org"
          : columns.includes("organization_id")
            ? "organization_id = :org"
            : columns.includes("parent_organization_id")
              ? "parent_organization_id = :org"
              : columns.includes("connection_id")
                ? "connection_id in (select id from organization_connections where parent_organization_id = :org)"
                : columns.includes("casefile_id")
                  ? "casefile_id in (select id from casefiles where organization_id = :org)"
                  : null;
      if (where) this.scopedToA.push({ table, sql: `select * from "${table}" where ${where}` });
    }
    this.sqlite = sqlite;
    return sqlite;
  }

  private query(sql: string, params: Record<string, unknown> = {}): unknown[] {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.open().prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement.all(params);
  }

  private folders(): string[] {
    return fs.readdirSync(this.dataDir).filter((entry) => !DATABASE_FILES.test(entry) && fs.statSync(path.join(this.dataDir, entry)).isDirectory());
  }

  fingerprint(): Fingerprint {
    const sqlite = this.open();
    const hash = (rows: unknown[]) =>
      createHash("sha1")
        .update(JSON.stringify(rows, (_k, v) => (Buffer.isBuffer(v) ? v.toString("base64") : v)))
        .digest("hex");
    const folderHashes = new Map(this.folders().map((folder) => [`files in ${folder}/`, hash(fs.readdirSync(path.join(this.dataDir, folder)).sort())]));
    const folders = JSON.stringify([...folderHashes]);
    // data_version changes only when another connection (the app's) has committed: no commit, no new hashing.
    const dataVersion = sqlite.pragma("data_version", { simple: true }) as number;
    if (this.last && this.last.dataVersion === dataVersion && this.last.folders === folders) return this.last.fingerprint;
    const all = new Map<string, string>();
    const snapshotRows = new Map<string, string>();
    for (const table of this.tables) {
      all.set(table, hash(this.query(`select * from "${table}"`)));
      const max = this.snapshotRowids.get(table);
      if (max !== undefined) snapshotRows.set(table, hash(this.query(`select * from "${table}" where rowid <= :max`, { max })));
    }
    for (const [key, value] of folderHashes) all.set(key, value);
    const ofA = new Map<string, string>();
    for (const { table, sql } of this.scopedToA) ofA.set(table, hash(this.query(sql, { org: this.orgA })));
    const fingerprint = { all, ofA, snapshotRows };
    this.last = { dataVersion, folders, fingerprint };
    return fingerprint;
  }

  /** Keeps a copy of the database and of DATA_DIR's folders to return to. */
  snapshot(): void {
    const sqlite = this.open();
    fs.rmSync(this.snapshotDir, { recursive: true, force: true });
    fs.mkdirSync(this.snapshotDir, { recursive: true });
    sqlite.prepare("vacuum into ?").run(path.join(this.snapshotDir, "snapshot.db"));
    this.snapshotRowids.clear();
    for (const table of this.tables) {
      try {
        const { max } = sqlite.prepare(`select coalesce(max(rowid), 0) as max from "${table}"`).get() as { max: number };
        this.snapshotRowids.set(table, max);
      } catch {
        // A WITHOUT ROWID table (FTS bookkeeping): compared whole.
      }
    }
    this.last = null;
    for (const folder of this.folders()) fs.cpSync(path.join(this.dataDir, folder), path.join(this.snapshotDir, "folders", folder), { recursive: true });
  }

  /** Puts the changed tables and folders back as they were in the snapshot. */
  restore(keys: string[]): void {
    const sqlite = this.open();
    const tables = keys.filter((key) => this.tables.includes(key));
    if (tables.length) {
      sqlite.prepare("attach database ? as snapshot").run(path.join(this.snapshotDir, "snapshot.db"));
      try {
        sqlite.transaction(() => {
          for (const table of tables) {
            sqlite.prepare(`delete from main."${table}"`).run();
            sqlite.prepare(`insert into main."${table}" select * from snapshot."${table}"`).run();
          }
        })();
      } finally {
        sqlite.prepare("detach database snapshot").run();
      }
    }
    for (const key of keys) {
      const folder = /^files in (.+)\/$/.exec(key)?.[1];
      if (!folder) continue;
      fs.rmSync(path.join(this.dataDir, folder), { recursive: true, force: true });
      const saved = path.join(this.snapshotDir, "folders", folder);
      if (fs.existsSync(saved)) fs.cpSync(saved, path.join(this.dataDir, folder), { recursive: true });
    }
    this.last = null;
  }

  /** Forgets failed sign-ins, so the rate limit of one case does not answer 429 to the next. */
  forgetSignInFailures(): void {
    this.open().prepare("delete from login_failures").run();
  }

  /**
   * Text that should never be stored: a NUL character, or a lone surrogate (which SQLite keeps as the
   * invalid UTF-8 bytes ED A0–BF xx). Read as bytes, since both come back from SQLite as something else.
   */
  storedGarbage(tables: string[]): string[] {
    const found: string[] = [];
    for (const table of tables.filter((t) => this.tables.includes(t))) {
      const columns = (this.open().pragma(`table_info("${table}")`) as { name: string }[]).map((c) => c.name);
      for (const column of columns) {
        const rows = this.query(`select hex("${column}") as bytes from "${table}" where typeof("${column}") = 'text'`) as { bytes: string }[];
        for (const { bytes } of rows) {
          const bad = /^(?:[0-9A-F]{2})*?(00|ED[AB][0-9A-F][89AB][0-9A-F])/.exec(bytes)?.[1];
          if (bad) {
            found.push(`${table}.${column} (${bad === "00" ? "NUL" : "lone surrogate"})`);
            break;
          }
        }
      }
    }
    return found;
  }

  close(): void {
    this.sqlite?.close();
    this.sqlite = null;
    fs.rmSync(this.snapshotDir, { recursive: true, force: true });
  }
}

/** The tables whose hashes differ. */
export function changed(before: Map<string, string>, after: Map<string, string>): string[] {
  return [...new Set([...before.keys(), ...after.keys()])].filter((key) => before.get(key) !== after.get(key)).sort();
}
