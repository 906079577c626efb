import { z } from "zod";

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

/** Whether a search term is a Norwegian organisation number (nine digits, spaces ignored). */
export function isOrgNumber(term: string): boolean {
  return /^\d{9}$/.test(term.replace(/\s/g, ""));
}

/** The person dialog's tab (`?personTab=`): the CV unless shares or relations are asked for. */
export type PersonTab = "cv" | "shares" | "relations";

export function personTab(value: string | null): PersonTab {
  return value === "shares" || value === "relations" ? value : "cv";
}
