import { Link } from "@remix-run/react";
import type { SerializeFrom } from "@remix-run/node";
import { OwnershipTree, supplierHref, TreeToggle, useOwnershipTrees } from "~/components/supplier/OwnershipTree";
import { Icon } from "~/components/ui/icons";
import type { Language } from "~/i18n";
import { formatOwnership } from "~/models/shared/format";
import type { CompanyGroup, GroupEntry } from "~/models/registry/org-structure.server";
import { useTranslation } from "~/translations";

export const EXPLORER_PATH = "/org-structure-explorer";

export function explorerHref(orgNumber: string): string {
  return `${EXPLORER_PATH}?org=${encodeURIComponent(orgNumber)}`;
}

/**
 * A company's group (decision 041): who owns it, what it owns — each holding with the supplier screen's ownership
 * tree, expanded through the URL (`tree=`; a link without JavaScript) — its sub-units, and which companies of the
 * group use this app. A company's name opens its own group in the explorer.
 */
export function CompanyGroupView({ group, showSupplierLink }: { group: SerializeFrom<CompanyGroup>; showSupplierLink: boolean }) {
  const { t, i18n } = useTranslation("organization");
  const lng = (i18n.language === "no" ? "no" : "en") as Language;
  const trees = useOwnershipTrees(group.trees);
  const inApp = new Set(group.appOrganizations);
  const badge = (orgNumber: string) =>
    inApp.has(orgNumber) ? <span className="badge badge-sm badge-primary badge-outline shrink-0">{t("structure.inApp")}</span> : null;
  const percent = (value: number | null) => <span className="shrink-0 text-sm tabular-nums">{formatOwnership(value, lng)}</span>;
  const row = (entry: GroupEntry) => (
    <div className="flex items-center gap-2">
      <Icon name="building" className="size-4 shrink-0 text-base-content/50" />
      <Link to={explorerHref(entry.orgNumber)} className="link link-hover min-w-0 flex-1 truncate font-medium">
        {entry.name}
      </Link>
      {badge(entry.orgNumber)}
    </div>
  );
  return (
    <div className="mt-6 flex flex-col gap-6">
      <section aria-labelledby="group-company" className="rounded-box border border-base-300 bg-base-100 p-5">
        <h2 id="group-company" className="flex flex-wrap items-center gap-2 text-lg font-semibold">
          {group.company.name}
          {badge(group.company.orgNumber)}
        </h2>
        <p className="mt-1 text-sm text-base-content/70">
          {t("structure.orgNumber", { orgNumber: group.company.orgNumber })}
          {showSupplierLink ? (
            <>
              {" · "}
              <Link to={supplierHref(group.company.orgNumber)} className="link">
                {t("structure.supplierScreen")}
              </Link>
            </>
          ) : null}
        </p>
        {group.superior ? (
          <p className="mt-2 text-sm">
            {t("structure.subUnitOf")}{" "}
            <Link to={explorerHref(group.superior.orgNumber)} className="link">
              {group.superior.name}
            </Link>
          </p>
        ) : null}
      </section>

      <GroupList
        id="group-owners"
        heading={t("structure.owners")}
        empty={t("structure.ownersEmpty")}
        label={t("structure.ownersOf", { name: group.company.name })}
        items={group.owners}
        item={(owner) => (
          <li key={owner.orgNumber} className="flex items-center gap-2 py-1.5">
            <div className="min-w-0 flex-1">{row(owner)}</div>
            {percent(owner.ownership)}
          </li>
        )}
        note={group.personOwners > 0 ? t("structure.personOwners", { count: group.personOwners }) : null}
      />

      <GroupList
        id="group-subsidiaries"
        heading={t("structure.subsidiaries")}
        empty={t("structure.subsidiariesEmpty")}
        label={t("structure.subsidiariesOf", { name: group.company.name })}
        items={group.subsidiaries}
        item={(entry, i) => {
          const open = trees.isOpen(entry.orgNumber);
          const anchor = `subsidiary-${i}`;
          const treeId = `subsidiary-tree-${entry.orgNumber}`;
          return (
            <li key={entry.orgNumber} id={anchor} className="scroll-mt-24 py-1.5">
              <div className="flex flex-wrap items-center gap-2">
                <div className="min-w-0 flex-1">{row(entry)}</div>
                <TreeToggle name={entry.name} open={open} href={trees.toggleHref(entry.orgNumber)} anchor={anchor} controls={treeId} />
                {percent(entry.ownership)}
              </div>
              {open ? <OwnershipTree id={treeId} name={entry.name} tree={trees.tree(entry.orgNumber)} loading={trees.loading} /> : null}
            </li>
          );
        }}
      />

      <GroupList
        id="group-subunits"
        heading={t("structure.subUnits")}
        empty={t("structure.subUnitsEmpty")}
        label={t("structure.subUnitsOf", { name: group.company.name })}
        items={group.subUnits}
        item={(unit) => (
          <li key={unit.orgNumber} className="flex flex-wrap items-baseline gap-x-3 py-1.5 text-sm">
            <span className="font-medium">{unit.name}</span>
            <span className="text-base-content/70">
              {unit.orgNumber}
              {unit.municipality ? ` · ${unit.municipality}` : ""}
            </span>
            {badge(unit.orgNumber)}
          </li>
        )}
        note={
          group.subUnits.length > 0 && group.subUnitsTotal > group.subUnits.length
            ? t("structure.subUnitsMore", { shown: group.subUnits.length, total: group.subUnitsTotal })
            : null
        }
      />

      <section aria-labelledby="group-in-app" className="rounded-box border border-base-300 bg-base-100 p-5">
        <h2 id="group-in-app" className="text-lg font-semibold">
          {t("structure.inAppHeading")}
        </h2>
        <p className="mt-2 text-sm">
          {group.appOrganizations.length === 0 ? t("structure.inAppNone") : t("structure.inAppCount", { count: group.appOrganizations.length })}
        </p>
      </section>
    </div>
  );
}

/** One list of the group (owners, subsidiaries, sub-units): its heading, the empty state or the list, and a note under it. */
function GroupList<T>({
  id,
  heading,
  empty,
  label,
  items,
  item,
  note = null,
}: {
  id: string;
  heading: string;
  /** Said when the list is empty. */
  empty: string;
  /** The list's accessible name. */
  label: string;
  items: readonly T[];
  /** One `<li>` (with its key). */
  item: (entry: T, index: number) => React.ReactNode;
  /** A line under the list (what it leaves out), if any. */
  note?: string | null;
}) {
  return (
    <section aria-labelledby={id} className="rounded-box border border-base-300 bg-base-100 p-5">
      <h2 id={id} className="text-lg font-semibold">
        {heading}
      </h2>
      {items.length === 0 ? (
        <p className="mt-2 text-sm text-base-content/70">{empty}</p>
      ) : (
        <ul aria-label={label} className="mt-2 divide-y divide-base-300">
          {items.map(item)}
        </ul>
      )}
      {note ? <p className="mt-2 text-xs text-base-content/70">{note}</p> : null}
    </section>
  );
}
