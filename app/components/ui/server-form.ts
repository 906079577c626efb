import type { SubmissionResult } from "@conform-to/react";

/**
 * The sign-in pages' forms (decision 015): validated by Conform + zod on the server only, so the page ships neither
 * to the browser (the sign-in page's JavaScript budget). The action answers with Conform's `submission.reply()` as
 * every form does; this reads that reply into the same names the components use with Conform's `useForm`.
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

export function useServerForm<Name extends string>(
  id: string,
  lastResult: SubmissionResult<string[]> | null | undefined,
  names: readonly Name[],
): [FormState, Record<Name, FieldState>] {
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
