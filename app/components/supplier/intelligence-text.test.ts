import { describe, expect, it } from "vitest";
import { readIntelligence, safeHttpUrl } from "./intelligence-text";

describe("safeHttpUrl", () => {
  it.each([
    ["https://example.com/a?b=1", "https://example.com/a?b=1"],
    ["http://example.com", "http://example.com/"],
    [" https://example.com ", "https://example.com/"],
    ["javascript:alert(1)", null],
    ["data:text/html,<b>x</b>", null],
    ["example.com", null],
    ["", null],
    [42, null],
    [null, null],
  ])("%s → %s", (input, expected) => {
    expect(safeHttpUrl(input)).toBe(expected);
  });
});

describe("readIntelligence", () => {
  const full = {
    overview: { description: "Makes boats." },
    tags: ["maritime", " ", "steel", 7],
    products: [{ name: "Ferry", description: "Electric ferries" }, "Tug", { description: "nameless" }],
    services: [{ name: "Repair" }],
    certifications_and_compliance: [{ name: "ISO 9001", description: "Quality management" }],
    esg: { environmental: [{ name: "Electric fleet", description: "Battery ferries" }], social: "not a list", governance: [] },
    key_information: { email: "post@example.no", phone: "+47 22 00 00 00", address: "Kaia 1, 0150 Oslo", organization_number: 913748174 },
    source: { url: "https://example.no/about", title: "About us", snippet: "We build ferries." },
  };

  it("reads every part of the spec's shape", () => {
    expect(readIntelligence(full)).toEqual({
      language: "en",
      description: "Makes boats.",
      tags: ["maritime", "steel", "7"],
      products: [
        { name: "Ferry", description: "Electric ferries" },
        { name: "Tug", description: null },
      ],
      services: [{ name: "Repair", description: null }],
      certifications: [{ name: "ISO 9001", description: "Quality management" }],
      esg: { environmental: [{ name: "Electric fleet", description: "Battery ferries" }], social: [], governance: [] },
      keyInformation: { email: "post@example.no", phone: "+47 22 00 00 00", address: "Kaia 1, 0150 Oslo", organization_number: "913748174" },
      source: { url: "https://example.no/about", title: "About us", snippet: "We build ferries." },
      writtenByModel: null,
    });
  });

  it("names the language model that wrote it, and nothing else", () => {
    expect(readIntelligence({ ...full, writtenBy: { kind: "model", model: "gpt-4o-mini" } })?.writtenByModel).toBe("gpt-4o-mini");
    expect(readIntelligence({ ...full, writtenBy: { kind: "registry" } })?.writtenByModel).toBeNull();
    expect(readIntelligence({ ...full, writtenBy: "model" })?.writtenByModel).toBeNull();
  });

  it("accepts the API's {data} envelope", () => {
    expect(readIntelligence({ data: full })?.description).toBe("Makes boats.");
  });

  it("drops a source address that is not http(s)", () => {
    expect(readIntelligence({ ...full, source: { url: "javascript:alert(1)", title: "x" } })?.source).toEqual({ url: null, title: "x", snippet: null });
  });

  it("is null for nothing to show", () => {
    expect(readIntelligence(null)).toBeNull();
    expect(readIntelligence("text")).toBeNull();
    expect(readIntelligence([])).toBeNull();
    expect(readIntelligence({})).toBeNull();
    expect(readIntelligence({ data: null, overview: { description: "  " }, tags: [] })).toBeNull();
  });
});
