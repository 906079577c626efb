import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { AdminHeader } from "~/components/admin/AdminHeader";
import { AdminList, AdminTable } from "~/components/admin/AdminList";
import { useListUrls } from "~/components/ui/ListSearch";
import { MemberLevelForm, MemberStatusAction, type MemberActionTexts } from "~/components/organization/MemberActions";
import { ActionForm } from "~/components/ui/ActionForm";
import { ConfirmStep } from "~/components/ui/ConfirmStep";
import { GeneralErrorBoundary } from "~/components/ui/GeneralErrorBoundary";
import { titleMeta } from "~/components/ui/meta";
import { ActiveBadge } from "~/components/ui/ActiveBadge";
import { requireUser } from "~/http/auth.server";
import { refuseForm, refuseFormFor } from "~/http/forms.server";
import { redirectWithNotice } from "~/http/notice.server";
import { parseId, readForm } from "~/http/parse.server";
import { backTo } from "~/http/redirect.server";
import { publicOrigin, requestSource } from "~/http/request-source.server";
import i18nServer from "~/i18n.server";
import { searchTerm, withoutStep } from "~/models/admin/admin";
import {
  isSecurityEventKind,
  listSecurityEvents,
  listUsers,
  securityLogDays,
  sendUserPasswordReset,
  setUserActive,
  setUserAdmin,
  setUserLevel,
  ADMIN_REFUSALS,
  type AdminActor,
  type AdminRefusal,
} from "~/models/admin/admin.server";
import { isRefusalOf } from "~/models/shared/refusal";
import { formatDateTime, MISSING } from "~/models/shared/format";
import { pageTitle } from "~/models/shared/page-title.server";
import { SECURITY_EVENT_KINDS } from "~/models/accounts/security-events.server";
import { useTranslation } from "~/translations";

export const meta = titleMeta;
export const handle = { i18n: ["admin"] };

const PATH = "/admin/users";
const INTENT = {
  level: "level",
  grantAdmin: "grant-admin",
  revokeAdmin: "revoke-admin",
  deactivate: "deactivate",
  reactivate: "reactivate",
  sendReset: "send-reset",
} as const;
const INTENTS = Object.values(INTENT);
type Translate = (key: string, options?: Record<string, unknown>) => string;

const idField = (t: Translate) =>
  z.string({ error: t("admin:errors.userNotFound") }).transform((value, ctx) => {
    const id = parseId(value);
    if (id === null) ctx.addIssue({ code: "custom", message: t("admin:errors.userNotFound") });
    return id ?? 0;
  });

const schema = (t: Translate) =>
  z.discriminatedUnion("intent", [
    z.object({
      intent: z.literal(INTENT.level),
      id: idField(t),
      accessLevel: z.enum(["1", "2", "3"], { error: t("admin:errors.invalidRequest") }).transform((v) => Number(v) as 1 | 2 | 3),
      redirectTo: z.string().optional(),
    }),
    z.object({
      intent: z.enum([INTENT.grantAdmin, INTENT.revokeAdmin, INTENT.deactivate, INTENT.reactivate, INTENT.sendReset]),
      id: idField(t),
      redirectTo: z.string().optional(),
    }),
  ]);

const MEMBER_ACTION_TEXTS: MemberActionTexts = {
  levels: "admin:levels",
  levelLabel: "admin:users.levelLabel",
  setLevel: "admin:users.setLevel",
  setLevelNamed: "admin:users.setLevelNamed",
  deactivate: "admin:users.deactivate",
  deactivateNamed: "admin:users.deactivateNamed",
  reactivate: "admin:users.reactivate",
  reactivateNamed: "admin:users.reactivateNamed",
};

const NOTICES = {
  [INTENT.level]: "admin:notices.levelChanged",
  [INTENT.grantAdmin]: "admin:notices.adminGranted",
  [INTENT.revokeAdmin]: "admin:notices.adminRevoked",
  [INTENT.deactivate]: "admin:notices.userDeactivated",
  [INTENT.reactivate]: "admin:notices.userReactivated",
  [INTENT.sendReset]: "admin:notices.resetSent",
} as const;

/**
 * /admin/users (the installation's operator): every user of every organisation — search by email, paging; access
 * level, the admin flag (the last active administrator keeps theirs), deactivate (`?deactivate={id}` is the
 * confirmation step; sessions end at once) and reactivate, a password-reset mail. `?view=audit` is the security log:
 * newest first, by kind and by email, paging, kept SECURITY_LOG_DAYS days.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request, "admin");
  const url = new URL(request.url);
  const page = parseId(url.searchParams.get("page"));
  const title = await pageTitle(request, url.searchParams.get("view") === "audit" ? "admin:audit.title" : "admin:users.title");
  if (url.searchParams.get("view") === "audit") {
    const kind = url.searchParams.get("kind");
    const email = searchTerm(url.searchParams.get("email"));
    const filter = { kind: isSecurityEventKind(kind) ? kind : null, email };
    return json({
      view: "audit" as const,
      title,
      days: securityLogDays(),
      kinds: SECURITY_EVENT_KINDS,
      filter,
      events: await listSecurityEvents({ ...filter, page }),
      users: null,
      q: null,
      confirm: null,
    });
  }
  const q = searchTerm(url.searchParams.get("q"));
  const users = await listUsers({ search: q, page });
  const deactivateId = parseId(url.searchParams.get("deactivate"));
  const toConfirm = deactivateId ? users.rows.find((u) => u.id === deactivateId && u.deactivatedAt == null) : undefined;
  return json({
    view: "users" as const,
    title,
    days: null,
    kinds: null,
    filter: null,
    events: null,
    users,
    q,
    confirm: toConfirm ? { id: toConfirm.id, email: toConfirm.email } : null,
  });
}

/** The operator's message for each refusal of a change of a user. */
const REFUSAL_MESSAGE: Partial<Record<AdminRefusal, string>> = {
  "user-not-found": "admin:errors.userNotFound",
  "own-account": "admin:errors.selfUser",
  "last-admin": "admin:errors.lastAdmin",
};

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, "admin");
  const formData = await readForm(request);
  const t = await i18nServer.getFixedT(request);
  const submission = parseWithZod(formData, { schema: schema(t) });
  if (submission.status !== "success") {
    const intent = formData.get("intent");
    const known = INTENTS.find((i) => i === intent) ?? null;
    return refuseForm(submission, { intent: known, formErrors: known ? [] : [t("admin:errors.invalidRequest")] });
  }
  const v = submission.value;
  const actor: AdminActor = { id: user.id, organizationId: user.organizationId, source: requestSource(request, context as { clientAddress?: string | null }) };
  try {
    switch (v.intent) {
      case INTENT.level:
        await setUserLevel(actor, { userId: v.id, accessLevel: v.accessLevel });
        break;
      case INTENT.grantAdmin:
      case INTENT.revokeAdmin:
        await setUserAdmin(actor, { userId: v.id, isAdmin: v.intent === INTENT.grantAdmin });
        break;
      case INTENT.deactivate:
      case INTENT.reactivate:
        await setUserActive(actor, { userId: v.id, active: v.intent === INTENT.reactivate });
        break;
      case INTENT.sendReset:
        await sendUserPasswordReset(actor, publicOrigin(), { userId: v.id });
        break;
    }
  } catch (error) {
    if (!isRefusalOf(error, ADMIN_REFUSALS)) throw error;
    return refuseFormFor(error, submission, t(REFUSAL_MESSAGE[error.code] ?? "admin:errors.invalidRequest"), { intent: v.intent });
  }
  // Deactivating oneself is refused above, so the page after any change is still the operator's.
  return redirectWithNotice(request, withoutStep(backTo(request, v.redirectTo, PATH)), NOTICES[v.intent]);
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

export default function AdminUsersScreen() {
  const data = useLoaderData<typeof loader>();
  return data.view === "audit" ? <SecurityLog /> : <UserList />;
}

function UserList() {
  const { users, q, confirm } = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation("admin");
  const { here, stepHref } = useListUrls();
  if (!users) return null;
  const actionProps = (u: (typeof users.rows)[number]) => ({
    member: u,
    redirectTo: here,
    deactivateHref: stepHref(u.id),
    size: "xs" as const,
    texts: MEMBER_ACTION_TEXTS,
  });
  return (
    <section aria-labelledby="admin-users-title" className="mx-auto max-w-6xl">
      <AdminHeader id="admin-users-title" title={t("users.title")} intro={t("users.intro")} current="users" />
      <AdminList
        path={PATH}
        searchLabel={t("users.searchLabel")}
        q={q}
        list={users}
        empty={t("users.empty")}
        label={t("users.listLabel")}
        tableClassName="min-w-[64rem]"
        columns={(["email", "organization", "level", "admin", "lastSeen", "status", "actions"] as const).map((c) => ({ label: t(`users.columns.${c}`) }))}
        row={(u) => (
          <tr key={u.id} id={`user-${u.id}`} className="align-top">
            <th scope="row" className="break-all font-medium">
              {u.email}
            </th>
            <td className="break-words">{u.organizationName ?? t("users.noOrganization")}</td>
            <td>
              <MemberLevelForm {...actionProps(u)} />
            </td>
            <td>
              <div className="flex flex-wrap items-center gap-2">
                {u.isAdmin ? <span className="badge badge-sm badge-primary">{t("users.adminYes")}</span> : null}
                <ActionForm
                  intent={u.isAdmin ? INTENT.revokeAdmin : INTENT.grantAdmin}
                  fields={{ id: u.id }}
                  redirectTo={here}
                  errorClassName="mt-1 max-w-48 text-xs text-error"
                >
                  {(form) => (
                    <button
                      type="submit"
                      className="btn btn-xs"
                      disabled={form.busy}
                      aria-label={t(u.isAdmin ? "users.revokeAdminNamed" : "users.grantAdminNamed", { email: u.email })}
                    >
                      {u.isAdmin ? t("users.revokeAdmin") : t("users.grantAdmin")}
                    </button>
                  )}
                </ActionForm>
              </div>
            </td>
            <td className="whitespace-nowrap">{u.lastSeenAt ? formatDateTime(u.lastSeenAt, i18n.language) : t("users.never")}</td>
            <td>
              <ActiveBadge deactivated={u.deactivatedAt != null} labels={{ active: t("status.active"), deactivated: t("status.deactivated") }} />
            </td>
            <td>
              <div className="flex flex-wrap gap-1">
                <MemberStatusAction {...actionProps(u)} />
                <ActionForm intent={INTENT.sendReset} fields={{ id: u.id }} redirectTo={here} errorClassName="mt-1 max-w-48 text-xs text-error">
                  {(form) => (
                    <button type="submit" className="btn btn-xs btn-ghost" disabled={form.busy} aria-label={t("users.sendResetNamed", { email: u.email })}>
                      {t("users.sendReset")}
                    </button>
                  )}
                </ActionForm>
              </div>
            </td>
          </tr>
        )}
      />
      {confirm ? (
        <ConfirmStep
          title={t("users.confirmTitle")}
          detail={confirm.email}
          text={t("users.confirmText")}
          intent={INTENT.deactivate}
          fields={{ id: confirm.id }}
          confirmLabel={t("users.deactivate")}
          busyLabel={t("users.deactivating")}
          cancelLabel={t("cancel")}
          cancelHref={here}
          redirectTo={here}
        />
      ) : null}
    </section>
  );
}

function SecurityLog() {
  const { events, filter, days, kinds } = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation("admin");
  if (!events || !filter || !kinds) return null;
  const href = (page: number) => {
    const params = new URLSearchParams({ view: "audit" });
    if (filter.kind) params.set("kind", filter.kind);
    if (filter.email) params.set("email", filter.email);
    if (page > 1) params.set("page", String(page));
    return `${PATH}?${params}`;
  };
  return (
    <section aria-labelledby="admin-audit-title" className="mx-auto max-w-6xl">
      <AdminHeader id="admin-audit-title" title={t("audit.title")} intro={t("audit.intro", { days })} current="audit" />
      <Form method="get" action={PATH} className="mt-5 flex flex-wrap items-end gap-2" role="search">
        <input type="hidden" name="view" value="audit" />
        <div className="w-full sm:w-56">
          <label htmlFor="audit-kind" className="mb-1 block text-sm font-medium">
            {t("audit.kindLabel")}
          </label>
          <select id="audit-kind" name="kind" defaultValue={filter.kind ?? ""} className="select select-sm w-full">
            <option value="">{t("audit.allKinds")}</option>
            {kinds.map((kind) => (
              <option key={kind} value={kind}>
                {t(`audit.kinds.${kind}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="w-full sm:w-72">
          <label htmlFor="audit-email" className="mb-1 block text-sm font-medium">
            {t("audit.emailLabel")}
          </label>
          <input id="audit-email" name="email" type="search" defaultValue={filter.email ?? ""} maxLength={200} className="input input-sm w-full" />
        </div>
        <button type="submit" className="btn btn-sm btn-primary">
          {t("audit.filter")}
        </button>
      </Form>
      <AdminTable
        list={events}
        empty={t("audit.empty")}
        label={t("audit.listLabel")}
        labelledBy="admin-audit-title"
        tableClassName="min-w-[64rem]"
        columns={(["at", "kind", "account", "actor", "organization", "from", "detail"] as const).map((c) => ({ label: t(`audit.columns.${c}`) }))}
        row={(e) => (
          <tr key={e.id} className="align-top">
            <td className="whitespace-nowrap">{formatDateTime(e.at, i18n.language)}</td>
            <th scope="row" className="font-medium">
              {(kinds as readonly string[]).includes(e.kind) ? t(`audit.kinds.${e.kind}`) : e.kind}
            </th>
            <td className="break-all">{e.email ?? MISSING}</td>
            <td className="break-all">{e.actorEmail ?? MISSING}</td>
            <td className="break-words">{e.organizationName ?? MISSING}</td>
            <td className="text-xs">
              <span className="block tabular-nums">{e.ip ?? MISSING}</span>
              {e.userAgent ? (
                <span className="block max-w-56 truncate text-base-content/70" title={e.userAgent}>
                  {e.userAgent}
                </span>
              ) : null}
            </td>
            <td className="text-xs">{e.detail ? <code className="block max-w-72 whitespace-pre-wrap break-all">{e.detail}</code> : MISSING}</td>
          </tr>
        )}
        pageHref={href}
      />
    </section>
  );
}
