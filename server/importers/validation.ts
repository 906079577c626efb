import { z } from "zod";

const ORG_NUMBER_WEIGHTS = [3, 2, 7, 6, 5, 4, 3, 2] as const;

/**
 * Nine digits whose last one is the modulus-11 control digit over the first
 * eight. The register issues no other numbers, so anything else in a bulk
 * file is corruption, not a unit.
 */
export function isValidOrgNumber(value: string): boolean {
  if (!/^\d{9}$/.test(value)) return false;
  let sum = 0;
  for (let i = 0; i < 8; i++) sum += ORG_NUMBER_WEIGHTS[i] * Number(value[i]);
  const remainder = sum % 11;
  if (remainder === 1) return false;
  return (remainder === 0 ? 0 : 11 - remainder) === Number(value[8]);
}

/** YYYY-MM-DD and a day the calendar has (no 2023-02-30). */
export function isIsoDate(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return date.getUTCFullYear() === Number(m[1]) && date.getUTCMonth() === Number(m[2]) - 1 && date.getUTCDate() === Number(m[3]);
}

export const orgNumber = z
  .string({ error: "missing" })
  .trim()
  .refine(isValidOrgNumber, { error: "not a valid organisation number (9 digits with a mod-11 check digit)" });

/** Trimmed text; the registers write "no value" as an empty string. */
export const optionalText = z
  .string()
  .nullish()
  .transform((s) => {
    const t = s?.trim();
    return t ? t : null;
  });

export const optionalDate = optionalText.refine((s) => s === null || isIsoDate(s), {
  error: "not a valid date (YYYY-MM-DD)",
});

function valueAt(raw: unknown, path: readonly PropertyKey[]): unknown {
  let v: unknown = raw;
  for (const key of path) {
    if (v === null || typeof v !== "object") return undefined;
    v = (v as Record<PropertyKey, unknown>)[key];
  }
  return v;
}

function show(value: unknown): string {
  if (value === undefined) return "";
  const text = typeof value === "string" ? `"${value}"` : JSON.stringify(value);
  return ` (got ${text.length > 60 ? `${text.slice(0, 57)}…` : text})`;
}

/** 'stiftelsesdato: not a valid date (YYYY-MM-DD) (got "2023-13-45")' — the field as the file names it. */
export function describeIssues(error: z.ZodError, raw: unknown): string {
  return error.issues
    .map((issue) => {
      const where = issue.path.map(String).join(".") || "row";
      return `${where}: ${issue.message}${show(valueAt(raw, issue.path))}`;
    })
    .join("; ");
}
