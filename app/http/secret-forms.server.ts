import type { Submission } from "@conform-to/react";
import { refuseForm, type FormRefusalOptions } from "./forms.server";

/**
 * Refuses a form that carries secrets (a password, a setting's value): the one refusal of the route kit
 * (`refuseForm`), with Conform's messages by field, but what the user typed in `secrets` is never sent back to the
 * page, not even to fill the field again.
 */
export function refuseSecretForm(
  submission: Submission<unknown>,
  formData: FormData,
  secrets: readonly string[],
  options: Omit<FormRefusalOptions, "fieldErrors"> & { fieldErrors?: Record<string, string[]> } = {},
) {
  const kept = new FormData();
  for (const [name, value] of formData.entries()) if (!secrets.includes(name)) kept.append(name, value);
  const fieldErrors: Record<string, string[]> = {};
  const found = submission.status === "error" ? submission.error : {};
  for (const [name, messages] of Object.entries(found ?? {})) if (messages?.length) fieldErrors[name] = messages;
  return refuseForm(kept, { ...options, fieldErrors: { ...fieldErrors, ...options.fieldErrors } });
}
