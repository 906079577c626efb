import { createContext, useCallback, useContext, useMemo, useSyncExternalStore } from "react";
import { fallbackLanguage, isLanguage, type Language } from "./i18n";
import { translate, type Store, type TranslateOptions } from "./translate";

/**
 * The texts of a page, for React (decision 015). The server renders with every namespace of both languages; the
 * browser starts with the namespaces the page lists (`<meta name="i18n-namespaces">`) and loads another one the first
 * time a component asks for it: the component suspends meanwhile, and navigations are transitions, so the previous
 * page stays until the texts are there (never a flash of keys).
 */
export class Translations {
  language: Language;
  private readonly store: Store;
  private readonly load?: (lng: Language, ns: string) => Promise<unknown>;
  private readonly pending = new Map<string, Promise<void>>();
  private readonly used = new Set<string>();
  private readonly listeners = new Set<() => void>();
  /** English is the fallback on the server, which has every file; the browser loads the UI language's own (same keys). */
  private readonly fallback: boolean;

  constructor(options: { language: Language; store: Store; load?: (lng: Language, ns: string) => Promise<unknown> }) {
    this.language = options.language;
    this.store = options.store;
    this.load = options.load;
    this.fallback = !options.load;
  }

  has(lng: Language, ns: string): boolean {
    return Boolean(this.store[lng]?.[ns]);
  }

  /** Loads a namespace of a language once (the browser); resolved at once when it is there. */
  ensure(lng: Language, ns: string): Promise<void> {
    this.used.add(ns);
    if (this.has(lng, ns) || !this.load) return Promise.resolve();
    const id = `${lng}/${ns}`;
    let promise = this.pending.get(id);
    if (!promise) {
      promise = this.load(lng, ns).then((content) => {
        (this.store[lng] ??= {})[ns] = content;
        this.pending.delete(id);
      });
      this.pending.set(id, promise);
    }
    return promise;
  }

  t(ns: string, key: string, options?: TranslateOptions): string {
    const languages = this.fallback && this.language !== fallbackLanguage ? [this.language, fallbackLanguage] : [this.language];
    return translate(this.store, languages, ns, key, options);
  }

  /** Switches the language once the namespaces in use are there in the new one. */
  async changeLanguage(lng: string): Promise<void> {
    if (!isLanguage(lng) || lng === this.language) return;
    await Promise.all([...this.used].map((ns) => this.ensure(lng, ns)));
    this.language = lng;
    for (const listener of this.listeners) listener();
  }

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
}

const TranslationsContext = createContext<Translations | null>(null);
export const TranslationsProvider = TranslationsContext.Provider;

export type TFunction = (key: string, options?: TranslateOptions) => string;

/**
 * The texts of one or more namespaces (the first is the default; others by `ns:key`), and the UI language. Same
 * shape as react-i18next's hook, which the components were written against.
 */
export function useTranslation(namespaces: string | readonly string[] = "common"): {
  t: TFunction;
  i18n: { language: Language; changeLanguage: (lng: string) => Promise<void> };
} {
  const translations = useContext(TranslationsContext);
  if (!translations) throw new Error("useTranslation outside a TranslationsProvider");
  const list = typeof namespaces === "string" ? [namespaces] : namespaces;
  const language = useSyncExternalStore(
    translations.subscribe,
    () => translations.language,
    () => translations.language,
  );
  const missing = list.filter((ns) => !translations.has(language, ns));
  // Suspends until the namespaces are loaded (React retries the render when the promise settles).
  if (missing.length) throw Promise.all(missing.map((ns) => translations.ensure(language, ns)));
  for (const ns of list) translations.ensure(language, ns);
  const ns = list[0];
  const key = list.join(",");
  // eslint-disable-next-line react-hooks/exhaustive-deps -- `key` stands for the namespaces; `language` makes a new t after a switch
  const t = useCallback<TFunction>((k, options) => translations.t(ns, k, options), [translations, key, language]);
  return useMemo(() => ({ t, i18n: { language, changeLanguage: (lng: string) => translations.changeLanguage(lng) } }), [t, language, translations]);
}
