import { json } from "@remix-run/node";
import type { z } from "zod";

/** JSON error answers of the API: `{ error, message }` with the HTTP status. */
export function apiError(status: 400 | 401 | 403 | 404 | 405 | 409 | 413 | 422, message: string, extra: Record<string, unknown> = {}) {
  const error = {
    400: "Bad Request",
    401: "Unauthorized",
    403: "Forbidden",
    404: "Not Found",
    405: "Method Not Allowed",
    409: "Conflict",
    413: "Payload Too Large",
    422: "Unprocessable Entity",
  }[status];
  return json({ error, message, ...extra }, { status });
}

/** Parses the query string with a zod schema; a bad parameter is thrown as a 400 naming it. */
export function parseQuery<S extends z.ZodType>(request: Request, schema: S): z.infer<S> {
  const params = Object.fromEntries(new URL(request.url).searchParams);
  const parsed = schema.safeParse(params);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.join(".") || "query";
    throw apiError(400, `${field}: ${issue?.message ?? "invalid"}`);
  }
  return parsed.data;
}

/** Parses a route parameter that must be a positive integer id. */
export function idParam(value: string | undefined, name = "id"): number {
  // Digits only: Number() would also take "1e3", "0x10" and " 5".
  if (!value || !/^[1-9]\d{0,15}$/.test(value)) throw apiError(400, `${name} must be a positive whole number`);
  return Number(value);
}
