import { Link } from "@remix-run/react";
import type { FieldState } from "./server-form";

/** A labelled input with its hint and its errors, tied together for screen readers (a Conform field or a server form's). */
export function TextField({
  meta,
  label,
  type = "text",
  hint,
  autoComplete,
  autoFocus,
  placeholder,
}: {
  meta: FieldState;
  label: string;
  type?: "text" | "email" | "password";
  hint?: string;
  autoComplete?: string;
  autoFocus?: boolean;
  placeholder?: string;
}) {
  const hintId = hint ? `${meta.id}-hint` : undefined;
  const invalid = Boolean(meta.errors?.length);
  const describedBy = [hintId, invalid ? meta.errorId : undefined].filter(Boolean).join(" ") || undefined;
  return (
    <div className="mb-4">
      <label htmlFor={meta.id} className="mb-1 block text-sm font-medium">
        {label}
      </label>
      <input
        key={meta.key}
        id={meta.id}
        name={meta.name}
        type={type}
        defaultValue={typeof meta.initialValue === "string" ? meta.initialValue : undefined}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy}
        autoComplete={autoComplete}
        // eslint-disable-next-line jsx-a11y/no-autofocus -- only the sign-in pages ask for it: their first field is the page's one task
        autoFocus={autoFocus}
        placeholder={placeholder}
        className={`input w-full ${meta.errors?.length ? "input-error" : ""}`}
      />
      {hint ? (
        <p id={hintId} className="mt-1 text-xs text-base-content/70">
          {hint}
        </p>
      ) : null}
      <FieldErrors id={meta.errorId} errors={meta.errors} />
    </div>
  );
}

export function FieldErrors({ id, errors }: { id?: string; errors?: string[] }) {
  if (!errors?.length) return null;
  return (
    <ul id={id} className="mt-1 text-sm text-error">
      {errors.map((e) => (
        <li key={e}>{e}</li>
      ))}
    </ul>
  );
}

/** Errors of the whole form (wrong password, rate limit, expired link). */
export function FormAlert({ id, errors }: { id?: string; errors?: string[] }) {
  if (!errors?.length) return null;
  return (
    <div id={id} role="alert" className="alert alert-error mb-4 text-sm">
      {errors.join(" ")}
    </div>
  );
}

export function AuthCard({ title, lead, children }: { title: string; lead?: string; children: React.ReactNode }) {
  return (
    <div className="mx-auto w-full max-w-md rounded-box border border-base-300 bg-base-100 p-8 shadow-sm">
      <h1 className="text-2xl font-semibold">{title}</h1>
      {lead ? <p className="mt-2 text-sm text-base-content/70">{lead}</p> : null}
      <div className="mt-6">{children}</div>
    </div>
  );
}

/** A mailed link that no longer works (expired, used, unknown): why, and the one way on. */
export function DeadLinkCard({
  title,
  message,
  to,
  action,
  primary = true,
}: {
  title: string;
  message: string;
  to: string;
  action: string;
  primary?: boolean;
}) {
  return (
    <AuthCard title={title}>
      <div role="alert" className="alert alert-warning text-sm">
        {message}
      </div>
      <Link to={to} className={`btn mt-4 ${primary ? "btn-primary" : "btn-ghost"}`}>
        {action}
      </Link>
    </AuthCard>
  );
}

/** What a control inside `LabelledControl` spreads onto itself: its id and what ties it to its hint and messages. */
export interface ControlProps {
  id: string;
  "aria-invalid"?: true;
  "aria-describedby"?: string;
}

/**
 * A label, any control (select, date, textarea, text), its hint and its messages, tied together for screen readers: the
 * control gets `ControlProps` to spread. For the controls `TextField` does not cover.
 */
export function LabelledControl({
  id,
  label,
  hint,
  errors = [],
  children,
}: {
  id: string;
  label: string;
  hint?: string;
  errors?: string[];
  children: (control: ControlProps) => React.ReactNode;
}) {
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = `${id}-error`;
  const describedBy = [hintId, errors.length ? errorId : undefined].filter(Boolean).join(" ") || undefined;
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm font-medium">
        {label}
      </label>
      {children({ id, "aria-invalid": errors.length ? true : undefined, "aria-describedby": describedBy })}
      {hint ? (
        <p id={hintId} className="mt-1 text-xs text-base-content/70">
          {hint}
        </p>
      ) : null}
      <FieldErrors id={errorId} errors={errors} />
    </div>
  );
}

/** A checkbox (or toggle) with its label and a hint under it. */
export function CheckboxField({
  id,
  name,
  label,
  hint,
  defaultChecked,
  toggle = false,
}: {
  id: string;
  name: string;
  label: string;
  hint?: string;
  defaultChecked: boolean;
  toggle?: boolean;
}) {
  return (
    <div className="flex items-start gap-2">
      <input
        id={id}
        type="checkbox"
        name={name}
        value="on"
        defaultChecked={defaultChecked}
        // A new element when the default changes (a refused post re-rendered), so the box shows what was sent.
        key={`${id}-${defaultChecked}`}
        className={`${toggle ? "toggle toggle-sm" : "checkbox checkbox-sm"} mt-0.5`}
        aria-describedby={hint ? `${id}-hint` : undefined}
      />
      <div>
        <label htmlFor={id} className="text-sm font-medium">
          {label}
        </label>
        {hint ? (
          <p id={`${id}-hint`} className="text-xs text-base-content/70">
            {hint}
          </p>
        ) : null}
      </div>
    </div>
  );
}
