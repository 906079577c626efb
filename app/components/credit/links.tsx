import { useLocation } from "@remix-run/react";
import { useMemo } from "react";

/**
 * The credit order dialog's URL parameters (see models/credit/credit-dialog.server.ts
 * for what each means). Links inside the dialog replace all of them and keep
 * the page's own; closing drops every one, which is what resets the dialog.
 */
export const CREDIT_DIALOG_PARAMS = ["dialog", "step", "country", "name", "regNo", "id", "order", "language", "terms", "error"] as const;
export type CreditDialogParam = (typeof CREDIT_DIALOG_PARAMS)[number];
export type CreditParams = Partial<Record<Exclude<CreditDialogParam, "dialog">, string | null | undefined>>;

/** A page's search without the dialog's parameters. */
export function pageParams(search: string | URLSearchParams): URLSearchParams {
  const params = new URLSearchParams(search);
  for (const key of CREDIT_DIALOG_PARAMS) params.delete(key);
  return params;
}

/** The page (path + its own search) with the dialog open in the given state; empty values are left out. */
export function creditHref(pathname: string, search: string | URLSearchParams, state: CreditParams | null): string {
  const params = pageParams(search);
  if (state) {
    params.set("dialog", "credit");
    for (const [key, value] of Object.entries(state)) if (value != null && value !== "") params.set(key, value);
  }
  const query = params.toString();
  return query ? `${pathname}?${query}` : pathname;
}

/** Links of the dialog on the current page. */
export function useCreditLinks() {
  const { pathname, search } = useLocation();
  return useMemo(
    () => ({
      pathname,
      /** The current page with the dialog in another state. */
      href: (state: CreditParams) => creditHref(pathname, search, state),
      /** The page without the dialog: closing resets everything. */
      closeHref: creditHref(pathname, search, null),
      /** The page's own parameters, kept as hidden fields by the dialog's GET form. */
      pageFields: [...pageParams(search).entries()],
      /** The page and dialog as they are now: where the order form returns to. */
      current: `${pathname}${search}`,
    }),
    [pathname, search],
  );
}
