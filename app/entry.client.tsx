import { RemixBrowser } from "@remix-run/react";
import i18next from "i18next";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { I18nextProvider, initReactI18next } from "react-i18next";
import { fallbackLanguage, i18nConfig, isLanguage } from "./i18n";
import { loadLanguage } from "./i18n.client";

async function hydrate() {
  const htmlLang = document.documentElement.lang;
  const lng = isLanguage(htmlLang) ? htmlLang : fallbackLanguage;
  const resources = { [lng]: await loadLanguage(lng) };
  if (lng !== fallbackLanguage) resources[fallbackLanguage] = await loadLanguage(fallbackLanguage);
  await i18next.use(initReactI18next).init({ ...i18nConfig, ns: Object.keys(resources[lng]), lng, resources });

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
