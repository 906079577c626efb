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
