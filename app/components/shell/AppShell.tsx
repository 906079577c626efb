import { Link, useLocation, useSearchParams } from "@remix-run/react";
import { useCallback, useState } from "react";
import { useTranslation } from "~/translations";
import { CreditDialog, type CreditDialogData } from "~/components/credit/CreditDialog";
import { FilesPanel } from "~/components/files/FilesPanel";
import { PersonModal, type PersonDialogData } from "~/components/person/PersonModal";
import type { Language } from "~/i18n";
import { LanguageSwitch } from "./LanguageSwitch";
import { hidesShell, navGroupsFor } from "./nav-items";
import { DRAWER_PARAM, NavDrawer, SideNav } from "./SideNav";
import { TopBar, type ShellUser } from "./TopBar";
import { Dialog } from "~/components/ui/Dialog";

export function AppShell({
  user,
  navExpanded,
  notice,
  pathname,
  personDialog,
  creditDialog,
  children,
}: {
  user: ShellUser & { searchEnabled: boolean };
  navExpanded: boolean;
  notice: string | null;
  pathname: string;
  personDialog: PersonDialogData | null;
  creditDialog: CreditDialogData | null;
  children: React.ReactNode;
}) {
  const drawer = useDrawer();
  if (hidesShell(pathname)) {
    return (
      <main id="main" className="min-h-screen bg-base-100">
        {children}
      </main>
    );
  }
  return (
    <div className="flex min-h-screen flex-col">
      <SkipLink />
      <TopBar user={user} searchEnabled={user.searchEnabled} drawerHref={drawer.openHref} onOpenDrawer={drawer.openHere} />
      <div className="flex flex-1">
        <SideNav groups={navGroupsFor(user)} expanded={navExpanded} />
        <main id="main" className="min-w-0 flex-1 px-3 py-4 sm:p-6">
          <Notice notice={notice} />
          {children}
        </main>
      </div>
      {drawer.open ? <NavDrawer groups={navGroupsFor(user)} closeHref={drawer.closeHref} onClose={drawer.here ? drawer.close : null} /> : null}
      <PanelSlot creditDialogOpen={creditDialog != null} />
      {personDialog ? <PersonModal dialog={personDialog} /> : null}
      {creditDialog ? <CreditDialog dialog={creditDialog} /> : null}
    </div>
  );
}

/**
 * The navigation drawer's state: `?nav=open` in the URL (links, without
 * JavaScript) or, once JavaScript runs, opened in place (`here`) so the
 * page's data is not loaded again.
 */
function useDrawer() {
  const [params] = useSearchParams();
  const location = useLocation();
  const [here, setHere] = useState(false);
  const inUrl = params.get(DRAWER_PARAM) === "open";
  const without = new URLSearchParams(params);
  without.delete(DRAWER_PARAM);
  const closeHref = location.pathname + (without.size ? `?${without}` : "");
  const withIt = new URLSearchParams(without);
  withIt.set(DRAWER_PARAM, "open");
  const close = useCallback(() => setHere(false), []);
  const openHere = useCallback(() => setHere(true), []);
  return { open: inUrl || here, here, closeHref, openHref: `${location.pathname}?${withIt}`, close, openHere };
}

/** Visitors: a slim header with the product name and the language choice. */
export function PublicShell({ locale, notice, children }: { locale: Language; notice: string | null; children: React.ReactNode }) {
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

function SkipLink() {
  const { t } = useTranslation();
  return (
    <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:btn focus:btn-sm">
      {t("skipToContent")}
    </a>
  );
}

/** A one-time notice from the flash cookie; its value is an i18n key. */
function Notice({ notice }: { notice: string | null }) {
  const { t } = useTranslation();
  if (!notice) return null;
  return (
    <div role="status" className="alert alert-success mx-auto mb-4 max-w-3xl">
      {t(notice)}
    </div>
  );
}

/**
 * Slide-over panels and dialogs opened from the top bar are URL state
 * (?panel=files, ?panel=notifications, ?dialog=credit, ?dialog=lei). Their
 * content comes with the files, notifications, credit-report and LEI issues;
 * until then the slot says so. Scaffolding, not a feature.
 */
function PanelSlot({ creditDialogOpen }: { creditDialogOpen: boolean }) {
  const [params] = useSearchParams();
  const location = useLocation();
  const { t } = useTranslation();
  const panel = params.get("panel");
  const dialog = params.get("dialog");
  const key = panel === "files" || panel === "notifications" ? panel : (dialog === "credit" && !creditDialogOpen) || dialog === "lei" ? dialog : null;
  if (!key) return null;
  const closeParams = new URLSearchParams(params);
  closeParams.delete(panel ? "panel" : "dialog");
  const closeTo = location.pathname + (closeParams.size ? `?${closeParams}` : "");
  const title = { files: t("topBar.files"), notifications: t("topBar.notifications"), credit: t("search:creditHint"), lei: t("search:leiHint") }[key];
  return (
    <Dialog variant="slide-over" title={title} closeHref={closeTo}>
      {key === "files" ? <FilesPanel /> : <p className="text-base-content/70">{t("scaffold.notAvailable")}</p>}
    </Dialog>
  );
}
