import { Link } from "@remix-run/react";
import type { Language } from "~/i18n";
import { useTranslation } from "~/translations";
import { Notice, SkipLink, type ShellNotice } from "./frame";
import { LanguageSwitch } from "./LanguageSwitch";

/** Visitors: a slim header with the product name and the language choice. */
export function PublicShell({ locale, notice, children }: { locale: Language; notice: ShellNotice | null; children: React.ReactNode }) {
  const { t } = useTranslation();
  return (
    <div className="flex min-h-screen flex-col">
      <SkipLink />
      <header className="flex h-14 items-center justify-between border-b border-base-300 bg-base-100 px-4">
        <Link to="/" className="flex items-center gap-2 font-semibold">
          <img src="/favicon.svg" alt="" className="size-6" />
          {t("appName")}
        </Link>
        <LanguageSwitch current={locale} />
      </header>
      <main id="main" className="flex-1 px-4 py-8">
        <Notice notice={notice} />
        {children}
      </main>
      <footer className="border-t border-base-300 bg-base-100 px-4 py-4 text-xs text-base-content/70">{t("footer.attribution")}</footer>
    </div>
  );
}
