import { Form, Link, useLocation } from "@remix-run/react";
import { useCallback, useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "~/translations";
import { Dialog } from "~/components/ui/Dialog";
import { useHydrated } from "~/components/ui/useHydrated";
import {
  DEFAULT_LOOKBACK_DAYS,
  DEFAULT_MIN_RISK_SCORE_PANEL,
  LOOKBACK_DAYS_MAX,
  NOTIFICATION_PAGE_SIZE,
  NOTIFICATION_TYPES,
  nextOffset,
  panelMoreParams,
  showMoreVisible,
  withoutPanelParams,
  type NotificationTypeFilter,
} from "~/models/notifications/notifications";
import type { NotificationsPanelData } from "~/models/notifications/notifications-panel.server";
import { NotificationSummary, type NotificationRowData } from "./NotificationItem";
import { isPlainClick } from "~/components/ui/download";

interface Filters {
  minRiskScore: string;
  lookbackDays: string;
  type: NotificationTypeFilter;
}

const DEFAULT_FILTERS: Filters = { minRiskScore: String(DEFAULT_MIN_RISK_SCORE_PANEL), lookbackDays: String(DEFAULT_LOOKBACK_DAYS), type: "all" };

/** GET /api/notifications (shared/spec/01-shell-chat-lei.md §7); a failure is an empty answer (shared/spec/01-shell-chat-lei.md §8: the list is emptied silently). */
async function loadPage(filters: Filters, offset: number, signal: AbortSignal): Promise<NotificationRowData[]> {
  const query = new URLSearchParams({
    minRiskScore: filters.minRiskScore.trim(),
    lookbackDays: filters.lookbackDays.trim(),
    type: filters.type,
    limit: String(NOTIFICATION_PAGE_SIZE),
    offset: String(offset),
  });
  try {
    const response = await fetch(`/api/notifications?${query}`, { headers: { Accept: "application/json" }, signal });
    if (!response.ok) return [];
    const body = (await response.json()) as { data?: NotificationRowData[] };
    return Array.isArray(body.data) ? body.data : [];
  } catch (error) {
    if (error instanceof DOMException && error.name === "AbortError") throw error;
    return [];
  }
}

/**
 * The notifications slide-over (shared/spec/01-shell-chat-lei.md §2.4, §4, §5, §8, §9). Opened from the URL (`?panel=notifications`, without
 * JavaScript or on reload) it starts from the server's list (`data`); opened in place by the bell it starts empty and
 * loads the first page. Apply resets and reloads; Show more appends the next page; the offset advances by the number
 * returned, and the button shows while the loaded count is at least the offset and above zero. Without JavaScript the
 * filters are a GET form and Show more a link that renders the longer list.
 */
export function NotificationsPanel({
  data,
  allowed,
  onClose,
}: {
  data: NotificationsPanelData | null;
  /** The user's access covers notifications (else the panel says so and asks nothing). */
  allowed: boolean;
  onClose: (() => void) | null;
}) {
  const { t } = useTranslation("notifications");
  const hydrated = useHydrated();
  const { pathname, search } = useLocation();
  const ids = useId();
  const page = withoutPanelParams(search);
  const closeHref = `${pathname}${page.size ? `?${page}` : ""}`;

  const [filters, setFilters] = useState<Filters>(data ? { ...DEFAULT_FILTERS, ...nonEmpty(data.filters) } : DEFAULT_FILTERS);
  const [items, setItems] = useState<NotificationRowData[]>(data?.items ?? []);
  const [offset, setOffset] = useState(data?.offset ?? 0);
  const [loading, setLoading] = useState(false);
  const call = useRef<AbortController>();

  const load = useCallback(async (applied: Filters, from: number, append: boolean) => {
    call.current?.abort();
    const controller = new AbortController();
    call.current = controller;
    setLoading(true);
    try {
      const next = await loadPage(applied, from, controller.signal);
      if (append) {
        setItems((current) => [...current, ...next]);
      } else {
        setItems(next);
      }
      setOffset(nextOffset(from, next.length));
    } catch {
      return; // aborted by a newer load
    } finally {
      if (call.current === controller) setLoading(false);
    }
  }, []);

  // Opened in place by the bell: the list and the offset start afresh with the first page (shared/spec/01-shell-chat-lei.md §4).
  useEffect(() => {
    if (!data && allowed) void load(DEFAULT_FILTERS, 0, false);
    return () => call.current?.abort();
  }, [data, allowed, load]);

  const hidden = [...page.entries()];
  const showMore = showMoreVisible(items.length, offset);
  const moreParams = panelMoreParams(page, data?.filters ?? null, offset);

  return (
    <Dialog variant="slide-over" title={t("title")} closeHref={closeHref} onClose={onClose ?? undefined} size="md">
      {!allowed ? (
        <p className="text-sm text-base-content/70">{t("noAccess")}</p>
      ) : (
        <div className="flex flex-col gap-4">
          <Form
            method="get"
            action={pathname}
            replace
            preventScrollReset
            aria-label={t("filters")}
            className="grid grid-cols-2 gap-3 rounded-box bg-base-200 p-3"
            onSubmit={(event) => {
              if (!hydrated) return;
              // Apply resets the list and the offset and loads again (shared/spec/01-shell-chat-lei.md §4).
              event.preventDefault();
              setItems([]);
              setOffset(0);
              void load(filters, 0, false);
            }}
          >
            {hidden.map(([key, value], index) => (
              <input key={`${key}-${index}`} type="hidden" name={key} value={value} />
            ))}
            <input type="hidden" name="panel" value="notifications" />
            <NumberField
              id={`${ids}-min`}
              name="nMin"
              label={t("minRiskScore")}
              value={filters.minRiskScore}
              onChange={(value) => setFilters((f) => ({ ...f, minRiskScore: value }))}
              error={data?.error?.field === "minRiskScore" ? t("invalidNumber", { min: 0, max: 100 }) : null}
            />
            <NumberField
              id={`${ids}-days`}
              name="nDays"
              label={t("lookbackDays")}
              value={filters.lookbackDays}
              onChange={(value) => setFilters((f) => ({ ...f, lookbackDays: value }))}
              error={data?.error?.field === "lookbackDays" ? t("invalidNumber", { min: 0, max: LOOKBACK_DAYS_MAX }) : null}
            />
            <div className="col-span-2 flex items-end gap-3">
              <div className="min-w-0 flex-1">
                <label htmlFor={`${ids}-type`} className="mb-1 block text-sm font-medium">
                  {t("type")}
                </label>
                <select
                  id={`${ids}-type`}
                  name="nType"
                  value={filters.type}
                  onChange={(event) => setFilters((f) => ({ ...f, type: event.target.value as NotificationTypeFilter }))}
                  className="select select-sm w-full"
                >
                  {NOTIFICATION_TYPES.map((type) => (
                    <option key={type} value={type}>
                      {t(`types.${type}`)}
                    </option>
                  ))}
                </select>
              </div>
              <button type="submit" className="btn btn-primary btn-sm">
                {t("apply")}
              </button>
            </div>
          </Form>

          <p className="sr-only" role="status">
            {loading ? t("loading") : ""}
          </p>
          {items.length === 0 && !loading ? <p className="text-sm text-base-content/70">{t("empty")}</p> : null}
          {items.length > 0 ? (
            <ol aria-label={t("list")} className="flex flex-col divide-y divide-base-300">
              {items.map((n) => (
                <li key={n.id} className="py-3">
                  <NotificationSummary notification={n} />
                </li>
              ))}
            </ol>
          ) : null}
          {loading ? (
            <p className="flex items-center gap-2 text-sm text-base-content/70" aria-hidden="true">
              <span className="loading loading-spinner loading-sm" />
              {t("loading")}
            </p>
          ) : null}
          <div className="flex flex-wrap items-center justify-between gap-2">
            {showMore ? (
              <Link
                to={`${pathname}?${moreParams}`}
                replace
                preventScrollReset
                className="btn btn-outline btn-sm"
                onClick={(event) => {
                  if (!hydrated || !isPlainClick(event)) return;
                  event.preventDefault();
                  if (!loading) void load(filters, offset, true);
                }}
              >
                {t("showMore")}
              </Link>
            ) : (
              <span />
            )}
            <Link to="/notifications" className="link link-primary text-sm">
              {t("seeAll")}
            </Link>
          </div>
        </div>
      )}
    </Dialog>
  );
}

function nonEmpty(filters: NotificationsPanelData["filters"]): Partial<Filters> {
  const out: Partial<Filters> = { type: filters.type };
  if (filters.minRiskScore) out.minRiskScore = filters.minRiskScore;
  if (filters.lookbackDays) out.lookbackDays = filters.lookbackDays;
  return out;
}

function NumberField({
  id,
  name,
  label,
  value,
  onChange,
  error,
}: {
  id: string;
  name: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  error: string | null;
}) {
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm font-medium">
        {label}
      </label>
      {/* Spec 01 §5: numeric inputs with no bounds shown. */}
      <input
        id={id}
        name={name}
        type="number"
        inputMode="numeric"
        step={1}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        className={`input input-sm w-full ${error ? "input-error" : ""}`}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      />
      {error ? (
        <p id={`${id}-error`} className="mt-1 text-xs text-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}
