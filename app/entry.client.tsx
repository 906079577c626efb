import { RemixBrowser } from "@remix-run/react";
import i18next from "i18next";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { I18nextProvider, initReactI18next } from "react-i18next";
import { fallbackLanguage, i18nConfig, isLanguage, NAMESPACES_META } from "./i18n";
import { chunkBackend } from "./i18n.client";

async function hydrate() {
  const htmlLang = document.documentElement.lang;
  const lng = isLanguage(htmlLang) ? htmlLang : fallbackLanguage;
  // Only the namespaces this page renders (the root lists them); a page met later loads its own.
  const listed = document.querySelector<HTMLMetaElement>(`meta[name="${NAMESPACES_META}"]`)?.content;
  const ns = listed ? listed.split(",") : ["common"];
  await i18next
    .use(initReactI18next)
    .use(chunkBackend)
    .init({
      ...i18nConfig,
      lng,
      ns,
      // The server renders with every namespace; the browser fetches the UI language's own (the locale files hold the same keys).
      fallbackLng: false,
      partialBundledLanguages: true,
      // A namespace not loaded yet suspends the component: navigations are transitions, so the previous page
      // stays until the texts are there (never a flash of keys).
      react: { useSuspense: true },
    });

  startTransition(() => {
    hydrateRoot(
      document,
      <I18nextProvider i18n={i18next}>
        <StrictMode>
          <RemixBrowser />
        </StrictMode>
      </I18nextProvider>,
    );
  });
}

void hydrate();
