import { useLocation, useMatches } from "@remix-run/react";
import { pageNamespaces } from "~/i18n";
import { useTranslation } from "~/translations";

/**
 * Waits for the texts a page declares (its routes' `handle.i18n`, and the root's own for the URL) before the page
 * shows: rendered beside the page inside the layout's Suspense boundary, it suspends while a namespace loads, and a
 * navigation, being a transition, keeps the previous page meanwhile. Without it, a page reached by a link rendered
 * the keys of a namespace that only a `t("ns:key")` call named (the full load listed it, a client navigation not).
 */
export function PageTexts({ signedIn }: { signedIn: boolean }) {
  const matches = useMatches();
  const { search } = useLocation();
  useTranslation(pageNamespaces(matches, { signedIn, searchParams: new URLSearchParams(search) }));
  return null;
}
