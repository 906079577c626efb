import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { MISSING } from "~/models/shared/format";
import {
  entityCard,
  formatOtherName,
  highlightParts,
  isValidLei,
  leiCheckDigits,
  managingLouName,
  normalizeLei,
  recordView,
  renewalDate,
  resultViews,
  suggestionLabel,
  suggestionLei,
} from "~/models/registry/lei";

/** Every LEI in GLEIF's recorded answers (server/seed-data/gleif/, CC0): real, issued, so valid. */
const GLEIF_DIR = path.resolve("server/seed-data/gleif");
const RECORDED = [
  "21380068P1DRHMJ8KU70",
  "254900LNRYNOQ9YPU758",
  "254900MSZM6DMP853B11",
  "254900RX3NW13DDG3905",
  "335800CCCPHKUOXPC332",
  "5299001ERX0K10IZUL40",
  "529900GRZ2BQY5ZM9N49",
  "529900MSZYMBF57O7A28",
  "529900YR7EORVQ2U3353",
  "5493001KJTIIGC8Y1R12",
  "549300O897ZC5H7CY412",
  "549300RMUDWPHCUQNE66",
  "549300YX4S1LLSMK2627",
  "851WYGNLUQLFZBSYGB56",
  "894500WG6RIKGVH09666",
  "9695005HMOSFY8IX2497",
  "9695006W3G9PH63DIJ53",
  "969500FE5WLM2JA86V93",
  "969500ZOSJYMPD42WS74",
  "984500983AD71E4FBC41",
  "984500B447P639364M33",
  "INR2EJN1ERAN0W5ZP974",
];

/** The same LEI with one character changed: MOD 97-10 catches every single substitution. */
function mutate(lei: string, at: number): string {
  const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
  const other = alphabet[(alphabet.indexOf(lei[at]) + 7) % alphabet.length];
  return lei.slice(0, at) + other + lei.slice(at + 1);
}

describe("LEI check digits (ISO 17442, ISO 7064 MOD 97-10)", () => {
  it.each(RECORDED)("accepts the recorded real LEI %s", (lei) => {
    expect(isValidLei(lei)).toBe(true);
    expect(normalizeLei(lei)).toBe(lei);
  });

  it("the list above is the recorded files' LEIs", () => {
    const found = new Set<string>();
    for (const file of fs.readdirSync(GLEIF_DIR)) {
      for (const m of fs.readFileSync(path.join(GLEIF_DIR, file), "utf8").matchAll(/"(?:lei|id)":"([A-Z0-9]{20})"/g)) found.add(m[1]);
    }
    expect([...found].sort()).toEqual(RECORDED);
  });

  it.each(RECORDED.flatMap((lei) => [0, 5, 12, 18, 19].map((at) => [mutate(lei, at), lei, at] as const)))(
    "rejects %s (%s with character %i changed)",
    (bad) => {
      expect(isValidLei(bad)).toBe(false);
      expect(normalizeLei(bad)).toBeNull();
    },
  );

  it("rejects two swapped neighbours", () => {
    const lei = "5299001ERX0K10IZUL40";
    expect(isValidLei(lei.slice(0, 8) + lei[9] + lei[8] + lei.slice(10))).toBe(false);
  });

  it("accepts lower case and surrounding spaces, and gives back the upper-case LEI", () => {
    expect(isValidLei("5299001erx0k10izul40")).toBe(true);
    expect(normalizeLei("5299001erx0k10izul40")).toBe("5299001ERX0K10IZUL40");
    expect(normalizeLei("  inr2ejn1eran0w5zp974\n")).toBe("INR2EJN1ERAN0W5ZP974");
    // Lower case does not rescue a wrong check digit.
    expect(isValidLei("5299001erx0k10izul41")).toBe(false);
  });

  it.each([
    ["", "empty"],
    ["5299001ERX0K10IZUL4", "19 characters"],
    ["5299001ERX0K10IZUL400", "21 characters"],
    ["5299001ERX0K10 IZUL40", "a space inside"],
    ["5299001ERX0K10-ZUL40", "a hyphen"],
    ["5299001ERX0K10IZULA0", "a letter among the check digits"],
    ["5299001ÉRX0K10IZUL40", "an accented letter"],
    ["00000000000000000000", "all zeros"],
  ])("rejects %j (%s)", (value) => {
    expect(isValidLei(value)).toBe(false);
    expect(normalizeLei(value)).toBeNull();
  });

  it("rejects what is not a string", () => {
    expect(isValidLei(null)).toBe(false);
    expect(normalizeLei(undefined)).toBeNull();
  });

  it("computes check digits that make a valid LEI, and the recorded ones' own", () => {
    for (const lei of RECORDED) expect(leiCheckDigits(lei.slice(0, 18))).toBe(lei.slice(18));
    const generated = `9845000000ABCDEF${"12"}`;
    expect(isValidLei(generated + leiCheckDigits(generated))).toBe(true);
    expect(leiCheckDigits("984500000000000001")).toMatch(/^\d\d$/);
    expect(() => leiCheckDigits("SHORT")).toThrow(/18 characters/);
  });
});

describe("other names (shared/spec/01-shell-chat-lei.md §2.7)", () => {
  it.each([
    [{ name: "Fraport AG", type: "ALTERNATIVE_LANGUAGE_LEGAL_NAME" }, "Fraport AG (ALTERNATIVE LANGUAGE LEGAL NAME)"],
    [{ name: "ACME", type: "PREVIOUS_LEGAL_NAME" }, "ACME (PREVIOUS LEGAL NAME)"],
    [{ name: "Équinor, ASA", type: "TRADING_OR_OPERATING_NAME" }, "Équinor, ASA (TRADING OR OPERATING NAME)"],
    [{ name: "ACME", type: "AUTO_ASCII_TRANSLITERATED_LEGAL_NAME" }, "ACME (AUTO ASCII TRANSLITERATED LEGAL NAME)"],
    [{ name: "ACME", type: null }, "ACME"],
    [{ name: "ACME", type: "" }, "ACME"],
  ])("%j → %s", (other, text) => {
    expect(formatOtherName(other)).toBe(text);
  });
});

describe("next renewal (shared/spec/01-shell-chat-lei.md §2.7: first 10 characters of the date, or a dash)", () => {
  it.each([
    ["2026-06-03T13:29:41Z", "2026-06-03"],
    ["2025-11-30T00:00:00.000+01:00", "2025-11-30"],
    ["2026-06-03", "2026-06-03"],
    [" 2026-06-03T13:29:41Z ", "2026-06-03"],
    [null, MISSING],
    [undefined, MISSING],
    ["", MISSING],
    ["   ", MISSING],
  ])("%j → %s", (value, text) => {
    expect(renewalDate(value)).toBe(text);
  });

  it("the dash is the product's one dash for missing values", () => {
    expect(renewalDate(null)).toBe("—");
  });
});

describe("result label: legal name, or the highlighted match (shared/spec/01-shell-chat-lei.md §2.7, §3)", () => {
  const recorded = JSON.parse(fs.readFileSync(path.join(GLEIF_DIR, "autocompletions_all.json"), "utf8")) as {
    data: Parameters<typeof suggestionLabel>[0][];
  };

  it("takes the legal name when the item has one", () => {
    const item = { id: "5299001ERX0K10IZUL40", attributes: { legalName: { name: "Fraport AG" }, value: "FRAPORT", highlighting: "<b>FRA</b>PORT" } };
    expect(suggestionLabel(item)).toEqual([{ text: "Fraport AG", match: false }]);
  });

  it("marks the match inside the legal name when the highlighting is of the legal name", () => {
    const item = { id: "5299001ERX0K10IZUL40", attributes: { legalName: { name: "Fraport AG" }, value: "Fraport AG", highlighting: "<b>Frap</b>ort AG" } };
    expect(suggestionLabel(item)).toEqual([
      { text: "Frap", match: true },
      { text: "ort AG", match: false },
    ]);
  });

  it("otherwise the highlighted match, with the matched part marked", () => {
    expect(suggestionLabel({ attributes: { value: "B GLOBAL", highlighting: "B <b>GLOBAL</b>" } })).toEqual([
      { text: "B ", match: false },
      { text: "GLOBAL", match: true },
    ]);
  });

  it("otherwise the value", () => {
    expect(suggestionLabel({ attributes: { value: "GLOBAL H", highlighting: null } })).toEqual([{ text: "GLOBAL H", match: false }]);
    expect(suggestionLabel({ attributes: { value: null } })).toEqual([]);
  });

  it("never passes on markup: other tags dropped, entities decoded to text", () => {
    expect(highlightParts('<b>A&amp;B</b> <i>x</i><img src=x onerror="1">')).toEqual([
      { text: "A&B", match: true },
      { text: " x", match: false },
    ]);
    expect(highlightParts("<B>Glo</B><b>bal</b> &lt;AS&gt;")).toEqual([
      { text: "Global", match: true },
      { text: " <AS>", match: false },
    ]);
  });

  it("labels every recorded GLEIF suggestion, and finds the LEI of those that point at a record", () => {
    for (const item of recorded.data) {
      const label = suggestionLabel(item);
      expect(label.map((p) => p.text).join("")).toBe(item.attributes.value);
      expect(label.some((p) => p.match)).toBe(true);
    }
    const leis = recorded.data.map(suggestionLei);
    // Some recorded items have no relationships: completions without a record.
    expect(leis).toContain(null);
    expect(leis).toContain("984500B447P639364M33");
  });

  it("reads the LEI from id first", () => {
    expect(suggestionLei({ id: "5299001ERX0K10IZUL40", attributes: {} })).toBe("5299001ERX0K10IZUL40");
    expect(suggestionLei({ attributes: {}, relationships: { "lei-records": { data: { type: "lei-records", id: "INR2EJN1ERAN0W5ZP974" } } } })).toBe(
      "INR2EJN1ERAN0W5ZP974",
    );
  });
});

describe("the dialog's views of GLEIF answers", () => {
  const single = JSON.parse(fs.readFileSync(path.join(GLEIF_DIR, "single_lei_record_5299001ERX0K10IZUL40.json"), "utf8"));

  it("shows a recorded record's detail: address lines then postal code and city, country (region), renewal date's first 10 characters", () => {
    const view = recordView(single.data)!;
    expect(view.lei).toBe("5299001ERX0K10IZUL40");
    expect(view.name).toBe(single.data.attributes.entity.legalName.name);
    expect(view.address.at(-1)).toBe(`${single.data.attributes.entity.legalAddress.postalCode} ${single.data.attributes.entity.legalAddress.city}`);
    expect(view.nextRenewal).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(view.registrationStatus).toBe(single.data.attributes.registration.status);
    expect(view.managingLou).toBe(single.data.attributes.registration.managingLou);
  });

  it("resolves the legal form to its ELF name with the code, else the code, else the form's own text, else the dash", () => {
    const record = (legalForm: object) => ({ id: "X", attributes: { lei: "X", entity: { legalForm } } });
    expect(recordView(record({ id: "YI42", name: "Aksjeselskap" }))!.legalForm).toBe("Aksjeselskap (YI42)");
    expect(recordView(record({ id: "YI42", name: null }))!.legalForm).toBe("YI42");
    expect(recordView(record({ id: "8888", other: "Stiftung des privaten Rechts" }))!.legalForm).toBe("Stiftung des privaten Rechts");
    expect(recordView(record({}))!.legalForm).toBe("—");
  });

  it("shows the country alone without a region, the dash for what is missing, other names with their types", () => {
    const view = recordView({
      id: "X",
      attributes: {
        lei: "X",
        entity: {
          legalName: { name: "Acme AS" },
          legalAddress: { addressLines: ["Gate 1", "", null], postalCode: null, city: "Oslo", country: "NO" },
          otherNames: [{ name: "Acme", type: "TRADING_OR_OPERATING_NAME" }, { name: " " }],
        },
        registration: { nextRenewalDate: null },
      },
    })!;
    expect(view.address).toEqual(["Gate 1", "Oslo"]);
    expect(view.countryRegion).toBe("NO");
    expect(view.registeredAs).toBe("—");
    expect(view.nextRenewal).toBe("—");
    expect(view.otherNames).toEqual(["Acme (TRADING OR OPERATING NAME)"]);
  });

  it("takes the card of a child or parent from id and legal name", () => {
    expect(entityCard({ id: "A", attributes: { entity: { legalName: { name: "Alpha" } } } })).toEqual({ lei: "A", name: "Alpha" });
    expect(entityCard({ attributes: { lei: "B" } })).toEqual({ lei: "B", name: "B" });
    expect(entityCard({})).toBeNull();
  });

  it("names the managing LOU by its legal name, else its LEI, else nothing", () => {
    const lou = JSON.parse(fs.readFileSync(path.join(GLEIF_DIR, "managing-lou_5493001KJTIIGC8Y1R12.json"), "utf8"));
    expect(managingLouName(lou)).toBe(lou.data.attributes.entity.legalName.name);
    expect(managingLouName({ data: { attributes: { lei: "L" } } })).toBe("L");
    expect(managingLouName(null)).toBeNull();
  });

  it("lists each result once, leaving out completions without a record", () => {
    const views = resultViews([
      { id: "A", attributes: { value: "Alpha" } },
      { attributes: { value: "bare" } },
      { relationships: { "lei-records": { data: { id: "A" } } }, attributes: { value: "Alpha again" } },
      { relationships: { "lei-records": { data: { id: "B" } } }, attributes: { value: "Beta", highlighting: "<b>Be</b>ta" } },
    ]);
    expect(views.map((v) => v.lei)).toEqual(["A", "B"]);
    expect(views[1].label).toEqual([
      { text: "Be", match: true },
      { text: "ta", match: false },
    ]);
  });
});
