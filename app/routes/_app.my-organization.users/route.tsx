import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { ConfirmStep } from "~/components/ui/ConfirmStep";
import { GeneralErrorBoundary } from "~/components/ui/GeneralErrorBoundary";
import { useListUrls } from "~/components/ui/ListSearch";
import { titleMeta } from "~/components/ui/meta";
import { requireUser, type OrgUser } from "~/http/auth.server";
import { refuseForm, refuseFormFor } from "~/http/forms.server";
import { redirectWithNotice } from "~/http/notice.server";
import { parseId, readForm } from "~/http/parse.server";
import { can } from "~/models/accounts/permissions";
import { backTo } from "~/http/redirect.server";
import { publicOrigin, requestSource } from "~/http/request-source.server";
import i18nServer from "~/i18n.server";
import { searchTerm, withoutStep } from "~/models/admin/admin";
import { sendInvitation } from "~/models/accounts/auth-mail.server";
import {
  changeMemberLevel,
  deactivateMember,
  inviteMember,
  listMembers,
  listOpenInvitations,
  MEMBER_REFUSALS,
  reactivateMember,
  resendInvitation,
  revokeInvitation,
  type MemberRefusal,
} from "~/models/accounts/organization-members.server";
import { type RequestSource } from "~/models/accounts/security-events.server";
import { isRefusalOf } from "~/models/shared/refusal";
import { pageTitle } from "~/models/shared/page-title.server";
import { useTranslation } from "~/translations";
import { InviteForm } from "./organization-members-invite-form";
import { INTENT, inviteSchema, levelSchema, MEMBERS_PATH, rowSchema } from "./organization-members-schema";
import { InvitationTable, MemberTable } from "./organization-members-tables";

export const meta = titleMeta;

/** The translation namespaces this screen renders besides the root's (the browser loads only these). */
export const handle = { i18n: ["organization"] };

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
    // Only an administrator of the installation changes another one's account (the rows say so to the others).
    operator: user.isAdmin,
    organizationName: user.organizationName,
    q,
    // The security log's sign-ins are the administrator's to see (decision 041).
    members: manage ? members : { ...members, rows: members.rows.map((m) => ({ ...m, lastSignInAt: null })) },
    invitations,
    confirm,
    title: await pageTitle(request, "organization:users.title"),
  });
}

type Translate = Awaited<ReturnType<typeof i18nServer.getFixedT>>;
type Notice = `organization:${string}`;

/** What every change of the screen works with: who changes what, and how an accepted change answers. */
interface MemberPost {
  request: Request;
  formData: FormData;
  user: OrgUser;
  t: Translate;
  actor: { organizationId: number; actorUserId: number; actorIsOperator: boolean; source: RequestSource | null };
  /** The notice of a change whose invitation mail failed (then in the mail log, decision 044). */
  mailFailed: Notice;
  done: (notice: Notice) => Promise<Response>;
}

/** The user's message for each refusal of the members model. */
const REFUSAL_MESSAGE: Record<MemberRefusal, string> = {
  "already-member": "organization:users.errors.member",
  "already-invited": "organization:users.errors.invited",
  "member-not-found": "organization:users.errors.notFound",
  "invitation-not-found": "organization:users.errors.notFound",
  "last-admin": "organization:users.errors.lastAdmin",
  "operator-account": "organization:users.errors.operatorAccount",
};

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, "organizationManage");
  const formData = await readForm(request);
  const t = await i18nServer.getFixedT(request);
  // A failed invitation mail is in the mail log (decision 044): the operator sends it again there, an administrator by Resend.
  const mailFailed = can(user, "admin") ? "organization:users.notices.mailFailedAdmin" : "organization:users.notices.mailFailed";
  const post: MemberPost = {
    request,
    formData,
    user,
    t,
    actor: {
      organizationId: user.organizationId,
      actorUserId: user.id,
      actorIsOperator: user.isAdmin,
      source: requestSource(request, context as { clientAddress?: string | null }),
    },
    mailFailed,
    // With JavaScript too an accepted change redirects with its notice (the fetcher follows it, the root shows it), to the
    // list as it was shown — its search and page, without the confirmation step (decision 047).
    done: (notice) =>
      redirectWithNotice(request, withoutStep(backTo(request, formData.get("redirectTo"), MEMBERS_PATH)), notice, {
        tone: notice === mailFailed ? "warning" : "success",
      }),
  };
  const intent = formData.get("intent");
  switch (intent) {
    case INTENT.invite:
      return invite(post);
    case INTENT.level:
      return changeLevel(post);
    case INTENT.deactivate:
    case INTENT.reactivate:
    case INTENT.resend:
    case INTENT.revoke:
      return changeRow(post);
    default:
      return refuseForm(formData, { intent: null, formErrors: [t("organization:users.errors.invalidRequest")] });
  }
}

/** Runs an accepted change; a refusal of the members model answers with its message and status (404, 409). */
async function refusing<Submission extends Parameters<typeof refuseFormFor>[1]>(
  post: MemberPost,
  intent: string,
  submission: Submission,
  change: () => Promise<Response>,
): Promise<Response> {
  try {
    return await change();
  } catch (error) {
    if (!isRefusalOf(error, MEMBER_REFUSALS)) throw error;
    return refuseFormFor(error, submission, post.t(REFUSAL_MESSAGE[error.code]), { intent });
  }
}

async function invite(post: MemberPost) {
  const { t, user } = post;
  const submission = parseWithZod(post.formData, { schema: inviteSchema(t) });
  if (submission.status !== "success") return refuseForm(submission, { intent: INTENT.invite });
  const { email, accessLevel } = submission.value;
  return refusing(post, INTENT.invite, submission, async () => {
    const invited = await inviteMember({ ...post.actor, email, accessLevel });
    const mailed = await sendInvitation(publicOrigin(), {
      variant: "member",
      email: invited.email,
      token: invited.token,
      language: user.language,
      organization: user.organizationName,
      invitedBy: user.email,
    });
    return post.done(mailed ? "organization:users.notices.invited" : post.mailFailed);
  });
}

async function changeLevel(post: MemberPost) {
  const submission = parseWithZod(post.formData, { schema: levelSchema(post.t) });
  if (submission.status !== "success") return refuseForm(submission, { intent: INTENT.level });
  const { id, accessLevel } = submission.value;
  return refusing(post, INTENT.level, submission, async () => {
    await changeMemberLevel({ ...post.actor, id, accessLevel });
    return post.done("organization:users.notices.levelChanged");
  });
}

/** Deactivate, reactivate, resend or revoke: a change of one member or invitation, named by its id. */
async function changeRow(post: MemberPost) {
  const { user } = post;
  const submission = parseWithZod(post.formData, { schema: rowSchema(post.t) });
  if (submission.status !== "success") return refuseForm(submission, { intent: post.formData.get("intent") as string });
  const { id, intent } = submission.value;
  return refusing(post, intent, submission, async () => {
    switch (intent) {
      case INTENT.deactivate:
        await deactivateMember({ ...post.actor, id });
        return post.done("organization:users.notices.deactivated");
      case INTENT.reactivate:
        await reactivateMember({ ...post.actor, id });
        return post.done("organization:users.notices.reactivated");
      case INTENT.resend: {
        const resent = await resendInvitation({ ...post.actor, id });
        const mailed = await sendInvitation(publicOrigin(), {
          variant: "member",
          email: resent.email,
          token: resent.token,
          language: user.language,
          organization: user.organizationName,
          invitedBy: user.email,
        });
        return post.done(mailed ? "organization:users.notices.resent" : post.mailFailed);
      }
      case INTENT.revoke:
        await revokeInvitation({ ...post.actor, id });
        return post.done("organization:users.notices.revoked");
    }
  });
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

export default function MyOrganizationUsers() {
  const { manage, operator, members, me, q, invitations, confirm, organizationName } = useLoaderData<typeof loader>();
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
          intent={INTENT.deactivate}
          fields={{ id: confirm.id }}
          confirmLabel={t("users.deactivate")}
          busyLabel={t("users.deactivating")}
          cancelLabel={t("common:cancel")}
          cancelHref={here}
          redirectTo={here}
        />
      ) : null}
      <MemberTable manage={manage} operator={operator} members={members} me={me} q={q} />
      {manage ? (
        <>
          <InvitationTable invitations={invitations} q={q} />
          {/* A new invitation gives a new, empty form (the accepted post redirects, so the fetcher has no answer to reset on). */}
          <InviteForm key={invitations.rows.map((i) => i.id).join("-")} redirectTo={here} />
        </>
      ) : null}
    </section>
  );
}
