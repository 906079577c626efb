import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { createDb, openSqlite } from "@server/db";

/**
 * Transactions take the write lock when they begin (BEGIN IMMEDIATE): another process that writes meanwhile waits (or,
 * past its busy timeout, is refused), instead of the transaction failing at its first write with SQLITE_BUSY because the
 * other process wrote after the transaction's first read — which reached users as a 500 under load.
 */
describe("database transactions", () => {
  it("hold the write lock from their first statement, so a read-then-write transaction cannot lose its snapshot", async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "sr-tx-")), "app.db");
    const app = createDb(file);
    await sql`create table items (id integer primary key, name text)`.execute(app);
    await sql`insert into items (name) values ('first')`.execute(app);
    const other = openSqlite(file);
    other.pragma("busy_timeout = 50");
    try {
      await app.transaction().execute(async (trx) => {
        const rows = await sql<{ n: number }>`select count(*) as n from items`.execute(trx);
        expect(rows.rows[0].n).toBe(1);
        // Another process writing now is kept out while the transaction runs…
        expect(() => other.prepare("insert into items (name) values ('other')").run()).toThrow(/locked|busy/i);
        // …so the transaction's own write, after its read, goes through.
        await sql`insert into items (name) values ('second')`.execute(trx);
      });
      // Once it is over the other process writes as usual.
      other.prepare("insert into items (name) values ('other')").run();
      const names = (await sql<{ name: string }>`select name from items order by id`.execute(app)).rows.map((r) => r.name);
      expect(names).toEqual(["first", "second", "other"]);
    } finally {
      other.close();
      await app.destroy();
    }
  });
});
