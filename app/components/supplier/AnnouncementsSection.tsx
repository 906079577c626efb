import { Link, useLocation, useSearchParams } from "@remix-run/react";
import { useTranslation } from "~/translations";
import { formatDate, MISSING } from "~/models/shared/format";
import { announcementRiskLabel, type AnnouncementRiskLabel, type RiskColor } from "~/models/suppliers/risk";
import type { SupplierScreenData } from "~/models/suppliers/supplier-screen.server";
import { badgeClass } from "~/components/risk/colors";
import { ANNOUNCEMENTS_SHOWN, visibleItems } from "./supplier-screen-rules";
import { withParams } from "./screen-url";
import { Empty, Section } from "./Section";

const LABEL_COLOR: Record<AnnouncementRiskLabel, RiskColor> = { High: "red", Medium: "yellow", Low: "green" };

/**
 * Announcements (shared/spec/02-supplier-credit-connections.md §4, §9): newest first, 5 by default and all with
 * announcements=all; the toggle is a link, so it works without JavaScript.
 */
export function AnnouncementsSection({ data }: { data: SupplierScreenData; extra?: string }) {
  const { t, i18n } = useTranslation("supplier");
  const { search } = useLocation();
  const [params] = useSearchParams();
  const all = params.get("announcements") === "all";
  const list = data.announcements;
  const { shown } = visibleItems(list, all, ANNOUNCEMENTS_SHOWN);
  const toggle =
    list.length > ANNOUNCEMENTS_SHOWN ? (
      <Link
        to={withParams(search, { announcements: all ? null : "all" }) + "#announcements"}
        preventScrollReset
        replace
        className="link link-primary text-sm"
        aria-expanded={all}
        aria-controls="announcements-list"
      >
        {all ? t("announcements.showFewer") : t("announcements.showAll", { count: list.length })}
      </Link>
    ) : undefined;
  return (
    <Section id="announcements" title={t("announcements.title")} actions={toggle}>
      {list.length === 0 ? (
        <Empty>{t("announcements.empty")}</Empty>
      ) : (
        <ul id="announcements-list" className="divide-y divide-base-300">
          {shown.map((a) => {
            const label = announcementRiskLabel(a.risk);
            return (
              <li key={a.id} className="flex items-start gap-3 py-2 text-sm">
                <div className="min-w-0 flex-1">
                  <div className="flex flex-wrap items-baseline gap-x-2">
                    <time dateTime={a.date} className="shrink-0 text-base-content/70 tabular-nums">
                      {formatDate(a.date, i18n.language)}
                    </time>
                    <span className="font-medium">{a.type}</span>
                  </div>
                  <p className="break-words">{a.detail ?? MISSING}</p>
                </div>
                <span className={`${badgeClass(LABEL_COLOR[label])} badge-sm shrink-0`}>
                  <span className="sr-only">{t("announcements.riskLabel")}: </span>
                  {t(`announcements.risk.${label}`)}
                </span>
              </li>
            );
          })}
        </ul>
      )}
    </Section>
  );
}
