import { inflateSync } from "node:zlib";

/**
 * A small text extractor for the PDFs pdfkit writes, so tests can read a
 * generated report without command-line tools (pdftotext is not on every
 * machine). It inflates FlateDecode streams and decodes the strings of the
 * text-showing operators (Tj, TJ) as WinAnsi, the encoding of the standard
 * fonts. Not a general PDF parser: no object streams, no font CMaps.
 */

// Windows-1252 differs from Latin-1 only in 0x80–0x9F.
const CP1252_HIGH: Record<number, string> = {
  0x80: "€",
  0x82: "‚",
  0x83: "ƒ",
  0x84: "„",
  0x85: "…",
  0x86: "†",
  0x87: "‡",
  0x88: "ˆ",
  0x89: "‰",
  0x8a: "Š",
  0x8b: "‹",
  0x8c: "Œ",
  0x8e: "Ž",
  0x91: "‘",
  0x92: "’",
  0x93: "“",
  0x94: "”",
  0x95: "•",
  0x96: "–",
  0x97: "—",
  0x98: "˜",
  0x99: "™",
  0x9a: "š",
  0x9b: "›",
  0x9c: "œ",
  0x9e: "ž",
  0x9f: "Ÿ",
};

function winAnsiDecode(bytes: number[]): string {
  return bytes.map((b) => CP1252_HIGH[b] ?? String.fromCharCode(b)).join("");
}

function hexBytes(hex: string): number[] {
  const clean = hex.replace(/\s+/g, "");
  // An odd final digit counts as followed by 0 (PDF 32000-1 §7.3.4.3).
  const padded = clean.length % 2 ? `${clean}0` : clean;
  const out: number[] = [];
  for (let i = 0; i < padded.length; i += 2) out.push(parseInt(padded.slice(i, i + 2), 16));
  return out;
}

function literalBytes(body: string): number[] {
  const out: number[] = [];
  const escapes: Record<string, number> = { n: 10, r: 13, t: 9, b: 8, f: 12, "(": 40, ")": 41, "\\": 92 };
  for (let i = 0; i < body.length; i++) {
    const ch = body[i];
    if (ch !== "\\") {
      out.push(ch.charCodeAt(0) & 0xff);
      continue;
    }
    const next = body[++i];
    if (next === undefined) break;
    if (next in escapes) out.push(escapes[next]);
    else if (/[0-7]/.test(next)) {
      let octal = next;
      while (octal.length < 3 && /[0-7]/.test(body[i + 1] ?? "")) octal += body[++i];
      out.push(parseInt(octal, 8) & 0xff);
    } else if (next === "\r" || next === "\n") {
      if (next === "\r" && body[i + 1] === "\n") i++; // a line continuation
    } else out.push(next.charCodeAt(0) & 0xff);
  }
  return out;
}

/** The decoded content streams of the file, in file order. */
export function pdfStreams(pdf: Buffer): string[] {
  // latin1 maps byte n to char n, so string offsets are byte offsets.
  const raw = pdf.toString("latin1");
  const streams: string[] = [];
  const marker = /stream\r?\n/g;
  let match: RegExpExecArray | null;
  while ((match = marker.exec(raw))) {
    if (raw.slice(match.index - 3, match.index) === "end") continue;
    const start = match.index + match[0].length;
    const dict = raw.slice(raw.lastIndexOf(" obj", match.index), match.index);
    const length = /\/Length\s+(\d+)(?!\s+\d+\s+R)/.exec(dict);
    const end = length ? start + Number(length[1]) : raw.indexOf("endstream", start);
    let data = pdf.subarray(start, end);
    if (/\/FlateDecode/.test(dict)) data = inflateSync(data);
    streams.push(data.toString("latin1"));
    marker.lastIndex = end;
  }
  return streams;
}

const SHOW_TEXT = /\[((?:[^\]\\]|\\.)*)\]\s*TJ|(<[0-9A-Fa-f\s]*>|\((?:[^\\)]|\\.)*\))\s*(?:Tj|'|")/gs;
const STRING = /<([0-9A-Fa-f\s]*)>|\(((?:[^\\)]|\\.)*)\)/gs;

function decodeStrings(operand: string): string {
  let out = "";
  for (const m of operand.matchAll(STRING)) out += winAnsiDecode(m[1] !== undefined ? hexBytes(m[1]) : literalBytes(m[2] ?? ""));
  return out;
}

/**
 * The text of the file, one line per text-showing operation (pdfkit writes
 * every wrapped line and table cell as its own), no-break spaces read as
 * plain spaces.
 */
export function pdfTextLines(pdf: Buffer): string[] {
  const lines: string[] = [];
  for (const stream of pdfStreams(pdf)) {
    for (const m of stream.matchAll(SHOW_TEXT)) {
      const text = decodeStrings(m[1] ?? m[2] ?? "").replace(/\u00a0/g, " ");
      if (text.trim()) lines.push(text);
    }
  }
  return lines;
}

export function pdfText(pdf: Buffer): string {
  return pdfTextLines(pdf).join("\n");
}

/** Number of page objects. */
export function pdfPageCount(pdf: Buffer): number {
  return (pdf.toString("latin1").match(/\/Type\s*\/Page(?![s\w])/g) ?? []).length;
}
