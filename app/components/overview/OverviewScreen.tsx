import { AnnouncementList } from "~/components/announcements/AnnouncementList";
import { Link } from "@remix-run/react";
import type { SerializeFrom } from "@remix-run/node";
import { NotificationSummary } from "~/components/notifications/NotificationItem";
import { RESPONDENT_NAMESPACES } from "~/components/respondent/RespondentFrame";
import { RespondentList } from "~/components/respondent/RespondentList";
import { OverallRiskBadge } from "~/components/risk/OverallRiskBadge";
import { bandBarClass } from "~/components/risk/colors";
import { StatusBadge, supplierScreenHref } from "~/components/supplier-tasks/StatusBadge";
import { formatCompactNok, formatDate, formatMonth, formatRelativeTime } from "~/models/shared/format";
import type { OverallRiskReason } from "~/models/suppliers/overall-risk";
import {
  DUE_SOON_DAYS,
  OVERVIEW_BAND_HREF,
  OVERVIEW_BANDS,
  OVERVIEW_NOTIFICATION_DAYS,
  OVERVIEW_NOTIFICATION_MIN_RISK,
  type CustomerOverview,
  type OverviewActivity,
  type OverviewSupplier,
  type RespondentOverview,
  activityKey,
} from "~/models/overview/overview";
import { uiLanguage } from "~/i18n";
import { useTranslation } from "~/translations";

/** The overview's texts, the risk badge's (suppliers), the notification rows', the task states' and the respondent list's. */
export const OVERVIEW_NAMESPACES = ["overview", "suppliers", "notifications", ...RESPONDENT_NAMESPACES];

function Card({ id, title, hint, children, action }: { id: string; title: string; hint?: string; children: React.ReactNode; action?: React.ReactNode }) {
  return (
    <section aria-labelledby={id} className="flex min-w-0 flex-col rounded-box border border-base-300 bg-base-100 p-4">
      <h2 id={id} className="text-lg font-semibold">
        {title}
      </h2>
      {hint ? <p className="text-xs text-base-content/70">{hint}</p> : null}
      <div className="mt-3 flex-1">{children}</div>
      {action ? <div className="mt-3 text-sm">{action}</div> : null}
    </section>
  );
}

function Empty({ children }: { children: React.ReactNode }) {
  return <p className="text-sm text-base-content/70">{children}</p>;
}

/** A reason of the stored overall risk in a few words ("Reputation risk 94", "Bankrupt"). */
export function ReasonText({ reasons }: { reasons: OverallRiskReason[] }) {
  const { t } = useTranslation(["overview", "taskStates"]);
  if (reasons.length === 0) return null;
  const words = reasons.map((r) => (r.kind === "line" ? t(`reason.line.${r.key}`, { value: r.value }) : t(`reason.flag.${r.flag}`)));
  return (
    <span className="text-xs text-base-content/70">
      <span className="sr-only">{t("reason.label")}: </span>
      {words.join(" · ")}
    </span>
  );
}

function SupplierLine({ item }: { item: OverviewSupplier }) {
  return (
    <li className="flex items-start justify-between gap-3 py-2">
      <span className="flex min-w-0 flex-col">
        <Link to={supplierScreenHref(item.supplier)} className="link link-hover link-primary break-words font-medium">
          {item.supplier.name}
        </Link>
        <ReasonText reasons={item.reasons} />
      </span>
      <OverallRiskBadge risk={item.risk} />
    </li>
  );
}

function BandCounts({ data }: { data: SerializeFrom<CustomerOverview> }) {
  const { t } = useTranslation(["overview", "taskStates"]);
  return (
    <Card
      id="overview-bands"
      title={t("bands.title")}
      hint={t("bands.total", { count: data.total })}
      action={
        <Link to="/dashboard" className="link">
          {t("bands.dashboard")}
        </Link>
      }
    >
      {/* One bar split by band (CSS widths, no chart library); the numbers are written out beside it. */}
      <div className="flex h-3 w-full overflow-hidden rounded-full bg-base-200" role="img" aria-label={t("bands.barLabel")}>
        {OVERVIEW_BANDS.map((band) =>
          data.bands[band] > 0 ? (
            <span key={band} className={`h-full ${bandBarClass(band)}`} style={{ width: `${(100 * data.bands[band]) / data.total}%` }} />
          ) : null,
        )}
      </div>
      <ul className="mt-3 grid grid-cols-2 gap-2 sm:grid-cols-4">
        {OVERVIEW_BANDS.map((band) => (
          <li key={band}>
            <Link to={OVERVIEW_BAND_HREF[band]} className="flex h-full flex-col rounded-box border border-base-300 p-3 hover:bg-base-200">
              <span className="flex items-center gap-2 text-sm">
                <span className={`inline-block size-3 shrink-0 rounded-full ${bandBarClass(band)}`} aria-hidden="true" />
                {t(`bands.${band}`)}
              </span>
              <span className="mt-1 text-2xl font-semibold tabular-nums" aria-hidden="true">
                {data.bands[band]}
              </span>
              <span className="sr-only">{t("bands.count", { count: data.bands[band] })}</span>
            </Link>
          </li>
        ))}
      </ul>
      {data.bands.unknown > 0 ? <p className="mt-2 text-xs text-base-content/70">{t("bands.unknownHint")}</p> : null}
    </Card>
  );
}

function Figures({ data }: { data: SerializeFrom<CustomerOverview> }) {
  const { t, i18n } = useTranslation(["overview", "taskStates"]);
  const lng = uiLanguage(i18n.language);
  const month = formatMonth(data.creditReports.month, lng);
  const figures = [
    {
      key: "overdue",
      label: t("figures.overdue"),
      value: String(data.tasks.overdue),
      href: "/supplier_tasks?status=overdue&sort=due",
      alert: data.tasks.overdue > 0,
    },
    { key: "dueSoon", label: t("figures.dueSoon", { days: DUE_SOON_DAYS }), value: String(data.tasks.dueSoon), href: "/supplier_tasks?sort=due" },
    { key: "dd", label: t("figures.dueDiligence"), value: String(data.dueDiligence.total), href: "/suppliers?dd=yes&sort=risk&dir=desc" },
    {
      key: "credit",
      label: t("figures.creditReports", { month }),
      value: String(data.creditReports.count),
      note: t("figures.creditCost", { cost: formatCompactNok(data.creditReports.costNok, lng) }),
      href: "/credit_reports",
    },
  ];
  return (
    <ul className="grid grid-cols-2 gap-3 lg:grid-cols-4" aria-label={t("figures.label")}>
      {figures.map((f) => (
        <li key={f.key}>
          <Link to={f.href} className="flex h-full flex-col rounded-box border border-base-300 bg-base-100 p-4 hover:bg-base-200">
            <span className="text-sm">{f.label}</span>
            <span className={`mt-1 text-2xl font-semibold tabular-nums ${f.alert ? "text-error" : ""}`}>{f.value}</span>
            {f.note ? <span className="text-xs text-base-content/70">{f.note}</span> : null}
          </Link>
        </li>
      ))}
    </ul>
  );
}

function Activity({ items, now }: { items: SerializeFrom<OverviewActivity>[]; now: string }) {
  const { t, i18n } = useTranslation(["overview", "taskStates"]);
  return (
    <Card id="overview-activity" title={t("activity.title")}>
      {items.length === 0 ? (
        <Empty>{t("activity.empty")}</Empty>
      ) : (
        <ul className="divide-y divide-base-300">
          {items.map((a) => (
            <li key={a.id} className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1 py-2 text-sm">
              <span className="min-w-0 break-words">
                {t(`activity.actions.${activityKey(a)}`, {
                  who: a.who ?? t("activity.someone"),
                  title: a.detail.title ?? "",
                  fileName: a.detail.fileName ?? "",
                })}{" "}
                <Link to={supplierScreenHref(a.supplier)} className="link link-hover link-primary">
                  {a.supplier.name}
                </Link>
              </span>
              <time dateTime={a.at} className="text-xs whitespace-nowrap text-base-content/70" title={formatDate(a.at, i18n.language)}>
                {formatRelativeTime(a.at, now, i18n.language)}
              </time>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

/** The administrator's announcements for everyone or this organisation (decision 045); nothing when there are none. */
function Announcements({ items }: { items: SerializeFrom<CustomerOverview>["announcements"] }) {
  const { t } = useTranslation(["overview", "taskStates"]);
  if (items.length === 0) return null;
  return (
    <Card id="overview-announcements" title={t("announcements.title")}>
      <AnnouncementList items={items} headingLevel={3} />
    </Card>
  );
}

export function CustomerOverviewView({ data, now }: { data: SerializeFrom<CustomerOverview>; now: string }) {
  const { t, i18n } = useTranslation(OVERVIEW_NAMESPACES);
  return (
    <section aria-labelledby="overview-title" className="mx-auto flex max-w-6xl flex-col gap-4">
      <div>
        <h1 id="overview-title" className="text-2xl font-semibold">
          {t("overview:title")}
        </h1>
        <p className="mt-1 text-sm text-base-content/70">{t("overview:intro")}</p>
      </div>
      <Announcements items={data.announcements} />

      {data.total === 0 ? (
        <div className="rounded-box border border-dashed border-base-300 bg-base-100 p-6">
          <h2 className="font-semibold">{t("overview:empty.title")}</h2>
          <p className="mt-2 max-w-prose text-sm text-base-content/80">{t("overview:empty.text")}</p>
          <Link to="/suppliers" className="btn btn-primary btn-sm mt-4">
            {t("overview:empty.action")}
          </Link>
        </div>
      ) : (
        <BandCounts data={data} />
      )}

      <Figures data={data} />

      <div className="grid gap-4 lg:grid-cols-2">
        <Card
          id="overview-highest"
          title={t("overview:highest.title")}
          action={
            data.highestRisk.length > 0 ? (
              <Link to="/suppliers?sort=risk&dir=desc" className="link">
                {t("overview:highest.all")}
              </Link>
            ) : null
          }
        >
          {data.highestRisk.length === 0 ? (
            <Empty>{t("overview:highest.empty")}</Empty>
          ) : (
            <ol className="divide-y divide-base-300">
              {data.highestRisk.map((item) => (
                <SupplierLine key={item.connectionId} item={item} />
              ))}
            </ol>
          )}
        </Card>

        <Card
          id="overview-notifications"
          title={t("overview:notifications.title")}
          hint={t("overview:notifications.hint", { min: OVERVIEW_NOTIFICATION_MIN_RISK, days: OVERVIEW_NOTIFICATION_DAYS })}
          action={
            <Link to="/notifications" className="link">
              {t("overview:notifications.all")}
            </Link>
          }
        >
          {data.notifications.length === 0 ? (
            <Empty>{t("overview:notifications.empty", { min: OVERVIEW_NOTIFICATION_MIN_RISK, days: OVERVIEW_NOTIFICATION_DAYS })}</Empty>
          ) : (
            <ul className="divide-y divide-base-300">
              {data.notifications.map((n) => (
                <li key={n.id} className="py-2">
                  <NotificationSummary notification={n} />
                </li>
              ))}
            </ul>
          )}
        </Card>

        <Card
          id="overview-tasks"
          title={t("overview:tasks.title")}
          hint={t("overview:tasks.hint", { days: DUE_SOON_DAYS })}
          action={
            <span className="flex flex-wrap gap-x-4">
              {data.tasks.overdue > 0 ? (
                <Link to="/supplier_tasks?status=overdue&sort=due" className="link">
                  {t("overview:tasks.allOverdue")}
                </Link>
              ) : null}
              <Link to="/supplier_tasks?sort=due" className="link">
                {t("overview:tasks.all")}
              </Link>
            </span>
          }
        >
          {data.tasks.items.length === 0 ? (
            <Empty>{t("overview:tasks.empty", { days: DUE_SOON_DAYS })}</Empty>
          ) : (
            <ul className="divide-y divide-base-300">
              {data.tasks.items.map((item) => (
                <li key={item.id} className="flex flex-col gap-1 py-2">
                  <Link to={`/supplier_tasks/${item.id}`} className="link link-hover link-primary break-words font-medium">
                    {item.title}
                  </Link>
                  <span className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-base-content/80">
                    <StatusBadge status={item.shownStatus} />
                    <span>{t(`taskStates:kind.${item.kind}`)}</span>
                    <span className="break-words">{item.supplier.name}</span>
                    <span>{t("overview:tasks.due", { date: formatDate(item.dueDate, i18n.language) })}</span>
                  </span>
                </li>
              ))}
            </ul>
          )}
        </Card>

        <Card
          id="overview-dd"
          title={t("overview:dueDiligence.title")}
          action={
            data.dueDiligence.total > 0 ? (
              <Link to="/suppliers?dd=yes&sort=risk&dir=desc" className="link">
                {t("overview:dueDiligence.all", { count: data.dueDiligence.total })}
              </Link>
            ) : null
          }
        >
          {data.dueDiligence.items.length === 0 ? (
            <Empty>{t("overview:dueDiligence.empty")}</Empty>
          ) : (
            <ul className="divide-y divide-base-300">
              {data.dueDiligence.items.map((item) => (
                <SupplierLine key={item.connectionId} item={item} />
              ))}
            </ul>
          )}
        </Card>

        <div className="lg:col-span-2">
          <Activity items={data.activity} now={now} />
        </div>
      </div>

      {data.ownWork.length > 0 ? <OwnWork items={data.ownWork} /> : null}
    </section>
  );
}

function OwnWork({ items, summary }: { items: SerializeFrom<CustomerOverview>["ownWork"]; summary?: string }) {
  const { t } = useTranslation(OVERVIEW_NAMESPACES);
  return (
    <div className="rounded-box border border-base-300 bg-base-100 p-4">
      <RespondentList items={items} headingId="overview-own-work" title={t("overview:ownWork.title")} showKind />
      <p className="-mt-6 mb-2 text-sm text-base-content/70">
        {t("overview:ownWork.hint")} {summary}
      </p>
      {/* The respondent pages ship no script (decision 033): plain links, a new document. */}
      <nav aria-label={t("overview:ownWork.all")} className="flex flex-wrap gap-x-4 text-sm">
        <a href="/tasks/overview" className="link">
          {t("overview:ownWork.all")}
        </a>
        <a href="/tasks/my_tasks" className="link">
          {t("overview:ownWork.myTasks")}
        </a>
        <a href="/tasks/surveys/my_surveys" className="link">
          {t("overview:ownWork.mySurveys")}
        </a>
      </nav>
    </div>
  );
}

export function RespondentOverviewView({ data, organization }: { data: SerializeFrom<RespondentOverview>; organization: string }) {
  const { t } = useTranslation(OVERVIEW_NAMESPACES);
  return (
    <section aria-labelledby="overview-title" className="mx-auto flex max-w-3xl flex-col gap-4">
      <div>
        <h1 id="overview-title" className="text-2xl font-semibold">
          {t("overview:title")}
        </h1>
        <p className="mt-1 text-sm text-base-content/70">{t("overview:introRespondent", { organization })}</p>
      </div>
      <Announcements items={data.announcements} />
      <OwnWork items={data.ownWork} summary={t("overview:ownWork.summary", { open: data.open, overdue: data.overdue })} />
    </section>
  );
}

export function NoOrganization() {
  const { t } = useTranslation(["overview", "taskStates"]);
  return (
    <section aria-labelledby="overview-title" className="mx-auto max-w-3xl">
      <h1 id="overview-title" className="text-2xl font-semibold">
        {t("title")}
      </h1>
      <div className="mt-6 rounded-box border border-dashed border-base-300 bg-base-100 p-6">
        <h2 className="font-semibold">{t("noOrganization.title")}</h2>
        <p className="mt-2 text-sm text-base-content/80">{t("noOrganization.text")}</p>
      </div>
    </section>
  );
}
