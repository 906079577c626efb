import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData, useRevalidator } from "@remix-run/react";
import { scrollableTables } from "~/models/assistant/ai-report";
import { supplierLink } from "~/models/assistant/assistant";
import { uiLanguage } from "~/i18n";
import { GeneralErrorBoundary } from "~/components/ui/GeneralErrorBoundary";
import { titleMeta } from "~/components/ui/meta";
import { usePolling } from "~/components/ui/usePolling";
import { requireUser } from "~/http/auth.server";
import { requireId } from "~/http/parse.server";
import { notFound } from "~/http/responses.server";
import { getReport } from "~/models/assistant/ai-reports.server";
import { formatDateTime } from "~/models/shared/format";
import { renderMarkdown } from "~/models/shared/markdown";
import { useTranslation } from "~/translations";

export const meta = titleMeta;

export const handle = { i18n: ["aiReports"] };

/**
 * /ai/reports/{id}: one supplier report of the organisation, its markdown rendered inert (app/models/shared/markdown.ts: no raw
 * HTML, only safe links), printable, with its PDF. While it is still being written the page says so and asks again (with
 * JavaScript by polling, without it through the reload link). Another organisation's report is a 404.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, "assistantUse");
  const id = requireId(params.id);
  const report = await getReport({ organizationId: user.organizationId, id });
  if (!report) throw notFound("No report with this id.");
  return json({
    report: { ...report, markdown: undefined },
    html: report.status === "ready" && report.markdown ? scrollableTables(renderMarkdown(report.markdown)) : null,
    title: report.companyName,
  });
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

/** The report's container around the shared markdown typography (.markdown, app/tailwind.css): a larger title, ruled
 * section headings, and tables that fill the width inside their own focusable scroll box. */
const REPORT_CLASSES = [
  "markdown mt-4 min-w-0 rounded-box border border-base-300 bg-base-100 p-3 text-sm sm:p-6 print:border-0 print:p-0",
  "[&_h1]:text-2xl [&_h2]:mt-6 [&_h2]:border-b [&_h2]:border-base-300 [&_h2]:pb-1 [&_em]:text-base-content/70",
  "[&_.report-table]:my-2 [&_.report-table]:overflow-x-auto [&_.report-table:focus-visible]:outline-2 [&_.report-table:focus-visible]:outline-primary",
  "[&_.report-table_table]:table [&_.report-table_table]:w-full [&_td[align=right]]:text-right [&_td[align=right]]:tabular-nums",
].join(" ");

export default function AiReportScreen() {
  const { report, html } = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation("aiReports");
  const lng = uiLanguage(i18n.language);
  const revalidator = useRevalidator();
  usePolling(report.status === "generating", () => {
    if (revalidator.state === "idle") revalidator.revalidate();
  });
  const here = `/ai/reports/${report.id}`;
  return (
    <article className="mx-auto max-w-4xl">
      <div className="flex flex-wrap items-center justify-between gap-2 print:hidden">
        <Link to="/ai/reports" className="link text-sm">
          ← {t("page.back")}
        </Link>
        <div className="flex flex-wrap gap-2">
          <Link to={supplierLink(report.orgNumber, null)} className="btn btn-ghost btn-sm">
            {t("page.openSupplier")}
          </Link>
          {report.status === "ready" ? (
            <a href={`${here}/pdf`} className="btn btn-primary btn-sm">
              {t("page.downloadPdf")}
            </a>
          ) : null}
        </div>
      </div>
      {html ? null : <h1 className="mt-3 text-2xl font-semibold">{report.companyName}</h1>}
      <p className="mt-3 text-sm text-base-content/70">
        {t("page.meta", {
          name: report.companyName,
          orgNumber: report.orgNumber,
          date: formatDateTime(report.createdAt, lng),
          by: report.by ?? t("list.unknownUser"),
          provider: t(`page.providers.${report.provider === "openai" ? "openai" : "local"}`),
        })}
      </p>
      {report.status === "generating" ? (
        <div role="status" className="alert mt-4">
          <span>{t("page.generating")}</span>
          <a href={here} className="link">
            {t("page.reload")}
          </a>
        </div>
      ) : report.status === "failed" ? (
        <div role="alert" className="alert alert-error mt-4 flex flex-wrap">
          <span>{t("page.failed")}</span>
          <Link to={`/ai/reports?orgNumber=${report.orgNumber}`} className="link">
            {t("page.regenerate")}
          </Link>
        </div>
      ) : null}
      {html ? (
        <div
          className={REPORT_CLASSES}
          // Rendered by renderMarkdown: raw HTML is escaped and only safe link targets survive (markdown.ts).
          dangerouslySetInnerHTML={{ __html: html }}
        />
      ) : null}
    </article>
  );
}
