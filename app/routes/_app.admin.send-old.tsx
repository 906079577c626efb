import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { ActionForm } from "~/components/ui/ActionForm";
import { ConfirmStep } from "~/components/ui/ConfirmStep";
import { GeneralErrorBoundary } from "~/components/ui/GeneralErrorBoundary";
import { titleMeta } from "~/components/ui/meta";
import { Pagination } from "~/components/ui/Pagination";
import { TableScroll } from "~/components/ui/TableScroll";
import { requireUser } from "~/http/auth.server";
import { refuseForm } from "~/http/forms.server";
import { redirectWithNotice } from "~/http/notice.server";
import { parseId, readForm } from "~/http/parse.server";
import { backTo } from "~/http/redirect.server";
import { requestSource } from "~/http/request-source.server";
import i18nServer from "~/i18n.server";
import { formatDateTime } from "~/models/shared/format";
import { FAILED_MAILS_PAGE_SIZE, failedMails, resendAllFailedMails, resendFailedMail } from "~/models/admin/mail-log.server";
import { pageTitle } from "~/models/shared/page-title.server";
import { recordSecurityEvent } from "~/models/accounts/security-events.server";
import { useTranslation } from "~/translations";

export const meta = titleMeta;
export const handle = { i18n: ["adminMail"] };

const PATH = "/admin/send-old";

const schema = z.discriminatedUnion("intent", [z.object({ intent: z.literal("resend"), id: z.string() }), z.object({ intent: z.literal("resend-all") })]);

/**
 * /admin/send-old (decision 044): the mails that failed (the mail log's failed rows) with their error, paged;
 * send one again, or all of them after a confirmation step (`?confirm=all`). The installation's administrator only.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request, "admin");
  const url = new URL(request.url);
  const requested = Number(url.searchParams.get("page") ?? "1");
  const first = await failedMails(1);
  const pageCount = Math.max(1, Math.ceil(first.total / FAILED_MAILS_PAGE_SIZE));
  const page = Number.isInteger(requested) && requested >= 1 ? Math.min(requested, pageCount) : 1;
  const { total, rows } = page === 1 ? first : await failedMails(page);
  return json({
    mails: rows,
    total,
    page,
    pageCount,
    pageSize: FAILED_MAILS_PAGE_SIZE,
    confirmAll: url.searchParams.get("confirm") === "all" && total > 0,
    title: await pageTitle(request, "adminMail:sendOld.title"),
  });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, "admin");
  const formData = await readForm(request);
  const t = await i18nServer.getFixedT(request);
  const submission = parseWithZod(formData, { schema });
  const intent = formData.get("intent");
  const known = intent === "resend" || intent === "resend-all" ? intent : null;
  if (submission.status !== "success") {
    return refuseForm(submission, { intent: known, formErrors: known ? [] : [t("adminMail:errors.invalidRequest")] });
  }
  const source = requestSource(request, context);
  const v = submission.value;
  switch (v.intent) {
    case "resend": {
      const id = parseId(v.id);
      const outcome = id === null ? null : await resendFailedMail(id);
      if (outcome === null) return refuseForm(submission, { intent: v.intent, status: 404, formErrors: [t("adminMail:errors.notFound")] });
      await recordSecurityEvent({
        kind: "admin_action",
        userId: user.id,
        actorUserId: user.id,
        source,
        detail: { action: "mail_resend", mailId: id, outcome },
      });
      return redirectWithNotice(
        request,
        backTo(request, formData.get("redirectTo"), PATH),
        outcome === "sent" ? "adminMail:notices.resent" : "adminMail:notices.stillFailing",
      );
    }
    case "resend-all": {
      const counts = await resendAllFailedMails();
      await recordSecurityEvent({ kind: "admin_action", userId: user.id, actorUserId: user.id, source, detail: { action: "mail_resend_all", ...counts } });
      return redirectWithNotice(request, PATH, counts.failed > 0 ? "adminMail:notices.someStillFailing" : "adminMail:notices.resentAll");
    }
  }
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

export default function SendOldScreen() {
  const { mails, total, page, pageCount, pageSize, confirmAll } = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation("adminMail");
  const href = (p: number) => (p > 1 ? `${PATH}?page=${p}` : PATH);
  return (
    <section aria-labelledby="send-old-title" className="mx-auto max-w-5xl">
      <h1 id="send-old-title" className="text-2xl font-semibold">
        {t("sendOld.title")}
      </h1>
      <p className="mt-1 max-w-prose text-sm text-base-content/70">{t("sendOld.intro")}</p>
      {confirmAll ? (
        <ConfirmStep
          title={t("sendOld.confirmTitle")}
          text={t("sendOld.confirmText", { count: total })}
          intent="resend-all"
          confirmLabel={t("sendOld.resendAll")}
          busyLabel={t("sendOld.sending")}
          cancelLabel={t("common:cancel")}
          cancelHref={PATH}
          redirectTo={PATH}
        />
      ) : null}
      {total === 0 ? (
        <div className="mt-6 rounded-box border border-base-300 p-6 text-center">
          <h2 className="font-semibold">{t("sendOld.emptyTitle")}</h2>
          <p className="mt-1 text-sm text-base-content/70">{t("sendOld.emptyText")}</p>
        </div>
      ) : (
        <>
          <div className="mt-4 flex flex-wrap items-center justify-between gap-2">
            <p className="text-sm">{t("sendOld.count", { count: total })}</p>
            <Link to={`${PATH}?confirm=all`} className="btn btn-primary btn-sm" preventScrollReset>
              {t("sendOld.resendAll")}
            </Link>
          </div>
          <TableScroll className="mt-3">
            <table className="table table-sm">
              <thead>
                <tr>
                  <th scope="col">{t("sendOld.to")}</th>
                  <th scope="col">{t("sendOld.subject")}</th>
                  <th scope="col">{t("sendOld.when")}</th>
                  <th scope="col">{t("sendOld.attempts")}</th>
                  <th scope="col">{t("sendOld.error")}</th>
                  <th scope="col">
                    <span className="sr-only">{t("sendOld.actions")}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {mails.map((m) => (
                  <tr key={m.id}>
                    <td className="min-w-48 break-all">{m.to_address}</td>
                    <td className="min-w-48">{m.subject}</td>
                    <td className="whitespace-nowrap">{formatDateTime(m.last_attempt_at, i18n.language)}</td>
                    <td>{m.attempts}</td>
                    <td className="min-w-64 max-w-xs break-words text-sm text-error">{m.error}</td>
                    <td>
                      <ActionForm intent="resend" fields={{ id: m.id }} redirectTo={href(page)}>
                        {(form) => (
                          <button
                            type="submit"
                            className="btn btn-sm whitespace-nowrap"
                            disabled={form.busy}
                            aria-label={t("sendOld.resendOne", { to: m.to_address })}
                          >
                            {form.busy ? t("sendOld.sending") : t("sendOld.resend")}
                          </button>
                        )}
                      </ActionForm>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
          <Pagination page={page} pageCount={pageCount} pageSize={pageSize} shown={mails.length} total={total} href={href} />
        </>
      )}
    </section>
  );
}
