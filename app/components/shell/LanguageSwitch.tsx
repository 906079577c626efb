import { useFetcher, useLocation } from "@remix-run/react";
import { useTranslation } from "~/translations";
import { supportedLanguages, type Language } from "~/i18n";

/**
 * English / Norwegian. A plain form post without JavaScript; with it, a
 * fetcher: the server is updated first, then the page follows (root data).
 */
export function LanguageSwitch({ current, onDone }: { current: Language; onDone?: () => void }) {
  const { t } = useTranslation();
  const fetcher = useFetcher();
  const location = useLocation();
  return (
    <fetcher.Form method="post" action="/preferences/language" className="flex gap-1" aria-label={t("language.change")} onSubmit={() => onDone?.()}>
      <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
      {supportedLanguages.map((lng) => (
        <button
          key={lng}
          type="submit"
          name="language"
          value={lng}
          lang={lng}
          aria-pressed={current === lng}
          className={`btn btn-xs ${current === lng ? "btn-primary" : "btn-ghost"}`}
        >
          {t(`language.${lng}`)}
        </button>
      ))}
    </fetcher.Form>
  );
}
