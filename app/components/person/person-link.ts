import { useLocation } from "@remix-run/react";

/** The person dialog's links (kept apart from the dialog, which the shell loads only when a URL opens it). */

/** The current page's URL without the dialog's parameters: where Back and Close lead. */
export function pageWithoutDialog(pathname: string, search: string): string {
  const params = new URLSearchParams(search);
  params.delete("person");
  params.delete("personTab");
  return params.size ? `${pathname}?${params}` : pathname;
}

export interface OpenedFrom {
  personDialogFrom?: string;
}

/**
 * Links that open the person dialog: the current URL plus `person={id}`.
 * Opened from a page without a dialog, the link remembers that page in the
 * history state, so the dialog's Back can step back in history instead of
 * adding an entry (with JavaScript; without it Back is a plain link).
 */
export function usePersonLink() {
  const location = useLocation();
  return (personId: number) => {
    const params = new URLSearchParams(location.search);
    const fromPage = !params.has("person");
    params.set("person", String(personId));
    params.delete("personTab");
    const state: OpenedFrom | undefined = fromPage ? { personDialogFrom: pageWithoutDialog(location.pathname, location.search) } : undefined;
    return { to: `${location.pathname}?${params}`, state };
  };
}
