import { describe, expect, it } from "vitest";
import {
  displayScore,
  readIntelligence,
  safeHttpUrl,
  uiLanguage,
  utcDay,
  visibleItems,
  ANNOUNCEMENTS_SHOWN,
  INTELLIGENCE_COLLAPSED_ITEMS,
} from "./main-helpers";

describe("uiLanguage", () => {
  it.each([
    ["en", "en"],
    ["no", "no"],
    ["nb", "en"],
    ["", "en"],
    [undefined, "en"],
  ] as const)("%s → %s", (input, expected) => {
    expect(uiLanguage(input)).toBe(expected);
  });
});

describe("utcDay", () => {
  it("drops the time of day in UTC", () => {
    expect(utcDay(new Date("2024-03-05T23:59:59.999Z")).toISOString()).toBe("2024-03-05T00:00:00.000Z");
    expect(utcDay(new Date("2024-03-06T00:00:00.000Z")).toISOString()).toBe("2024-03-06T00:00:00.000Z");
  });
});

describe("displayScore", () => {
  it.each([
    [42.4, 42],
    [42.5, 43],
    [0, 0],
    [100, 100],
    [-3, 0],
    [130, 100],
    [null, null],
    [undefined, null],
    [Number.NaN, null],
    [Number.POSITIVE_INFINITY, null],
  ])("%s → %s", (input, expected) => {
    expect(displayScore(input)).toBe(expected);
  });
});

describe("visibleItems", () => {
  const five = [1, 2, 3, 4, 5];
  it("keeps the first entries and counts the rest", () => {
    expect(visibleItems(five, false, 2)).toEqual({ shown: [1, 2], hidden: 3 });
  });
  it("shows everything when expanded", () => {
    expect(visibleItems(five, true, 2)).toEqual({ shown: five, hidden: 0 });
  });
  it("shows a short list whole", () => {
    expect(visibleItems([1, 2], false, 2)).toEqual({ shown: [1, 2], hidden: 0 });
    expect(visibleItems([], false, 2)).toEqual({ shown: [], hidden: 0 });
  });
  it("uses the spec's limits: 5 announcements, 2 intelligence items", () => {
    expect(ANNOUNCEMENTS_SHOWN).toBe(5);
    expect(INTELLIGENCE_COLLAPSED_ITEMS).toBe(2);
    expect(visibleItems([1, 2, 3, 4, 5, 6], false, ANNOUNCEMENTS_SHOWN)).toEqual({ shown: [1, 2, 3, 4, 5], hidden: 1 });
  });
  it("does not hand back the input array", () => {
    const list = [1];
    expect(visibleItems(list, true, 2).shown).not.toBe(list);
  });
});

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
