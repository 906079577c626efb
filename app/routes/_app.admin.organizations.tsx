import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { AdminHeader } from "~/components/admin/AdminHeader";
import { AdminList } from "~/components/admin/AdminList";
import { useListUrls } from "~/components/ui/ListSearch";
import { ActionForm, FieldError } from "~/components/ui/ActionForm";
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
  createCustomerOrganization,
  getOrganization,
  listOrganizations,
  setDataSharing,
  setOrganizationActive,
  ADMIN_REFUSALS,
  type AdminActor,
  type AdminRefusal,
} from "~/models/admin/admin.server";
import { isRefusalOf } from "~/models/shared/refusal";
import { MISSING } from "~/models/shared/format";
import { checkOrgNumber } from "~/models/shared/org-number";
import { pageTitle } from "~/models/shared/page-title.server";
import { useTranslation } from "~/translations";
import { isSingleLine } from "~/models/shared/single-line";

export const meta = titleMeta;
export const handle = { i18n: ["admin"] };

const PATH = "/admin/organizations";
const INTENT = {
  create: "create",
  sharingOn: "sharing-on",
  sharingOff: "sharing-off",
  deactivate: "deactivate",
  reactivate: "reactivate",
} as const;
const INTENTS = Object.values(INTENT);
const NAME_MAX = 200;
type Translate = (key: string, options?: Record<string, unknown>) => string;

const idField = (t: Translate) =>
  z.string({ error: t("admin:errors.organizationNotFound") }).transform((value, ctx) => {
    const id = parseId(value);
    if (id === null) ctx.addIssue({ code: "custom", message: t("admin:errors.organizationNotFound") });
    return id ?? 0;
  });

const schema = (t: Translate) =>
  z.discriminatedUnion("intent", [
    z.object({
      intent: z.literal(INTENT.create),
      name: z
        .string({ error: t("admin:errors.nameRequired") })
        .trim()
        .min(1, t("admin:errors.nameRequired"))
        .max(NAME_MAX, t("admin:errors.nameTooLong", { max: NAME_MAX }))
        .refine(isSingleLine, t("common:errors.singleLine")),
      orgNumber: z
        .string()
        .optional()
        .transform((value, ctx) => {
          const check = checkOrgNumber(value ?? "");
          if (check.kind === "invalid") ctx.addIssue({ code: "custom", message: t("admin:errors.orgNumber") });
          return check.kind === "valid" ? check.orgNumber : null;
        }),
      email: z
        .string({ error: t("admin:errors.emailRequired") })
        .trim()
        .max(254, t("admin:errors.emailInvalid"))
        .pipe(z.email(t("admin:errors.emailInvalid"))),
      language: z.enum(["en", "no"]).default("no"),
      redirectTo: z.string().optional(),
    }),
    z.object({
      intent: z.enum([INTENT.sharingOn, INTENT.sharingOff, INTENT.deactivate, INTENT.reactivate]),
      id: idField(t),
      redirectTo: z.string().optional(),
    }),
  ]);

/**
 * /admin/organizations (the installation's operator): every customer organisation and every supplier organisation
 * with users — search by name or number, paging, members by level, data sharing, status; create a customer
 * organisation with its first administrator (a level-3 invitation, mailed), turn data sharing on or off, deactivate
 * (`?deactivate={id}` is the confirmation step; the members' sessions end at once) and reactivate.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request, "admin");
  const url = new URL(request.url);
  const q = searchTerm(url.searchParams.get("q"));
  const list = await listOrganizations({ search: q, page: parseId(url.searchParams.get("page")) });
  const deactivateId = parseId(url.searchParams.get("deactivate"));
  const confirm = deactivateId ? ((await getOrganization(deactivateId)) ?? null) : null;
  return json({
    list,
    q,
    confirm: confirm && confirm.deactivated_at == null ? { id: confirm.id, name: confirm.name } : null,
    title: await pageTitle(request, "admin:organizations.title"),
  });
}

/** The operator's message for each refusal of a change of an organisation. */
const REFUSAL_MESSAGE: Partial<Record<AdminRefusal, string>> = {
  "email-taken": "admin:errors.emailTaken",
  "organization-not-found": "admin:errors.organizationNotFound",
  "own-organization": "admin:errors.selfOrganization",
};

type Change = z.infer<ReturnType<typeof schema>>;

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
      case INTENT.create:
        return await create(request, actor, v);
      case INTENT.sharingOn:
      case INTENT.sharingOff:
        return await changeSharing(request, actor, v);
      case INTENT.deactivate:
      case INTENT.reactivate:
        return await changeActive(request, actor, v);
    }
  } catch (error) {
    if (!isRefusalOf(error, ADMIN_REFUSALS)) throw error;
    return refuseFormFor(error, submission, t(REFUSAL_MESSAGE[error.code] ?? "admin:errors.invalidRequest"), { intent: v.intent });
  }
}

async function create(request: Request, actor: AdminActor, v: Extract<Change, { intent: "create" }>) {
  const created = await createCustomerOrganization(actor, publicOrigin(), {
    name: v.name,
    orgNumber: v.orgNumber,
    email: v.email,
    language: v.language,
  });
  return redirectWithNotice(
    request,
    `${PATH}?q=${encodeURIComponent(v.name)}`,
    created.mailed ? "admin:notices.organizationCreated" : "admin:notices.organizationCreatedMailFailed",
    { tone: created.mailed ? "success" : "warning" },
  );
}

async function changeSharing(request: Request, actor: AdminActor, v: Extract<Change, { id: number }>) {
  const enabled = v.intent === INTENT.sharingOn;
  await setDataSharing(actor, { organizationId: v.id, enabled });
  return redirectWithNotice(request, withoutStep(backTo(request, v.redirectTo, PATH)), enabled ? "admin:notices.sharingOn" : "admin:notices.sharingOff");
}

async function changeActive(request: Request, actor: AdminActor, v: Extract<Change, { id: number }>) {
  const active = v.intent === INTENT.reactivate;
  await setOrganizationActive(actor, { organizationId: v.id, active });
  return redirectWithNotice(
    request,
    withoutStep(backTo(request, v.redirectTo, PATH)),
    active ? "admin:notices.organizationReactivated" : "admin:notices.organizationDeactivated",
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

export default function AdminOrganizationsScreen() {
  const { list, q, confirm } = useLoaderData<typeof loader>();
  const { t } = useTranslation("admin");
  const { here, stepHref } = useListUrls();
  return (
    <section aria-labelledby="admin-organizations-title" className="mx-auto max-w-6xl">
      <AdminHeader id="admin-organizations-title" title={t("organizations.title")} intro={t("organizations.intro")} current="organizations" />
      <AdminList
        path={PATH}
        searchLabel={t("organizations.searchLabel")}
        q={q}
        list={list}
        empty={t("organizations.empty")}
        label={t("organizations.listLabel")}
        tableClassName="min-w-[60rem]"
        columns={(["name", "kind", "members", "levels", "dataSharing", "status", "actions"] as const).map((c) => ({
          label: t(`organizations.columns.${c}`),
          className: c === "members" ? "text-right" : undefined,
        }))}
        row={(org) => (
          <tr key={org.id} id={`org-${org.id}`}>
            <th scope="row" className="font-medium">
              <span className="block break-words">{org.name}</span>
              <span className="block text-xs font-normal tabular-nums text-base-content/70">{org.orgNumber ?? MISSING}</span>
            </th>
            <td>{t(`kinds.${org.kind}`)}</td>
            <td className="text-right tabular-nums">{org.members}</td>
            <td className="text-xs">{t("organizations.levelsSummary", { admins: org.levels[3], analysts: org.levels[2], viewers: org.levels[1] })}</td>
            <td>
              <div className="flex flex-wrap items-center gap-2">
                <span>{org.dataSharing ? t("organizations.sharingOn") : t("organizations.sharingOff")}</span>
                <ActionForm intent={org.dataSharing ? INTENT.sharingOff : INTENT.sharingOn} fields={{ id: org.id }} redirectTo={here}>
                  {(form) => (
                    <button
                      type="submit"
                      className="btn btn-xs"
                      disabled={form.busy}
                      aria-label={t(org.dataSharing ? "organizations.turnSharingOffNamed" : "organizations.turnSharingOnNamed", { name: org.name })}
                    >
                      {org.dataSharing ? t("organizations.turnSharingOff") : t("organizations.turnSharingOn")}
                    </button>
                  )}
                </ActionForm>
              </div>
            </td>
            <td>
              <ActiveBadge deactivated={org.deactivatedAt != null} labels={{ active: t("status.active"), deactivated: t("status.deactivated") }} />
            </td>
            <td>
              {org.deactivatedAt ? (
                <ActionForm intent={INTENT.reactivate} fields={{ id: org.id }} redirectTo={here}>
                  {(form) => (
                    <button type="submit" className="btn btn-xs" disabled={form.busy} aria-label={t("organizations.reactivateNamed", { name: org.name })}>
                      {t("organizations.reactivate")}
                    </button>
                  )}
                </ActionForm>
              ) : (
                <Link
                  to={stepHref(org.id)}
                  preventScrollReset
                  className="btn btn-xs btn-ghost text-error"
                  aria-label={t("organizations.deactivateNamed", { name: org.name })}
                >
                  {t("organizations.deactivate")}
                </Link>
              )}
              {org.kind === "customer" ? (
                <Link
                  to={`/admin/organization/${org.id}/priority-suppliers/invite`}
                  className="link mt-1 block text-xs"
                  aria-label={t("organizations.invitePrioritySuppliersNamed", { name: org.name })}
                >
                  {t("organizations.invitePrioritySuppliers")}
                </Link>
              ) : null}
            </td>
          </tr>
        )}
      />
      {confirm ? (
        <ConfirmStep
          title={t("organizations.confirmTitle")}
          detail={confirm.name}
          text={t("organizations.confirmText")}
          intent={INTENT.deactivate}
          fields={{ id: confirm.id }}
          confirmLabel={t("organizations.deactivate")}
          busyLabel={t("organizations.deactivating")}
          cancelLabel={t("cancel")}
          cancelHref={here}
          redirectTo={here}
        />
      ) : null}
      {/* A new element after a creation (the list then shows the new one by its name): with JavaScript the form is empty again. */}
      <CreateOrganization key={`${q ?? ""}:${list.total}`} />
    </section>
  );
}

function CreateOrganization() {
  const { t, i18n } = useTranslation("admin");
  const { t: tc } = useTranslation("common");
  const field = "mb-1 block text-sm font-medium";
  return (
    <section aria-labelledby="create-organization-heading" className="mt-8 max-w-2xl rounded-box border border-base-300 bg-base-100 p-5">
      <h2 id="create-organization-heading" className="text-lg font-semibold">
        {t("organizations.create.heading")}
      </h2>
      <p className="mt-1 text-sm text-base-content/70">{t("organizations.create.intro")}</p>
      <ActionForm intent={INTENT.create} action={PATH} redirectTo={PATH} className="mt-4 grid gap-4 sm:grid-cols-2">
        {(form) => (
          <>
            <div className="sm:col-span-2">
              <label htmlFor="create-org-name" className={field}>
                {t("organizations.create.name")}
              </label>
              <input
                id="create-org-name"
                name="name"
                required
                maxLength={NAME_MAX}
                defaultValue={form.kept("name")}
                className={`input input-sm w-full ${form.errors("name").length ? "input-error" : ""}`}
                {...form.invalid("name")}
              />
              <FieldError form={form} name="name" />
            </div>
            <div>
              <label htmlFor="create-org-number" className={field}>
                {t("organizations.create.orgNumber")}
              </label>
              <input
                id="create-org-number"
                name="orgNumber"
                inputMode="numeric"
                maxLength={20}
                defaultValue={form.kept("orgNumber")}
                className={`input input-sm w-full ${form.errors("orgNumber").length ? "input-error" : ""}`}
                {...form.invalid("orgNumber")}
              />
              <FieldError form={form} name="orgNumber" />
            </div>
            <div>
              <label htmlFor="create-org-language" className={field}>
                {t("organizations.create.language")}
              </label>
              <select
                id="create-org-language"
                name="language"
                defaultValue={form.kept("language") ?? (i18n.language === "en" ? "en" : "no")}
                className="select select-sm w-full"
              >
                <option value="no">{tc("language.no")}</option>
                <option value="en">{tc("language.en")}</option>
              </select>
            </div>
            <div className="sm:col-span-2">
              <label htmlFor="create-org-email" className={field}>
                {t("organizations.create.email")}
              </label>
              <input
                id="create-org-email"
                name="email"
                type="email"
                required
                autoComplete="off"
                maxLength={254}
                defaultValue={form.kept("email")}
                className={`input input-sm w-full ${form.errors("email").length ? "input-error" : ""}`}
                {...form.invalid("email")}
              />
              <FieldError form={form} name="email" />
            </div>
            <div className="sm:col-span-2">
              <button type="submit" className="btn btn-primary btn-sm w-full sm:w-auto" disabled={form.busy}>
                {form.busy ? t("organizations.create.submitting") : t("organizations.create.submit")}
              </button>
            </div>
          </>
        )}
      </ActionForm>
    </section>
  );
}
