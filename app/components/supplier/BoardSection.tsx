import { Link } from "@remix-run/react";
import { useTranslation } from "~/translations";
import { usePersonLink } from "~/components/person/person-link";
import { formatDate } from "~/models/shared/format";
import { isCeo, isChairman, sortBoardByScore } from "~/models/suppliers/risk";
import { roleLabel } from "~/models/registry/roles";
import type { SupplierScreenData } from "~/models/suppliers/supplier-screen.server";
import { parseReference } from "./OwnershipTree";
import { uiLanguage } from "~/i18n";
import { Empty, Section } from "./Section";

/**
 * The current board (`extra="current"`) or the former board (`extra="former"`):
 * members by boardscore, highest first (shared/spec/02-supplier-credit-connections.md §9), each opening the person
 * dialog, with CEO and Chairman badges found from the position (shared/spec/02-supplier-credit-connections.md §6).
 */
export function BoardSection({ data, extra }: { data: SupplierScreenData; extra?: string }) {
  const { t, i18n } = useTranslation("people");
  const lng = uiLanguage(i18n.language);
  const personLink = usePersonLink();
  const former = extra === "former";
  const id = former ? "former-board" : "board";
  const title = former ? t("board.formerTitle") : t("board.currentTitle");
  const members = sortBoardByScore(former ? data.boardFormer : data.board);

  return (
    <Section id={id} title={title}>
      {members.length === 0 ? (
        <Empty>{former ? t("board.formerEmpty") : t("board.currentEmpty")}</Empty>
      ) : (
        <div className="max-h-[16rem] overflow-y-auto overscroll-contain pr-1">
          <ul aria-label={title} className="divide-y divide-base-300">
            {members.map((member, i) => {
              const target = parseReference(member.person);
              const link = target?.kind === "person" ? personLink(target.id) : null;
              const period = member.active_to
                ? t("board.period", { from: formatDate(member.active_from, lng), to: formatDate(member.active_to, lng) })
                : t("board.since", { date: formatDate(member.active_from, lng) });
              return (
                <li key={`${member.person}-${member.position}-${i}`} className="flex items-center justify-between gap-3 py-2">
                  <div className="min-w-0">
                    <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
                      {link ? (
                        <Link to={link.to} state={link.state} preventScrollReset className="link link-hover font-medium">
                          {member.name}
                        </Link>
                      ) : (
                        <span className="font-medium">{member.name}</span>
                      )}
                      {isChairman(member.position) ? <span className="badge badge-primary badge-sm">{t("board.chairman")}</span> : null}
                      {isCeo(member.position) ? <span className="badge badge-secondary badge-sm">{t("board.ceo")}</span> : null}
                    </div>
                    <p className="text-xs text-base-content/70">
                      {roleLabel(member.position, t)} <span aria-hidden="true">·</span> <span className="whitespace-nowrap">{period}</span>
                    </p>
                  </div>
                  <div className="shrink-0 text-right">
                    <span className="block text-xs text-base-content/70">{t("board.boardscore")}</span>
                    <span className="font-semibold tabular-nums">{Math.round(member.boardscore)}</span>
                  </div>
                </li>
              );
            })}
          </ul>
        </div>
      )}
    </Section>
  );
}
