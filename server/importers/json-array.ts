import type { Readable } from "node:stream";
import { ImportInputError } from "./types";

export type JsonItem = { ok: true; record: number; line: number; value: unknown } | { ok: false; record: number; line: number; reason: string };

export interface JsonArrayOptions {
  /**
   * Where the next item starts after a broken one, matched against the raw
   * text. The default fits arrays of flat-ish objects: a comma and '{' never
   * meet between items' nested values unless an object sits in an array.
   */
  resync?: RegExp;
  /** A single item larger than this is treated as broken (the file is not what we think). */
  maxItemChars?: number;
}

const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const NEWLINE = 0x0a;

function countNewlines(text: string, from: number, to: number): number {
  let count = 0;
  for (let k = text.indexOf("\n", from); k !== -1 && k < to; k = text.indexOf("\n", k + 1)) count += 1;
  return count;
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/**
 * The items of one top-level JSON array, parsed one at a time, so a bulk file
 * of a million objects never has to fit in memory. Only item boundaries are
 * found here (strings, escapes and bracket depth); each item is then handed
 * to JSON.parse on its own, so a malformed item is rejected alone.
 *
 * When the structure itself is broken (a raw line break inside a string, a
 * bracket closed by the wrong kind, an item that never ends) the splitter
 * cannot know where the item ends, so it skips ahead to the next `resync`
 * match and carries on from there.
 */
export async function* readJsonArray(text: Readable, options: JsonArrayOptions = {}): AsyncGenerator<JsonItem> {
  const resync = new RegExp(options.resync?.source ?? ",\\s*\\{", (options.resync?.flags ?? "").replace("g", ""));
  const maxItemChars = options.maxItemChars ?? 4_000_000;

  type Mode = "start" | "between" | "item" | "resync" | "end";
  let mode: Mode = "start";
  let line = 1;
  let record = 0;
  let itemLine = 1;
  let parts: string[] = [];
  let partsLength = 0;
  const stack: number[] = [];
  let inString = false;
  let escaped = false;
  // Scalar items (numbers, literals) end at the next ',' or ']' rather than at a bracket.
  let scalar = false;
  let resyncTail = "";
  let brokenReason = "";
  let sawArray = false;

  const finishItem = (raw: string): JsonItem => {
    try {
      return { ok: true, record, line: itemLine, value: JSON.parse(raw) as unknown };
    } catch (error) {
      return { ok: false, record, line: itemLine, reason: `invalid JSON: ${(error as Error).message}` };
    }
  };

  for await (const incoming of text as AsyncIterable<string>) {
    let chunk = incoming;
    let i = 0;
    let itemStart = mode === "item" ? 0 : -1;
    let n = chunk.length;

    while (i < n) {
      if (mode === "resync") {
        const tailLength = resyncTail.length;
        const window = resyncTail + chunk.slice(i);
        const match = resync.exec(window);
        if (!match) {
          line += countNewlines(chunk, i, n);
          // Keep enough of the end to match a pattern split across chunks.
          resyncTail = window.slice(-256);
          i = n;
          break;
        }
        // Scan on from the match (its leading comma) as if it were a fresh
        // chunk; the tail's line breaks were counted when it was first read.
        if (match.index >= tailLength) line += countNewlines(window, tailLength, match.index);
        else line -= countNewlines(window, match.index, tailLength);
        chunk = window.slice(match.index);
        n = chunk.length;
        i = 0;
        itemStart = -1;
        resyncTail = "";
        mode = "between";
        continue;
      }

      const c = chunk.charCodeAt(i);

      if (mode === "start") {
        if (c === NEWLINE) line += 1;
        if (isSpace(c)) {
          i += 1;
          continue;
        }
        if (c !== OPEN_BRACKET) throw new ImportInputError("Not a JSON array: the file must start with '['");
        sawArray = true;
        mode = "between";
        i += 1;
        continue;
      }

      if (mode === "between") {
        if (c === NEWLINE) line += 1;
        if (isSpace(c) || c === COMMA) {
          i += 1;
          continue;
        }
        if (c === CLOSE_BRACKET) {
          mode = "end";
          i += 1;
          continue;
        }
        mode = "item";
        record += 1;
        itemLine = line;
        itemStart = i;
        parts = [];
        partsLength = 0;
        stack.length = 0;
        inString = false;
        escaped = false;
        scalar = !(c === OPEN_BRACE || c === OPEN_BRACKET || c === QUOTE);
        // Fall through to the item scanner with the same character.
      }

      if (mode === "end") {
        // Whatever follows the array (usually a final newline) is not ours to judge.
        i = n;
        break;
      }

      // mode === "item"
      if (inString) {
        if (escaped) escaped = false;
        else if (c === BACKSLASH) escaped = true;
        else if (c === QUOTE) {
          inString = false;
          if (stack.length === 0 && !scalar) {
            // A bare string item ends with its closing quote.
            parts.push(chunk.slice(itemStart, i + 1));
            mode = "between";
            i += 1;
            yield finishItem(parts.join(""));
            continue;
          }
        } else if (c === NEWLINE) {
          // JSON strings cannot hold a raw line break: the quote before it never closed.
          line += 1;
          brokenReason = "broken JSON: unterminated string";
        }
      } else if (c === QUOTE) {
        inString = true;
      } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
        stack.push(c);
      } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
        if (scalar && stack.length === 0 && c === CLOSE_BRACKET) {
          parts.push(chunk.slice(itemStart, i));
          mode = "end";
          i += 1;
          yield finishItem(parts.join(""));
          continue;
        }
        const open = stack.pop();
        if (open === undefined || (open === OPEN_BRACE) !== (c === CLOSE_BRACE)) {
          brokenReason = "broken JSON: mismatched brackets";
        } else if (stack.length === 0 && !scalar) {
          parts.push(chunk.slice(itemStart, i + 1));
          mode = "between";
          i += 1;
          yield finishItem(parts.join(""));
          continue;
        }
      } else if (c === COMMA && scalar && stack.length === 0) {
        parts.push(chunk.slice(itemStart, i));
        mode = "between";
        i += 1;
        yield finishItem(parts.join(""));
        continue;
      } else if (c === NEWLINE) {
        line += 1;
      }

      if (!brokenReason && partsLength + (i - itemStart) > maxItemChars) {
        brokenReason = `broken JSON: item longer than ${maxItemChars} characters`;
      }
      if (brokenReason) {
        yield { ok: false, record, line: itemLine, reason: brokenReason };
        brokenReason = "";
        mode = "resync";
        resyncTail = "";
        i += 1;
        continue;
      }
      i += 1;
    }

    if (mode === "item" && itemStart >= 0) {
      const rest = chunk.slice(itemStart);
      parts.push(rest);
      partsLength += rest.length;
    }
  }

  if (!sawArray) throw new ImportInputError("Not a JSON array: the file is empty");
  if (mode === "item") {
    yield { ok: false, record, line: itemLine, reason: "broken JSON: the file ends inside this item" };
  }
}
