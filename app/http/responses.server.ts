import { json } from "@remix-run/node";
import type { Refusal, RefusalReason } from "~/models/shared/refusal";

/**
 * HTTP answers of the route kit. Errors are always `{ error, message }` JSON
 * with their status: the API answers them as they are, and a screen's
 * ErrorBoundary shows its own translated page for the status.
 */
const REASONS: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  409: "Conflict",
  410: "Gone",
  413: "Payload Too Large",
  415: "Unsupported Media Type",
  422: "Unprocessable Entity",
  429: "Too Many Requests",
};

export type ErrorStatus = 400 | 401 | 403 | 404 | 405 | 409 | 410 | 413 | 415 | 422 | 429;

export function errorResponse(status: ErrorStatus, message: string, init: { headers?: HeadersInit; extra?: Record<string, unknown> } = {}) {
  return json({ error: REASONS[status], message, ...init.extra }, { status, headers: init.headers });
}

/** Throws the error answer unless the condition holds (a missing record → 404, …). */
export function invariantResponse(condition: unknown, status: ErrorStatus, message: string = REASONS[status]): asserts condition {
  if (!condition) throw errorResponse(status, message);
}

export const notFound = (message = "Not Found") => errorResponse(404, message);
export const forbidden = (message = "Forbidden") => errorResponse(403, message);
export const badRequest = (message: string) => errorResponse(400, message);

/** 405 with the Allow header, the same for every route. */
export function methodNotAllowed(allowed: readonly string[]) {
  return errorResponse(405, `Use ${allowed.join(" or ")}.`, { headers: { Allow: allowed.join(", ") } });
}

/** The HTTP status of a model's refusal (app/models/shared/refusal.ts) by its reason. */
export const REFUSAL_STATUS = { invalid: 400, forbidden: 403, "not-found": 404, conflict: 409 } as const satisfies Record<RefusalReason, ErrorStatus>;

/** The error answer (JSON) for a model's refusal: its status, and the message given or the refusal's own. */
export function refusalResponse(refusal: Refusal, message: string = refusal.message) {
  return errorResponse(REFUSAL_STATUS[refusal.reason], message, refusal.field ? { extra: { field: refusal.field } } : {});
}
