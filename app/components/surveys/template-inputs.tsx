import type { SubmissionResult } from "@conform-to/react";
import { Link } from "@remix-run/react";
import type { FormReplyState } from "~/components/ui/ActionForm";
import { useTranslation } from "~/translations";
import { SURVEY_LIMITS } from "~/models/tasks/survey-definition";

/**
 * The inputs of the template pages (the survey builder, the survey and task template lists): plain forms that post
 * with a navigation (no fetcher), so that a page works the same without JavaScript. Each form finds its refused reply
 * with `useFormReply(intent, subject)` (components/ui/ActionForm.tsx) and hands its state to these inputs, which show
 * the messages beside the field and keep what the user typed.
 */

export function Errors({ id, errors }: { id: string; errors: string[] }) {
  if (!errors.length) return null;
  return (
    <p id={id} role="alert" className="mt-1 text-sm text-error">
      {errors.join(" ")}
    </p>
  );
}

export function TextInput({
  kit,
  formId,
  name,
  label,
  value,
  multiline = false,
  inputMode,
  maxLength = SURVEY_LIMITS.textLength,
  required = false,
}: {
  kit: FormReplyState;
  formId: string;
  name: string;
  label: string;
  value: string | number | undefined;
  multiline?: boolean;
  inputMode?: "decimal" | "numeric";
  maxLength?: number;
  required?: boolean;
}) {
  const id = `${formId}-${name}`;
  const errors = kit.errors(name);
  const defaultValue = kit.keeping ? (kit.kept(name) ?? "") : (value ?? "");
  const common = {
    id,
    name,
    defaultValue,
    required: required || undefined,
    "aria-invalid": errors.length ? (true as const) : undefined,
    "aria-describedby": errors.length ? `${id}-error` : undefined,
  };
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm font-medium">
        {label}
      </label>
      {multiline ? (
        <textarea {...common} rows={2} maxLength={maxLength} className={`textarea w-full ${errors.length ? "textarea-error" : ""}`} />
      ) : (
        <input {...common} inputMode={inputMode} maxLength={maxLength} className={`input input-sm w-full ${errors.length ? "input-error" : ""}`} />
      )}
      <Errors id={`${id}-error`} errors={errors} />
    </div>
  );
}

export function FormErrors({ result }: { result: SubmissionResult<string[]> | null }) {
  const errors = [...(result?.error?.[""] ?? []), ...(result?.error?.versionId ?? []), ...(result?.error?.intent ?? [])].filter(Boolean) as string[];
  if (!errors.length) return null;
  return (
    <p role="alert" className="alert alert-error mt-2 text-sm">
      {errors.join(" ")}
    </p>
  );
}

/** Who owns a new template: a choice for the operator who also manages an organisation, otherwise a hidden field. */
export function OwnerChoice({
  kit,
  manageOwn,
  manageSystem,
  className,
}: {
  kit: FormReplyState;
  manageOwn: boolean;
  manageSystem: boolean;
  className?: string;
}) {
  const { t } = useTranslation("taskTemplates");
  if (!(manageOwn && manageSystem)) return <input type="hidden" name="owner" value={manageOwn ? "organization" : "system"} />;
  return (
    <fieldset className={className}>
      <legend className="mb-1 text-sm font-medium">{t("columns.owner")}</legend>
      {(["organization", "system"] as const).map((owner) => (
        <label key={owner} className="mr-4 inline-flex items-center gap-2 text-sm">
          <input
            type="radio"
            name="owner"
            value={owner}
            className="radio radio-sm"
            defaultChecked={(kit.kept("owner") === "system") === (owner === "system")}
          />
          {t(`owner.${owner}`)}
        </label>
      ))}
    </fieldset>
  );
}

/** The heading of a template page: title, introduction, the links to the other template pages, a refused row action's message. */
export function TemplatesHeader({
  id,
  title,
  intro,
  links,
  errors,
}: {
  id: string;
  title: string;
  intro: string;
  links: { to: string; label: string }[];
  errors: string[];
}) {
  const { t } = useTranslation("taskTemplates");
  return (
    <>
      <h1 id={id} className="text-2xl font-semibold">
        {title}
      </h1>
      <p className="mt-1 max-w-prose text-sm text-base-content/70">{intro}</p>
      <nav aria-label={t("adminNav")} className="mt-3 flex flex-wrap gap-3 text-sm">
        {links.map((link) => (
          <Link key={link.to} to={link.to} className="link link-primary">
            {link.label}
          </Link>
        ))}
      </nav>
      {errors.length ? (
        <p role="alert" className="alert alert-error mt-4 text-sm">
          {errors.join(" ")}
        </p>
      ) : null}
    </>
  );
}
