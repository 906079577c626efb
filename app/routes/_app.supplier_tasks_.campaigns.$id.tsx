import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData, useLocation, useRevalidator } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/ui/GeneralErrorBoundary";
import { titleMeta } from "~/components/ui/meta";
import { useHydrated } from "~/components/ui/useHydrated";
import { usePolling } from "~/components/ui/usePolling";
import { requireUser } from "~/http/auth.server";
import { requireId } from "~/http/parse.server";
import { errorResponse } from "~/http/responses.server";
import { campaignView } from "~/models/tasks/campaign-send.server";
import { formatDate, formatDateTime } from "~/models/shared/format";
import { pageTitle } from "~/models/shared/page-title.server";
import { useTranslation } from "~/translations";

export const meta = titleMeta;

export const handle = { i18n: ["campaigns", "taskStates"] };

/** Without JavaScript the page reloads itself this often while the sending runs. */
const REFRESH_SECONDS = 3;

/**
 * /supplier_tasks/campaigns/:id — one campaign of the organisation: "Sending…" while its job runs (polling with
 * JavaScript, a refresh without), then the summary: who got it at which address, who was skipped and why (no contact
 * e-mail) with a link to fix each contact and one to send again to those. Another organisation's campaign is a 404.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, "supplierTasksManage");
  const campaignId = requireId(params.id);
  const campaign = await campaignView({ organizationId: user.organizationId, campaignId });
  if (!campaign) throw errorResponse(404, "No campaign with this id.");
  return json({ campaign, title: await pageTitle(request, "campaigns:campaign.title") });
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

export default function CampaignScreen() {
  const { campaign } = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation("campaigns");
  const { t: tState } = useTranslation("taskStates");
  const revalidator = useRevalidator();
  const hydrated = useHydrated();
  const { pathname } = useLocation();
  const sending = campaign.state === "sending";
  usePolling(sending, () => {
    if (revalidator.state === "idle") revalidator.revalidate();
  });
  const skipped = campaign.summary?.skipped ?? [];
  const sent = campaign.summary?.sent ?? [];
  const resend = new URLSearchParams(skipped.map((s) => ["supplier", String(s.supplierOrganizationId)]));
  if (campaign.template) resend.set("template", campaign.template);

  return (
    <section aria-labelledby="campaign-title" className="mx-auto max-w-4xl">
      <p className="text-sm">
        <Link to="/suppliers" className="link">
          {t("send.back")}
        </Link>
      </p>
      <h1 id="campaign-title" className="mt-1 text-2xl font-semibold break-words">
        {campaign.title}
      </h1>
      <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="text-base-content/70">{t("campaign.kind")}</dt>
        <dd>{tState(`kind.${campaign.kind}`)}</dd>
        <dt className="text-base-content/70">{t("campaign.dueDate")}</dt>
        <dd>{campaign.dueDate ? formatDate(campaign.dueDate, i18n.language) : t("campaign.noDueDate")}</dd>
        <dt className="text-base-content/70">{t("campaign.created")}</dt>
        <dd>{formatDateTime(campaign.createdAt, i18n.language)}</dd>
        {campaign.recurrence === "yearly" ? (
          <>
            <dt className="text-base-content/70">{t("campaign.recurrence")}</dt>
            <dd>{campaign.nextRunOn ? t("campaign.nextRun", { date: formatDate(campaign.nextRunOn, i18n.language) }) : t("campaign.yearly")}</dd>
          </>
        ) : null}
      </dl>
      {campaign.message ? <p className="mt-3 max-w-prose rounded-box bg-base-200 p-3 text-sm whitespace-pre-line">{campaign.message}</p> : null}

      {sending ? (
        <div role="status" className="mt-6 flex flex-col items-start gap-2 rounded-box border border-base-300 bg-base-100 p-4">
          {/* Without JavaScript the browser reloads the page; with it, the polling above asks again (noscript is inert then). */}
          <noscript>
            <meta httpEquiv="refresh" content={String(REFRESH_SECONDS)} />
          </noscript>
          <p className="flex items-center gap-2 font-medium">
            <span className="loading loading-spinner loading-sm" aria-hidden="true" />
            {t("campaign.sending")}
          </p>
          <p className="text-sm text-base-content/70">{t("campaign.sendingHint")}</p>
          {hydrated ? null : (
            <Link to={pathname} className="link text-sm">
              {t("campaign.refresh")}
            </Link>
          )}
        </div>
      ) : null}

      {campaign.state === "failed" ? (
        <div role="alert" className="alert alert-error mt-6 text-sm">
          {t("campaign.failed")}
        </div>
      ) : null}

      {campaign.state === "sent" ? (
        <>
          <p role="status" className="mt-6 font-medium">
            {t("campaign.summary", { sent: sent.length, skipped: skipped.length })}
          </p>
          <section aria-labelledby="campaign-sent" className="mt-4 rounded-box border border-base-300 bg-base-100 p-4">
            <h2 id="campaign-sent" className="text-lg font-semibold">
              {t("campaign.sentHeading", { count: sent.length })}
            </h2>
            {sent.length === 0 ? (
              <p className="mt-2 text-sm text-base-content/70">{t("campaign.noneSent")}</p>
            ) : (
              <ul className="mt-2 divide-y divide-base-300">
                {sent.map((s) => (
                  <li key={s.supplierTaskId} className="flex flex-col gap-0.5 py-2 text-sm sm:flex-row sm:justify-between sm:gap-4">
                    <Link to={`/supplier_tasks/${s.supplierTaskId}`} className="link link-hover link-primary font-medium break-words">
                      {s.name}
                    </Link>
                    <span className="break-all text-base-content/70">{s.email}</span>
                  </li>
                ))}
              </ul>
            )}
          </section>
          {skipped.length ? (
            <section aria-labelledby="campaign-skipped" className="mt-4 rounded-box border border-warning bg-base-100 p-4">
              <h2 id="campaign-skipped" className="text-lg font-semibold">
                {t("campaign.skippedHeading", { count: skipped.length })}
              </h2>
              <p className="mt-1 text-sm text-base-content/70">{t("campaign.skippedHint")}</p>
              <ul className="mt-2 divide-y divide-base-300">
                {skipped.map((s) => (
                  <li
                    key={s.supplierOrganizationId}
                    className="flex flex-col gap-0.5 py-2 text-sm sm:grid sm:grid-cols-[minmax(0,1fr)_12rem_auto] sm:items-center sm:gap-4"
                  >
                    <span className="font-medium break-words">{s.name}</span>
                    <span className="text-base-content/70">{t(`campaign.reason.${s.reason}`)}</span>
                    <Link
                      to={`/supplier?${new URLSearchParams({ externalId: campaign.orgNumbers[s.supplierOrganizationId] ?? "", localId: String(s.supplierOrganizationId), edit: "connection" })}`}
                      className="link link-primary whitespace-nowrap"
                      aria-label={t("campaign.fixContactOf", { name: s.name })}
                    >
                      {t("campaign.fixContact")}
                    </Link>
                  </li>
                ))}
              </ul>
              {campaign.template ? (
                <Link to={`/supplier_tasks/send?${resend}`} className="btn btn-sm btn-primary mt-3">
                  {t("campaign.resend", { count: skipped.length })}
                </Link>
              ) : null}
            </section>
          ) : null}
        </>
      ) : null}
    </section>
  );
}
