import { sectorOf } from "./industry";
import { Rng } from "./random";
import { companySlug, displayName, titleCaseArea } from "./text";
import type { WorldCompany } from "./types";

/**
 * Supplier intelligence in the shape of spec 02 §3 ("Supplier intelligence
 * response"), written from the company's industry profile the way an AI
 * summary of its public web presence would read. Contact details are
 * fictional (example.com addresses, +47 555 numbers); the address and
 * organisation number are the register's.
 *
 * Language: the summary is data, like the register's texts, not interface
 * text: an AI summary of a company's public web presence comes in the language
 * it was written in, here always English. `language` (ISO 639-1) says so, so
 * the screen can mark it (`lang`) and tell a Norwegian user it is in English
 * rather than mix it silently into the Norwegian interface.
 */

interface Item {
  name: string;
  description: string;
}

export interface SupplierIntelligence {
  /** The language the texts are written in (ISO 639-1). */
  language: "en";
  overview: { description: string };
  tags: string[];
  products: Item[];
  services: Item[];
  certifications_and_compliance: Item[];
  esg: { environmental: Item[]; social: Item[]; governance: Item[] };
  key_information: { email: string; phone: string; address: string; organization_number: string };
  source: { url: string; title: string; snippet: string };
}

const toItems = (items: readonly (readonly [string, string])[]) => items.map(([name, description]) => ({ name, description }));

export function generateIntelligence(c: WorldCompany, rich: boolean): SupplierIntelligence {
  const rng = new Rng(`intelligence:${c.orgNumber}`);
  const sector = sectorOf(c.industryCode);
  const name = displayName(c.name);
  const staff = c.employees ?? 0;
  const size = staff >= 250 ? "large" : staff >= 50 ? "medium-sized" : "small";
  const area = c.isForeign ? c.postalArea : titleCaseArea(c.postalArea);
  const founded = c.establishmentDate?.slice(0, 4);
  const where = area ? ` based in ${area}` : "";
  const first = `${name} is a ${size} ${sector.label} company${where}.`;
  const facts = [founded ? `Founded in ${founded}` : null, staff > 0 ? `it has about ${staff.toLocaleString("en-GB")} employees` : null].filter(
    (f): f is string => f !== null,
  );
  const history = facts.length === 2 ? ` ${facts[0]}, ${facts[1]}.` : facts.length === 1 ? ` ${facts[0].charAt(0).toUpperCase()}${facts[0].slice(1)}.` : "";
  const activity = c.industryDescription ? ` Its registered line of business is “${c.industryDescription}”.` : "";
  const description = `${first}${history} ${sector.sentence}${activity}`;

  const some = <T>(items: readonly T[], min: number) => (rich ? [...items] : rng.sample(items, Math.min(items.length, rng.int(min, min + 1))));
  const tags = [...sector.tags.slice(0, rich ? 3 : 2), staff >= 250 ? "Large enterprise" : "SME", ...(area ? [area] : [])];
  const domain = `${companySlug(c.name)}.example.com`;
  const street = c.streetAddress?.split("\n").join(", ");
  const address = [street, [c.postalCode, area].filter(Boolean).join(" ")].filter(Boolean).join(", ");

  return {
    language: "en",
    overview: { description },
    tags,
    products: toItems(some(sector.products, 1)),
    services: toItems(some(sector.services, 1)),
    certifications_and_compliance: toItems(some(sector.certifications, 1)),
    esg: {
      environmental: toItems(some(sector.environmental, 1)),
      social: toItems(some(sector.social, 1)),
      governance: toItems(some(sector.governance, 2)),
    },
    key_information: {
      email: `post@${domain}`,
      phone: `+47 555 ${String(rng.int(0, 99)).padStart(2, "0")} ${String(rng.int(0, 999)).padStart(3, "0")}`,
      address,
      organization_number: c.orgNumber,
    },
    source: { url: `https://${domain}/om-oss`, title: `${name} – about us`, snippet: first },
  };
}
