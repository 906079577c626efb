import { Link, useLocation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { formatThousands } from "~/models/format";
import type { Language } from "~/i18n";

interface OrganizationHit {
  id: string;
  name: string;
  opInc: number | null;
  opProft: number | null;
  is_active: boolean;
  date_of_bankruptcy: string | null;
}
interface PersonHit {
  pId: number;
  name: string;
  scor: number;
  orgNam: string;
}
export interface SearchResultView {
  q: string;
  tab: "organizations" | "people";
  organizations: OrganizationHit[];
  people: PersonHit[];
}

/** Adds `person={id}` to the current URL: the person dialog is URL state on any page. */
export function usePersonHref() {
  const location = useLocation();
  return (personId: number) => {
    const params = new URLSearchParams(location.search);
    params.set("person", String(personId));
    params.delete("personTab");
    return `${location.pathname}?${params}`;
  };
}

/** Organisation and person hits; the same markup in the dropdown and on the results page. */
export function SearchResults({ result, onChoose }: { result: SearchResultView; onChoose?: () => void }) {
  const { t, i18n } = useTranslation("search");
  const personHref = usePersonHref();
  const lng = i18n.language as Language;
  if (!result.q) return <p className="p-4 text-sm text-base-content/70">{t("prompt")}</p>;
  const hits = result.tab === "people" ? result.people : result.organizations;
  if (hits.length === 0) return <p className="p-4 text-sm text-base-content/70">{t("noResults")}</p>;
  return (
    <ul className="divide-y divide-base-300">
      {result.tab === "organizations"
        ? result.organizations.map((hit) => (
            <li key={hit.id}>
              <Link
                to={`/supplier?externalId=${encodeURIComponent(hit.id)}`}
                onClick={onChoose}
                className="flex items-center justify-between gap-4 px-4 py-2.5 hover:bg-base-200 focus:bg-base-200"
              >
                <span className="min-w-0">
                  <span className="block truncate font-medium">{hit.name}</span>
                  <span className="block text-xs text-base-content/70">
                    {t("orgNumber", { id: hit.id })}
                    {hit.date_of_bankruptcy ? (
                      <span className="badge badge-error badge-xs ml-2">{t("bankrupt")}</span>
                    ) : !hit.is_active ? (
                      <span className="badge badge-warning badge-xs ml-2">{t("inactive")}</span>
                    ) : null}
                  </span>
                </span>
                {hit.opInc != null ? (
                  <span className="shrink-0 text-right text-xs text-base-content/70">
                    <span className="block">
                      {t("operatingIncome")}: {formatThousands(hit.opInc, lng)}
                    </span>
                    <span className="block">
                      {t("operatingProfit")}: {formatThousands(hit.opProft, lng)}
                    </span>
                  </span>
                ) : null}
              </Link>
            </li>
          ))
        : result.people.map((hit) => (
            <li key={hit.pId}>
              <Link
                to={personHref(hit.pId)}
                onClick={onChoose}
                preventScrollReset
                className="flex items-center justify-between gap-4 px-4 py-2.5 hover:bg-base-200 focus:bg-base-200"
              >
                <span className="min-w-0">
                  <span className="block truncate font-medium">{hit.name}</span>
                  <span className="block truncate text-xs text-base-content/70">{hit.orgNam}</span>
                </span>
                <span className="shrink-0 text-xs text-base-content/70">{t("boardScore", { score: Math.round(hit.scor) })}</span>
              </Link>
            </li>
          ))}
    </ul>
  );
}
