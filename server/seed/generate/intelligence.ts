import { composeIntelligence, type ComposedIntelligence } from "~/models/assistant/supplier-intelligence";
import type { WorldCompany } from "./types";

/**
 * The demo world's stored supplier intelligence, composed from the company's
 * registry facts by the same composer the application uses (decision 028), in
 * English. Nothing is invented from a sector profile any more: a wine retailer
 * is not said to sell consumer electronics. The screen and the API compose it
 * afresh from the stored company row in the reader's language; these rows only
 * record which companies the demo world gave intelligence to.
 */
export function generateIntelligence(c: WorldCompany, _rich?: boolean): ComposedIntelligence | null {
  return composeIntelligence(
    {
      orgNumber: c.orgNumber,
      legalName: c.name,
      orgFormDescription: null,
      industryCode: c.industryCode,
      industryDescription: c.industryDescription,
      purpose: null,
      employees: c.employees,
      establishmentDate: c.establishmentDate,
      municipality: null,
      streetAddress: c.streetAddress,
      postalCode: c.postalCode,
      postalArea: c.postalArea,
      website: null,
    },
    "en",
  );
}
