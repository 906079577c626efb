import fs from "node:fs";
import path from "node:path";
import { createInstance, type Resource } from "i18next";
import { beforeAll, describe, expect, it } from "vitest";
import { i18nConfig, supportedLanguages } from "~/i18n";
import { translate, type Store } from "~/translate";
import { Translations } from "~/translations";
import { loadLocale } from "./helpers/locale-files";

// The pages render with app/translate.ts (decision 015); the server's loaders and mails with i18next (remix-i18next).
// Both must give the same text for every key of every file, in both languages, with and without a count.
const resources: Resource = {};
for (const lng of supportedLanguages) {
  resources[lng] = {};
  for (const file of fs.readdirSync(path.resolve("locales", lng))) {
    resources[lng][file.replace(/\.json$/, "")] = JSON.parse(fs.readFileSync(path.resolve("locales", lng, file), "utf8"));
  }
}
const store = resources as Store;
const i18n = createInstance();

beforeAll(async () => {
  await i18n.init({ ...i18nConfig, ns: Object.keys(resources.en), resources, lng: "en" });
});

/** The keys as components ask for them: plural forms by their base key. */
function keysOf(lng: string): string[] {
  return [...new Set(Object.keys(loadLocale(lng)).map((k) => k.replace(/_(zero|one|two|few|many|other)$/, "")))];
}

function valuesFor(text: string): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [, name] of text.matchAll(/\{\{\s*([\w.-]+)\s*\}\}/g)) values[name] = `<${name}>`;
  return values;
}

describe("the page translator gives i18next's text", () => {
  for (const lng of supportedLanguages) {
    it(`every key of ${lng}, with its values and with counts 0, 1, 2, 21`, () => {
      const t = i18n.getFixedT(lng);
      const texts = loadLocale(lng);
      let compared = 0;
      for (const key of keysOf(lng)) {
        const sample = texts[key] ?? texts[`${key}_other`] ?? "";
        const values = valuesFor(sample);
        expect(translate(store, [lng, "en"], "common", key, values), key).toBe(t(key, values));
        for (const count of [0, 1, 2, 21]) {
          expect(translate(store, [lng, "en"], "common", key, { ...values, count }), `${key} count ${count}`).toBe(t(key, { ...values, count }));
        }
        compared++;
      }
      expect(compared).toBeGreaterThan(500);
    });
  }

  it("a key without a namespace is looked up in the given one", () => {
    expect(translate(store, ["no", "en"], "nav", "groups.suppliers")).toBe(i18n.getFixedT("no", "nav")("groups.suppliers"));
  });

  it("a missing text shows the default value, else the key (as i18next does)", () => {
    const t = i18n.getFixedT("en");
    expect(translate(store, ["en"], "casefiles", "status.Unheard", { defaultValue: "Unheard" })).toBe(
      t("casefiles:status.Unheard", { defaultValue: "Unheard" }),
    );
    expect(translate(store, ["en"], "common", "common:no.such.key")).toBe(t("common:no.such.key"));
  });

  it("falls back to English where the UI language lacks a text", () => {
    const partial: Store = { en: { common: { only: "English only" } }, no: { common: {} } };
    expect(translate(partial, ["no", "en"], "common", "only")).toBe("English only");
  });
});

describe("Translations (the browser's loader)", () => {
  it("loads a namespace once, and switches language only when the namespaces in use are there", async () => {
    const loads: string[] = [];
    const translations = new Translations({
      language: "en",
      store: {},
      load: async (lng, ns) => {
        loads.push(`${lng}/${ns}`);
        return store[lng][ns];
      },
    });
    await Promise.all([translations.ensure("en", "nav"), translations.ensure("en", "nav")]);
    expect(loads).toEqual(["en/nav"]);
    expect(translations.t("nav", "groups.suppliers")).toBe(translate(store, ["en"], "nav", "groups.suppliers"));
    let notified = 0;
    translations.subscribe(() => notified++);
    await translations.changeLanguage("no");
    expect(loads).toEqual(["en/nav", "no/nav"]);
    expect(translations.language).toBe("no");
    expect(notified).toBe(1);
    expect(translations.t("nav", "groups.suppliers")).toBe(translate(store, ["no"], "nav", "groups.suppliers"));
    await translations.changeLanguage("xx");
    expect(translations.language).toBe("no");
  });
});
