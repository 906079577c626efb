import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { fallbackLanguage, isLanguage, NAMESPACES_META } from "./i18n";
import { loadNamespace } from "./i18n.client";
import { Translations, TranslationsProvider } from "./translations";

async function hydrate() {
  const htmlLang = document.documentElement.lang;
  const language = isLanguage(htmlLang) ? htmlLang : fallbackLanguage;
  const translations = new Translations({ language, store: {}, load: loadNamespace });
  // Only the namespaces this page renders (the root lists them); a page met later loads its own.
  const listed = document.querySelector<HTMLMetaElement>(`meta[name="${NAMESPACES_META}"]`)?.content;
  await Promise.all((listed ? listed.split(",") : ["common"]).map((ns) => translations.ensure(language, ns)));

  startTransition(() => {
    hydrateRoot(
      document,
      <TranslationsProvider value={translations}>
        <StrictMode>
          <RemixBrowser />
        </StrictMode>
      </TranslationsProvider>,
    );
  });
}

void hydrate();
