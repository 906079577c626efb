import type { SubmissionResult } from "@conform-to/react";

/**
 * The sign-in pages' forms (decision 015): validated by Conform + zod on the server only, so the page ships neither
 * to the browser (the sign-in page's JavaScript budget). The action answers as every form does, with the route kit's
 * `FormReply` (`{ intent, result }`, app/http/forms.server.ts); this reads its `result` into the same names the
 * components use with Conform's `useForm`.
 */
export interface FieldState {
  id: string;
  name: string;
  errorId: string;
  errors?: string[];
  initialValue?: unknown;
  key?: string;
}

export interface FormState {
  id: string;
  errorId: string;
  errors?: string[];
}

/** The part of a `FormReply` the page reads (an action's answer may carry more, or no result at all). */
export interface ServerFormReply {
  result?: SubmissionResult<string[]> | null;
}

export function useServerForm<Name extends string>(
  id: string,
  reply: ServerFormReply | null | undefined,
  names: readonly Name[],
): [FormState, Record<Name, FieldState>] {
  const lastResult = reply?.result;
  const error = lastResult?.error ?? {};
  const initial = (lastResult?.initialValue ?? {}) as Record<string, unknown>;
  const errors = (name: string) => {
    const list = error[name];
    return list?.length ? list : undefined;
  };
  const fields = {} as Record<Name, FieldState>;
  for (const name of names) {
    fields[name] = { id: `${id}-${name}`, name, errorId: `${id}-${name}-error`, errors: errors(name), initialValue: initial[name] };
  }
  return [{ id, errorId: `${id}-error`, errors: errors("") }, fields];
}
