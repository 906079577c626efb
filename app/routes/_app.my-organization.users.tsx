import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { MemberLevelForm, MemberStatusAction, type MemberActionTexts } from "~/components/organization/MemberActions";
import { ActionForm, FieldError } from "~/components/ui/ActionForm";
import { ConfirmStep } from "~/components/ui/ConfirmStep";
import { GeneralErrorBoundary } from "~/components/ui/GeneralErrorBoundary";
import { ListSearch, useListUrls } from "~/components/ui/ListSearch";
import { titleMeta } from "~/components/ui/meta";
import { Pagination } from "~/components/ui/Pagination";
import { TableScroll } from "~/components/ui/TableScroll";
import { ActiveBadge } from "~/components/ui/ActiveBadge";
import { requireUser } from "~/http/auth.server";
import { redirectWithNotice } from "~/http/notice.server";
import { parseId, readForm } from "~/http/parse.server";
import { can } from "~/http/permissions";
import { backTo } from "~/http/redirect.server";
import i18nServer from "~/i18n.server";
import { listPageHref, searchTerm, withoutStep } from "~/models/admin/admin";
import { publicOrigin, sendInvitation } from "~/models/accounts/auth-mail.server";
import { formatDate, formatDateTime } from "~/models/shared/format";
import {
  changeMemberLevel,
  deactivateMember,
  inviteMember,
  listMembers,
  listOpenInvitations,
  reactivateMember,
  resendInvitation,
  revokeInvitation,
  type MemberChange,
} from "~/models/accounts/organization-members.server";
import { pageTitle } from "~/models/shared/page-title.server";
import { requestSource } from "~/models/accounts/security-events.server";
import { useTranslation } from "~/translations";

export const meta = titleMeta;

/** The translation namespaces this screen renders besides the root's (the browser loads only these). */
export const handle = { i18n: ["organization"] };

const PATH = "/my-organization/users";
const LEVELS = ["1", "2", "3"] as const;
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

type Translate = (key: string, options?: Record<string, unknown>) => string;

const idField = (t: Translate) =>
  z.string({ error: t("organization:users.errors.notFound") }).transform((value, ctx) => {
    const id = parseId(value);
    if (id === null) ctx.addIssue({ code: "custom", message: t("organization:users.errors.notFound") });
    return id ?? 0;
  });
const levelField = (t: Translate) => z.enum(LEVELS, { error: t("organization:users.errors.level") }).transform((v) => Number(v) as 1 | 2 | 3);
const redirectTo = z.string().optional();

const inviteSchema = (t: Translate) =>
  z.object({
    intent: z.literal("invite"),
    email: z
      .string({ error: t("organization:users.errors.emailRequired") })
      .trim()
      .min(1, t("organization:users.errors.emailRequired"))
      .max(254, t("organization:users.errors.emailInvalid"))
      .pipe(z.email({ error: t("organization:users.errors.emailInvalid") })),
    accessLevel: levelField(t),
    redirectTo,
  });
const levelSchema = (t: Translate) => z.object({ intent: z.literal("level"), id: idField(t), accessLevel: levelField(t), redirectTo });
const rowSchema = (t: Translate) => z.object({ intent: z.enum(["deactivate", "reactivate", "resend", "revoke"]), id: idField(t), redirectTo });

/**
 * /my-organization/users (decision 041): the organisation's members for every member; their last sign-in,
 * the open invitations and every change for its administrator (organizationManage). Paged (MEMBERS_PAGE_SIZE) and
 * searched by email (`q`, `page`: the list's URL state, which every change comes back to); the search narrows the open
 * invitations too, of which the newest INVITATIONS_SHOWN are listed. `?deactivate={id}` is the confirmation step of a
 * deactivation.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request, "organizationRead");
  const manage = can(user, "organizationManage");
  const { organizationId } = user;
  const url = new URL(request.url);
  const q = searchTerm(url.searchParams.get("q"));
  const members = await listMembers({ organizationId, search: q, page: parseId(url.searchParams.get("page")) });
  const invitations = manage ? await listOpenInvitations({ organizationId, search: q }) : { rows: [], total: 0 };
  const deactivateId = manage ? parseId(url.searchParams.get("deactivate")) : null;
  const confirm = deactivateId ? (members.rows.find((m) => m.id === deactivateId && m.deactivatedAt == null) ?? null) : null;
  return json({
    manage,
    me: user.id,
    organizationName: user.organizationName,
    q,
    // The security log's sign-ins are the administrator's to see (decision 041).
    members: manage ? members : { ...members, rows: members.rows.map((m) => ({ ...m, lastSignInAt: null })) },
    invitations,
    confirm,
    title: await pageTitle(request, "organization:users.title"),
  });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, "organizationManage");
  const formData = await readForm(request);
  const t = await i18nServer.getFixedT(request);
  const intent = formData.get("intent");
  const actor = { organizationId: user.organizationId, actorUserId: user.id, source: requestSource(request, context as { clientAddress?: string | null }) };
  // With JavaScript too an accepted change redirects with its notice (the fetcher follows it, the root shows it), to the
  // list as it was shown — its search and page, without the confirmation step (decision 047).
  // A failed invitation mail is in the mail log (decision 044): the operator sends it again there, an administrator by Resend.
  const mailFailed = can(user, "admin") ? "organization:users.notices.mailFailedAdmin" : "organization:users.notices.mailFailed";
  const done = (notice: `organization:${string}`) =>
    redirectWithNotice(request, withoutStep(backTo(request, formData.get("redirectTo"), PATH)), notice, {
      tone: notice === mailFailed ? "warning" : "success",
    });

  if (intent === "invite") {
    const submission = parseWithZod(formData, { schema: inviteSchema(t) });
    if (submission.status !== "success") return json({ intent, result: submission.reply() }, { status: 400 });
    const invited = await inviteMember({ ...actor, email: submission.value.email, accessLevel: submission.value.accessLevel });
    if (!invited.ok)
      return json({ intent, result: submission.reply({ fieldErrors: { email: [t(`organization:users.errors.${invited.problem}`)] } }) }, { status: 409 });
    const mailed = await sendInvitation(publicOrigin(request), {
      variant: "member",
      email: invited.email,
      token: invited.token,
      language: user.language,
      organization: user.organizationName,
    });
    return done(mailed ? "organization:users.notices.invited" : mailFailed);
  }
  if (intent === "level") {
    const submission = parseWithZod(formData, { schema: levelSchema(t) });
    if (submission.status !== "success") return json({ intent, result: submission.reply() }, { status: 400 });
    const outcome = await changeMemberLevel({ ...actor, id: submission.value.id, accessLevel: submission.value.accessLevel });
    const refused = refusal(t, intent, submission, outcome);
    return refused ?? done("organization:users.notices.levelChanged");
  }
  const submission = parseWithZod(formData, { schema: rowSchema(t) });
  if (submission.status !== "success") {
    const known = typeof intent === "string" && ["deactivate", "reactivate", "resend", "revoke"].includes(intent);
    return json(
      { intent: known ? intent : null, result: submission.reply({ formErrors: known ? [] : [t("organization:users.errors.invalidRequest")] }) },
      { status: 400 },
    );
  }
  const { id } = submission.value;
  switch (submission.value.intent) {
    case "deactivate": {
      const refused = refusal(t, "deactivate", submission, await deactivateMember({ ...actor, id }));
      return refused ?? done("organization:users.notices.deactivated");
    }
    case "reactivate": {
      const refused = refusal(t, "reactivate", submission, await reactivateMember({ ...actor, id }));
      return refused ?? done("organization:users.notices.reactivated");
    }
    case "resend": {
      const resent = await resendInvitation({ ...actor, id });
      if (!resent) return notFound(t, "resend", submission);
      const mailed = await sendInvitation(publicOrigin(request), {
        variant: "member",
        email: resent.email,
        token: resent.token,
        language: user.language,
        organization: user.organizationName,
      });
      return done(mailed ? "organization:users.notices.resent" : mailFailed);
    }
    case "revoke": {
      if (!(await revokeInvitation({ ...actor, id }))) return notFound(t, "revoke", submission);
      return done("organization:users.notices.revoked");
    }
  }
}

type Replying = { reply: (options?: { formErrors?: string[] }) => unknown };

function notFound(t: Translate, intent: string, submission: Replying) {
  return json({ intent, result: submission.reply({ formErrors: [t("organization:users.errors.notFound")] }) }, { status: 404 });
}

/** A member change the model refused: 404 for another organisation's or an unknown user, 409 for the last administrator. */
function refusal(t: Translate, intent: string, submission: Replying, outcome: MemberChange) {
  if (outcome === "notFound") return notFound(t, intent, submission);
  if (outcome === "lastAdmin") return json({ intent, result: submission.reply({ formErrors: [t("organization:users.errors.lastAdmin")] }) }, { status: 409 });
  return null;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

export default function MyOrganizationUsers() {
  const { manage, invitations, confirm, organizationName } = useLoaderData<typeof loader>();
  const { t } = useTranslation("organization");
  const { here } = useListUrls();
  return (
    <section aria-labelledby="org-users-title" className="mx-auto max-w-5xl">
      <h1 id="org-users-title" className="text-2xl font-semibold">
        {t("users.title")}
      </h1>
      <p className="mt-1 max-w-prose text-sm text-base-content/70">{t(manage ? "users.introManage" : "users.intro", { organization: organizationName })}</p>
      {confirm ? (
        <ConfirmStep
          title={t("users.confirm.title")}
          detail={confirm.email}
          text={t("users.confirm.text")}
          intent="deactivate"
          fields={{ id: confirm.id }}
          confirmLabel={t("users.deactivate")}
          busyLabel={t("users.deactivating")}
          cancelLabel={t("common:cancel")}
          cancelHref={here}
          redirectTo={here}
        />
      ) : null}
      <MemberTable />
      {manage ? (
        <>
          <InvitationTable invitations={invitations} />
          {/* A new invitation gives a new, empty form (the accepted post redirects, so the fetcher has no answer to reset on). */}
          <InviteForm key={invitations.rows.map((i) => i.id).join("-")} redirectTo={here} />
        </>
      ) : null}
    </section>
  );
}

function MemberTable() {
  const { manage, members, me, q } = useLoaderData<typeof loader>();
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
      <ListSearch path={PATH} label={t(manage ? "users.searchManage" : "users.search")} value={q} />
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
                  </th>
                  <td>
                    {manage ? <MemberLevelForm {...actionProps(member)} /> : t(`levels.${member.accessLevel}`, { defaultValue: String(member.accessLevel) })}
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
                      <MemberStatusAction {...actionProps(member)} />
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
        href={(page) => listPageHref(PATH, q, page)}
      />
    </section>
  );
}

function InvitationTable({
  invitations: { rows: invitations, total },
}: {
  invitations: { rows: { id: number; email: string; accessLevel: number; sentAt: string; expiresAt: string }[]; total: number };
}) {
  const { q } = useLoaderData<typeof loader>();
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
                        <ActionForm intent="resend" fields={{ id: invitation.id }} redirectTo={here}>
                          {(form) => (
                            <>
                              <button type="submit" className="btn btn-sm" disabled={form.busy} aria-label={t("users.resendTo", { email: invitation.email })}>
                                {t("users.resend")}
                              </button>
                            </>
                          )}
                        </ActionForm>
                        <ActionForm intent="revoke" fields={{ id: invitation.id }} redirectTo={here}>
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

function InviteForm({ redirectTo }: { redirectTo: string }) {
  const { t } = useTranslation("organization");
  return (
    <section aria-labelledby="org-invite-heading" className="mt-8 max-w-2xl rounded-box border border-base-300 bg-base-100 p-5">
      <h2 id="org-invite-heading" className="text-lg font-semibold">
        {t("users.invite.heading")}
      </h2>
      <p className="mt-1 text-sm text-base-content/70">{t("users.invite.lead")}</p>
      <ActionForm intent="invite" redirectTo={redirectTo} className="mt-4 flex flex-col gap-4">
        {(form) => (
          <>
            <div>
              <label htmlFor="invite-email" className="mb-1 block text-sm font-medium">
                {t("users.invite.email")}
              </label>
              <input
                id="invite-email"
                name="email"
                type="email"
                autoComplete="off"
                required
                defaultValue={form.kept("email") ?? ""}
                className="input w-full"
                {...form.invalid("email")}
              />
              <FieldError form={form} name="email" />
            </div>
            <div>
              <label htmlFor="invite-level" className="mb-1 block text-sm font-medium">
                {t("users.invite.level")}
              </label>
              <select
                id="invite-level"
                name="accessLevel"
                defaultValue={form.kept("accessLevel") ?? "1"}
                className="select w-full"
                {...form.invalid("accessLevel")}
              >
                {LEVELS.map((level) => (
                  <option key={level} value={level}>
                    {t(`levels.${level}`)} — {t(`levelHints.${level}`)}
                  </option>
                ))}
              </select>
              <FieldError form={form} name="accessLevel" />
            </div>
            <div className="sm:text-right">
              <button type="submit" className="btn btn-primary w-full sm:w-auto" disabled={form.busy}>
                {form.busy ? t("users.invite.sending") : t("users.invite.submit")}
              </button>
            </div>
          </>
        )}
      </ActionForm>
    </section>
  );
}
