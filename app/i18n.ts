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
