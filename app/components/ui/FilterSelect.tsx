import { useLocation } from "@remix-run/react";
import { useId } from "react";

/**
 * One select of a list's GET filter form: its label, its options ([value, text]) and, when the loader refused the
 * value, its message (`error`) with aria-invalid/aria-describedby (`invalid`).
 */
export function FilterSelect({
  name,
  label,
  value,
  options,
  error,
  invalid,
}: {
  name: string;
  label: string;
  value: string;
  options: Array<[string, string]>;
  /** A list that refuses no value (read leniently) has neither. */
  error?: React.ReactNode;
  invalid?: Record<string, unknown>;
}) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm font-medium">
        {label}
      </label>
      <select id={id} name={name} defaultValue={value} className="select select-sm w-full" {...invalid}>
        {options.map(([optionValue, text]) => (
          <option key={optionValue} value={optionValue}>
            {text}
          </option>
        ))}
      </select>
      {error}
    </div>
  );
}

/**
 * The list's URL with some query parameters changed (null removes one): paging links, "only this supplier", clearing a
 * filter. `drop`: parameters of a passing state (an open dialog) that no such link keeps.
 */
export function useListHref(drop: readonly string[] = []): (changes: Record<string, string | null>) => string {
  const { pathname, search } = useLocation();
  return (changes) => {
    const next = new URLSearchParams(search);
    for (const key of drop) next.delete(key);
    for (const [key, value] of Object.entries(changes)) {
      if (value == null) next.delete(key);
      else next.set(key, value);
    }
    return `${pathname}${next.size ? `?${next}` : ""}`;
  };
}

/**
 * The refused filter of a GET filter form (the loader names the field it refused): its message under the field
 * (`error`) and the field's aria-invalid/aria-describedby (`invalid`).
 */
export function useFilterErrors(refusedField: string | null) {
  const ids = useId();
  const errorId = (field: string) => `${ids}-${field}-error`;
  return {
    ids,
    error: (field: string, message: string) =>
      refusedField === field ? (
        <p id={errorId(field)} role="alert" className="mt-1 text-xs text-error">
          {message}
        </p>
      ) : null,
    invalid: (field: string) => (refusedField === field ? { "aria-invalid": true as const, "aria-describedby": errorId(field) } : {}),
  };
}
