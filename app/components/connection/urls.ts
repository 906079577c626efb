import { useLocation } from "@remix-run/react";

/** Saved confirmation time (shared/spec/02-supplier-credit-connections.md §4, §9). */
export const SAVED_MS = 1500;

/** The URL parameters of the connection's slide-over, dialog and confirmation steps. */
export const LAYER_PARAMS = ["edit", "dialog", "confirm", "comment", "file", "tag"] as const;
/** … of a confirmation step only. */
export const CONFIRM_PARAMS = ["confirm", "comment", "file", "tag"] as const;

/** Builds URLs from the current one: `change` sets parameters (null deletes one), `drop` deletes more. */
export function useUrlWith() {
  const location = useLocation();
  return (change: Record<string, string | null>, drop: readonly string[] = []) => {
    const params = new URLSearchParams(location.search);
    for (const key of drop) params.delete(key);
    for (const [key, value] of Object.entries(change)) {
      if (value === null) params.delete(key);
      else params.set(key, value);
    }
    const search = params.toString();
    return search ? `${location.pathname}?${search}` : location.pathname;
  };
}
