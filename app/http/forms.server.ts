import type { Submission, SubmissionResult } from "@conform-to/react";
import { json, type TypedResponse } from "@remix-run/node";
import type { Refusal } from "~/models/shared/refusal";
import { REFUSAL_STATUS, type ErrorStatus } from "./responses.server";

/**
 * The one way a screen answers a form post it refuses (and a fetcher post it accepts). Every form of the app reads
 * the same shape: `{ intent, subject, result }`, where `result` is Conform's submission reply — `error` holds the
 * messages by field (`""` for the form's own) in the user's language, `initialValue` what the user sent, so the page
 * re-rendered after a plain post (no JavaScript) and the fetcher's answer (JavaScript) both show the messages beside
 * the fields and keep what was typed. `subject` names the record a form of many on one page edits (a section, a
 * question), so the right form finds its reply (`useFormReply` in components/ui/ActionForm.tsx).
 */
export interface FormReply {
  intent: string | null;
  subject?: Record<string, string>;
  result: SubmissionResult<string[]>;
}

export interface FormRefusalOptions {
  /** 400 unless the refusal is a missing record (404), a forbidden change (403) or a state that forbids it (409). */
  status?: ErrorStatus;
  intent?: string | null;
  subject?: Record<string, string>;
  /** The form's own messages, shown above its fields. */
  formErrors?: string[];
  /** Messages by field name. */
  fieldErrors?: Record<string, string[]>;
}

/** What the user sent, as text fields (files are never echoed back). */
function sentText(formData: FormData): Record<string, string | string[]> {
  const sent: Record<string, string | string[]> = {};
  for (const [name, value] of formData.entries()) {
    if (typeof value !== "string") continue;
    const before = sent[name];
    sent[name] = before === undefined ? value : Array.isArray(before) ? [...before, value] : [before, value];
  }
  return sent;
}

function isSubmission(input: unknown): input is Submission<unknown> {
  return typeof input === "object" && input !== null && "reply" in input && typeof (input as { reply: unknown }).reply === "function";
}

/**
 * Refuses a form post: 400 (or the given status) with the messages and the user's input. Takes Conform's submission
 * (its own field messages are kept, and the given ones added) or, before a schema ran, the raw form data.
 */
export function refuseForm(input: Submission<unknown> | FormData, options: FormRefusalOptions = {}): TypedResponse<FormReply> {
  const { status = 400, intent, subject, formErrors = [], fieldErrors = {} } = options;
  const sentIntent = input instanceof FormData ? input.get("intent") : null;
  const result: SubmissionResult<string[]> = isSubmission(input)
    ? input.reply({ formErrors: formErrors.length ? formErrors : undefined, fieldErrors })
    : {
        status: "error",
        initialValue: sentText(input) as SubmissionResult<string[]>["initialValue"],
        error: { "": formErrors, ...fieldErrors },
      };
  const chosenIntent = intent !== undefined ? intent : typeof sentIntent === "string" ? sentIntent : null;
  return json({ intent: chosenIntent, ...(subject ? { subject } : {}), result }, { status });
}

/** Refuses a form post because a model refused it: the status from the refusal's reason, the message given. */
export function refuseFormFor(
  refusal: Refusal,
  input: Submission<unknown> | FormData,
  message: string,
  options: Omit<FormRefusalOptions, "status" | "formErrors" | "fieldErrors"> = {},
): TypedResponse<FormReply> {
  const placed = refusal.field ? { fieldErrors: { [refusal.field]: [message] } } : { formErrors: [message] };
  return refuseForm(input, { ...options, ...placed, status: REFUSAL_STATUS[refusal.reason] });
}

/** A fetcher's answer to an accepted post: the reply with the form reset, so the inputs empty where asked. */
export function acceptForm(submission: Submission<unknown>, options: { intent?: string | null; subject?: Record<string, string>; resetForm?: boolean } = {}) {
  const { intent = null, subject, resetForm = true } = options;
  return json({ intent, ...(subject ? { subject } : {}), result: submission.reply({ resetForm }) } satisfies FormReply);
}
