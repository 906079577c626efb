import { Link } from "@remix-run/react";
import { useTranslation } from "~/translations";
import { usePersonLink } from "~/components/person/person-link";
import type { SupplierScreenData } from "~/models/suppliers/supplier-screen.server";
import { parseReference, supplierHref } from "./OwnershipTree";
import { Empty, Section } from "./Section";

/**
 * People who share other boards with the supplier's board members, most
 * shared boards first (shared/spec/02-supplier-credit-connections.md §2, §9); each opens the person dialog and
 * lists the shared boards as links to their supplier screens.
 */
export function BoardRelations({ data }: { data: SupplierScreenData; extra?: string }) {
  const { t } = useTranslation("people");
  const personLink = usePersonLink();
  // Stable sort: the loader's name order stays within equal counts.
  const relations = [...data.boardRelations].sort((a, b) => b.sharedBoards.length - a.sharedBoards.length);

  return (
    <Section id="board-relations" title={t("relations.title")}>
      {relations.length === 0 ? (
        <Empty>{t("relations.empty")}</Empty>
      ) : (
        <>
          <p className="mb-2 text-xs text-base-content/70">{t("relations.lead")}</p>
          <div className="max-h-[16rem] overflow-y-auto overscroll-contain pr-1">
            <ul aria-label={t("relations.title")} className="divide-y divide-base-300">
              {relations.map((relation) => {
                const target = parseReference(relation.person);
                const link = target?.kind === "person" ? personLink(target.id) : null;
                return (
                  <li key={relation.person} className="py-2">
                    <div className="flex flex-wrap items-baseline justify-between gap-x-3">
                      {link ? (
                        <Link to={link.to} state={link.state} preventScrollReset className="link link-hover font-medium">
                          {relation.name}
                        </Link>
                      ) : (
                        <span className="font-medium">{relation.name}</span>
                      )}
                      <span className="text-xs text-base-content/70">{t("relations.sharedBoards", { count: relation.sharedBoards.length })}</span>
                    </div>
                    {relation.via.length ? <p className="text-xs text-base-content/70">{t("relations.via", { names: relation.via.join(", ") })}</p> : null}
                    <ul aria-label={t("relations.sharedBoardsLabel", { name: relation.name })} className="mt-1 flex flex-wrap gap-x-3 gap-y-0.5 text-sm">
                      {relation.sharedBoards.map((board) => {
                        const org = parseReference(board.organization);
                        return (
                          <li key={board.organization}>
                            {org?.kind === "organization" ? (
                              <Link to={supplierHref(org.id)} className="link link-hover">
                                {board.organization_name}
                              </Link>
                            ) : (
                              board.organization_name
                            )}
                          </li>
                        );
                      })}
                    </ul>
                  </li>
                );
              })}
            </ul>
          </div>
        </>
      )}
    </Section>
  );
}
