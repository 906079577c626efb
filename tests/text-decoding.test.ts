import { describe, expect, it } from "vitest";
import { textDecoder } from "@server/text-decoding";

describe("textDecoder", () => {
  it("reads Windows-1252's letters in 0x80–0x9F, under every label that means it", () => {
    const bytes = Buffer.from([0x80, 0x20, 0x96, 0x20, 0x85, 0x20, 0x93, 0x41, 0x94, 0x20, 0x99, 0x20, 0xe6, 0xf8, 0xe5]);
    for (const label of ["windows-1252", "iso-8859-1", "latin1", "us-ascii"]) {
      expect([label, textDecoder(label).decode(bytes)]).toEqual([label, "€ – … “A” ™ æøå"]);
    }
  });

  it("keeps the five bytes Windows-1252 leaves undefined, and leaves other encodings alone", () => {
    expect(textDecoder("windows-1252").decode(Buffer.from([0x81, 0x8d, 0x8f, 0x90, 0x9d]))).toBe("\u0081\u008d\u008f\u0090\u009d");
    expect(textDecoder("utf-8").decode(Buffer.from("€ æøå", "utf8"))).toBe("€ æøå");
    expect(() => textDecoder("no-such-charset")).toThrow(RangeError);
  });
});
