import { Link, useLocation, useSearchParams } from "@remix-run/react";
import { useTranslation } from "~/translations";
import type { SupplierScreenData } from "~/models/suppliers/supplier-screen.server";
import { INTELLIGENCE_COLLAPSED_ITEMS, visibleItems } from "./supplier-screen-rules";
import { readIntelligence, type IntelligenceItem } from "./intelligence-text";
import { withParams } from "./screen-url";
import { Empty, Section } from "./Section";

/**
 * Supplier intelligence (shared/spec/02-supplier-credit-connections.md §4), composed from the registry's facts
 * (decision 028) and labelled so. Collapsed it shows 2 names per list; expanded
 * (intelligence=expanded, a link, so it works without JavaScript) every item
 * with its description and the source snippet. Lists the registry says nothing
 * about (certifications, ESG) are empty and render nothing.
 */
export function IntelligenceSection({ data }: { data: SupplierScreenData; extra?: string }) {
  const { t, i18n } = useTranslation("supplier");
  const { search } = useLocation();
  const [params] = useSearchParams();
  const intel = readIntelligence(data.intelligence);
  const expanded = params.get("intelligence") === "expanded";
  if (!intel) {
    return (
      <Section id="intelligence" title={t("intelligence.title")}>
        <Empty>{t("intelligence.empty")}</Empty>
      </Section>
    );
  }
  const badge = (
    <span className="badge badge-sm h-auto border border-sky-300 bg-sky-100 text-sky-900">
      {intel.writtenByModel ? t("intelligence.fromModel", { model: intel.writtenByModel }) : t("intelligence.fromRegistry")}
    </span>
  );
  const lists: Array<{ key: string; items: IntelligenceItem[] }> = [
    { key: "products", items: intel.products },
    { key: "services", items: intel.services },
    { key: "certifications", items: intel.certifications },
    { key: "environmental", items: intel.esg.environmental },
    { key: "social", items: intel.esg.social },
    { key: "governance", items: intel.esg.governance },
  ];
  const tags = visibleItems(intel.tags, expanded, INTELLIGENCE_COLLAPSED_ITEMS);
  const key = intel.keyInformation;
  const keyRows = [
    { key: "email", value: key.email },
    { key: "phone", value: key.phone },
    { key: "address", value: key.address },
    { key: "organizationNumber", value: key.organization_number },
  ].filter((r): r is { key: string; value: string } => Boolean(r.value));
  return (
    <Section
      id="intelligence"
      title={t("intelligence.title")}
      actions={
        <Link
          to={withParams(search, { intelligence: expanded ? null : "expanded" }) + "#intelligence"}
          preventScrollReset
          replace
          className="link link-primary text-sm"
          aria-expanded={expanded}
          aria-controls="intelligence-body"
        >
          {expanded ? t("intelligence.collapse") : t("intelligence.expand")}
        </Link>
      }
    >
      <div id="intelligence-body" lang={intel.language} className="flex flex-col gap-3 text-sm">
        <div lang={i18n.language} className="flex flex-wrap items-center gap-2">
          {badge}
          {intel.language !== i18n.language && intel.language === "en" ? (
            <span className="text-xs text-base-content/70">{t("intelligence.writtenIn")}</span>
          ) : null}
        </div>
        {intel.description ? <p>{intel.description}</p> : null}
        {tags.shown.length ? (
          <div>
            <h3 className="sr-only">{t("intelligence.tags")}</h3>
            <ul className="flex flex-wrap gap-1">
              {tags.shown.map((tag) => (
                <li key={tag} className="badge badge-sm border border-base-300 bg-base-200">
                  {tag}
                </li>
              ))}
              {tags.hidden ? <li className="text-xs text-base-content/70">{t("intelligence.more", { count: tags.hidden })}</li> : null}
            </ul>
          </div>
        ) : null}
        <div className="grid gap-3 sm:grid-cols-2">
          {lists
            .filter((l) => l.items.length > 0)
            .map((l) => {
              const { shown, hidden } = visibleItems(l.items, expanded, INTELLIGENCE_COLLAPSED_ITEMS);
              return (
                <div key={l.key} className={expanded ? "sm:col-span-2" : undefined}>
                  <h3 className="font-semibold">{t(`intelligence.lists.${l.key}`)}</h3>
                  <ul className="mt-1 list-disc pl-5">
                    {shown.map((item, i) => (
                      <li key={`${item.name}-${i}`}>
                        <span className={expanded && item.description ? "font-medium" : undefined}>{item.name}</span>
                        {expanded && item.description ? <p className="text-base-content/80">{item.description}</p> : null}
                      </li>
                    ))}
                  </ul>
                  {hidden ? <p className="mt-1 text-xs text-base-content/70">{t("intelligence.more", { count: hidden })}</p> : null}
                </div>
              );
            })}
        </div>
        {expanded && keyRows.length ? (
          <div>
            <h3 className="font-semibold">{t("intelligence.keyInformation")}</h3>
            <dl className="mt-1 grid grid-cols-1 gap-x-4 gap-y-1 sm:grid-cols-[minmax(8rem,auto)_1fr]">
              {keyRows.map((r) => (
                <div key={r.key} className="contents">
                  <dt className="text-base-content/70">{t(`intelligence.key.${r.key}`)}</dt>
                  <dd className="min-w-0 break-words">{r.value}</dd>
                </div>
              ))}
            </dl>
          </div>
        ) : null}
        {intel.source.url || intel.source.title ? (
          <div className="border-t border-base-300 pt-2 text-xs text-base-content/70">
            <span>{t("intelligence.source")}: </span>
            {intel.source.url ? (
              <a href={intel.source.url} target="_blank" rel="noopener noreferrer" className="link">
                {intel.source.title ?? intel.source.url}
              </a>
            ) : (
              <span>{intel.source.title}</span>
            )}
            {expanded && intel.source.snippet ? <blockquote className="mt-1 border-l-2 border-base-300 pl-2 italic">{intel.source.snippet}</blockquote> : null}
          </div>
        ) : null}
      </div>
    </Section>
  );
}
