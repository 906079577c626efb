import { useLocation, useSearchParams } from "@remix-run/react";
import { lazy, Suspense, useCallback, useEffect, useState } from "react";
import { useTranslation } from "~/translations";
import type { CreditDialogData } from "~/components/credit/CreditDialog";
import type { PersonDialogData } from "~/components/person/PersonModal";
import type { LeiDialogData } from "~/models/registry/lei-dialog.server";
import type { NotificationsPanelData } from "~/models/notifications/notifications-panel.server";
import { Notice, SkipLink, type ShellNotice } from "./frame";
import { hidesShell, navGroupsFor } from "./nav-items";
import { DRAWER_PARAM, NavDrawer, SideNav } from "./SideNav";
import { TopBar, type ShellUser } from "./TopBar";
import { Dialog } from "~/components/ui/Dialog";
import { ChatLauncher } from "~/components/chat/ChatLauncher";

/*
 * The dialogs and panels the URL opens on any page are loaded when they open (decision 015): most pages never show
 * them, and they carry the forms' code (Conform, zod). The server renders them whole (entry.server waits for every
 * part); in the browser the server's markup stays until their code is there.
 */
const PersonModal = lazy(() => import("~/components/person/PersonModal").then((m) => ({ default: m.PersonModal })));
const CreditDialog = lazy(() => import("~/components/credit/CreditDialog").then((m) => ({ default: m.CreditDialog })));
const LeiDialog = lazy(() => import("~/components/lei/LeiDialog").then((m) => ({ default: m.LeiDialog })));
const NotificationsPanel = lazy(() => import("~/components/notifications/NotificationsPanel").then((m) => ({ default: m.NotificationsPanel })));
const FilesPanel = lazy(() => import("~/components/files/FilesPanel").then((m) => ({ default: m.FilesPanel })));

export function AppShell({
  user,
  navExpanded,
  notice,
  pathname,
  personDialog,
  creditDialog,
  leiDialog,
  notifications,
  assistant = null,
  children,
}: {
  user: ShellUser & { searchEnabled: boolean };
  navExpanded: boolean;
  notice: ShellNotice | null;
  pathname: string;
  personDialog: PersonDialogData | null;
  creditDialog: CreditDialogData | null;
  leiDialog: LeiDialogData | null;
  /** The bell's unread count and, when the URL opens the panel, its server-rendered list. */
  notifications: { unread: number | null; panel: NotificationsPanelData | null };
  /** The AI assistant's floating button, for users who may use it (decision 027): the provider it asks. */
  assistant?: { provider: string } | null;
  children: React.ReactNode;
}) {
  const drawer = useDrawer();
  const notificationsPanel = usePanelHere("notifications");
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
      <TopBar
        user={user}
        searchEnabled={user.searchEnabled}
        drawerHref={drawer.openHref}
        onOpenDrawer={drawer.openHere}
        unreadNotifications={notifications.unread}
        onOpenNotifications={notificationsPanel.openHere}
      />
      <div className="flex flex-1">
        <SideNav groups={navGroupsFor(user)} expanded={navExpanded} />
        <main id="main" className="min-w-0 flex-1 px-3 py-4 sm:p-6">
          <Notice notice={notice} />
          {children}
        </main>
      </div>
      {drawer.open ? <NavDrawer groups={navGroupsFor(user)} closeHref={drawer.closeHref} onClose={drawer.here ? drawer.close : null} /> : null}
      {assistant ? <ChatLauncher provider={assistant.provider} /> : null}
      <PanelSlot creditDialogOpen={creditDialog != null} />
      <Suspense>
        {personDialog ? <PersonModal dialog={personDialog} /> : null}
        {creditDialog ? <CreditDialog dialog={creditDialog} /> : null}
        {/* A new URL state of the dialog (another record, a search from a link) starts it afresh. */}
        {leiDialog ? <LeiDialog key={leiDialogKey(leiDialog)} dialog={leiDialog} /> : null}
        {notificationsPanel.open ? (
          <NotificationsPanel
            key={notificationsPanel.here ? "here" : JSON.stringify(notifications.panel)}
            data={notificationsPanel.here ? null : notifications.panel}
            allowed={notificationsPanel.here ? notifications.unread !== null : notifications.panel?.allowed !== false}
            onClose={notificationsPanel.here ? notificationsPanel.close : null}
          />
        ) : null}
      </Suspense>
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

/**
 * A panel of the top bar that is URL state (`?panel={name}`, without JavaScript or on reload) or, with JavaScript,
 * opened in place (`here`) so that the page's data is not loaded again. Moving to another page closes it.
 */
function usePanelHere(name: string) {
  const [params] = useSearchParams();
  const location = useLocation();
  const [here, setHere] = useState(false);
  useEffect(() => setHere(false), [location.key]);
  const close = useCallback(() => setHere(false), []);
  const openHere = useCallback(() => setHere(true), []);
  return { open: here || params.get("panel") === name, here, close, openHere };
}

/**
 * Slide-over panels and dialogs opened from the top bar are URL state
 * (?panel=files, ?dialog=credit). Their
 * content comes with the files and credit-report issues;
 * until then the slot says so. Scaffolding, not a feature.
 */
function PanelSlot({ creditDialogOpen }: { creditDialogOpen: boolean }) {
  const [params] = useSearchParams();
  const location = useLocation();
  const { t } = useTranslation();
  const panel = params.get("panel");
  const dialog = params.get("dialog");
  // The LEI dialog needs level 2 (the search box's level): below it, ?dialog=lei opens nothing.
  const key = panel === "files" ? panel : dialog === "credit" && !creditDialogOpen ? dialog : null;
  if (!key) return null;
  const closeParams = new URLSearchParams(params);
  closeParams.delete(panel ? "panel" : "dialog");
  const closeTo = location.pathname + (closeParams.size ? `?${closeParams}` : "");
  const title = { files: t("topBar.files"), credit: t("search:creditHint") }[key];
  return (
    <Dialog variant="slide-over" title={title} closeHref={closeTo}>
      {key === "files" ? (
        <Suspense>
          <FilesPanel />
        </Suspense>
      ) : (
        <p className="text-base-content/70">{t("scaffold.notAvailable")}</p>
      )}
    </Dialog>
  );
}

function leiDialogKey(dialog: LeiDialogData): string {
  return JSON.stringify([dialog.q, dialog.searched, dialog.record?.lei ?? null, dialog.recordMissing, dialog.children?.length ?? null]);
}
