import { useLocation } from "@remix-run/react";
import { useMemo } from "react";

/**
 * The LEI dialog's URL parameters (shared/spec/01-shell-chat-lei.md §2.7; URL state on any page, like the credit dialog):
 *
 *   dialog=lei      open
 *   leiq={text}     the search (a name or an LEI)
 *   lei={LEI}       the record shown
 *   children=1      its direct children loaded ("Load child entities")
 *
 * Links inside the dialog replace all of them and keep the page's own; closing drops every one, which clears
 * the search, the record, its parent and its children.
 */
export const LEI_DIALOG_PARAMS = ["dialog", "leiq", "lei", "children"] as const;
export interface LeiDialogState {
  q?: string | null;
  lei?: string | null;
  children?: boolean;
}

/** A page's search without the dialog's parameters. */
export function leiPageParams(search: string | URLSearchParams): URLSearchParams {
  const params = new URLSearchParams(search);
  for (const key of LEI_DIALOG_PARAMS) params.delete(key);
  return params;
}

/** The page (path + its own search) with the dialog open in this state, or closed (null). */
export function leiHref(pathname: string, search: string | URLSearchParams, state: LeiDialogState | null): string {
  const params = leiPageParams(search);
  if (state) {
    params.set("dialog", "lei");
    if (state.q) params.set("leiq", state.q);
    if (state.lei) params.set("lei", state.lei);
    if (state.children) params.set("children", "1");
  }
  const query = params.toString();
  return query ? `${pathname}?${query}` : pathname;
}

/** Links of the dialog on the current page. */
export function useLeiLinks() {
  const { pathname, search } = useLocation();
  return useMemo(
    () => ({
      pathname,
      href: (state: LeiDialogState) => leiHref(pathname, search, state),
      closeHref: leiHref(pathname, search, null),
      /** The page's own parameters, kept as hidden fields by the dialog's GET search form. */
      pageFields: [...leiPageParams(search).entries()],
    }),
    [pathname, search],
  );
}
