import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData, useLocation } from "@remix-run/react";
import { useTranslation } from "~/translations";
import { AnnouncementList } from "~/components/announcements/AnnouncementList";
import { ActionForm } from "~/components/ui/ActionForm";
import { useListHref } from "~/components/ui/FilterSelect";
import { GeneralErrorBoundary } from "~/components/ui/GeneralErrorBoundary";
import { titleMeta } from "~/components/ui/meta";
import { Pagination } from "~/components/ui/Pagination";
import { requireUser } from "~/http/auth.server";
import { refuseForm } from "~/http/forms.server";
import { redirectWithNotice } from "~/http/notice.server";
import { parseId, readForm } from "~/http/parse.server";
import { safeRedirect } from "~/http/redirect.server";
import { can } from "~/models/accounts/permissions";
import i18nServer from "~/i18n.server";
import { pageWindow } from "~/models/admin/admin";
import {
  countNotifications,
  dismiss,
  listNotifications,
  markRead,
  restore,
  type NotificationListItem,
  type NotificationViewer,
} from "~/models/notifications/notification-list.server";
import { dismissSchema, readSchema, restoreSchema, type NotificationPageQuery } from "~/models/notifications/notification-query";
import { NOTIFICATION_PAGE_SIZE } from "~/models/notifications/notifications";
import { activeAnnouncements } from "~/models/notifications/announcements.server";
import { pageTitle } from "~/models/shared/page-title.server";
import { listTags } from "~/models/suppliers/tags.server";
import { NotificationDismissDialog } from "./notifications-dismiss";
import { NotificationsFilters } from "./notifications-filters";
import { NOTIFICATIONS_INTENT, TRIAGE_INTENTS } from "./notifications-intents";
import { NotificationsList } from "./notifications-items";
import { FILTER_KEYS, filtersOf, parsePageQuery } from "./notifications-page-query";

export const meta = titleMeta;
export const handle = { i18n: ["notifications"] };

/** Marking "all as read" names at most this many (the rest stay for the next time). */
const MARK_ALL_MAX = 10_000;

type Translate = (key: string, options?: Record<string, unknown>) => string;

/**
 * /notifications: the organisation's notifications with the panel's filters and supplier, tag, read and
 * status filters, 25 per page; mark read or unread (per user), mark all as read, dismiss with a reason and restore
 * (for the organisation), CSV export (/notifications.csv with the same filters). Works without JavaScript: the
 * filters are a GET form, every change a POST that comes back here.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request, "notificationsRead");
  const url = new URL(request.url);
  const { raw, parsed } = parsePageQuery(url);
  const viewer = { userId: user.id, organizationId: user.organizationId, language: user.language };
  const [tags, title, announcements] = await Promise.all([
    listTags({ organizationId: user.organizationId }),
    pageTitle(request, "notifications:page.title"),
    activeAnnouncements({ organizationId: user.organizationId }),
  ]);
  const common = { raw, tags, title, announcements, canTriage: can(user, "notificationsTriage"), canManageFeeds: can(user, "newsFeedsManage") };
  if (!parsed.success) {
    const field = String(parsed.error.issues[0]?.path[0] ?? "");
    // A wrong page number (a hand-made link) is page 1; a wrong filter is said next to its field.
    if (field === "page") {
      url.searchParams.delete("page");
      const again = parsePageQuery(url);
      if (again.parsed.success) return json({ ...common, ...(await loadList(viewer, again.parsed.data)), error: null as string | null });
    }
    const empty: ListPage = { items: [], total: 0, page: 1, pageCount: 1, dismissing: null };
    return json({ ...common, ...empty, error: field }, { status: 400 });
  }
  const list = await loadList(viewer, parsed.data);
  const dismissId = parseId(url.searchParams.get("dismiss"));
  list.dismissing = dismissId && common.canTriage ? (list.items.find((n) => n.id === dismissId) ?? null) : null;
  return json({ ...common, ...list, error: null as string | null });
}

interface ListPage {
  items: NotificationListItem[];
  total: number;
  page: number;
  pageCount: number;
  /** The notification the dismiss step (`?dismiss={id}`) is open on. */
  dismissing: NotificationListItem | null;
}

/** One page of the list, by the house's paging: a page past the end shows the last one. */
async function loadList(viewer: NotificationViewer, query: NotificationPageQuery): Promise<ListPage> {
  const filters = filtersOf(query);
  const total = await countNotifications(viewer, filters);
  const { page, pageCount, offset } = pageWindow(total, query.page, NOTIFICATION_PAGE_SIZE);
  const items = await listNotifications(viewer, filters, { limit: NOTIFICATION_PAGE_SIZE, offset });
  return { items, total, page, pageCount, dismissing: null };
}

/** What every change of this screen works with. */
interface Change {
  request: Request;
  formData: FormData;
  t: Translate;
  viewer: NotificationViewer;
  at: string;
}

export async function action({ request }: ActionFunctionArgs) {
  const formData = await readForm(request);
  const intent = formData.get("intent");
  const t = await i18nServer.getFixedT(request, "notifications");
  const user = await requireUser(request, typeof intent === "string" && TRIAGE_INTENTS.includes(intent) ? "notificationsTriage" : "notificationsRead");
  const change: Change = {
    request,
    formData,
    t,
    viewer: { userId: user.id, organizationId: user.organizationId, language: user.language },
    at: new Date().toISOString(),
  };
  switch (intent) {
    case NOTIFICATIONS_INTENT.read:
      return readOne(change);
    case NOTIFICATIONS_INTENT.readAll:
      return readAll(change);
    case NOTIFICATIONS_INTENT.dismiss:
      return dismissOne(change);
    case NOTIFICATIONS_INTENT.restore:
      return restoreOne(change);
    default:
      return refuseForm(formData, { intent: null, formErrors: [t("errors.invalid")] });
  }
}

/** Where a plain post goes back to: the list as it was (its filters and page), or the list. */
function back({ formData }: Change): string {
  return safeRedirect(formData.get("redirectTo"), "/notifications");
}

/** The notification is not one of the organisation's (or not any more). */
function gone({ t }: Change, submission: Parameters<typeof refuseForm>[0], intent: string) {
  return refuseForm(submission, { status: 404, intent, formErrors: [t("errors.notFound")] });
}

async function readOne(change: Change) {
  const { request, formData, t, viewer, at } = change;
  const intent = NOTIFICATIONS_INTENT.read;
  const submission = parseWithZod(formData, { schema: readSchema });
  if (submission.status !== "success") return refuseForm(submission, { intent, formErrors: [t("errors.invalid")] });
  const read = submission.value.read === "1";
  if ((await markRead(viewer, [submission.value.id], read, at)) === 0) return gone(change, submission, intent);
  if (submission.value.redirectTo !== undefined)
    return redirectWithNotice(request, back(change), read ? "notifications:notices.read" : "notifications:notices.unread");
  return json({ intent, result: submission.reply() });
}

async function readAll(change: Change) {
  const { request, formData, t, viewer, at } = change;
  const intent = NOTIFICATIONS_INTENT.readAll;
  // The list's own filters, posted as hidden fields: what the user sees is what gets marked.
  const url = new URL("/notifications", "http://x");
  for (const key of FILTER_KEYS) url.searchParams.set(key, String(formData.get(key) ?? ""));
  const { parsed } = parsePageQuery(url);
  if (!parsed.success) return refuseForm(formData, { intent, formErrors: [t("errors.invalid")] });
  const unread = await listNotifications(viewer, { ...filtersOf(parsed.data), read: "unread" }, { limit: MARK_ALL_MAX });
  await markRead(
    viewer,
    unread.map((n) => n.id),
    true,
    at,
  );
  if (formData.get("redirectTo") !== null) return redirectWithNotice(request, back(change), "notifications:notices.allRead");
  return json({ intent, result: { status: "success" as const } });
}

async function dismissOne(change: Change) {
  const { request, formData, t, viewer, at } = change;
  const intent = NOTIFICATIONS_INTENT.dismiss;
  const submission = parseWithZod(formData, { schema: dismissSchema });
  if (submission.status !== "success") {
    // The schema's messages are keys: the reason's in the user's language, anything else (a tampered id) on the form.
    const errors = submission.error ?? {};
    const reasonErrors = (errors.reason ?? []).map((key) => t(`errors.${key === "reasonTooLong" ? "reasonTooLong" : "reasonRequired"}`));
    const other = Object.keys(errors).some((key) => key !== "reason");
    return refuseForm(submission, {
      intent,
      fieldErrors: reasonErrors.length ? { reason: reasonErrors } : {},
      formErrors: other ? [t("errors.invalid")] : [],
    });
  }
  if ((await dismiss(viewer, [submission.value.id], submission.value.reason, at)) === 0) return gone(change, submission, intent);
  if (submission.value.redirectTo !== undefined) return redirectWithNotice(request, back(change), "notifications:notices.dismissed");
  return json({ intent, result: submission.reply() });
}

async function restoreOne(change: Change) {
  const { request, formData, t, viewer } = change;
  const intent = NOTIFICATIONS_INTENT.restore;
  const submission = parseWithZod(formData, { schema: restoreSchema });
  if (submission.status !== "success") return refuseForm(submission, { intent, formErrors: [t("errors.invalid")] });
  if ((await restore(viewer, [submission.value.id])) === 0) return gone(change, submission, intent);
  if (submission.value.redirectTo !== undefined) return redirectWithNotice(request, back(change), "notifications:notices.restored");
  return json({ intent, result: submission.reply() });
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

export default function NotificationsScreen() {
  const data = useLoaderData<typeof loader>();
  const { t } = useTranslation("notifications");
  const { pathname, search } = useLocation();
  const here = `${pathname}${search}`;
  const params = new URLSearchParams(search);
  params.delete("dismiss");
  const withoutDismiss = `${pathname}${params.size ? `?${params}` : ""}`;
  const href = useListHref(["dismiss"]);
  const csvParams = new URLSearchParams();
  for (const key of FILTER_KEYS) if (data.raw[key]) csvParams.set(key, data.raw[key]);

  return (
    <section aria-labelledby="notifications-title" className="mx-auto max-w-5xl">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="max-w-2xl">
          <h1 id="notifications-title" className="text-2xl font-semibold">
            {t("page.title")}
          </h1>
          <p className="mt-1 text-sm text-base-content/70">{t("page.intro")}</p>
        </div>
        <div className="flex flex-wrap gap-2">
          {data.canManageFeeds ? (
            <Link to="/notifications/feeds" className="btn btn-sm">
              {t("page.feeds")}
            </Link>
          ) : null}
          <a href={`/notifications.csv${csvParams.size ? `?${csvParams}` : ""}`} className="btn btn-sm btn-outline" download>
            {t("page.exportCsv")}
          </a>
        </div>
      </div>

      {data.announcements.length > 0 ? (
        <section aria-labelledby="notifications-announcements" className="mt-4 rounded-box border border-info/40 bg-base-100 p-4">
          <h2 id="notifications-announcements" className="text-lg font-semibold">
            {t("page.announcements")}
          </h2>
          <AnnouncementList items={data.announcements} headingLevel={3} />
        </section>
      ) : null}

      <NotificationsFilters raw={data.raw} tags={data.tags} error={data.error} />

      <div className="mt-4 flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm font-medium" role="status">
          {t("page.count", { count: data.total })}
        </p>
        {data.items.some((n) => !n.read) ? (
          <ActionForm intent={NOTIFICATIONS_INTENT.readAll} fields={Object.fromEntries(FILTER_KEYS.map((key) => [key, data.raw[key] ?? ""]))} redirectTo={here}>
            {(form) => (
              <button type="submit" className="btn btn-sm" disabled={form.busy}>
                {t("page.markAllRead")}
              </button>
            )}
          </ActionForm>
        ) : null}
      </div>

      {data.items.length === 0 ? (
        <p className="mt-4 rounded-box border border-dashed border-base-300 bg-base-100 p-6 text-sm text-base-content/70">{t("empty")}</p>
      ) : (
        <NotificationsList items={data.items} canTriage={data.canTriage} here={here} />
      )}

      <Pagination
        className="mt-4"
        page={data.page}
        pageCount={data.pageCount}
        pageSize={NOTIFICATION_PAGE_SIZE}
        shown={data.items.length}
        total={data.total}
        href={(page) => href({ page: page > 1 ? String(page) : null })}
      />

      {data.dismissing ? <NotificationDismissDialog id={data.dismissing.id} title={data.dismissing.content.title} closeHref={withoutDismiss} /> : null}
    </section>
  );
}
