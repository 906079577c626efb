import { z } from "zod";
import { normaliseOrgNumber } from "~/models/shared/org-number";

/** A query parameter holding an organisation number (the spec's organization_id / externalId). */
export function orgNumberQuery<K extends string>(name: K) {
  return z.object({
    [name]: z
      .string({ error: "is required" })
      .trim()
      .transform((v) => v.replace(/\s/g, ""))
      .pipe(z.string().regex(/^[A-Za-z0-9-]{2,20}$/, "must be an organisation number")),
  } as Record<K, z.ZodPipe<z.ZodPipe<z.ZodString, z.ZodTransform<string, string>>, z.ZodString>>);
}

/** An org number from the URL, or null: registry ids are short runs of letters, digits and dashes. */
export function orgNumberParam(value: string | null): string | null {
  const v = value?.replace(/\s/g, "") ?? "";
  return /^[A-Za-z0-9-]{1,30}$/.test(v) ? v : null;
}

/**
 * The Norwegian organisation number a search term is, written any way people copy one ("811 600 792",
 * "NO 811600792 MVA", "811.600.792"), or null when the term is something else.
 */
export function searchedOrgNumber(term: string): string | null {
  const digits = normaliseOrgNumber(term);
  return /^\d{9}$/.test(digits) ? digits : null;
}

/** Whether a search term is a Norwegian organisation number (see `searchedOrgNumber`). */
export function isOrgNumber(term: string): boolean {
  return searchedOrgNumber(term) !== null;
}

/** The person dialog's tab (`?personTab=`): the CV unless shares or relations are asked for. */
export type PersonTab = "cv" | "shares" | "relations";

export function personTab(value: string | null): PersonTab {
  return value === "shares" || value === "relations" ? value : "cv";
}
