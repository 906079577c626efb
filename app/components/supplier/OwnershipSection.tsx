import { Link } from "@remix-run/react";
import { useTranslation } from "~/translations";
import { usePersonLink } from "~/components/person/person-link";
import { Icon } from "~/components/ui/icons";
import type { Language } from "~/i18n";
import { formatOwnership } from "~/models/shared/format";
import type { SupplierScreenData } from "~/models/suppliers/supplier-screen.server";
import { OwnershipTree, parseReference, supplierHref, TreeToggle, useOwnershipTrees } from "./OwnershipTree";
import { Empty, Section } from "./Section";

type Entry = SupplierScreenData["shareholders"][number];

/**
 * Shareholders (who owns the supplier) or company shares (what it owns), by
 * `extra`: name and ownership with 2 decimals; an organisation links to its
 * supplier screen and can expand its ownership tree, a person opens the
 * person dialog.
 */
export function OwnershipSection({ data, extra }: { data: SupplierScreenData; extra?: string }) {
  const { t, i18n } = useTranslation("people");
  const lng = (i18n.language === "no" ? "no" : "en") as Language;
  const personLink = usePersonLink();
  const trees = useOwnershipTrees(data.trees);
  const kind = extra === "shares" ? "shares" : "shareholders";
  const sectionId = kind === "shares" ? "company-shares" : "shareholders";
  const title = kind === "shares" ? t("ownership.sharesTitle") : t("ownership.shareholdersTitle");
  const entries: Entry[] = kind === "shares" ? data.shares : data.shareholders;

  return (
    <Section id={sectionId} title={title}>
      {entries.length === 0 ? (
        <Empty>{kind === "shares" ? t("ownership.sharesEmpty") : t("ownership.shareholdersEmpty")}</Empty>
      ) : (
        <div className="max-h-[16rem] overflow-y-auto overscroll-contain pr-1">
          <ul aria-label={t("ownership.listLabel", { title, name: data.company.legal_name })} className="divide-y divide-base-300">
            {entries.map((entry, i) => {
              const target = parseReference(entry.reference);
              const anchor = `${sectionId}-${i}`;
              const percent = <span className="shrink-0 text-sm tabular-nums">{formatOwnership(entry.ownership, lng)}</span>;
              if (target?.kind === "organization") {
                const open = trees.isOpen(target.id);
                const treeId = `${sectionId}-tree-${target.id}`;
                return (
                  <li key={entry.reference} id={anchor} className="scroll-mt-24 py-1.5">
                    <div className="flex items-center gap-2">
                      <Icon name="building" className="size-4 shrink-0 text-base-content/50" />
                      <Link to={supplierHref(target.id)} className="link link-hover min-w-0 flex-1 truncate font-medium">
                        {entry.name}
                      </Link>
                      <TreeToggle name={entry.name} open={open} href={trees.toggleHref(target.id)} anchor={anchor} controls={treeId} />
                      {percent}
                    </div>
                    {open ? <OwnershipTree id={treeId} name={entry.name} tree={trees.tree(target.id)} loading={trees.loading} /> : null}
                  </li>
                );
              }
              const link = target?.kind === "person" ? personLink(target.id) : null;
              return (
                <li key={`${entry.reference}-${i}`} id={anchor} className="flex items-center gap-2 py-1.5">
                  <Icon name="user" className="size-4 shrink-0 text-base-content/50" />
                  {link ? (
                    <Link to={link.to} state={link.state} preventScrollReset className="link link-hover min-w-0 flex-1 truncate font-medium">
                      {entry.name}
                    </Link>
                  ) : (
                    <span className="min-w-0 flex-1 truncate font-medium">{entry.name}</span>
                  )}
                  {percent}
                </li>
              );
            })}
          </ul>
        </div>
      )}
    </Section>
  );
}
