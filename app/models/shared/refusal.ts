/**
 * The one way a model says no. A model that refuses a change or a read throws a `Refusal`: a `reason` the route kit
 * maps to an HTTP status (app/http/responses.server.ts `REFUSAL_STATUS`), a `code` that names what was refused in
 * the domain's words ("email-taken", "transition-refused") so the route can pick the user's message, an optional
 * `field` the message belongs to, and `details` for the message's values. Models never build HTTP answers, and they
 * never signal a refusal by returning `null`, `undefined` or a union of their own: callers need one check,
 * `isRefusal(error)`. Pure, so the browser may read the types.
 */
export type RefusalReason = "invalid" | "forbidden" | "not-found" | "conflict";

export class Refusal<Code extends string = string> extends Error {
  readonly reason: RefusalReason;
  readonly code: Code;
  readonly field: string | undefined;
  readonly details: Readonly<Record<string, string | number>>;

  constructor(reason: RefusalReason, code: Code, options: { message?: string; field?: string; details?: Record<string, string | number> } = {}) {
    super(options.message ?? code);
    this.name = "Refusal";
    this.reason = reason;
    this.code = code;
    this.field = options.field;
    this.details = options.details ?? {};
  }
}

/** A refusal, to throw: `throw refuse("conflict", "transition-refused", { details: { status } })`. */
export function refuse<Code extends string>(
  reason: RefusalReason,
  code: Code,
  options?: { message?: string; field?: string; details?: Record<string, string | number> },
): Refusal<Code> {
  return new Refusal(reason, code, options);
}

export function isRefusal(error: unknown): error is Refusal {
  return error instanceof Refusal;
}

/** A refusal with one of the given codes (narrows `code` for a `switch`). */
export function isRefusalOf<Code extends string>(error: unknown, codes: readonly Code[]): error is Refusal<Code> {
  return error instanceof Refusal && (codes as readonly string[]).includes(error.code);
}
