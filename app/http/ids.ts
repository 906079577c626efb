/**
 * What an id looks like on the wire: a positive whole number written plainly
 * ("5"; not " 5", "05", "0x10" or "1e3"). Pure, so a form schema in the
 * browser and the server's parsing agree.
 */
export const ID_PATTERN = /^[1-9]\d{0,15}$/;

/** The id, or null for anything that is not one. */
export function parseId(value: unknown): number | null {
  if (typeof value !== "string" || !ID_PATTERN.test(value)) return null;
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : null;
}
