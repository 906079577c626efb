/**
 * The World Bank's regions as the country data stores them (English names,
 * `countries.region`), each with the locale key of its label
 * (`supplier:regions.<key>`), so the region is shown in the user's language.
 * A region the table does not know is shown as stored. Pure.
 */
export const WORLD_BANK_REGIONS = {
  "East Asia & Pacific": "eastAsiaPacific",
  "Europe & Central Asia": "europeCentralAsia",
  "Latin America & Caribbean": "latinAmericaCaribbean",
  "Middle East & North Africa": "middleEastNorthAfrica",
  "North America": "northAmerica",
  "South Asia": "southAsia",
  "Sub-Saharan Africa": "subSaharanAfrica",
} as const;

export type RegionKey = (typeof WORLD_BANK_REGIONS)[keyof typeof WORLD_BANK_REGIONS];

function isKnownRegion(region: string): region is keyof typeof WORLD_BANK_REGIONS {
  return Object.prototype.hasOwnProperty.call(WORLD_BANK_REGIONS, region);
}

/** The locale key of a stored region's label, or null for a region the table does not know. */
export function regionLabelKey(region: string | null | undefined): `regions.${RegionKey}` | null {
  const text = region?.trim().replace(/\s+/g, " ") ?? "";
  return isKnownRegion(text) ? `regions.${WORLD_BANK_REGIONS[text]}` : null;
}

/** A stored region in the UI language (`t` is the `supplier` namespace's); null when there is none. */
export function regionLabel(region: string | null | undefined, t: (key: `regions.${RegionKey}`) => string): string | null {
  if (!region?.trim()) return null;
  const key = regionLabelKey(region);
  return key ? t(key) : region.trim();
}
