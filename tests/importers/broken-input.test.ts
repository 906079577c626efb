import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { db } from "@server/db";
import { importBrregUnits, ImportInputError } from "@server/importers/index";
import { readCsv } from "@server/importers/input";
import { readJsonArray, type JsonItem } from "@server/importers/json-array";

const BROKEN_CSV = path.resolve("tests/fixtures/brreg/broken-units.csv");
const BROKEN_JSON = path.resolve("tests/fixtures/brreg/broken-units.json");
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "broken-input-"));

async function orgNumbers(): Promise<string[]> {
  const rows = await db().selectFrom("companies").select("org_number").orderBy("org_number").execute();
  return rows.map((r) => r.org_number);
}

/** Splits text into chunks of `size` characters, as a slow stream would deliver it. */
function chunked(text: string, size: number): Readable {
  const parts: string[] = [];
  for (let i = 0; i < text.length; i += size) parts.push(text.slice(i, i + size));
  return Readable.from(parts);
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

describe("a CSV with broken rows", () => {
  it("imports the good rows and reports each bad one with its line and reason", async () => {
    const summary = await importBrregUnits(db(), BROKEN_CSV);
    expect(summary).toMatchObject({ inserted: 6, updated: 0, rejectedCount: 10, rows: 16 });
    expect(summary.rejected).toEqual([
      { line: 3, reason: expect.stringMatching(/^organisasjonsnummer: not a valid organisation number.*"832175693"/) },
      { line: 4, reason: expect.stringMatching(/^navn: missing/) },
      { line: 5, reason: expect.stringMatching(/^stiftelsesdato: not a valid date.*"2023-13-45"/) },
      { line: 7, reason: "unterminated quoted field (no closing quote)" },
      { line: 9, reason: "expected 54 fields, found 20" },
      { line: 10, reason: expect.stringMatching(/^konkurs: expected true or false.*"kanskje"/) },
      { line: 11, reason: expect.stringMatching(/^antallAnsatte: not a whole number.*"fem"/) },
      { line: 13, reason: expect.stringMatching(/^forretningsadresse\.landkode: not a two-letter country code/) },
      { line: 14, reason: expect.stringMatching(/^malformed CSV/) },
      { line: 17, reason: expect.stringMatching(/^organisasjonsnummer: .*"12345"/) },
    ]);
    // The rows after the unterminated quote are all there: it cost only its own line.
    expect(await orgNumbers()).toEqual(["927717468", "954628965", "955910036", "969804530", "991428275", "998465001"]);
    const czapski = await db().selectFrom("companies").selectAll().where("org_number", "=", "998465001").executeTakeFirstOrThrow();
    expect(czapski.postal_address).toBe("c/o Jan Czapski\nSiggerudveien 994");
  });

  it("never lets a bad row overwrite a good one", async () => {
    const before = await db().selectFrom("companies").selectAll().where("org_number", "=", "954628965").executeTakeFirstOrThrow();
    const file = path.join(tmp, "overwrite.csv");
    const [header, ...lines] = fs.readFileSync(BROKEN_CSV, "utf8").split("\n");
    const good = lines.find((l) => l.startsWith('"954628965"'))!;
    fs.writeFileSync(file, [header, good.replace('"1959-10-12"', '"1959-10-32"')].join("\n"));
    const summary = await importBrregUnits(db(), file);
    expect(summary).toMatchObject({ inserted: 0, updated: 0, rejectedCount: 1 });
    const after = await db().selectFrom("companies").selectAll().where("org_number", "=", "954628965").executeTakeFirstOrThrow();
    expect(after).toEqual(before);
  });
});

describe("a JSON bulk file with broken items", () => {
  it("imports the good units, resynchronises after a broken string and reports the rest", async () => {
    const summary = await importBrregUnits(db(), BROKEN_JSON);
    // 991428275 came from the CSV above: updated, not inserted.
    expect(summary).toMatchObject({ inserted: 4, updated: 1, rejectedCount: 7, rows: 12 });
    expect(summary.rejected).toEqual([
      { record: 2, line: 63, reason: expect.stringMatching(/^organisasjonsnummer: not a valid organisation number.*"993020924"/) },
      { record: 3, line: 125, reason: "navn: missing" },
      { record: 4, line: 186, reason: expect.stringMatching(/^stiftelsesdato: not a valid date.*"2019-02-30"/) },
      { record: 6, line: 300, reason: expect.stringMatching(/^invalid JSON: /) },
      { record: 7, line: 304, reason: "broken JSON: unterminated string" },
      { record: 9, line: 363, reason: "not a JSON object" },
      { record: 11, line: 376, reason: expect.stringMatching(/^antallAnsatte: not a number.*"mange"/) },
    ]);
    const ways = await db().selectFrom("companies").selectAll().where("org_number", "=", "832175692").executeTakeFirstOrThrow();
    expect(ways).toMatchObject({
      legal_name: "WAYS AS",
      number_of_employees: 5,
      postal_address: "Postboks 2075 Vika",
      street_address: "Rådhusgata 5B",
      purpose: "Programmeringstjenester.",
      source: "brreg-json",
      is_active: 1,
    });
    const deleted = await db().selectFrom("companies").selectAll().where("org_number", "=", "999999999").executeTakeFirstOrThrow();
    expect(deleted).toMatchObject({ deleted_at: "2024-03-01", is_active: 0, org_form: "ASA" });
    const bankrupt = await db().selectFrom("companies").selectAll().where("org_number", "=", "997097378").executeTakeFirstOrThrow();
    expect(bankrupt).toMatchObject({ is_bankrupt: 1, is_active: 0 });
    expect(await db().selectFrom("companies").select("id").where("org_number", "in", ["927717468", "919602139"]).execute()).toHaveLength(1);
  });

  it("reads the same file gzip-compressed and counts a second run as updates", async () => {
    const file = path.join(tmp, "enheter_alle.json.gz");
    fs.writeFileSync(file, gzipSync(fs.readFileSync(BROKEN_JSON)));
    const summary = await importBrregUnits(db(), file);
    expect(summary).toMatchObject({ inserted: 0, updated: 5, rejectedCount: 7 });
  });

  it("finds item borders whatever the chunk size, including a resync across chunks", async () => {
    const text = fs.readFileSync(BROKEN_JSON, "utf8");
    const shape = (items: JsonItem[]) => items.map((i) => (i.ok ? [i.record, i.line, "ok"] : [i.record, i.line, i.reason]));
    const resync = /,\s*(?=\{\s*"organisasjonsnummer"\s*:)/;
    const whole = shape(await collect(readJsonArray(chunked(text, text.length), { resync })));
    expect(whole).toHaveLength(12);
    for (const size of [1, 7, 64, 1000]) {
      expect(shape(await collect(readJsonArray(chunked(text, size), { resync })))).toEqual(whole);
    }
  });

  it("splits compact arrays, scalars and nested arrays, and refuses what is not an array", async () => {
    const items = await collect(readJsonArray(chunked('[{"a":[1,{"b":"]}"}]},"x\\"y",12,null,[3]]', 5)));
    expect(items.map((i) => (i.ok ? i.value : i.reason))).toEqual([{ a: [1, { b: "]}" }] }, 'x"y', 12, null, [3]]);
    expect(await collect(readJsonArray(chunked("[]", 1)))).toEqual([]);
    await expect(collect(readJsonArray(chunked('{"a":1}', 3)))).rejects.toThrow(ImportInputError);
    const truncated = await collect(readJsonArray(chunked('[{"a":1},{"b":', 4)));
    expect(truncated.map((i) => i.ok)).toEqual([true, false]);
  });
});

describe("a truncated download", () => {
  it("keeps the rows read before the break and fails with their summary", async () => {
    const file = path.join(tmp, "truncated.csv.gz");
    const gz = gzipSync(fs.readFileSync(path.resolve("server/seed-data/brreg/konsern-enheter.csv")));
    fs.writeFileSync(file, gz.subarray(0, Math.floor(gz.length * 0.7)));
    const error = await importBrregUnits(db(), file).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ImportInputError);
    const { message, partial } = error as ImportInputError;
    expect(message).toMatch(/^Reading stopped at line \d+: unexpected end of file/);
    expect(partial?.inserted).toBeGreaterThan(0);
    expect(partial?.inserted).toBeLessThan(23);
    const groupNumbers = fs
      .readFileSync(path.resolve("server/seed-data/brreg/konsern-enheter.csv"), "utf8")
      .split("\n")
      .slice(1)
      .map((l) => l.split(",")[0])
      .filter(Boolean);
    const stored = await db().selectFrom("companies").select("id").where("org_number", "in", groupNumbers).execute();
    expect(stored).toHaveLength(partial!.inserted);
  });
});

describe("the CSV reader", () => {
  it("takes quoted line breaks, CRLF and a BOM, and numbers records by their first line", async () => {
    const text = '\uFEFFa,b\r\n1,"two\r\nlines"\r\n3,4\r\n';
    const rows = await collect(readCsv(chunked(text, 3), { requiredColumns: ["a", "b"] }));
    expect(rows).toEqual([
      { ok: true, line: 2, row: { a: "1", b: "two\nlines" } },
      { ok: true, line: 4, row: { a: "3", b: "4" } },
    ]);
  });

  it("calls a file without a required column unusable", async () => {
    await expect(collect(readCsv(chunked("x,y\n1,2\n", 100), { requiredColumns: ["a"] }))).rejects.toThrow(/missing column\(s\) a/);
    await expect(collect(readCsv(chunked("", 100), { requiredColumns: ["a"] }))).rejects.toThrow(/Empty file/);
  });
});
