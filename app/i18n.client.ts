import type { ResourceLanguage } from "i18next";
import type { Language } from "./i18n";

// One chunk per language file, so the browser loads only the language in use.
const loaders = import.meta.glob<Record<string, unknown>>("../locales/*/*.json", { import: "default" });

export async function loadLanguage(lng: Language): Promise<ResourceLanguage> {
  const entries = Object.entries(loaders).filter(([file]) => file.includes(`/locales/${lng}/`));
  const bundles = await Promise.all(entries.map(async ([file, load]) => [file.replace(/^.*\/(\w+)\.json$/, "$1"), await load()] as const));
  return Object.fromEntries(bundles);
}
