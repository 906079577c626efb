import { RemixI18Next } from "remix-i18next/server";
import type { Resource } from "i18next";
import { languageCookie } from "@server/cookies";
import { getUser } from "~/http/auth.server";
import { fallbackLanguage, i18nConfig, isLanguage, supportedLanguages, type Language } from "~/i18n";

const files = import.meta.glob<Record<string, unknown>>("../locales/*/*.json", { eager: true, import: "default" });

/** Every namespace of every language, for server rendering. */
export const resources: Resource = {};
for (const [file, content] of Object.entries(files)) {
  const match = file.match(/locales\/(\w+)\/(\w+)\.json$/);
  if (!match) continue;
  const [, lng, ns] = match;
  resources[lng] ??= {};
  resources[lng][ns] = content;
}

/**
 * The language of a request: the signed-in user's setting; for a visitor the
 * language they chose (cookie), else their browser's preference; else English.
 */
export async function resolveLanguage(request: Request): Promise<Language> {
  const user = await getUser(request);
  if (user) return user.language;
  const chosen = await languageCookie.parse(request.headers.get("Cookie"));
  if (isLanguage(chosen)) return chosen;
  const accept = request.headers.get("Accept-Language") ?? "";
  for (const part of accept.split(",")) {
    const tag = part.split(";")[0].trim().toLowerCase();
    if (tag.startsWith("nb") || tag.startsWith("nn") || tag.startsWith("no")) return "no";
    if (tag.startsWith("en")) return "en";
  }
  return fallbackLanguage;
}

const remixI18next = new RemixI18Next({
  detection: {
    supportedLanguages: [...supportedLanguages],
    fallbackLanguage,
    findLocale: resolveLanguage,
  },
  i18next: { ...i18nConfig, ns: Object.keys(resources[fallbackLanguage] ?? {}), resources },
});

export default remixI18next;
