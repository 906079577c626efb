/**
 * i18next settings shared by the server and the browser. Namespaces are the
 * files in locales/{lng}/ (one per area); both sides list them from the files.
 */
export const supportedLanguages = ["en", "no"] as const;
export type Language = (typeof supportedLanguages)[number];
export const fallbackLanguage: Language = "en";

export const i18nConfig = {
  supportedLngs: [...supportedLanguages],
  fallbackLng: fallbackLanguage,
  defaultNS: "common",
  interpolation: { escapeValue: false },
  react: { useSuspense: false },
};

export function isLanguage(value: unknown): value is Language {
  return value === "en" || value === "no";
}

/** The UI language from i18next's language ('en' | 'no'), English for anything else. */
export function uiLanguage(language: string | undefined): Language {
  return isLanguage(language) ? language : "en";
}

/**
 * What a route module may say about itself in `export const handle`:
 * - `i18n`: the translation namespaces it renders (besides the root's own), loaded before it shows;
 * - `scripts: false`: a respondent page — the document ships no script at all (no `<Scripts/>`).
 */
export interface RouteHandle {
  i18n?: readonly string[];
  scripts?: false;
}

/** Whether the matched routes let the document load scripts (a respondent page anywhere in the match says no). */
export function shipsScripts(matches: ReadonlyArray<{ handle?: unknown }>): boolean {
  return !matches.some((match) => (match.handle as RouteHandle | undefined)?.scripts === false);
}

/** What the root renders itself, from its loader data and the URL's dialog state. */
export interface RootRendering {
  signedIn: boolean;
  searchParams: URLSearchParams;
}

/**
 * The translation namespaces a page renders, so the browser loads only those (the server renders with all):
 * the root's own (the shell; for a signed-in user the side navigation and the search; the person dialog, the
 * credit dialog, the LEI dialog and the files panel only while the URL opens them) and every matched route's `handle.i18n`.
 * The credit terms are never among them: the credit dialog's loader sends the terms' text with its data.
 */
export function pageNamespaces(matches: ReadonlyArray<{ handle?: unknown }>, root: RootRendering): string[] {
  const namespaces = new Set(["common"]);
  if (root.signedIn) {
    // "chat": the assistant's floating button (its panel's texts are in the same small file).
    namespaces.add("nav").add("search").add("chat");
    if (root.searchParams.has("person")) namespaces.add("people");
    if (root.searchParams.get("dialog") === "credit") namespaces.add("credit");
    if (root.searchParams.get("dialog") === "lei") namespaces.add("lei");
    if (root.searchParams.get("panel") === "files") namespaces.add("files");
    if (root.searchParams.get("panel") === "notifications") namespaces.add("notifications");
  }
  for (const match of matches) for (const ns of (match.handle as RouteHandle | undefined)?.i18n ?? []) namespaces.add(ns);
  return [...namespaces].sort();
}

/** The name of the `<meta>` in which the root lists the namespaces the page renders (the browser reads it before hydrating). */
export const NAMESPACES_META = "i18n-namespaces";
