import { Link, useLocation } from "@remix-run/react";
import { useTranslation } from "~/translations";
import type { Language } from "~/i18n";
import { hitFigure } from "./search-figures";

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

/** Where choosing a hit leads: an organisation to its supplier screen (only externalId), a person to the person dialog on this page. */
export function hitHref(result: SearchResultView, index: number, personHref: (personId: number) => string): string | null {
  if (result.tab === "people") {
    const hit = result.people[index];
    return hit ? personHref(hit.pId) : null;
  }
  const hit = result.organizations[index];
  return hit ? `/supplier?externalId=${encodeURIComponent(hit.id)}` : null;
}

/** How many hits the result's own tab holds. */
export function hitCount(result: SearchResultView): number {
  return result.tab === "people" ? result.people.length : result.organizations.length;
}

/**
 * The dropdown's listbox (WAI-ARIA combobox pattern): the options are links the combobox's
 * aria-activedescendant points at; focus stays in the search box.
 */
export interface ListboxProps {
  id: string;
  label: string;
  activeIndex: number;
  optionId: (index: number) => string;
}

// Below sm the figures go under the name, so a phone shows whole company names.
const rowClass = "flex flex-col gap-1 px-4 py-2.5 hover:bg-base-200 focus:bg-base-200 sm:flex-row sm:items-center sm:justify-between sm:gap-4";
const activeRowClass = "bg-base-200 outline-2 -outline-offset-2 outline-primary";

/** Organisation and person hits; the same markup in the dropdown (as a listbox) and on the results page (as a list of links). */
export function SearchResults({ result, onChoose, listbox }: { result: SearchResultView; onChoose?: () => void; listbox?: ListboxProps }) {
  const { t, i18n } = useTranslation("search");
  const personHref = usePersonHref();
  const lng = i18n.language as Language;
  if (!result.q) return <p className="p-4 text-sm text-base-content/70">{t("prompt")}</p>;
  const hits = result.tab === "people" ? result.people : result.organizations;
  if (hits.length === 0) return <p className="p-4 text-sm text-base-content/70">{t("noResults")}</p>;
  const option = (index: number) =>
    listbox
      ? {
          role: "option",
          id: listbox.optionId(index),
          "aria-selected": listbox.activeIndex === index,
          tabIndex: -1,
          className: `${rowClass} ${listbox.activeIndex === index ? activeRowClass : ""}`,
        }
      : { className: rowClass };
  const organizationRow = (hit: OrganizationHit, index: number) => (
    <Link key={hit.id} to={hitHref(result, index, personHref) ?? ""} onClick={onChoose} {...option(index)}>
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
        <span className="shrink-0 text-xs text-base-content/70 sm:text-right">
          <span className="block">
            {t("operatingIncome")}: {hitFigure(hit.opInc, lng)}
          </span>
          <span className="block">
            {t("operatingProfit")}: {hitFigure(hit.opProft, lng)}
          </span>
        </span>
      ) : null}
    </Link>
  );
  const personRow = (hit: PersonHit, index: number) => (
    <Link key={hit.pId} to={hitHref(result, index, personHref) ?? ""} onClick={onChoose} preventScrollReset {...option(index)}>
      <span className="min-w-0">
        <span className="block truncate font-medium">{hit.name}</span>
        <span className="block truncate text-xs text-base-content/70">{hit.orgNam}</span>
      </span>
      <span className="shrink-0 text-xs text-base-content/70">{t("boardScore", { score: Math.round(hit.scor) })}</span>
    </Link>
  );
  const rows = result.tab === "organizations" ? result.organizations.map(organizationRow) : result.people.map(personRow);
  if (listbox) {
    return (
      <div role="listbox" id={listbox.id} aria-label={listbox.label} className="divide-y divide-base-300">
        {rows}
      </div>
    );
  }
  return (
    <ul className="divide-y divide-base-300">
      {rows.map((row) => (
        <li key={row.key}>{row}</li>
      ))}
    </ul>
  );
}
