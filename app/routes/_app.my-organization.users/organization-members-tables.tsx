import type { MemberActionTexts } from "~/components/organization/MemberActions";
import { MemberLevelForm, MemberStatusAction } from "~/components/organization/MemberActions";
import { ActionForm } from "~/components/ui/ActionForm";
import { ActiveBadge } from "~/components/ui/ActiveBadge";
import { ListSearch, useListUrls } from "~/components/ui/ListSearch";
import { Pagination } from "~/components/ui/Pagination";
import { TableScroll } from "~/components/ui/TableScroll";
import { listPageHref } from "~/models/admin/admin";
import type { MemberPage, OpenInvitation } from "~/models/accounts/organization-members.server";
import { formatDate, formatDateTime } from "~/models/shared/format";
import { useTranslation } from "~/translations";
import { INTENT, MEMBERS_PATH } from "./organization-members-schema";

const MEMBER_ACTION_TEXTS: MemberActionTexts = {
  levels: "organization:levels",
  levelLabel: "organization:users.levelFor",
  setLevel: "organization:users.changeLevel",
  setLevelNamed: "organization:users.changeLevelFor",
  deactivate: "organization:users.deactivate",
  deactivateNamed: "organization:users.deactivateUser",
  reactivate: "organization:users.reactivate",
  reactivateNamed: "organization:users.reactivateUser",
};

/**
 * The organisation's members: their level, last sign-in and status, and the administrator's changes beside each. An
 * administrator of the installation's row offers no change to the others (the server refuses it): it says why.
 */
export function MemberTable({ manage, operator, members, me, q }: { manage: boolean; operator: boolean; members: MemberPage; me: number; q: string | null }) {
  const { t, i18n } = useTranslation("organization");
  const { here, stepHref } = useListUrls();
  const actionProps = (member: (typeof members.rows)[number]) => ({
    member,
    redirectTo: here,
    deactivateHref: stepHref(member.id),
    size: "sm" as const,
    texts: MEMBER_ACTION_TEXTS,
  });
  return (
    <section aria-labelledby="org-members-heading" className="mt-6">
      <h2 id="org-members-heading" className="text-lg font-semibold">
        {q ? t("users.membersFound", { count: members.total, q }) : t("users.members", { count: members.total })}
      </h2>
      <ListSearch path={MEMBERS_PATH} label={t(manage ? "users.searchManage" : "users.search")} value={q} />
      {members.rows.length === 0 ? (
        <p className="mt-4 rounded-box border border-dashed border-base-300 bg-base-100 p-6">{t("users.noMatch")}</p>
      ) : (
        <TableScroll className="mt-2 rounded-box border border-base-300 bg-base-100" labelledBy={manage ? undefined : "org-members-heading"}>
          <table className="table table-sm">
            <thead>
              <tr>
                <th scope="col">{t("users.columns.email")}</th>
                <th scope="col">{t("users.columns.level")}</th>
                {manage ? <th scope="col">{t("users.columns.lastSignIn")}</th> : null}
                <th scope="col">{t("users.columns.status")}</th>
                {manage ? <th scope="col">{t("users.columns.actions")}</th> : null}
              </tr>
            </thead>
            <tbody>
              {members.rows.map((member) => (
                <tr key={member.id}>
                  <th scope="row" className="font-normal">
                    <span className="inline-block min-w-36 break-words">{member.email}</span>
                    {member.id === me ? <span className="ml-2 badge badge-sm badge-ghost">{t("users.you")}</span> : null}
                    {member.isOperator ? <span className="ml-2 badge badge-sm badge-outline">{t("users.operator")}</span> : null}
                  </th>
                  <td>
                    {manage && (operator || !member.isOperator) ? (
                      <MemberLevelForm {...actionProps(member)} />
                    ) : (
                      t(`levels.${member.accessLevel}`, { defaultValue: String(member.accessLevel) })
                    )}
                  </td>
                  {manage ? (
                    <td className="whitespace-nowrap">
                      {member.lastSignInAt ? (
                        formatDateTime(member.lastSignInAt, i18n.language)
                      ) : (
                        <span className="text-base-content/70">{t("users.never")}</span>
                      )}
                    </td>
                  ) : null}
                  <td>
                    <ActiveBadge
                      deactivated={member.deactivatedAt != null}
                      labels={{ active: t("users.status.active"), deactivated: t("users.status.deactivated") }}
                    />
                  </td>
                  {manage ? (
                    <td>
                      {operator || !member.isOperator ? (
                        <MemberStatusAction {...actionProps(member)} />
                      ) : (
                        <span className="text-sm text-base-content/70">{t("users.operatorOnly")}</span>
                      )}
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      <Pagination
        page={members.page}
        pageCount={members.pageCount}
        pageSize={members.pageSize}
        shown={members.rows.length}
        total={members.total}
        href={(page) => listPageHref(MEMBERS_PATH, q, page)}
      />
    </section>
  );
}

/** The open invitations, newest first, each to be sent again or revoked. */
export function InvitationTable({
  invitations: { rows: invitations, total },
  q,
}: {
  invitations: { rows: OpenInvitation[]; total: number };
  q: string | null;
}) {
  const { t, i18n } = useTranslation("organization");
  const { here } = useListUrls();
  return (
    <section aria-labelledby="org-invitations-heading" className="mt-8">
      <h2 id="org-invitations-heading" className="text-lg font-semibold">
        {t("users.invitations")}
      </h2>
      {invitations.length === 0 ? (
        <p className="mt-2 text-sm text-base-content/70">{t(q ? "users.noInvitationsMatch" : "users.noInvitations")}</p>
      ) : (
        <>
          {total > invitations.length ? (
            <p className="mt-1 text-sm text-base-content/70">{t("users.invitationsNewest", { shown: invitations.length, count: total })}</p>
          ) : null}
          <TableScroll className="mt-2 rounded-box border border-base-300 bg-base-100">
            <table className="table table-sm">
              <thead>
                <tr>
                  <th scope="col">{t("users.columns.email")}</th>
                  <th scope="col">{t("users.columns.level")}</th>
                  <th scope="col">{t("users.columns.sent")}</th>
                  <th scope="col">{t("users.columns.expires")}</th>
                  <th scope="col">{t("users.columns.actions")}</th>
                </tr>
              </thead>
              <tbody>
                {invitations.map((invitation) => (
                  <tr key={invitation.id}>
                    <th scope="row" className="font-normal break-all">
                      {invitation.email}
                    </th>
                    <td>{t(`levels.${invitation.accessLevel}`, { defaultValue: String(invitation.accessLevel) })}</td>
                    <td className="whitespace-nowrap">{formatDate(invitation.sentAt, i18n.language)}</td>
                    <td className="whitespace-nowrap">{formatDate(invitation.expiresAt, i18n.language)}</td>
                    <td>
                      <div className="flex flex-wrap gap-2">
                        <ActionForm intent={INTENT.resend} fields={{ id: invitation.id }} redirectTo={here}>
                          {(form) => (
                            <>
                              <button type="submit" className="btn btn-sm" disabled={form.busy} aria-label={t("users.resendTo", { email: invitation.email })}>
                                {t("users.resend")}
                              </button>
                            </>
                          )}
                        </ActionForm>
                        <ActionForm intent={INTENT.revoke} fields={{ id: invitation.id }} redirectTo={here}>
                          {(form) => (
                            <>
                              <button
                                type="submit"
                                className="btn btn-sm btn-ghost text-error"
                                disabled={form.busy}
                                aria-label={t("users.revokeFor", { email: invitation.email })}
                              >
                                {t("users.revoke")}
                              </button>
                            </>
                          )}
                        </ActionForm>
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        </>
      )}
    </section>
  );
}
