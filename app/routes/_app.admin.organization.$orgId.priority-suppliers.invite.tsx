import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { FormAlert } from "~/components/ui/form";
import { GeneralErrorBoundary } from "~/components/ui/GeneralErrorBoundary";
import { titleMeta } from "~/components/ui/meta";
import { TableScroll } from "~/components/ui/TableScroll";
import { requireUser } from "~/http/auth.server";
import { parseId, readForm } from "~/http/parse.server";
import { errorResponse } from "~/http/responses.server";
import { isLanguage } from "~/i18n";
import { publicOrigin, requestSource } from "~/http/request-source.server";
import i18nServer from "~/i18n.server";
import { pageTitle } from "~/models/shared/page-title.server";
import { findCustomerOrganization, invitePriorityContacts, priorityContacts, type InviteSummary } from "~/models/admin/priority-invite.server";
import { recordSecurityEvent } from "~/models/accounts/security-events.server";
import { useTranslation } from "~/translations";

export const meta = titleMeta;
export const handle = { i18n: ["adminMail"] };

const schema = z.object({ intent: z.literal("invite") });

async function customerOf(params: LoaderFunctionArgs["params"]) {
  const id = parseId(params.orgId);
  const customer = id === null ? undefined : await findCustomerOrganization(id);
  if (!customer) throw errorResponse(404, "No customer organisation with this id.");
  return customer;
}

/**
 * /admin/organization/{orgId}/priority-suppliers/invite (decision 044): for a customer organisation, its
 * priority suppliers' contacts — whether each can be invited, already has an account, was invited before or has no
 * address — and "invite", which invites each ready contact into its supplier's organisation at level 1, one mail each,
 * and answers with a summary. The installation's administrator only; another kind of organisation or none → 404.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireUser(request, "admin");
  const customer = await customerOf(params);
  return json({
    customer,
    contacts: await priorityContacts(customer.id),
    title: await pageTitle(request, "adminMail:invite.title"),
  });
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const user = await requireUser(request, "admin");
  const customer = await customerOf(params);
  const formData = await readForm(request);
  const t = await i18nServer.getFixedT(request);
  const submission = parseWithZod(formData, { schema });
  if (submission.status !== "success") {
    return json({ intent: null, summary: null, result: submission.reply({ formErrors: [t("adminMail:errors.invalidRequest")] }) }, { status: 400 });
  }
  const locale = await i18nServer.getLocale(request);
  const source = requestSource(request, context);
  const summary = await invitePriorityContacts({
    customer,
    invitedBy: user.id,
    origin: publicOrigin(),
    language: isLanguage(locale) ? locale : "no",
    source,
  });
  await recordSecurityEvent({
    kind: "admin_action",
    userId: user.id,
    actorUserId: user.id,
    organizationId: customer.id,
    source,
    detail: { action: "priority_suppliers_invite", invited: summary.invited.length, skipped: summary.skipped.length, failed: summary.failed.length },
  });
  // The summary is the answer itself (no redirect): sending the form again invites nobody twice.
  return json({ intent: "invite" as const, summary, result: submission.reply() });
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

export default function PriorityInviteScreen() {
  const { customer, contacts } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const { t } = useTranslation("adminMail");
  const busy = navigation.state === "submitting";
  const ready = contacts.filter((c) => c.state === "ready").length;
  const errors = actionData && !actionData.summary ? Object.values(actionData.result.error ?? {}).flatMap((e) => e ?? []) : [];
  return (
    <section aria-labelledby="priority-invite-title" className="mx-auto max-w-5xl">
      <h1 id="priority-invite-title" className="text-2xl font-semibold">
        {t("invite.title")}
      </h1>
      <p className="mt-1 text-sm text-base-content/70">{t("invite.intro", { customer: customer.name })}</p>
      {errors.length ? (
        <div className="mt-4">
          <FormAlert errors={errors} />
        </div>
      ) : null}
      {actionData?.summary ? <Summary summary={actionData.summary} /> : null}
      {contacts.length === 0 ? (
        <div className="mt-6 rounded-box border border-base-300 p-6 text-center">
          <h2 className="font-semibold">{t("invite.emptyTitle")}</h2>
          <p className="mt-1 text-sm text-base-content/70">{t("invite.emptyText")}</p>
        </div>
      ) : (
        <>
          <h2 id="priority-contacts" className="mt-6 text-lg font-semibold">
            {t("invite.previewTitle")}
          </h2>
          <TableScroll className="mt-2" labelledBy="priority-contacts">
            <table className="table table-sm">
              <thead>
                <tr>
                  <th scope="col">{t("invite.supplier")}</th>
                  <th scope="col">{t("invite.email")}</th>
                  <th scope="col">{t("invite.state")}</th>
                </tr>
              </thead>
              <tbody>
                {contacts.map((c) => (
                  <tr key={c.connectionId}>
                    <td className="min-w-40">{c.supplierName}</td>
                    <td className="min-w-48 break-all">{c.email ?? t("invite.noAddress")}</td>
                    <td>
                      <span className={`badge badge-sm whitespace-nowrap ${c.state === "ready" ? "badge-primary" : "badge-ghost"}`}>
                        {t(`invite.states.${c.state}`)}
                      </span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
          <Form method="post" className="mt-4 flex flex-wrap items-center gap-3">
            <input type="hidden" name="intent" value="invite" />
            <button type="submit" className="btn btn-primary" disabled={busy || ready === 0}>
              {busy ? t("invite.sending") : t("invite.submit", { count: ready })}
            </button>
            {ready === 0 ? <p className="text-sm text-base-content/70">{t("invite.noneReady")}</p> : null}
          </Form>
        </>
      )}
    </section>
  );
}

function Summary({ summary }: { summary: InviteSummary }) {
  const { t } = useTranslation("adminMail");
  return (
    <div role="status" className={`alert mt-4 block text-sm ${summary.failed.length ? "alert-warning" : "alert-success"}`}>
      <h2 className="font-semibold">
        {t("invite.summary", { invited: summary.invited.length, skipped: summary.skipped.length, failed: summary.failed.length })}
      </h2>
      {summary.invited.length ? (
        <>
          <h3 className="mt-2 font-semibold">{t("invite.invitedTitle")}</h3>
          <ul className="list-inside list-disc">
            {summary.invited.map((c) => (
              <li key={`${c.supplierName}-${c.email}`}>
                {c.supplierName} — <span className="break-all">{c.email}</span>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {summary.skipped.length ? (
        <>
          <h3 className="mt-2 font-semibold">{t("invite.skippedTitle")}</h3>
          <ul className="list-inside list-disc">
            {summary.skipped.map((c, i) => (
              <li key={i}>
                {c.supplierName} — <span className="break-all">{c.email ?? t("invite.noAddress")}</span> ({t(`invite.states.${c.reason}`)})
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {summary.failed.length ? (
        <>
          <h3 className="mt-2 font-semibold">{t("invite.failedTitle")}</h3>
          <ul className="list-inside list-disc">
            {summary.failed.map((c) => (
              <li key={`${c.supplierName}-${c.email}`}>
                {c.supplierName} — <span className="break-all">{c.email}</span>
              </li>
            ))}
          </ul>
          <p className="mt-1">{t("invite.failedHint")}</p>
        </>
      ) : null}
    </div>
  );
}
