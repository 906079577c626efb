import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { uiLanguage } from "~/i18n";
import { ActionForm, FieldError } from "~/components/ui/ActionForm";
import { ConfirmStep } from "~/components/ui/ConfirmStep";
import { GeneralErrorBoundary } from "~/components/ui/GeneralErrorBoundary";
import { titleMeta } from "~/components/ui/meta";
import { Pagination } from "~/components/ui/Pagination";
import { TableScroll } from "~/components/ui/TableScroll";
import { requireUser } from "~/http/auth.server";
import { refuseForm } from "~/http/forms.server";
import { redirectWithNotice } from "~/http/notice.server";
import { parseId, readForm } from "~/http/parse.server";
import { safeRedirect } from "~/http/redirect.server";
import { errorResponse } from "~/http/responses.server";
import i18nServer from "~/i18n.server";
import { deleteReport, generateReport, getReport, listReports, supplierChoices } from "~/models/assistant/ai-reports.server";
import { formatDateTime } from "~/models/shared/format";
import { pageTitle } from "~/models/shared/page-title.server";
import { useTranslation } from "~/translations";

export const meta = titleMeta;

export const handle = { i18n: ["aiReports"] };

const BASE = "/ai/reports";

/**
 * /ai/reports: the organisation's supplier reports, newest first, paged, and the form that generates one on a
 * followed supplier. The supplier is chosen from a select of the followed suppliers, narrowed by a GET search (`?q=`), so it
 * works without JavaScript; `?orgNumber=` preselects one (the supplier screen's "AI report" link). `?delete={id}` is the
 * confirmation step of a delete. Decision 029.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request, "assistantUse");
  const url = new URL(request.url);
  const rawPage = url.searchParams.get("page");
  const page = rawPage ? parseId(rawPage) : 1;
  if (page === null) throw errorResponse(400, "page must be a positive whole number");
  const q = (url.searchParams.get("q") ?? "").trim().slice(0, 100);
  const orgNumber = (url.searchParams.get("orgNumber") ?? "").replace(/\s/g, "");
  if (orgNumber && !/^\d{9}$/.test(orgNumber)) throw errorResponse(400, "orgNumber must be 9 digits");
  const rawDelete = url.searchParams.get("delete");
  const deleteId = rawDelete ? parseId(rawDelete) : null;
  if (rawDelete && deleteId === null) throw errorResponse(400, "delete must be a positive whole number");
  const scope = { organizationId: user.organizationId, language: user.language };
  const [reports, found, preselected, toDelete] = await Promise.all([
    listReports({ organizationId: user.organizationId, page }),
    supplierChoices({ ...scope, q }),
    orgNumber ? supplierChoices({ ...scope, q: orgNumber }) : null,
    deleteId ? getReport({ organizationId: user.organizationId, id: deleteId }) : null,
  ]);
  if (rawDelete && !toDelete) throw errorResponse(404, "No report with this id.");
  const selected = preselected?.choices.find((c) => c.orgNumber === orgNumber) ?? null;
  const choices = selected && !found.choices.some((c) => c.orgNumber === selected.orgNumber) ? [selected, ...found.choices] : found.choices;
  return json({
    reports,
    q,
    choices,
    matches: found.total,
    selected: selected?.orgNumber ?? null,
    toDelete: toDelete ? { id: toDelete.id, companyName: toDelete.companyName } : null,
    title: await pageTitle(request, "aiReports:title"),
  });
}

type Translate = (key: string, options?: Record<string, unknown>) => string;

const generateSchema = (t: Translate) =>
  z.object({
    intent: z.literal("generate"),
    orgNumber: z
      .string({ error: t("aiReports:generate.required") })
      .transform((v) => v.replace(/\s/g, ""))
      .pipe(z.string().regex(/^\d{9}$/, { error: t("aiReports:generate.required") })),
    redirectTo: z.string().optional(),
  });

const deleteSchema = (t: Translate) =>
  z.object({
    intent: z.literal("delete"),
    id: z.string({ error: t("aiReports:delete.notFound") }).transform((value, ctx) => {
      const id = parseId(value);
      if (id === null) ctx.addIssue({ code: "custom", message: t("aiReports:delete.notFound") });
      return id ?? 0;
    }),
    redirectTo: z.string().optional(),
  });

function withoutDelete(path: string): string {
  const url = new URL(path, "http://local");
  url.searchParams.delete("delete");
  return url.pathname + url.search;
}

/**
 * `generate`: writes the report (synchronously; the provider's timeout bounds a model) and goes to its page, ready or
 * failed; a supplier the organisation does not follow is a 404, a malformed number a 400. `delete`: the organisation's
 * report, else 404 with nothing changed.
 */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request, "assistantUse");
  const t = await i18nServer.getFixedT(request);
  const form = await readForm(request);
  switch (form.get("intent")) {
    case "generate": {
      const submission = parseWithZod(form, { schema: generateSchema(t) });
      if (submission.status !== "success") return refuseForm(submission, { intent: "generate" });
      const viewer = { userId: user.id, organizationId: user.organizationId, language: user.language };
      const result = await generateReport({ viewer, orgNumber: submission.value.orgNumber, signal: request.signal });
      if ("notFollowed" in result)
        return refuseForm(submission, { intent: "generate", status: 404, fieldErrors: { orgNumber: [t("aiReports:generate.notFollowed")] } });
      return redirect(`${BASE}/${result.id}`);
    }
    case "delete": {
      const submission = parseWithZod(form, { schema: deleteSchema(t) });
      if (submission.status !== "success") return refuseForm(submission, { intent: "delete" });
      if (!(await deleteReport({ organizationId: user.organizationId, id: submission.value.id })))
        return refuseForm(submission, { intent: "delete", status: 404, formErrors: [t("aiReports:delete.notFound")] });
      // A plain post names where it came from; the confirmation step is left either way.
      return redirectWithNotice(request, withoutDelete(safeRedirect(submission.value.redirectTo, BASE)), "aiReports:delete.deleted");
    }
    default:
      throw errorResponse(400, "Unknown intent.");
  }
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

function GenerateSection() {
  const { q, choices, matches, selected } = useLoaderData<typeof loader>();
  const { t } = useTranslation("aiReports");
  const here = q ? `${BASE}?q=${encodeURIComponent(q)}` : BASE;
  return (
    <section aria-labelledby="generate-title" className="mt-6 rounded-box border border-base-300 bg-base-100 p-4">
      <h2 id="generate-title" className="text-lg font-semibold">
        {t("generate.title")}
      </h2>
      <Form method="get" action={BASE} className="mt-3 flex flex-wrap items-end gap-2" role="search" aria-label={t("generate.searchLabel")}>
        <div className="min-w-0 flex-1 sm:max-w-sm">
          <label htmlFor="report-q" className="mb-1 block text-sm font-medium">
            {t("generate.searchLabel")}
          </label>
          <input
            id="report-q"
            name="q"
            type="search"
            defaultValue={q}
            maxLength={100}
            placeholder={t("generate.searchPlaceholder")}
            className="input input-bordered input-sm w-full"
          />
        </div>
        <button type="submit" className="btn btn-sm">
          {t("generate.search")}
        </button>
      </Form>
      <p className="mt-2 text-sm text-base-content/70" aria-live="polite">
        {matches === 0 ? (q ? t("generate.noMatches", { term: q }) : t("generate.noSuppliers")) : t("generate.matches", { count: matches })}
        {matches > choices.length ? ` ${t("generate.moreMatches", { shown: choices.length, total: matches })}` : ""}
      </p>
      {choices.length > 0 ? (
        <ActionForm intent="generate" redirectTo={here} className="mt-3 flex flex-wrap items-end gap-2">
          {(form) => (
            <>
              <div className="min-w-0 flex-1 sm:max-w-sm">
                <label htmlFor="report-supplier" className="mb-1 block text-sm font-medium">
                  {t("generate.supplierLabel")}
                </label>
                <select
                  id="report-supplier"
                  name="orgNumber"
                  required
                  defaultValue={form.kept("orgNumber") ?? selected ?? ""}
                  className="select select-bordered select-sm w-full"
                  {...form.invalid("orgNumber")}
                >
                  <option value="">{t("generate.choose")}</option>
                  {choices.map((c) => (
                    <option key={c.orgNumber} value={c.orgNumber}>
                      {c.name} ({c.orgNumber})
                    </option>
                  ))}
                </select>
                <FieldError form={form} name="orgNumber" />
              </div>
              <button type="submit" className="btn btn-primary btn-sm" disabled={form.busy}>
                {form.busy ? t("status.generating") : t("generate.submit")}
              </button>
            </>
          )}
        </ActionForm>
      ) : null}
    </section>
  );
}

export default function AiReportsScreen() {
  const { reports, toDelete, q } = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation("aiReports");
  const lng = uiLanguage(i18n.language);
  const pageHref = (page: number) => {
    const params = new URLSearchParams();
    if (q) params.set("q", q);
    if (page > 1) params.set("page", String(page));
    const s = params.toString();
    return s ? `${BASE}?${s}` : BASE;
  };
  const here = pageHref(reports.page);
  return (
    <section aria-labelledby="ai-reports-title" className="mx-auto max-w-6xl">
      <h1 id="ai-reports-title" className="text-2xl font-semibold">
        {t("title")}
      </h1>
      <p className="mt-1 max-w-prose text-sm text-base-content/70">{t("intro")}</p>
      <GenerateSection />
      <section aria-labelledby="reports-list-title" className="mt-6">
        <h2 id="reports-list-title" className="text-lg font-semibold">
          {t("list.title")}
        </h2>
        {reports.total === 0 ? (
          <div className="mt-3 rounded-box border border-dashed border-base-300 bg-base-100 p-6">
            <p className="font-medium">{t("list.empty")}</p>
            <p className="mt-1 text-sm text-base-content/70">{t("list.emptyHint")}</p>
          </div>
        ) : (
          <>
            <TableScroll>
              <table className="table table-sm mt-3 min-w-[48rem]">
                <thead>
                  <tr>
                    <th scope="col">{t("list.columns.created")}</th>
                    <th scope="col">{t("list.columns.supplier")}</th>
                    <th scope="col">{t("list.columns.orgNumber")}</th>
                    <th scope="col">{t("list.columns.language")}</th>
                    <th scope="col">{t("list.columns.by")}</th>
                    <th scope="col">{t("list.columns.status")}</th>
                    <th scope="col">{t("list.columns.actions")}</th>
                  </tr>
                </thead>
                <tbody>
                  {reports.rows.map((r) => (
                    <tr key={r.id} className="hover:bg-base-200">
                      <td className="whitespace-nowrap">{formatDateTime(r.createdAt, lng)}</td>
                      <th scope="row" className="font-medium">
                        <Link to={`${BASE}/${r.id}`} className="link link-hover" aria-label={t("list.openNamed", { name: r.companyName })}>
                          {r.companyName}
                        </Link>
                      </th>
                      <td className="whitespace-nowrap tabular-nums">{r.orgNumber}</td>
                      <td>{t(`languages.${r.language}`)}</td>
                      <td className="break-all">{r.by ?? t("list.unknownUser")}</td>
                      <td>
                        <span className={`badge badge-sm ${r.status === "ready" ? "badge-success" : r.status === "failed" ? "badge-error" : "badge-ghost"}`}>
                          {t(`status.${r.status}`)}
                        </span>
                      </td>
                      <td className="whitespace-nowrap">
                        {r.status === "ready" ? (
                          <a href={`${BASE}/${r.id}/pdf`} className="link link-primary mr-3" aria-label={t("list.pdfNamed", { name: r.companyName })}>
                            {t("list.pdf")}
                          </a>
                        ) : null}
                        <Link
                          to={`${here}${here.includes("?") ? "&" : "?"}delete=${r.id}`}
                          className="link"
                          aria-label={t("list.deleteNamed", { name: r.companyName })}
                          preventScrollReset
                        >
                          {t("list.delete")}
                        </Link>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
            <Pagination
              page={reports.page}
              pageCount={reports.pageCount}
              pageSize={reports.pageSize}
              shown={reports.rows.length}
              total={reports.total}
              href={pageHref}
            />
          </>
        )}
      </section>
      {toDelete ? (
        <ConfirmStep
          title={t("delete.confirmTitle")}
          text={t("delete.confirmText")}
          detail={toDelete.companyName}
          intent="delete"
          fields={{ id: toDelete.id }}
          confirmLabel={t("delete.confirm")}
          cancelLabel={t("delete.cancel")}
          cancelHref={here}
          redirectTo={here}
        />
      ) : null}
    </section>
  );
}
