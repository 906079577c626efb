import type { SubmissionResult } from "@conform-to/react";
import { useActionData, useFetcher, useLocation } from "@remix-run/react";
import { useEffect, useId, useRef } from "react";
import { useHydrated } from "./useHydrated";

/*
 * The app's form idiom. Every screen form is an `ActionForm` (a fetcher with JavaScript, a plain post without it), or,
 * where a screen posts plain forms of its own (the survey builder's many forms on one page), a `<Form>` that reads its
 * reply with `useFormReply`. Conform's `useForm` is for a form that validates in the browser as the user types, and
 * `ui/server-form.ts` only for the pages that ship no form script (sign-in and the respondent pages). All of them read
 * the one answer of a refused post, `FormReply` (app/http/forms.server.ts: `{ intent, subject, result }`), so a
 * message lands beside its field and the input is kept the same way with and without JavaScript.
 */

/**
 * What an action answers a form (app/http/forms.server.ts `FormReply`): the intent it ran, the record it was about
 * (`subject`, when many forms on a page share an intent) and Conform's `submission.reply()`: `error` holds the refused
 * fields' messages ("" for the form's own), `initialValue` what the user sent.
 */
export interface ActionReply {
  intent?: string | null;
  subject?: Record<string, string>;
  result?: SubmissionResult<string[]> | null;
}

type Fields = Record<string, string | number>;

function isReply(data: unknown): data is ActionReply {
  return typeof data === "object" && data !== null && "result" in data;
}

function refused(result: SubmissionResult<string[]> | null | undefined): boolean {
  return Boolean(result && (result.status === "error" || Object.values(result.error ?? {}).some((e) => e?.length)));
}

/** A sent value by its field name: flat (`options[0].en` as sent) or nested (as Conform parsed it). */
function sentValue(initial: Record<string, unknown> | null | undefined, name: string): unknown {
  if (!initial) return undefined;
  if (name in initial) return initial[name];
  let value: unknown = initial;
  for (const part of name.replace(/\]/g, "").split(/[.[]/)) value = value && typeof value === "object" ? (value as Record<string, unknown>)[part] : undefined;
  return value;
}

/** A form's reply after a plain post, and what it gives the form's controls. */
export interface FormReplyState {
  /** The reply, when the last plain post was this form's; null otherwise. */
  result: SubmissionResult<string[]> | null;
  /** The page is the re-render of a refused post of this form: defaults come from `kept`, not from the data. */
  keeping: boolean;
  /**
   * What the user sent for a field, while `keeping`: use it as the default value, so the input is kept without
   * JavaScript. An unticked checkbox is not sent: `kept(name) === undefined` while `keeping`.
   */
  kept(name: string): string | undefined;
  /** Messages for a field; `""` for the form's own. */
  errors(name?: string): string[];
}

/** The state of a form from a reply (or none). */
export function formReplyState(result: SubmissionResult<string[]> | null | undefined): FormReplyState {
  const keeping = refused(result);
  return {
    result: result ?? null,
    keeping,
    kept: (name) => {
      const value = keeping ? sentValue(result?.initialValue, name) : undefined;
      return typeof value === "string" ? value : undefined;
    },
    errors: (name = "") => errorsOf(result, name),
  };
}

/**
 * The reply of the last plain (navigation) post when it was this form's: the same intent, and the same record — each
 * key of `subject` equal in the reply's `subject` or, when the action named none, in what the form sent (its hidden
 * fields). Without JavaScript a refused change comes back as the re-rendered page; this finds the form it belongs to.
 */
export function useFormReply(intent: string, subject: Fields = {}): FormReplyState {
  const data = useActionData<unknown>();
  if (!isReply(data) || !data.result) return formReplyState(null);
  const sent = data.result.initialValue ?? {};
  if ((data.intent ?? sent.intent) !== intent) return formReplyState(null);
  for (const [name, value] of Object.entries(subject)) {
    const named = data.subject?.[name] ?? sent[name];
    if (named !== String(value)) return formReplyState(null);
  }
  return formReplyState(data.result);
}

/** The bare reply of `useFormReply` (for a component that only shows messages). */
export function useActionResult(intent: string, fields: Fields = {}): SubmissionResult<string[]> | null {
  return useFormReply(intent, fields).result;
}

/** Error messages of one field of a reply ("" = the form's own). */
export function errorsOf(result: SubmissionResult<string[]> | null | undefined, name = ""): string[] {
  return (result?.error?.[name] ?? []).filter(Boolean);
}

/** What the children of an ActionForm get. */
export interface ActionFormState extends Omit<FormReplyState, "result"> {
  /** The form is being sent. */
  busy: boolean;
  /** The last answer refused the change (its messages are shown). */
  refused: boolean;
  /** The id of a field's messages (for aria-describedby). */
  errorId(name: string): string;
  /** aria-invalid and aria-describedby for a field's control while it has messages. */
  invalid(name: string): { "aria-invalid"?: true; "aria-describedby"?: string };
}

export interface ActionFormProps {
  /** The action's `intent` for this form (a hidden field). */
  intent: string;
  /** More hidden fields: the ids the change is about (`{ tagId: 5 }`). */
  fields?: Fields;
  /** Where the form posts; the current URL by default. */
  action?: string;
  /** Where a plain post (no JavaScript) comes back after an accepted change; `action` by default. */
  redirectTo?: string;
  /** Shares the form's busy state with a button elsewhere (`useFetcher({ key })`), e.g. a footer's Save. */
  fetcherKey?: string;
  /** Clear the inputs after an accepted change (a new comment, a new tag). */
  resetOnSuccess?: boolean;
  /** Called after each accepted change (with JavaScript): shows 'Saved!', say. */
  onSuccess?: () => void;
  /** The form element's id (for `form=` on a button outside it). */
  id?: string;
  className?: string;
  /** Class of the form's own messages, shown at its end. */
  errorClassName?: string;
  /** The controls; place `<FieldError form={state} name="…" />` next to each visible one. */
  children: (state: ActionFormState) => React.ReactNode;
}

/**
 * A POST form for one `intent` that works with and without JavaScript. With
 * it, the form runs through its own fetcher (no reload); without it, it also
 * posts `redirectTo`, so the action redirects back with its notice. A refused
 * change shows its messages (role="alert") where the user acted, next to the
 * control (FieldError) or at the form's end (the form's own and those of the
 * hidden fields), and keeps what the user typed: with JavaScript the inputs
 * are left as they are; without it `state.kept(name)` gives them back.
 * An action that redirects a fetcher's post too (to show its notice) finds the
 * way back with `backTo` (app/http/redirect.server.ts): once hydrated the form
 * sends no `redirectTo`, and posts to the page's URL with its search instead.
 */
export function ActionForm({
  intent,
  fields = {},
  action,
  redirectTo,
  fetcherKey,
  resetOnSuccess = false,
  onSuccess,
  id,
  className,
  errorClassName = "mt-1 text-sm text-error",
  children,
}: ActionFormProps) {
  const fetcher = useFetcher<ActionReply>(fetcherKey ? { key: fetcherKey } : undefined);
  const hydrated = useHydrated();
  const location = useLocation();
  const formRef = useRef<HTMLFormElement>(null);
  const baseId = useId();
  const plain = useFormReply(intent, fields);
  const plainResult = plain.result;
  const fetched = isReply(fetcher.data) ? fetcher.data.result : null;
  const result = fetched ?? plainResult;
  const handled = useRef<unknown>(null);
  const onSuccessRef = useRef(onSuccess);
  onSuccessRef.current = onSuccess;

  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data || handled.current === fetcher.data) return;
    handled.current = fetcher.data;
    if (isReply(fetcher.data) && !refused(fetcher.data.result)) {
      if (resetOnSuccess) formRef.current?.reset();
      onSuccessRef.current?.();
    }
  }, [fetcher.state, fetcher.data, resetOnSuccess]);

  const target = action ?? `${location.pathname}${location.search}`;
  const isRefused = refused(result);
  const keeping = !fetched && plain.keeping;
  const errorId = (name: string) => `${baseId}-${name || "form"}-error`;
  const state: ActionFormState = {
    busy: fetcher.state !== "idle",
    refused: isRefused,
    keeping,
    errors: (name = "") => errorsOf(result, name),
    kept: (name) => (keeping ? plain.kept(name) : undefined),
    errorId,
    invalid: (name) => (errorsOf(result, name).length ? { "aria-invalid": true, "aria-describedby": errorId(name) } : {}),
  };
  // The form's own messages and those of fields the user cannot see.
  const own = [...errorsOf(result, ""), ...errorsOf(result, "intent"), ...Object.keys(fields).flatMap((name) => errorsOf(result, name))];

  return (
    <fetcher.Form ref={formRef} method="post" action={target} className={className} id={id} preventScrollReset>
      <input type="hidden" name="intent" value={intent} />
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {hydrated ? null : <input type="hidden" name="redirectTo" value={redirectTo ?? target} />}
      {children(state)}
      {own.length ? (
        <p role="alert" id={errorId("")} className={errorClassName}>
          {own.join(" ")}
        </p>
      ) : null}
    </fetcher.Form>
  );
}

/** A field's messages next to its control, announced when they appear (role="alert"). */
export function FieldError({ form, name, className = "mt-1 text-sm text-error" }: { form: ActionFormState; name: string; className?: string }) {
  const errors = form.errors(name);
  if (!errors.length) return null;
  return (
    <p role="alert" id={form.errorId(name)} className={className}>
      {errors.join(" ")}
    </p>
  );
}
