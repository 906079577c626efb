import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useLoaderData, useLocation, useNavigate } from "@remix-run/react";
import { useId } from "react";
import { useTranslation } from "~/translations";
import { AnnouncementList } from "~/components/announcements/AnnouncementList";
import { NotificationSummary } from "~/components/notifications/NotificationItem";
import { ActionForm, FieldError } from "~/components/ui/ActionForm";
import { Dialog } from "~/components/ui/Dialog";
import { FilterSelect, useFilterErrors, useListHref } from "~/components/ui/FilterSelect";
import { GeneralErrorBoundary } from "~/components/ui/GeneralErrorBoundary";
import { Icon } from "~/components/ui/icons";
import { titleMeta } from "~/components/ui/meta";
import { Pagination } from "~/components/ui/Pagination";
import { requireUser } from "~/http/auth.server";
import { redirectWithNotice } from "~/http/notice.server";
import { parseId, readForm } from "~/http/parse.server";
import { safeRedirect } from "~/http/redirect.server";
import { can } from "~/http/permissions";
import i18nServer from "~/i18n.server";
import {
  countNotifications,
  dismiss,
  listNotifications,
  markRead,
  restore,
  type NotificationFilters,
  type NotificationListItem,
} from "~/models/notifications/notification-list.server";
import { dismissSchema, notificationPageQuerySchema, readSchema, restoreSchema, type NotificationPageQuery } from "~/models/notifications/notification-query";
import {
  DEFAULT_LOOKBACK_DAYS,
  DEFAULT_MIN_RISK_SCORE_PANEL,
  DISMISS_REASON_MAX,
  LOOKBACK_DAYS_MAX,
  NOTIFICATION_PAGE_SIZE,
  NOTIFICATION_TYPES,
  READ_FILTERS,
  STATUS_FILTERS,
} from "~/models/notifications/notifications";
import { activeAnnouncements } from "~/models/notifications/announcements.server";
import { pageTitle } from "~/models/shared/page-title.server";
import { listTags } from "~/models/suppliers/tags.server";

export const meta = titleMeta;
export const handle = { i18n: ["notifications"] };

/** Marking "all as read" names at most this many (the rest stay for the next time). */
const MARK_ALL_MAX = 10_000;

/** The filters as they are typed in the URL (shown back in the form even when one is wrong). */
const FILTER_KEYS = ["minRiskScore", "lookbackDays", "type", "supplier", "tag", "read", "status"] as const;

function filtersOf(query: NotificationPageQuery): NotificationFilters {
  return {
    minRiskScore: query.minRiskScore,
    lookbackDays: query.lookbackDays,
    type: query.type,
    supplier: query.supplier,
    tagId: query.tag,
    read: query.read,
    status: query.status,
  };
}

function parsePageQuery(url: URL) {
  const raw = Object.fromEntries(FILTER_KEYS.map((key) => [key, url.searchParams.get(key) ?? ""]));
  const parsed = notificationPageQuerySchema.safeParse({ ...raw, page: url.searchParams.get("page") ?? "" });
  return { raw, parsed };
}

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

async function loadList(viewer: { userId: number; organizationId: number; language: "en" | "no" }, query: NotificationPageQuery): Promise<ListPage> {
  const filters = filtersOf(query);
  const total = await countNotifications(viewer, filters);
  const pageCount = Math.max(1, Math.ceil(total / NOTIFICATION_PAGE_SIZE));
  const page = Math.min(query.page, pageCount);
  const items = await listNotifications(viewer, filters, { limit: NOTIFICATION_PAGE_SIZE, offset: (page - 1) * NOTIFICATION_PAGE_SIZE });
  return { items, total, page, pageCount, dismissing: null };
}

export async function action({ request }: ActionFunctionArgs) {
  const formData = await readForm(request);
  const intent = formData.get("intent");
  const t = await i18nServer.getFixedT(request, "notifications");
  const user = await requireUser(request, intent === "dismiss" || intent === "restore" ? "notificationsTriage" : "notificationsRead");
  const viewer = { userId: user.id, organizationId: user.organizationId, language: user.language };
  const at = new Date().toISOString();
  const back = (fallback: string) => safeRedirect(formData.get("redirectTo"), fallback);
  const notFound = (submission: { reply: (o: { formErrors: string[] }) => unknown }, name: string) =>
    json({ intent: name, result: submission.reply({ formErrors: [t("errors.notFound")] }) }, { status: 404 });
  switch (intent) {
    case "read": {
      const submission = parseWithZod(formData, { schema: readSchema });
      if (submission.status !== "success") return json({ intent, result: submission.reply({ formErrors: [t("errors.invalid")] }) }, { status: 400 });
      const read = submission.value.read === "1";
      if ((await markRead(viewer, [submission.value.id], read, at)) === 0) return notFound(submission, intent);
      if (submission.value.redirectTo !== undefined)
        return redirectWithNotice(request, back("/notifications"), read ? "notifications:notices.read" : "notifications:notices.unread");
      return json({ intent, result: submission.reply() });
    }
    case "readAll": {
      // The list's own filters, posted as hidden fields: what the user sees is what gets marked.
      const url = new URL("/notifications", "http://x");
      for (const key of FILTER_KEYS) url.searchParams.set(key, String(formData.get(key) ?? ""));
      const { parsed } = parsePageQuery(url);
      if (!parsed.success) return json({ intent, result: { status: "error", error: { "": [t("errors.invalid")] } } }, { status: 400 });
      const unread = await listNotifications(viewer, { ...filtersOf(parsed.data), read: "unread" }, { limit: MARK_ALL_MAX });
      await markRead(
        viewer,
        unread.map((n) => n.id),
        true,
        at,
      );
      if (formData.get("redirectTo") !== null) return redirectWithNotice(request, back("/notifications"), "notifications:notices.allRead");
      return json({ intent, result: { status: "success" as const } });
    }
    case "dismiss": {
      const submission = parseWithZod(formData, { schema: dismissSchema });
      if (submission.status !== "success") {
        const reply = submission.reply();
        const reasonErrors = (reply.error?.reason ?? []).map((key) => t(`errors.${key === "reasonTooLong" ? "reasonTooLong" : "reasonRequired"}`));
        const other = Object.keys(reply.error ?? {}).some((key) => key !== "reason");
        return json(
          {
            intent,
            result: submission.reply({ fieldErrors: reasonErrors.length ? { reason: reasonErrors } : {}, formErrors: other ? [t("errors.invalid")] : [] }),
          },
          { status: 400 },
        );
      }
      if ((await dismiss(viewer, [submission.value.id], submission.value.reason, at)) === 0) return notFound(submission, intent);
      if (submission.value.redirectTo !== undefined) return redirectWithNotice(request, back("/notifications"), "notifications:notices.dismissed");
      return json({ intent, result: submission.reply() });
    }
    case "restore": {
      const submission = parseWithZod(formData, { schema: restoreSchema });
      if (submission.status !== "success") return json({ intent, result: submission.reply({ formErrors: [t("errors.invalid")] }) }, { status: 400 });
      if ((await restore(viewer, [submission.value.id])) === 0) return notFound(submission, intent);
      if (submission.value.redirectTo !== undefined) return redirectWithNotice(request, back("/notifications"), "notifications:notices.restored");
      return json({ intent, result: submission.reply() });
    }
    default:
      return json({ intent: null, result: { status: "error", error: { "": [t("errors.invalid")] } } }, { status: 400 });
  }
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

      <Filters />

      <div className="mt-4 flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm font-medium" role="status">
          {t("page.count", { count: data.total })}
        </p>
        {data.items.some((n) => !n.read) ? (
          <ActionForm intent="readAll" fields={Object.fromEntries(FILTER_KEYS.map((key) => [key, data.raw[key] ?? ""]))} redirectTo={here}>
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
        <ol aria-label={t("page.listLabel")} className="mt-3 flex flex-col gap-3">
          {data.items.map((n) => (
            <li key={n.id} className={`rounded-box border bg-base-100 p-4 ${n.read ? "border-base-300" : "border-primary/40"}`}>
              <NotificationSummary notification={n}>
                {n.content.risk.description ? <p className="mt-1 break-words text-sm text-base-content/80">{n.content.risk.description}</p> : null}
                {n.dismissed ? (
                  <p className="mt-1 break-words text-sm italic text-base-content/70">{t("page.dismissedReason", { reason: n.dismissed.reason })}</p>
                ) : null}
                <div className="mt-2 flex flex-wrap items-center gap-2">
                  {n.content.url && /^https?:\/\//i.test(n.content.url) ? (
                    <a href={n.content.url} target="_blank" rel="noopener noreferrer" className="link link-primary inline-flex items-center gap-1 text-sm">
                      {t("openSource", { source: n.content.source ?? new URL(n.content.url).hostname })}
                      <Icon name="external" className="size-4" aria-hidden="true" />
                      <span className="sr-only">{t("newTab")}</span>
                    </a>
                  ) : null}
                  <Link to={href({ supplier: n.organization.id, page: null })} className="link text-sm">
                    {t("page.onlySupplier")}
                  </Link>
                  <span className="flex-1" />
                  <ActionForm intent="read" fields={{ id: n.id, read: n.read ? "0" : "1" }} redirectTo={here} className="inline">
                    {(form) => (
                      <button type="submit" className="btn btn-ghost btn-xs" disabled={form.busy}>
                        {n.read ? t("page.markUnread") : t("page.markRead")}
                      </button>
                    )}
                  </ActionForm>
                  {data.canTriage ? (
                    n.dismissed ? (
                      <ActionForm intent="restore" fields={{ id: n.id }} redirectTo={here} className="inline">
                        {(form) => (
                          <button type="submit" className="btn btn-ghost btn-xs" disabled={form.busy}>
                            {t("page.restore")}
                          </button>
                        )}
                      </ActionForm>
                    ) : (
                      <Link to={href({ dismiss: String(n.id) })} preventScrollReset className="btn btn-ghost btn-xs">
                        {t("page.dismiss")}
                      </Link>
                    )
                  ) : null}
                </div>
              </NotificationSummary>
            </li>
          ))}
        </ol>
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

      {data.dismissing ? <DismissDialog id={data.dismissing.id} title={data.dismissing.content.title} closeHref={withoutDismiss} /> : null}
    </section>
  );
}

function Filters() {
  const data = useLoaderData<typeof loader>();
  const { t } = useTranslation("notifications");
  const { ids, error, invalid } = useFilterErrors(data.error);
  const raw = data.raw;
  return (
    <Form method="get" className="mt-4 grid grid-cols-2 gap-3 rounded-box border border-base-300 bg-base-100 p-3 lg:grid-cols-4" aria-label={t("filters")}>
      <div>
        <label htmlFor={`${ids}-min`} className="mb-1 block text-sm font-medium">
          {t("minRiskScore")}
        </label>
        <input
          id={`${ids}-min`}
          name="minRiskScore"
          type="number"
          step={1}
          inputMode="numeric"
          defaultValue={raw.minRiskScore || String(DEFAULT_MIN_RISK_SCORE_PANEL)}
          className="input input-sm w-full"
          {...invalid("minRiskScore")}
        />
        {error("minRiskScore", t("invalidNumber", { min: 0, max: 100 }))}
      </div>
      <div>
        <label htmlFor={`${ids}-days`} className="mb-1 block text-sm font-medium">
          {t("lookbackDays")}
        </label>
        <input
          id={`${ids}-days`}
          name="lookbackDays"
          type="number"
          step={1}
          inputMode="numeric"
          defaultValue={raw.lookbackDays || String(DEFAULT_LOOKBACK_DAYS)}
          className="input input-sm w-full"
          {...invalid("lookbackDays")}
        />
        {error("lookbackDays", t("invalidNumber", { min: 0, max: LOOKBACK_DAYS_MAX }))}
      </div>
      <FilterSelect
        name="type"
        label={t("type")}
        value={raw.type || "all"}
        options={NOTIFICATION_TYPES.map((v) => [v, t(`types.${v}`)])}
        error={error("type", t("page.invalidChoice"))}
        invalid={invalid("type")}
      />
      <div>
        <label htmlFor={`${ids}-supplier`} className="mb-1 block text-sm font-medium">
          {t("page.supplier")}
        </label>
        <input
          id={`${ids}-supplier`}
          name="supplier"
          type="search"
          inputMode="numeric"
          maxLength={30}
          defaultValue={raw.supplier}
          className="input input-sm w-full"
          {...invalid("supplier")}
        />
        {error("supplier", t("page.invalidSupplier"))}
      </div>
      <FilterSelect
        name="tag"
        label={t("page.tag")}
        value={raw.tag}
        options={[["", t("page.allTags")], ...data.tags.map((tag): [string, string] => [String(tag.id), tag.title])]}
        error={error("tag", t("page.invalidChoice"))}
        invalid={invalid("tag")}
      />
      <FilterSelect
        name="read"
        label={t("page.read")}
        value={raw.read || "all"}
        options={READ_FILTERS.map((v) => [v, t(`page.reads.${v}`)])}
        error={error("read", t("page.invalidChoice"))}
        invalid={invalid("read")}
      />
      <FilterSelect
        name="status"
        label={t("page.status")}
        value={raw.status || "active"}
        options={STATUS_FILTERS.map((v) => [v, t(`page.statuses.${v}`)])}
        error={error("status", t("page.invalidChoice"))}
        invalid={invalid("status")}
      />
      <div className="flex items-end gap-2">
        <button type="submit" className="btn btn-primary btn-sm">
          {t("page.filter")}
        </button>
        <Link to="/notifications" className="btn btn-ghost btn-sm">
          {t("page.reset")}
        </Link>
      </div>
    </Form>
  );
}

function DismissDialog({ id, title, closeHref }: { id: number; title: string; closeHref: string }) {
  const { t } = useTranslation("notifications");
  const fieldId = useId();
  const navigate = useNavigate();
  return (
    <Dialog title={t("page.dismissTitle")} closeHref={closeHref} closeLabel={t("page.cancel")}>
      <p className="break-words text-sm font-medium">{title}</p>
      <p className="mt-2 text-sm text-base-content/70">{t("page.dismissText")}</p>
      <ActionForm
        intent="dismiss"
        fields={{ id }}
        redirectTo={closeHref}
        // With JavaScript the change is a fetcher post: the dialog leaves once it is accepted.
        onSuccess={() => navigate(closeHref, { replace: true, preventScrollReset: true })}
        className="mt-4 flex flex-col gap-3"
      >
        {(form) => (
          <>
            <div>
              <label htmlFor={fieldId} className="mb-1 block text-sm font-medium">
                {t("page.reason")}
              </label>
              <textarea
                id={fieldId}
                name="reason"
                required
                maxLength={DISMISS_REASON_MAX}
                rows={3}
                defaultValue={form.kept("reason")}
                className="textarea w-full"
                aria-describedby={`${fieldId}-hint`}
                {...form.invalid("reason")}
              />
              <p id={`${fieldId}-hint`} className="mt-1 text-xs text-base-content/70">
                {t("page.reasonHint")}
              </p>
              <FieldError form={form} name="reason" />
            </div>
            <div className="flex justify-end gap-2">
              <Link to={closeHref} className="btn btn-ghost" preventScrollReset replace>
                {t("page.cancel")}
              </Link>
              <button type="submit" className="btn btn-error" disabled={form.busy}>
                {t("page.dismiss")}
              </button>
            </div>
          </>
        )}
      </ActionForm>
    </Dialog>
  );
}
