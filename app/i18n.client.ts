import type { BackendModule, ResourceKey } from "i18next";
import type { Language } from "./i18n";

// One chunk per language file: the browser loads a namespace of one language only when a page renders it.
const loaders = import.meta.glob<ResourceKey>("../locales/*/*.json", { import: "default" });

export function loadNamespace(lng: Language, ns: string): Promise<ResourceKey> {
  const load = loaders[`../locales/${lng}/${ns}.json`];
  return load ? load() : Promise.reject(new Error(`No translations for ${lng}/${ns}`));
}

/** The i18next backend of the browser: namespaces come from the chunks above, on demand (page load, navigation, language change). */
export const chunkBackend: BackendModule = {
  type: "backend",
  init() {},
  read(lng, ns, callback) {
    loadNamespace(lng as Language, ns).then(
      (data) => callback(null, data),
      (error: Error) => callback(error, false),
    );
  },
};
