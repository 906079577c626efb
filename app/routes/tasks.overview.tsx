import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { respondentHandle, respondentHeaders, respondentMeta } from "~/components/respondent/ItemPage";
import { RESPONDENT_NAMESPACES, RespondentFrame } from "~/components/respondent/RespondentFrame";
import { RespondentList } from "~/components/respondent/RespondentList";
import { GeneralErrorBoundary } from "~/components/ui/GeneralErrorBoundary";
import { listLoader } from "~/http/respondent-pages.server";
import { can } from "~/models/accounts/permissions";
import { formatDate } from "~/models/shared/format";
import { customerOverview } from "~/models/tasks/respondent.server";
import { STATUS_FILTERS } from "~/models/tasks/task-states";
import { useTranslation } from "~/translations";

/**
 * My Compliance (decision 033): what the user's organisation must answer, from every customer that asked; for a customer
 * member at level 2 also the state of what the organisation sent, per supplier (overdue first) and per campaign
 * (completion). No script: a respondent on a slow link gets plain HTML.
 */
export const handle = respondentHandle;
export const meta = respondentMeta;
export const headers = respondentHeaders;

export async function loader({ request }: LoaderFunctionArgs) {
  const { user, items, organization, title } = await listLoader(request, { titleKey: "respond:overview.title" });
  const customer = can(user, "supplierTasksRead") ? await customerOverview({ organizationId: user.organizationId }) : null;
  return json({ items, customer, organization, title });
}

// Overdue first: what needs a reminder stands out.
const SHOWN = ["overdue" as const, ...STATUS_FILTERS.filter((s) => s !== "cancelled" && s !== "overdue")];

export default function Overview() {
  const { items, customer, organization } = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation(RESPONDENT_NAMESPACES);
  return (
    <RespondentFrame organization={organization}>
      <h1 className="mb-4 text-2xl font-semibold">{t("respond:overview.title")}</h1>
      {customer ? (
        <>
          <section aria-labelledby="per-supplier" className="mb-8">
            <h2 id="per-supplier" className="mb-2 text-lg font-semibold">
              {t("respond:overview.perSupplier")}
            </h2>
            {customer.suppliers.length === 0 ? (
              <p className="text-sm text-base-content/70">{t("respond:overview.nothingSent")}</p>
            ) : (
              // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrolling table must be reachable by keyboard
              <div className="overflow-x-auto rounded-box border border-base-300 bg-base-100" tabIndex={0} role="region" aria-labelledby="per-supplier">
                <table className="table table-sm">
                  <thead>
                    <tr>
                      <th scope="col">{t("respond:overview.supplier")}</th>
                      {SHOWN.map((s) => (
                        <th key={s} scope="col" className="text-right">
                          {t(`taskStates:status.${s}`)}
                        </th>
                      ))}
                    </tr>
                  </thead>
                  <tbody>
                    {customer.suppliers.map((row) => (
                      <tr key={row.supplierOrganizationId}>
                        <th scope="row" className="font-normal">
                          {row.orgNumber ? (
                            <a className="link" href={`/supplier?externalId=${encodeURIComponent(row.orgNumber)}`}>
                              {row.name}
                            </a>
                          ) : (
                            row.name
                          )}
                        </th>
                        {SHOWN.map((s) => (
                          <td key={s} className={`text-right ${s === "overdue" && row.counts[s] ? "font-semibold text-error" : ""}`}>
                            {row.counts[s] ?? 0}
                          </td>
                        ))}
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </section>
          <section aria-labelledby="per-campaign" className="mb-8">
            <h2 id="per-campaign" className="mb-2 text-lg font-semibold">
              {t("respond:overview.perCampaign")}
            </h2>
            {customer.campaigns.length === 0 ? (
              <p className="text-sm text-base-content/70">{t("respond:overview.noCampaigns")}</p>
            ) : (
              <ul className="divide-y divide-base-300 rounded-box border border-base-300 bg-base-100">
                {customer.campaigns.map((c) => (
                  <li key={c.id} className="p-3">
                    <a className="link font-medium break-words" href={`/supplier_tasks?campaign=${c.id}`}>
                      {c.title}
                    </a>
                    <p className="mt-1 flex flex-wrap gap-x-3 text-sm text-base-content/80">
                      <span>{t(`taskStates:kind.${c.kind}`)}</span>
                      <span>{c.dueDate ? `${t("taskStates:dueDate")}: ${formatDate(c.dueDate, i18n.language)}` : t("taskStates:noDueDate")}</span>
                      <span>
                        {c.rate === null ? t("respond:overview.notSentYet") : t("respond:overview.completion", { done: c.done, sent: c.sent, rate: c.rate })}
                      </span>
                    </p>
                    {c.rate !== null ? (
                      <progress
                        className="progress progress-primary mt-2 w-full"
                        value={c.rate}
                        max={100}
                        aria-label={t("respond:overview.completionLabel", { title: c.title })}
                      />
                    ) : null}
                  </li>
                ))}
              </ul>
            )}
          </section>
        </>
      ) : null}
      {!customer || items.length > 0 ? <RespondentList items={items} headingId="to-answer" title={t("respond:list.toAnswer")} showKind /> : null}
    </RespondentFrame>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
