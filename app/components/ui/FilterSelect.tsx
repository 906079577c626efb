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
  error: React.ReactNode;
  invalid: Record<string, unknown>;
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
