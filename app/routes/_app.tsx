// First: zod's setting the Content-Security-Policy needs, before a form of the signed-in screens parses anything.
import "~/components/shell/csp";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Outlet, useLocation, useRouteLoaderData } from "@remix-run/react";
import { Suspense } from "react";
import { AppShell } from "~/components/shell/AppShell";
import { GeneralErrorBoundary } from "~/components/ui/GeneralErrorBoundary";
import { PageHydrated } from "~/components/ui/PageHydrated";
import { titleMeta } from "~/components/ui/meta";
import { PageTexts } from "~/components/ui/PageTexts";
import { getUser, requireUser } from "~/http/auth.server";
import { parseId } from "~/http/parse.server";
import { can, isPublicPath } from "~/models/accounts/permissions";
import { defaultProviderName } from "~/models/assistant/conversations.server";
import { loadCreditDialog } from "~/models/credit/credit-dialog.server";
import { loadLeiDialog } from "~/models/registry/lei-dialog.server";
import { unreadCount } from "~/models/notifications/notification-list.server";
import { loadNotificationsPanel, type NotificationsPanelData } from "~/models/notifications/notifications-panel.server";
import { readPanelQuery } from "~/models/notifications/notifications";
import { loadPersonDialog } from "~/models/registry/person-dialog.server";
import { useRootData } from "~/root";

/**
 * The signed-in application's frame (decision 015): the top bar, the side navigation, the search, and the dialogs
 * that are URL state on any page. A layout route, so their code and data reach only the signed-in screens — the
 * sign-in pages and the respondent pages never download it.
 */
/** The signed-in frame has no title of its own; when a screen inside it fails, its error page is titled from the error. */
export const meta = titleMeta;

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  // A visitor may open any path containing /public (shared/spec/01-shell-chat-lei.md §6): one that no public page
  // claims ends here, in the signed-in frame's catch-all, and is a 404 for them, not a redirect to the start page.
  if (url.pathname.includes("/public") && isPublicPath(url.pathname) && !(await getUser(request))) {
    throw new Response("Not Found", { status: 404, statusText: url.pathname });
  }
  const user = await requireUser(request, "signedIn");
  // The person dialog is URL state on any page (opened from search, boards, shareholders).
  const personId = parseId(url.searchParams.get("person"));
  const level2 = can(user, "registryRead");
  const notificationsAllowed = can(user, "notificationsRead") && user.organizationId != null;
  const orgUser = notificationsAllowed ? { ...user, organizationId: user.organizationId!, organizationName: user.organizationName ?? "" } : null;
  const [personDialog, creditDialog, leiDialog, unread, panel] = await Promise.all([
    level2 && personId ? loadPersonDialog(personId, url.searchParams.get("personTab")) : null,
    // The credit report order dialog is URL state on any page too (search dropdown, supplier screen).
    level2 && url.searchParams.get("dialog") === "credit" ? loadCreditDialog(url, user) : null,
    // And the LEI search dialog (the search dropdown's LEI button, the supplier screen's LEI).
    level2 && url.searchParams.get("dialog") === "lei" ? loadLeiDialog(url) : null,
    // The bell's unread count, and the notifications panel when the URL opens it (without JavaScript, or on reload).
    orgUser ? unreadCount({ userId: orgUser.id, organizationId: orgUser.organizationId, language: orgUser.language }) : null,
    url.searchParams.get("panel") === "notifications"
      ? orgUser
        ? loadNotificationsPanel(readPanelQuery(url.searchParams), { userId: orgUser.id, organizationId: orgUser.organizationId, language: orgUser.language })
        : Promise.resolve<NotificationsPanelData>(NO_NOTIFICATIONS)
      : null,
  ]);
  const assistant = can(user, "assistantUse") ? { provider: defaultProviderName() } : null;
  return json({ personDialog, creditDialog, leiDialog, notifications: { unread, panel }, assistant });
}

/** The panel of a user whose access does not cover notifications (shared/spec/01-shell-chat-lei.md §2.2 shows the bell to every user with an email). */
const NO_NOTIFICATIONS: NotificationsPanelData = {
  filters: { minRiskScore: "", lookbackDays: "", type: "all" },
  error: null,
  items: [],
  offset: 0,
  showMore: false,
  allowed: false,
};

function Frame({ children, dialogs }: { children: React.ReactNode; dialogs: boolean }) {
  const root = useRootData();
  // Undefined in the error boundary when this loader failed.
  const data = useRouteLoaderData<typeof loader>("routes/_app");
  const location = useLocation();
  // The root's loader ran (it lets only signed-in users reach this layout).
  if (!root?.user) return <main id="main">{children}</main>;
  return (
    <AppShell
      user={root.user}
      navExpanded={root.navExpanded}
      notice={root.notice}
      pathname={location.pathname}
      personDialog={dialogs ? (data?.personDialog ?? null) : null}
      creditDialog={dialogs ? (data?.creditDialog ?? null) : null}
      leiDialog={dialogs ? (data?.leiDialog ?? null) : null}
      notifications={{ unread: data?.notifications.unread ?? null, panel: dialogs ? (data?.notifications.panel ?? null) : null }}
      assistant={data?.assistant ?? null}
    >
      {children}
    </AppShell>
  );
}

export default function SignedInLayout() {
  return (
    <Frame dialogs>
      {/* A screen whose texts are not loaded yet waits here (navigations keep the previous screen meanwhile). */}
      <Suspense>
        <PageTexts signedIn />
        <Outlet />
        <PageHydrated />
      </Suspense>
    </Frame>
  );
}

/** The layout's own loader failed: the frame without its dialogs, and the error explained. */
export function ErrorBoundary() {
  return (
    <Frame dialogs={false}>
      <GeneralErrorBoundary />
    </Frame>
  );
}
