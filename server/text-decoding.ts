/**
 * Text decoding that follows the Encoding Standard where Node 20 does not: Node decodes "windows-1252" (and the labels
 * the standard maps to it: iso-8859-1, latin1, ascii) as Latin-1, leaving the bytes 0x80–0x9F as control characters
 * instead of Windows-1252's letters (€, ‚, „, …, ‘, ’, “, ”, –, —, ™ …). Every reader of uploaded or fetched text
 * decodes through here, so "€" in a CSV exported by Excel on Norwegian Windows reads as "€".
 */

const CP1252_HIGH =
  "\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178";

export interface Decoder {
  readonly encoding: string;
  decode(input?: Uint8Array, options?: { stream?: boolean }): string;
}

/** A decoder for the label (throws RangeError for an unknown label, like TextDecoder). */
export function textDecoder(label: string, options?: { fatal?: boolean }): Decoder {
  const inner = new TextDecoder(label, options);
  if (inner.encoding !== "windows-1252") return inner;
  return {
    encoding: inner.encoding,
    // A single-byte encoding: no character spans chunks, so each chunk maps on its own.
    decode: (input, opts) => inner.decode(input, opts).replace(/[\u0080-\u009f]/g, (c) => CP1252_HIGH[c.charCodeAt(0) - 0x80] || c),
  };
}
