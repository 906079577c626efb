import type { Language } from "./i18n";

// One chunk per language file: the browser loads a namespace of one language only when a page renders it.
const loaders = import.meta.glob<unknown>("../locales/*/*.json", { import: "default" });

export function loadNamespace(lng: Language, ns: string): Promise<unknown> {
  const load = loaders[`../locales/${lng}/${ns}.json`];
  return load ? load() : Promise.reject(new Error(`No translations for ${lng}/${ns}`));
}
