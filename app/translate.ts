/**
 * The translation engine the pages render with, on the server and in the browser (decision 015). It reads the
 * locale files exactly as i18next does for the features they use — `ns:key` prefixes, nested keys with dots,
 * `{{value}}` interpolation without escaping (React escapes), plurals by `count` through `Intl.PluralRules`
 * (`_one`, `_other`…), `defaultValue`, English as the fallback language — and nothing else, in a few hundred
 * bytes instead of i18next's 14 KB. A test compares it with i18next on every key of every file.
 */

export type Namespaces = Record<string, unknown>;
/** Loaded translations: language → namespace → the file's content. */
export type Store = Record<string, Namespaces>;

export interface TranslateOptions {
  count?: number;
  defaultValue?: string;
  [value: string]: unknown;
}

const pluralRules = new Map<string, Intl.PluralRules>();
function pluralCategory(lng: string, count: number): string {
  let rules = pluralRules.get(lng);
  if (!rules) {
    rules = new Intl.PluralRules(lng);
    pluralRules.set(lng, rules);
  }
  return rules.select(count);
}

function lookup(store: Store, lng: string, ns: string, path: string): string | undefined {
  let node: unknown = store[lng]?.[ns];
  for (const part of path.split(".")) {
    if (node === null || typeof node !== "object") return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return typeof node === "string" ? node : undefined;
}

function interpolate(text: string, options: TranslateOptions | undefined): string {
  if (!options || !text.includes("{{")) return text;
  return text.replace(/\{\{\s*([\w.-]+)\s*\}\}/g, (match, name: string) => {
    const value = options[name];
    return value === undefined || value === null ? match : String(value);
  });
}

/**
 * One text: `key` may carry its namespace (`credit:dialog.title`); otherwise `ns`. Languages are tried in
 * `languages` order (the UI language, then English); a missing text shows `defaultValue` or the key itself.
 */
export function translate(store: Store, languages: readonly string[], ns: string, key: string, options?: TranslateOptions): string {
  const colon = key.indexOf(":");
  const namespace = colon > 0 ? key.slice(0, colon) : ns;
  const path = colon > 0 ? key.slice(colon + 1) : key;
  const count = typeof options?.count === "number" ? options.count : undefined;
  for (const lng of languages) {
    const text =
      (count !== undefined ? lookup(store, lng, namespace, `${path}_${pluralCategory(lng, count)}`) : undefined) ?? lookup(store, lng, namespace, path);
    if (text !== undefined) return interpolate(text, options);
  }
  return interpolate(options?.defaultValue ?? path, options);
}
