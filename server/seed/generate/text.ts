/** Small text helpers shared by the generators. */

const KEEP_UPPER = new Set(["AS", "ASA", "SA", "DA", "ANS", "ENK", "NUF", "IKS", "BA", "AB", "NV", "BV", "LLC", "K.K.", "II", "III", "IT", "HR", "VVS", "EL"]);

/** "E.A. SMITH AS" → "E.A. Smith AS": register names are upper case, texts read better in title case. */
export function displayName(name: string): string {
  if (name !== name.toUpperCase()) return name;
  return name
    .split(" ")
    .map((w) => {
      if (KEEP_UPPER.has(w) || /^[A-ZÆØÅ]\.([A-ZÆØÅ]\.)*$/.test(w) || /\d/.test(w)) return w;
      return w.toLocaleLowerCase("nb").replace(/\p{L}/u, (first) => first.toLocaleUpperCase("nb"));
    })
    .join(" ");
}

/** ASCII slug for fictional host names and URL paths. */
export function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/æ/g, "ae")
    .replace(/ø/g, "o")
    .replace(/å/g, "a")
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60);
}

/** Company slug without the legal form, for fictional e-mail domains. */
export function companySlug(name: string): string {
  return slug(name.replace(/\b(AS|ASA|SA|AB|GmbH|Ltd|Inc|NV|BV|B\.V\.|plc|LLC)\b\.?/gi, "")) || "company";
}

/** Postal areas are upper case in the register: "MO I RANA" → "Mo i Rana". */
export function titleCaseArea(area: string | null): string | null {
  if (!area) return null;
  return area
    .toLocaleLowerCase("nb")
    .split(/([ -])/)
    .map((w) => (["i", "og"].includes(w) ? w : w.charAt(0).toLocaleUpperCase("nb") + w.slice(1)))
    .join("");
}

/** "NOK 1 250 000" from thousands; grouped by hand so the text does not depend on the ICU build. */
export const formatNok = (thousands: number) => `NOK ${String(Math.round(thousands * 1000)).replace(/\B(?=(\d{3})+(?!\d))/g, " ")}`;
