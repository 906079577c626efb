/** i18next settings shared by the server and the browser. */
export const supportedLanguages = ["en", "no"] as const;
export type Language = (typeof supportedLanguages)[number];
export const fallbackLanguage: Language = "en";
export const namespaces = ["common", "auth", "nav"] as const;

export const i18nConfig = {
  supportedLngs: [...supportedLanguages],
  fallbackLng: fallbackLanguage,
  defaultNS: "common",
  ns: [...namespaces],
  interpolation: { escapeValue: false },
  react: { useSuspense: false },
};

export function isLanguage(value: unknown): value is Language {
  return value === "en" || value === "no";
}
