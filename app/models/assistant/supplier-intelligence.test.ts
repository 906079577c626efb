import { describe, expect, it } from "vitest";
import {
  composeIntelligence,
  factsKey,
  factsOfCompany,
  readModelIntelligence,
  withModelText,
  type RegistryFacts,
} from "~/models/assistant/supplier-intelligence";

// Registry facts shaped like Aktieselskapet Vinmonopolet's entry in Enhetsregisteret.
const vinmonopolet: RegistryFacts = {
  orgNumber: "914781872",
  legalName: "AKTIESELSKAPET VINMONOPOLET",
  orgFormDescription: "Aksjeselskap",
  industryCode: "47.251",
  industryDescription: "Butikkhandel med vin og brennevin",
  purpose: "Detaljsalg av alkoholholdig drikk i henhold til alkoholloven.",
  employees: 2200,
  establishmentDate: "1939-06-22",
  municipality: "OSLO",
  streetAddress: "Sørkedalsveien 1",
  postalCode: "368",
  postalArea: "OSLO",
  website: "www.vinmonopolet.no",
};

const none: RegistryFacts = {
  orgNumber: "999999999",
  legalName: "TOM AS",
  orgFormDescription: null,
  industryCode: null,
  industryDescription: null,
  purpose: null,
  employees: null,
  establishmentDate: null,
  municipality: null,
  streetAddress: null,
  postalCode: null,
  postalArea: null,
  website: null,
};

describe("composeIntelligence", () => {
  it.each(["en", "no"] as const)("names no product the registry does not name (%s)", (language) => {
    const intel = composeIntelligence(vinmonopolet, language);
    expect(intel).not.toBeNull();
    expect(intel!.products).toEqual([{ name: "Butikkhandel med vin og brennevin", description: vinmonopolet.purpose }]);
    expect(intel!.services).toEqual([]);
    expect(JSON.stringify(intel)).not.toMatch(/electronics|elektronikk/i);
    // The registry says nothing about certifications, ESG, e-mail or phone.
    expect(intel!.certifications_and_compliance).toEqual([]);
    expect(intel!.esg).toEqual({ environmental: [], social: [], governance: [] });
    expect(intel!.key_information).toEqual({ email: "", phone: "", address: "Sørkedalsveien 1, 0368 OSLO", organization_number: "914781872" });
    expect(intel!.source.url).toBe("https://virksomhet.brreg.no/nb/oppslag/enheter/914781872");
    expect(intel!.source.snippet).toBe(vinmonopolet.purpose);
    expect(intel!.language).toBe(language);
  });

  it("writes the facts in English, labelled as composed from registry data", () => {
    const intel = composeIntelligence(vinmonopolet, "en")!;
    expect(intel.label).toBe("Composed from registry data");
    expect(intel.source.title).toBe("Brønnøysund Register Centre");
    expect(intel.overview.description).toBe(
      "AKTIESELSKAPET VINMONOPOLET is registered in the Brønnøysund Register Centre with organisation number 914781872. " +
        "Organisation form: Aksjeselskap. Registered industry: 47.251 Butikkhandel med vin og brennevin. " +
        "Registered purpose or activity: “Detaljsalg av alkoholholdig drikk i henhold til alkoholloven.” Established 22 June 1939. " +
        "Registered employees: 2,200. Business address: Sørkedalsveien 1, 0368 OSLO. Website: https://www.vinmonopolet.no/.",
    );
    expect(intel.tags).toEqual(["Butikkhandel med vin og brennevin", "250+ employees", "OSLO"]);
  });

  it("writes the facts in Norwegian, labelled as composed from registry data", () => {
    const intel = composeIntelligence(vinmonopolet, "no")!;
    expect(intel.label).toBe("Satt sammen fra registerdata");
    expect(intel.source.title).toBe("Brønnøysundregistrene");
    expect(intel.overview.description).toContain("er registrert i Brønnøysundregistrene med organisasjonsnummer 914781872.");
    expect(intel.overview.description).toContain("Stiftet 22. juni 1939.");
    expect(intel.overview.description).toContain("Registrert næring: 47.251 Butikkhandel med vin og brennevin.");
    expect(intel.tags).toEqual(["Butikkhandel med vin og brennevin", "250+ ansatte", "OSLO"]);
  });

  it("is null when the registry says neither industry nor purpose", () => {
    expect(composeIntelligence(none, "en")).toBeNull();
    expect(composeIntelligence(none, "no")).toBeNull();
  });

  it.each(["en", "no"] as const)("invents nothing for facts that are missing (%s)", (language) => {
    const intel = composeIntelligence({ ...none, industryDescription: "Bedriftsrådgivning og annen administrativ rådgivning" }, language)!;
    const registered = language === "en" ? "TOM AS is registered" : "TOM AS er registrert";
    const industry = language === "en" ? "Registered industry:" : "Registrert næring:";
    expect(intel.overview.description.startsWith(registered)).toBe(true);
    // Two sentences: who it is and its industry; no employees, date, address or website.
    expect(intel.overview.description.split(". ")).toHaveLength(2);
    expect(intel.overview.description).toContain(`${industry} Bedriftsrådgivning og annen administrativ rådgivning.`);
    expect(intel.tags).toEqual(["Bedriftsrådgivning og annen administrativ rådgivning"]);
    expect(intel.products).toEqual([{ name: "Bedriftsrådgivning og annen administrativ rådgivning", description: "" }]);
    expect(intel.key_information).toEqual({ email: "", phone: "", address: "", organization_number: "999999999" });
    expect(intel.source.snippet).toBe("Bedriftsrådgivning og annen administrativ rådgivning");
  });

  it("with a purpose but no industry it names no product", () => {
    const intel = composeIntelligence({ ...none, purpose: "Drive konsulentvirksomhet." }, "en")!;
    expect(intel.products).toEqual([]);
    expect(intel.tags).toEqual([]);
    expect(intel.source.snippet).toBe("Drive konsulentvirksomhet.");
  });

  it("drops a website that is not an http(s) address", () => {
    const intel = composeIntelligence({ ...vinmonopolet, website: "javascript:alert(1)" }, "en")!;
    expect(intel.overview.description).not.toContain("Website");
  });

  it("reads a stored company row, taking the activity when there is no purpose", () => {
    const facts = factsOfCompany({
      org_number: "914781872",
      legal_name: "AKTIESELSKAPET VINMONOPOLET",
      org_form_description: "Aksjeselskap",
      industry_code: "47.251",
      industry_description: "Butikkhandel med vin og brennevin",
      purpose: null,
      activity: "Salg av vin og brennevin.",
      number_of_employees: 2200,
      establishment_date: "1939-06-22",
      municipality: "OSLO",
      street_address: "Sørkedalsveien 1",
      street_postal_code: "0368",
      street_postal_area: "OSLO",
      website: null,
    });
    expect(facts.purpose).toBe("Salg av vin og brennevin.");
    expect(composeIntelligence(facts, "en")!.products[0].description).toBe("Salg av vin og brennevin.");
  });
});

describe("a language model's text (decision 029)", () => {
  it("keeps only the parts a model may write, capped", () => {
    const read = readModelIntelligence({
      overview: { description: "  Sells   wine.  " },
      tags: ["Wine", "Wine", " ", 3, "x".repeat(100)],
      products: [{ name: "Wine", description: "Bottles" }, { description: "nameless" }, "Beer"],
      services: "none",
      certifications_and_compliance: [{ name: "ISO 9001" }],
    });
    expect(read).toEqual({
      overview: { description: "Sells wine." },
      tags: ["Wine", "x".repeat(60)],
      products: [{ name: "Wine", description: "Bottles" }],
      services: [],
    });
    expect(readModelIntelligence({ overview: { description: " " } })).toBeNull();
    expect(readModelIntelligence("Sells wine.")).toBeNull();
    expect(readModelIntelligence(null)).toBeNull();
  });

  it("puts the model's words around the registry's own facts, and names the model", () => {
    const written = withModelText(
      vinmonopolet,
      "en",
      { overview: { description: "Sells wine." }, tags: [], products: [], services: [{ name: "Advice", description: "" }] },
      "llama3.1",
    );
    const composed = composeIntelligence(vinmonopolet, "en")!;
    expect(written).toMatchObject({
      writtenBy: { kind: "model", model: "llama3.1" },
      label: "Written by the language model llama3.1 from registry data",
      overview: { description: "Sells wine." },
      tags: composed.tags,
      services: [{ name: "Advice", description: "" }],
      key_information: composed.key_information,
      source: composed.source,
      certifications_and_compliance: [],
      esg: { environmental: [], social: [], governance: [] },
    });
    expect(withModelText(none, "en", { overview: { description: "x" }, tags: [], products: [], services: [] }, "m")).toBeNull();
  });

  it("keys the facts so a change in any of them is seen", () => {
    expect(factsKey(vinmonopolet)).toBe(factsKey({ ...vinmonopolet }));
    for (const change of [{ employees: 1 }, { purpose: "Other" }, { website: null }, { legalName: "X" }] as Partial<RegistryFacts>[]) {
      expect(factsKey({ ...vinmonopolet, ...change })).not.toBe(factsKey(vinmonopolet));
    }
  });
});
