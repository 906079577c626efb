import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * `server/db-types.ts` is written by hand, one interface per table. This compares it with the
 * database the migrations build (the per-file copy of the migrated template, tests/setup): the
 * same tables, the same columns, the same nullability and type affinity, and `Generated<…>` only
 * where the database supplies a value. The types are read with the TypeScript compiler's parser,
 * so a type the reader does not understand fails the test instead of being skipped.
 */

const TYPES_FILE = path.resolve("server/db-types.ts");

type Kind = "string" | "number" | "blob";

interface TsColumn {
  kinds: Set<Kind>;
  nullable: boolean;
  generated: boolean;
}

interface TsSchema {
  /** Table name → column name → column. */
  tables: Map<string, Map<string, TsColumn>>;
}

function readTsSchema(file: string): TsSchema {
  const source = ts.createSourceFile(file, fs.readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const interfaces = new Map<string, ts.InterfaceDeclaration>();
  const aliases = new Map<string, ts.TypeAliasDeclaration>();
  for (const statement of source.statements) {
    if (ts.isInterfaceDeclaration(statement)) interfaces.set(statement.name.text, statement);
    if (ts.isTypeAliasDeclaration(statement)) aliases.set(statement.name.text, statement);
  }
  const where = (node: ts.Node) => `${path.basename(file)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
  const propertyName = (member: ts.TypeElement) => {
    if (!ts.isPropertySignature(member) || !member.type || !member.name) throw new Error(`${where(member)}: only plain properties are understood`);
    if (ts.isIdentifier(member.name) || ts.isStringLiteral(member.name)) return member.name.text;
    throw new Error(`${where(member)}: a computed property name`);
  };

  function column(node: ts.TypeNode, into: TsColumn) {
    if (ts.isParenthesizedTypeNode(node)) return column(node.type, into);
    if (ts.isUnionTypeNode(node)) return node.types.forEach((member) => column(member, into));
    if (node.kind === ts.SyntaxKind.StringKeyword) return void into.kinds.add("string");
    if (node.kind === ts.SyntaxKind.NumberKeyword) return void into.kinds.add("number");
    if (ts.isLiteralTypeNode(node)) {
      if (node.literal.kind === ts.SyntaxKind.NullKeyword) return void (into.nullable = true);
      if (ts.isStringLiteral(node.literal)) return void into.kinds.add("string");
      if (ts.isNumericLiteral(node.literal)) return void into.kinds.add("number");
    }
    if (ts.isTypeReferenceNode(node) && ts.isIdentifier(node.typeName)) {
      const name = node.typeName.text;
      const args = node.typeArguments ?? [];
      if (name === "Generated" && args.length === 1) {
        into.generated = true;
        return column(args[0], into);
      }
      // ColumnType<Select, Insert, Update>: what a select returns is what the column holds.
      if (name === "ColumnType" && args.length >= 1) return column(args[0], into);
      if (name === "Buffer" || name === "Uint8Array") return void into.kinds.add("blob");
      const alias = aliases.get(name);
      if (alias && !alias.typeParameters) return column(alias.type, into);
    }
    throw new Error(`${where(node)}: the column type \`${node.getText()}\` is not understood by tests/schema.test.ts`);
  }

  const db = interfaces.get("DB");
  if (!db) throw new Error(`${file} has no interface DB`);
  const tables = new Map<string, Map<string, TsColumn>>();
  for (const member of db.members) {
    const table = propertyName(member);
    const type = (member as ts.PropertySignature).type!;
    if (!ts.isTypeReferenceNode(type) || !ts.isIdentifier(type.typeName) || !interfaces.has(type.typeName.text)) {
      throw new Error(`${where(member)}: DB.${table} should name an interface of the file`);
    }
    const columns = new Map<string, TsColumn>();
    for (const columnMember of interfaces.get(type.typeName.text)!.members) {
      const name = propertyName(columnMember);
      const into: TsColumn = { kinds: new Set(), nullable: Boolean((columnMember as ts.PropertySignature).questionToken), generated: false };
      column((columnMember as ts.PropertySignature).type!, into);
      columns.set(name, into);
    }
    tables.set(table, columns);
  }
  return { tables };
}

interface DbColumn {
  name: string;
  type: string;
  notnull: number;
  dflt_value: string | null;
  pk: number;
  hidden: number;
}

interface DbTable {
  name: string;
  virtual: boolean;
  /** Every table but a WITHOUT ROWID one has the implicit `rowid` column. */
  hasRowid: boolean;
  columns: DbColumn[];
}

const INTERNAL_TABLES = /^(sqlite_|kysely_migration$|kysely_migration_lock$)/;
const FTS_SHADOW_SUFFIXES = ["data", "idx", "content", "docsize", "config"];

function readDbSchema(file: string): Map<string, DbTable> {
  const sqlite = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const rows = sqlite.prepare("select name, sql from sqlite_master where type = 'table' order by name").all() as { name: string; sql: string | null }[];
    const virtual = new Set(rows.filter((row) => /^create virtual table/i.test(row.sql ?? "")).map((row) => row.name));
    const isShadow = (name: string) => [...virtual].some((table) => FTS_SHADOW_SUFFIXES.some((suffix) => name === `${table}_${suffix}`));
    const tables = new Map<string, DbTable>();
    for (const row of rows) {
      if (INTERNAL_TABLES.test(row.name) || isShadow(row.name)) continue;
      const columns = (sqlite.pragma(`table_xinfo("${row.name.replace(/"/g, '""')}")`) as DbColumn[]).filter(
        // An FTS5 table has two hidden columns: `rank`, which queries read, and one named like the table, which only takes commands.
        (c) => !(virtual.has(row.name) && c.hidden && c.name === row.name),
      );
      tables.set(row.name, { name: row.name, virtual: virtual.has(row.name), hasRowid: !/without\s+rowid\s*$/i.test(row.sql ?? ""), columns });
    }
    return tables;
  } finally {
    sqlite.close();
  }
}

/** SQLite's type affinity rules (https://sqlite.org/datatype3.html §3.1). */
function affinity(declared: string): "INTEGER" | "TEXT" | "BLOB" | "REAL" | "NUMERIC" {
  const type = declared.toUpperCase();
  if (type.includes("INT")) return "INTEGER";
  if (/CHAR|CLOB|TEXT/.test(type)) return "TEXT";
  if (type === "" || type.includes("BLOB")) return "BLOB";
  if (/REAL|FLOA|DOUB/.test(type)) return "REAL";
  return "NUMERIC";
}

const KINDS_OF_AFFINITY: Record<ReturnType<typeof affinity>, Kind[]> = {
  INTEGER: ["number"],
  REAL: ["number"],
  NUMERIC: ["number"],
  TEXT: ["string"],
  BLOB: ["blob"],
};

/** The differences between one table's interface and the table, one readable line each. */
function differences(table: DbTable, tsColumns: Map<string, TsColumn>): string[] {
  const problems: string[] = [];
  const dbColumns = new Map(table.columns.map((c) => [c.name, c]));
  for (const name of dbColumns.keys()) if (!tsColumns.has(name)) problems.push(`${table.name}.${name}: in the database, missing from db-types.ts`);
  for (const [name, tsColumn] of tsColumns) {
    const dbColumn = dbColumns.get(name);
    if (!dbColumn) {
      if (name === "rowid" && table.hasRowid) continue;
      problems.push(`${table.name}.${name}: in db-types.ts, not a column of the database`);
      continue;
    }
    // An FTS5 table's columns are untyped and cannot be declared NOT NULL: only their names are compared.
    if (table.virtual) continue;
    const integerKey = dbColumn.pk > 0 && affinity(dbColumn.type) === "INTEGER" && table.columns.filter((c) => c.pk > 0).length === 1;
    // A primary key is compared as NOT NULL. (SQLite lets a non-integer key without NOT NULL hold NULL, a documented
    // quirk — `sessions.id` and `countries.iso2` are such keys — but no row is ever written without its key.)
    const dbNullable = dbColumn.notnull === 0 && dbColumn.pk === 0;
    if (dbNullable !== tsColumn.nullable) {
      problems.push(
        `${table.name}.${name}: ${dbNullable ? "nullable" : "NOT NULL"} in the database, ${tsColumn.nullable ? "nullable" : "not nullable"} in db-types.ts`,
      );
    }
    const expected = KINDS_OF_AFFINITY[affinity(dbColumn.type)];
    const unexpected = [...tsColumn.kinds].filter((kind) => !expected.includes(kind));
    if (unexpected.length > 0 || tsColumn.kinds.size === 0) {
      problems.push(
        `${table.name}.${name}: declared ${dbColumn.type || "without a type"} in the database, ${[...tsColumn.kinds].join(" | ") || "only null"} in db-types.ts`,
      );
    }
    // Generated<…> lets an insert leave the column out, which only works when the database fills it in.
    if (tsColumn.generated && !(dbColumn.dflt_value !== null || integerKey || dbNullable)) {
      problems.push(`${table.name}.${name}: Generated<…> in db-types.ts, but the database has no default for it`);
    }
  }
  return problems;
}

const tsSchema = readTsSchema(TYPES_FILE);
const dbSchema = readDbSchema(process.env.DATABASE_FILE!);

describe("server/db-types.ts matches the migrated database", () => {
  it("reads a plausible number of tables from both sides", () => {
    // Guards the test itself: an empty reading on either side would make every comparison below vacuous.
    expect(tsSchema.tables.size).toBeGreaterThan(20);
    expect(dbSchema.size).toBeGreaterThan(20);
    expect(dbSchema.has("organizations") && tsSchema.tables.has("organizations")).toBe(true);
  });

  it("every table of the DB interface exists in the database", () => {
    expect([...tsSchema.tables.keys()].filter((table) => !dbSchema.has(table))).toEqual([]);
  });

  it("every table of the database (but SQLite's own, FTS shadow tables and kysely's migration tables) is in the DB interface", () => {
    expect([...dbSchema.keys()].filter((table) => !tsSchema.tables.has(table))).toEqual([]);
  });

  it("every table's interface has exactly its columns, with the database's nullability, type and defaults", () => {
    const problems = [...tsSchema.tables].flatMap(([name, columns]) => {
      const table = dbSchema.get(name);
      return table ? differences(table, columns) : [];
    });
    expect(problems).toEqual([]);
  });
});

describe("the comparison itself", () => {
  const table: DbTable = {
    name: "t",
    virtual: false,
    hasRowid: true,
    columns: [
      { name: "id", type: "INTEGER", notnull: 0, dflt_value: null, pk: 1, hidden: 0 },
      { name: "title", type: "TEXT", notnull: 1, dflt_value: null, pk: 0, hidden: 0 },
      { name: "count", type: "integer", notnull: 1, dflt_value: "0", pk: 0, hidden: 0 },
    ],
  };
  const col = (kinds: Kind[], nullable = false, generated = false): TsColumn => ({ kinds: new Set(kinds), nullable, generated });

  it("finds no difference where there is none", () => {
    const same = new Map([
      ["id", col(["number"], false, true)],
      ["title", col(["string"])],
      ["count", col(["number"], false, true)],
    ]);
    expect(differences(table, same)).toEqual([]);
  });

  it("names a missing column, an extra column, a wrong nullability, a wrong type and a Generated without default", () => {
    const wrong = new Map([
      ["id", col(["number"], false, true)],
      ["title", col(["number"], true, true)],
      ["extra", col(["string"])],
    ]);
    expect(differences(table, wrong)).toEqual([
      "t.count: in the database, missing from db-types.ts",
      "t.title: NOT NULL in the database, nullable in db-types.ts",
      "t.title: declared TEXT in the database, number in db-types.ts",
      "t.title: Generated<…> in db-types.ts, but the database has no default for it",
      "t.extra: in db-types.ts, not a column of the database",
    ]);
  });
});
