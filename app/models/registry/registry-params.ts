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
