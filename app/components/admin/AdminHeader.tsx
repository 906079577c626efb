import { Link } from "@remix-run/react";
import { useTranslation } from "~/translations";

const LINKS = [
  ["/admin/organizations", "organizations"],
  ["/admin/users", "users"],
  ["/admin/users?view=audit", "audit"],
  ["/admin/credit-reports", "creditReports"],
  ["/admin/suppliers-overview", "suppliersOverview"],
  ["/admin/notifications", "announcements"],
  ["/admin/send-old", "sendOld"],
  ["/admin/integrations", "integrations"],
] as const;

/** The administration screens' heading, their intro and the links between them (plain links: no JavaScript needed). */
export function AdminHeader({
  id,
  title,
  intro,
  current,
  children,
}: {
  id: string;
  title: string;
  intro: string;
  current: (typeof LINKS)[number][1];
  children?: React.ReactNode;
}) {
  const { t } = useTranslation("admin");
  return (
    <header>
      <nav aria-label={t("nav.label")} className="mb-3 flex flex-wrap gap-x-4 gap-y-1 text-sm">
        {LINKS.map(([to, key]) => (
          <Link key={key} to={to} className={`link ${key === current ? "font-semibold" : "link-hover"}`} aria-current={key === current ? "page" : undefined}>
            {t(`nav.${key}`)}
          </Link>
        ))}
      </nav>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h1 id={id} className="text-2xl font-semibold">
            {title}
          </h1>
          <p className="mt-1 max-w-prose text-sm text-base-content/70">{intro}</p>
        </div>
        {children}
      </div>
    </header>
  );
}
