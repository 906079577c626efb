import type { z } from "zod";
import { parseId } from "./ids";
import { errorResponse } from "./responses.server";

export { parseId } from "./ids";

/**
 * Strict parsing at the boundary. Everything a client sends is checked here
 * before a model sees it: ids are positive whole numbers written plainly,
 * bodies have the content type they claim and parse, and every text is
 * normalised (NFC) with NUL characters and lone UTF-16 surrogates refused
 * with a 400 that names the field.
 */

/** parseId, or a 400 naming the parameter. */
export function requireId(value: unknown, name = "id"): number {
  const id = parseId(value);
  if (id === null) throw errorResponse(400, `${name} must be a positive whole number`);
  return id;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why a text cannot be stored, or null when it can. */
export function textProblem(value: string): string | null {
  if (value.includes("\u0000")) return "must not contain NUL characters";
  if (LONE_SURROGATE.test(value)) return "must be valid Unicode text";
  return null;
}

/** NFC-normalises a text, or throws a 400 naming the field. */
export function normalizeText(value: string, field: string): string {
  const problem = textProblem(value);
  if (problem) throw errorResponse(400, `${field}: ${problem}`, { extra: { field } });
  return value.normalize("NFC");
}

/** No body of this API nests deeper than a few levels; far deeper is refused before it is walked. */
const MAX_JSON_DEPTH = 32;

/** Every string inside a parsed JSON value, normalised; the path names the field in errors. */
function normalizeDeep(value: unknown, path: string, depth = 0): unknown {
  if (typeof value === "string") return normalizeText(value, path || "body");
  if (value && typeof value === "object" && depth >= MAX_JSON_DEPTH) throw errorResponse(400, "The body is nested too deeply.");
  if (Array.isArray(value)) return value.map((item, i) => normalizeDeep(item, `${path}[${i}]`, depth + 1));
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      normalizeText(key, path ? `${path}.${key}` : key);
      out[key] = normalizeDeep(item, path ? `${path}.${key}` : key, depth + 1);
    }
    return out;
  }
  return value;
}

function mediaType(request: Request): string {
  return (request.headers.get("Content-Type") ?? "").split(";")[0]!.trim().toLowerCase();
}

const FORM_TYPES = ["application/x-www-form-urlencoded", "multipart/form-data"];

/**
 * The body of a form post: 415 for another content type (JSON or text posted
 * to a form action), 400 for a body that does not parse, 400 naming the
 * field for a NUL or invalid text. Files are passed through as they are.
 */
export async function readForm(request: Request): Promise<FormData> {
  const type = mediaType(request);
  if (!FORM_TYPES.includes(type)) throw errorResponse(415, "Send this form as application/x-www-form-urlencoded or multipart/form-data.");
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    throw errorResponse(400, "The form could not be read. Reload the page and try again.");
  }
  const out = new FormData();
  for (const [key, value] of form.entries()) {
    const name = normalizeText(key, "field name");
    out.append(name, typeof value === "string" ? normalizeText(value, name) : value);
  }
  return out;
}

/**
 * A JSON body: 415 unless it is sent as application/json, 400 when it does
 * not parse or (with a schema) does not fit, naming the field. Strings are
 * normalised like form values.
 */
export async function readJson<S extends z.ZodType>(request: Request, schema: S): Promise<z.infer<S>>;
export async function readJson(request: Request): Promise<unknown>;
export async function readJson(request: Request, schema?: z.ZodType): Promise<unknown> {
  if (mediaType(request) !== "application/json") throw errorResponse(415, "Send the body as application/json.");
  let body: unknown;
  try {
    body = JSON.parse(await request.text());
  } catch {
    throw errorResponse(400, "The body is not valid JSON.");
  }
  body = normalizeDeep(body, "");
  if (!schema) return body;
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.join(".") || "body";
    throw errorResponse(400, `${field}: ${issue?.message ?? "invalid"}`, { extra: { field } });
  }
  return parsed.data;
}

/** Query parameters through a zod schema; a bad one is a 400 naming it. Texts are normalised too. */
export function readQuery<S extends z.ZodType>(request: Request, schema: S): z.infer<S> {
  const params: Record<string, string> = {};
  for (const [key, value] of new URL(request.url).searchParams) params[key] = normalizeText(value, key);
  const parsed = schema.safeParse(params);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.join(".") || "query";
    throw errorResponse(400, `${field}: ${issue?.message ?? "invalid"}`, { extra: { field } });
  }
  return parsed.data;
}
