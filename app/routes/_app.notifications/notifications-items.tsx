import { Link } from "@remix-run/react";
import { NotificationSummary, type NotificationRowData } from "~/components/notifications/NotificationItem";
import { ActionForm } from "~/components/ui/ActionForm";
import { useListHref } from "~/components/ui/FilterSelect";
import { Icon } from "~/components/ui/icons";
import { sourceLink } from "~/models/notifications/notifications";
import { useTranslation } from "~/translations";
import { NOTIFICATIONS_INTENT } from "./notifications-intents";

export type NotificationsListItem = NotificationRowData & { read: boolean; dismissed: { reason: string; at: string } | null };

/** One page of the list: each notification with its source, the supplier filter, and mark read/unread, dismiss or restore. */
export function NotificationsList({ items, canTriage, here }: { items: NotificationsListItem[]; canTriage: boolean; here: string }) {
  const { t } = useTranslation("notifications");
  const href = useListHref(["dismiss"]);
  return (
    <ol aria-label={t("page.listLabel")} className="mt-3 flex flex-col gap-3">
      {items.map((n) => {
        const source = sourceLink(n.content);
        return (
          <li key={n.id} className={`rounded-box border bg-base-100 p-4 ${n.read ? "border-base-300" : "border-primary/40"}`}>
            <NotificationSummary notification={n}>
              {n.content.risk.description ? <p className="mt-1 break-words text-sm text-base-content/80">{n.content.risk.description}</p> : null}
              {n.dismissed ? (
                <p className="mt-1 break-words text-sm italic text-base-content/70">{t("page.dismissedReason", { reason: n.dismissed.reason })}</p>
              ) : null}
              <div className="mt-2 flex flex-wrap items-center gap-2">
                {source ? (
                  <a href={source.href} target="_blank" rel="noopener noreferrer" className="link link-primary inline-flex items-center gap-1 text-sm">
                    {t("openSource", { source: source.name })}
                    <Icon name="external" className="size-4" aria-hidden="true" />
                    <span className="sr-only">{t("newTab")}</span>
                  </a>
                ) : null}
                <Link to={href({ supplier: n.organization.id, page: null })} className="link text-sm">
                  {t("page.onlySupplier")}
                </Link>
                <span className="flex-1" />
                <ActionForm intent={NOTIFICATIONS_INTENT.read} fields={{ id: n.id, read: n.read ? "0" : "1" }} redirectTo={here} className="inline">
                  {(form) => (
                    <button type="submit" className="btn btn-ghost btn-xs" disabled={form.busy}>
                      {n.read ? t("page.markUnread") : t("page.markRead")}
                    </button>
                  )}
                </ActionForm>
                {canTriage ? (
                  n.dismissed ? (
                    <ActionForm intent={NOTIFICATIONS_INTENT.restore} fields={{ id: n.id }} redirectTo={here} className="inline">
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
        );
      })}
    </ol>
  );
}
