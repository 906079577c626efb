import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData, useLocation, useRevalidator } from "@remix-run/react";
import { z } from "zod";
import { ProgressLine } from "~/components/imports/ImportProgress";
import { usePolling } from "~/components/ui/usePolling";
import { ActionForm, FieldError } from "~/components/ui/ActionForm";
import { GeneralErrorBoundary } from "~/components/ui/GeneralErrorBoundary";
import { titleMeta } from "~/components/ui/meta";
import { TableScroll } from "~/components/ui/TableScroll";
import { useHydrated } from "~/components/ui/useHydrated";
import { requireUser } from "~/http/auth.server";
import { redirectWithNotice } from "~/http/notice.server";
import { parseId, readForm, requireId } from "~/http/parse.server";
import { acceptForm, refuseForm, refuseFormFor } from "~/http/forms.server";
import { errorResponse, REFUSAL_STATUS } from "~/http/responses.server";
import { safeRedirect } from "~/http/redirect.server";
import i18nServer from "~/i18n.server";
import { pageTitle } from "~/models/shared/page-title.server";
import {
  chooseCandidate,
  confirmImport,
  getImport,
  IMPORT_REFUSALS,
  importRows,
  linesToCreate,
  type ImportRefusal,
} from "~/models/files/supplier-imports.server";
import { isRefusalOf } from "~/models/shared/refusal";
import { ROW_STATUSES, type RowStatus } from "~/models/files/import-statuses";
import { listTags } from "~/models/suppliers/tags.server";
import { useTranslation } from "~/translations";

export const meta = titleMeta;

export const handle = { i18n: ["imports", "files"] };

/**
 * /suppliers/imports/:importId — one supplier-list import of the user: its progress while the analysis runs (a refresh
 * link without JavaScript, polling with it), then the dry-run report (counts per status, the lines filtered by status as
 * GET links and paged, a choice for each ambiguous line) and Confirm with an optional tag for the whole import; a failed
 * analysis says why and what to do. Anyone else's import is a 404.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, "suppliersWrite");
  const importId = requireId(params.importId, "importId");
  const scope = { organizationId: user.organizationId, userId: user.id, importId };
  const imp = await getImport(scope);
  if (!imp) throw errorResponse(404, "No import with this id.");
  const q = new URL(request.url).searchParams;
  const status = ROW_STATUSES.find((s) => s === q.get("status")) ?? null;
  const analysed = imp.status === "ready" || imp.status === "confirmed";
  const [rows, tags, toCreate, title] = await Promise.all([
    analysed ? importRows({ ...scope, status, page: parseId(q.get("page")) ?? 1 }) : undefined,
    imp.status === "ready" ? listTags({ organizationId: user.organizationId }) : Promise.resolve<Array<{ id: number; title: string }>>([]),
    imp.status === "ready" ? linesToCreate(scope) : 0,
    pageTitle(request, "imports:page.title"),
  ]);
  return json({ imp, rows: rows ?? null, status, tags, toCreate, title });
}

const chooseSchema = z.object({
  intent: z.literal("choose"),
  rowNumber: z
    .string()
    .regex(/^\d{1,7}$/)
    .transform(Number),
  companyId: z
    .string()
    .regex(/^\d{1,12}$/)
    .transform(Number)
    .optional()
    .transform((v) => v ?? null),
  redirectTo: z.string().optional(),
});

const confirmSchema = z.object({
  intent: z.literal("confirm"),
  tagId: z
    .string()
    .regex(/^\d{1,12}$/)
    .transform(Number)
    .optional(),
  newTag: z.string().max(100).optional(),
  redirectTo: z.string().optional(),
});

/** The page's forms: a choice for one ambiguous line, and Confirm. */
const IMPORT_INTENTS = ["choose", "confirm"] as const;
type ImportIntent = (typeof IMPORT_INTENTS)[number];
const isImportIntent = (intent: unknown): intent is ImportIntent => (IMPORT_INTENTS as readonly unknown[]).includes(intent);

type T = (key: string) => string;
type ImportScope = { organizationId: number; userId: number; importId: number };

/** The user's words for a refused change (409 for an import confirmed or not ready, 400 for the rest). */
const refusalMessage = (t: T, code: ImportRefusal) => t(`imports:errors.${code}`);

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request, "suppliersWrite");
  const importId = requireId(params.importId, "importId");
  const scope = { organizationId: user.organizationId, userId: user.id, importId };
  const t = await i18nServer.getFixedT(request);
  const formData = await readForm(request);
  const intent = formData.get("intent");
  if (!isImportIntent(intent)) return refuseForm(formData, { intent: null, formErrors: [t("imports:page.invalid")] });
  switch (intent) {
    case "choose":
      return chooseLine(request, scope, formData, t);
    case "confirm":
      return confirm(request, scope, formData, t);
  }
}

async function chooseLine(request: Request, scope: ImportScope, formData: FormData, t: T) {
  const submission = parseWithZod(formData, { schema: chooseSchema });
  if (submission.status !== "success") return refuseForm(submission, { intent: "choose", formErrors: [t("imports:page.invalid")] });
  try {
    if (!(await chooseCandidate({ ...scope, rowNumber: submission.value.rowNumber, companyId: submission.value.companyId })))
      throw errorResponse(404, "No import with this id.");
  } catch (error) {
    if (!isRefusalOf(error, IMPORT_REFUSALS)) throw error;
    // The choice is one select: the message is the form's whatever the refusal names.
    return refuseForm(submission, { intent: "choose", status: REFUSAL_STATUS[error.reason], formErrors: [refusalMessage(t, error.code)] });
  }
  const here = `/suppliers/imports/${scope.importId}`;
  if (submission.value.redirectTo !== undefined) return redirectWithNotice(request, safeRedirect(submission.value.redirectTo, here), "imports:page.chosen");
  return acceptForm(submission, { intent: "choose", resetForm: false });
}

async function confirm(request: Request, scope: ImportScope, formData: FormData, t: T) {
  const submission = parseWithZod(formData, { schema: confirmSchema });
  if (submission.status !== "success") return refuseForm(submission, { intent: "confirm", formErrors: [t("imports:page.invalid")] });
  const { tagId, newTag } = submission.value;
  const tag = newTag?.trim() ? { title: newTag.trim() } : tagId ? { id: tagId } : null;
  try {
    const done = await confirmImport({ ...scope, tag });
    if (!done) throw errorResponse(404, "No import with this id.");
    return redirectWithNotice(request, done.tag ? `/suppliers?tag=${done.tag.id}` : "/suppliers", "imports:page.confirmed");
  } catch (error) {
    if (!isRefusalOf(error, IMPORT_REFUSALS)) throw error;
    // A tag that is not there is the tag field's message; an import confirmed or not ready is the form's.
    return refuseFormFor(error, submission, refusalMessage(t, error.code), { intent: "confirm" });
  }
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

type Data = ReturnType<typeof useLoaderData<typeof loader>>;

function pageHref(pathname: string, status: RowStatus | null, page?: number) {
  const q = new URLSearchParams();
  if (status) q.set("status", status);
  if (page && page > 1) q.set("page", String(page));
  const s = q.toString();
  return s ? `${pathname}?${s}` : pathname;
}

function Counts({ imp, status }: { imp: Data["imp"]; status: RowStatus | null }) {
  const { t } = useTranslation("imports");
  const { pathname } = useLocation();
  const counts = imp.counts;
  if (!counts) return null;
  const item = (key: RowStatus | null, label: string, n: number) => (
    <li key={key ?? "all"}>
      <Link
        to={pageHref(pathname, key)}
        aria-current={status === key ? "page" : undefined}
        className={`btn btn-sm ${status === key ? "btn-primary" : "btn-ghost border-base-300"}`}
        preventScrollReset
      >
        {label} <span className="badge badge-sm">{n}</span>
      </Link>
    </li>
  );
  return (
    <nav aria-label={t("page.filter")}>
      <ul className="flex flex-wrap gap-2">
        {item(null, t("page.all"), counts.total)}
        {ROW_STATUSES.map((s) => item(s, t(`status.${s}`), counts[s] ?? 0))}
      </ul>
    </nav>
  );
}

function CandidateChoice({ row, redirectTo }: { row: NonNullable<Data["rows"]>["rows"][number]; redirectTo: string }) {
  const { t } = useTranslation("imports");
  const id = `choose-${row.rowNumber}`;
  return (
    <ActionForm intent="choose" fields={{ rowNumber: row.rowNumber }} redirectTo={redirectTo} className="flex flex-wrap items-center gap-2">
      {(form) => (
        <>
          <label htmlFor={id} className="sr-only">
            {t("page.chooseFor", { row: row.rowNumber })}
          </label>
          <select id={id} name="companyId" defaultValue={row.chosenCompanyId ?? ""} className="select select-bordered select-xs max-w-xs">
            <option value="">{t("page.noChoice")}</option>
            {row.candidates.map((c) => (
              <option key={c.companyId} value={c.companyId}>
                {t("page.candidate", { name: c.name, orgNumber: c.orgNumber, confidence: Math.round(c.confidence * 100) })}
              </option>
            ))}
          </select>
          <button type="submit" className="btn btn-xs" disabled={form.busy}>
            {t("page.choose")}
          </button>
        </>
      )}
    </ActionForm>
  );
}

function ConfirmForm({ tags, toCreate, redirectTo }: { tags: Data["tags"]; toCreate: number; redirectTo: string }) {
  const { t } = useTranslation("imports");
  return (
    <ActionForm intent="confirm" redirectTo={redirectTo} className="card space-y-3 border border-base-300 bg-base-100 p-4">
      {(form) => (
        <>
          <h2 className="text-lg font-semibold">{t("page.confirmTitle")}</h2>
          <p className="text-sm">{t("page.confirmLead", { count: toCreate })}</p>
          <div className="grid gap-3 sm:grid-cols-2">
            <div className="flex flex-col gap-1">
              <label htmlFor="import-tag" className="label text-sm font-medium">
                {t("page.tag")}
              </label>
              <select
                id="import-tag"
                name="tagId"
                defaultValue={form.kept("tagId") ?? ""}
                className="select select-bordered select-sm"
                {...form.invalid("tagId")}
              >
                <option value="">{t("page.noTag")}</option>
                {tags.map((tag) => (
                  <option key={tag.id} value={tag.id}>
                    {tag.title}
                  </option>
                ))}
              </select>
              <FieldError form={form} name="tagId" />
            </div>
            <div className="flex flex-col gap-1">
              <label htmlFor="import-new-tag" className="label text-sm font-medium">
                {t("page.newTag")}
              </label>
              <input
                id="import-new-tag"
                name="newTag"
                maxLength={100}
                defaultValue={form.kept("newTag") ?? ""}
                className="input input-bordered input-sm"
                {...form.invalid("newTag")}
              />
              <FieldError form={form} name="newTag" />
            </div>
          </div>
          <div>
            <button type="submit" className="btn btn-primary btn-sm" disabled={form.busy}>
              {form.busy ? t("page.confirming") : t("page.confirm")}
            </button>
          </div>
        </>
      )}
    </ActionForm>
  );
}

export default function ImportScreen() {
  const { imp, rows, status, tags, toCreate } = useLoaderData<typeof loader>();
  const { t } = useTranslation("imports");
  const { pathname, search } = useLocation();
  const hydrated = useHydrated();
  const revalidator = useRevalidator();
  const analysing = imp.status === "analysing";

  // While the analysis runs, the page asks again (with JavaScript).
  usePolling(analysing, () => {
    if (revalidator.state === "idle") revalidator.revalidate();
  });

  const here = `${pathname}${search}`;
  return (
    <section aria-labelledby="import-title" className="mx-auto max-w-5xl space-y-4">
      <div>
        <p className="text-sm">
          <Link to="/files" className="link">
            {t("page.back")}
          </Link>
        </p>
        <h1 id="import-title" className="text-2xl font-semibold">
          {t("page.heading", { name: imp.fileName })}
        </h1>
        <p className="text-sm text-base-content/70">{t(`page.state.${imp.status}`)}</p>
      </div>

      {analysing ? (
        <div className="card max-w-xl space-y-2 border border-base-300 bg-base-100 p-4">
          {/* Waiting for the worker, the job has no progress yet: 0 of an unknown total, and the way to look again. */}
          <ProgressLine done={imp.progress?.done ?? 0} total={imp.progress?.total ?? null} />
          {hydrated ? null : (
            <Link to={here} className="link text-sm">
              {t("page.refresh")}
            </Link>
          )}
        </div>
      ) : null}

      {imp.status === "failed" && imp.error ? (
        <div role="alert" className="alert alert-error flex flex-col items-start">
          <p>{t(imp.error.key, imp.error.params)}</p>
          <p className="text-sm">{t("page.failedHelp")}</p>
          <Link to={`/files/${imp.fileId}/analyze`} className="btn btn-sm">
            {t("page.analyseAgain")}
          </Link>
        </div>
      ) : null}

      {rows ? (
        <>
          <Counts imp={imp} status={status} />
          {imp.resultFileId ? (
            <p className="text-sm">
              <a href={`/api/file-uploads/${imp.resultFileId}/download`} className="link">
                {t("page.download")}
              </a>
            </p>
          ) : null}
          {imp.status === "confirmed" ? <p role="status">{t("page.confirmedAlready", { count: imp.counts?.created ?? 0 })}</p> : null}
          <TableScroll className="rounded-box border border-base-300" labelledBy="import-rows-caption">
            <table className="table table-sm">
              <caption id="import-rows-caption" className="sr-only">
                {t("page.rowsCaption")}
              </caption>
              <thead>
                <tr>
                  <th scope="col">{t("page.col.row")}</th>
                  <th scope="col">{t("page.col.orgNumber")}</th>
                  <th scope="col">{t("page.col.name")}</th>
                  <th scope="col">{t("page.col.status")}</th>
                  <th scope="col">{t("page.col.match")}</th>
                  <th scope="col">{t("page.col.reason")}</th>
                </tr>
              </thead>
              <tbody>
                {rows.rows.length === 0 ? (
                  <tr>
                    <td colSpan={6}>{t("page.noRows")}</td>
                  </tr>
                ) : (
                  rows.rows.map((row) => (
                    <tr key={row.rowNumber}>
                      <th scope="row">{row.rowNumber}</th>
                      <td>{row.orgIdRaw}</td>
                      <td>{row.nameRaw}</td>
                      <td>
                        <span className="badge badge-sm whitespace-nowrap">{t(`status.${row.status}`)}</span>
                      </td>
                      <td>
                        {row.company ? `${row.company.name} (${row.company.orgNumber})` : null}
                        {row.status === "ambiguous" && imp.status === "ready" ? <CandidateChoice row={row} redirectTo={here} /> : null}
                      </td>
                      <td className="text-sm">{row.reason ? t(`reason.${row.reason}`) : null}</td>
                    </tr>
                  ))
                )}
              </tbody>
            </table>
          </TableScroll>
          {rows.pages > 1 ? (
            <nav aria-label={t("page.pages")} className="flex items-center gap-3 text-sm">
              {rows.page > 1 ? (
                <Link to={pageHref(pathname, status, rows.page - 1)} className="link" preventScrollReset>
                  {t("page.previous")}
                </Link>
              ) : null}
              <span>{t("page.pageOf", { page: rows.page, pages: rows.pages })}</span>
              {rows.page < rows.pages ? (
                <Link to={pageHref(pathname, status, rows.page + 1)} className="link" preventScrollReset>
                  {t("page.next")}
                </Link>
              ) : null}
            </nav>
          ) : null}
          {imp.status === "ready" ? <ConfirmForm tags={tags} toCreate={toCreate} redirectTo={here} /> : null}
        </>
      ) : null}
    </section>
  );
}
