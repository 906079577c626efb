import { parseWithZod } from "@conform-to/zod/v4";
import { columnLetter } from "~/models/files/spreadsheet-columns";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useSubmit } from "@remix-run/react";
import { useRef } from "react";
import { z } from "zod";
import { ImportProgress } from "~/components/imports/ImportProgress";
import { Dialog } from "~/components/ui/Dialog";
import { GeneralErrorBoundary } from "~/components/ui/GeneralErrorBoundary";
import { titleMeta } from "~/components/ui/meta";
import { TableScroll } from "~/components/ui/TableScroll";
import { useHydrated } from "~/components/ui/useHydrated";
import { requireUser } from "~/http/auth.server";
import { can } from "~/models/accounts/permissions";
import { redirectWithNotice } from "~/http/notice.server";
import { refuseForm } from "~/http/forms.server";
import { readForm, requireId } from "~/http/parse.server";
import { safeRedirect } from "~/http/redirect.server";
import { errorResponse } from "~/http/responses.server";
import i18nServer from "~/i18n.server";
import { pageTitle } from "~/models/shared/page-title.server";
import { guessMapping } from "~/models/files/import-mapping";
import { analysisSource, startAnalysis } from "~/models/files/supplier-imports.server";
import { isRefusal } from "~/models/shared/refusal";
import { useTranslation } from "~/translations";

export const meta = titleMeta;

export const handle = { i18n: ["imports", "files"] };

const INDEX = /^\d{1,5}$/;
const index = (value: string | null): number | null => (value !== null && INDEX.test(value) ? Number(value) : null);

/**
 * /files/:fileId/analyze — the File analysis modal (shared/spec/02-supplier-credit-connections.md): has-headers, the sheet, the Org ID, Org Name and optional
 * Country columns (named by header or by letter), and the first 16 rows. The view is URL state read by a GET form
 * (`mapped=1` says the form was sent, so an unticked has-headers means no headers); Analyze posts the same form. The
 * mapping starts as a guess from the headers. Anyone may view their own file here (`ownFiles`); Analyze needs
 * `suppliersWrite`, since confirming the import creates suppliers (without it the form says so and offers no button).
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, "ownFiles");
  const canImport = can(user, "suppliersWrite");
  const fileId = requireId(params.fileId, "fileId");
  const q = new URL(request.url).searchParams;
  const mapped = q.get("mapped") === "1";
  const hasHeaders = mapped ? q.get("hasHeaders") === "1" : true;
  const source = await analysisSource({ organizationId: user.organizationId, userId: user.id, fileId, sheet: index(q.get("sheet")) ?? 0 });
  if (!source) throw errorResponse(404, "No file with this id.");
  const title = await pageTitle(request, "imports:analyze.title");
  // Where the dialog closes to: the page it was opened from (the files panel's link says), else /files.
  const returnTo = q.get("returnTo");
  const closeHref = safeRedirect(returnTo, "/files");
  if ("refused" in source) {
    const t = await i18nServer.getFixedT(request);
    return json({ title, fileId, closeHref, returnTo: null, canImport, refused: t(source.refused), view: null });
  }
  const guess = guessMapping(source.preview, hasHeaders);
  const chosen = (name: string, guessed: number | null) => {
    const value = q.get(name);
    if (!mapped || value === null) return guessed;
    return index(value);
  };
  const headers = hasHeaders ? (source.preview[0] ?? []) : [];
  const columns = Array.from({ length: source.columnCount }, (_, i) => ({
    index: i,
    label: headers[i]?.trim() ? `${headers[i].trim()} (${columnLetter(i)})` : columnLetter(i),
  }));
  return json({
    title,
    fileId,
    closeHref,
    returnTo: closeHref === returnTo ? returnTo : null,
    canImport,
    refused: null,
    view: {
      fileName: source.file.fileName,
      sheets: source.sheets,
      sheet: source.sheet,
      hasHeaders,
      columns,
      preview: source.preview,
      mapping: { orgId: chosen("orgId", guess.orgId), orgName: chosen("orgName", guess.orgName), countryCode: chosen("countryCode", guess.countryCode) },
    },
  });
}

const column = z
  .string()
  .regex(INDEX)
  .transform(Number)
  .optional()
  .transform((v) => v ?? null);

const analyzeSchema = z.object({
  intent: z.literal("analyze"),
  hasHeaders: z.literal("1").optional(),
  sheet: column,
  orgId: column,
  orgName: column,
  countryCode: column,
  js: z.literal("1").optional(),
  mapped: z.string().optional(),
  returnTo: z.string().optional(),
});

/**
 * Analyze: the same model as POST /api/supplier_upload/analyzeFile (startAnalysis). A plain post is redirected to the
 * import's page (its progress, then its report); with JavaScript the answer names the import and the dialog gives way to
 * the progress. A refused mapping comes back with the spec's message, nothing created.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request, "suppliersWrite");
  const fileId = requireId(params.fileId, "fileId");
  const t = await i18nServer.getFixedT(request);
  const formData = await readForm(request);
  const submission = parseWithZod(formData, { schema: analyzeSchema });
  if (submission.status !== "success") return refuseForm(submission, { intent: "analyze", formErrors: [t("imports:analyze.invalid")] });
  const v = submission.value;
  let started: { importId: number; href: string };
  try {
    started = await startAnalysis({
      organizationId: user.organizationId,
      userId: user.id,
      fileId,
      mapping: { orgId: v.orgId, orgName: v.orgName, countryCode: v.countryCode, hasHeaders: v.hasHeaders === "1", sheet: v.sheet ?? 0 },
    });
  } catch (error) {
    if (!isRefusal(error)) throw error;
    if (error.code === "file-not-found") throw errorResponse(404, "No file with this id.");
    if (error.code === "file-unreadable") return refuseForm(submission, { intent: "analyze", formErrors: [t(String(error.details.messageKey))] });
    // 'Please select both …' is the form's; a column or sheet the file does not have is that field's.
    const message = t(`imports:analyze.errors.${error.code}`);
    if (error.code === "select-both" || !error.field) return refuseForm(submission, { intent: "analyze", formErrors: [message] });
    return refuseForm(submission, { intent: "analyze", fieldErrors: { [error.field]: [message] } });
  }
  if (v.js !== "1") return redirectWithNotice(request, started.href, "imports:analyze.started");
  return json({ result: submission.reply(), started: { importId: started.importId, href: started.href } }, { status: 202 });
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

type View = NonNullable<ReturnType<typeof useLoaderData<typeof loader>>["view"]>;

function ColumnSelect({
  name,
  label,
  view,
  value,
  optional,
  error,
}: {
  name: string;
  label: string;
  view: View;
  value: number | null;
  optional?: boolean;
  error?: string[] | null;
}) {
  const { t } = useTranslation("imports");
  const id = `analyze-${name}`;
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="label text-sm font-medium">
        {label}
      </label>
      <select
        id={id}
        name={name}
        defaultValue={value === null ? "" : String(value)}
        className="select select-bordered select-sm w-full"
        aria-invalid={error?.length ? true : undefined}
        aria-describedby={error?.length ? `${id}-error` : undefined}
      >
        <option value="">{optional ? t("analyze.noColumn") : t("analyze.chooseColumn")}</option>
        {view.columns.map((c) => (
          <option key={c.index} value={c.index}>
            {c.label}
          </option>
        ))}
      </select>
      {error?.length ? (
        <p id={`${id}-error`} role="alert" className="mt-1 text-sm text-error">
          {error.join(" ")}
        </p>
      ) : null}
    </div>
  );
}

export default function AnalyzeScreen() {
  const { view, refused, fileId, closeHref, returnTo, canImport } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("imports");
  const hydrated = useHydrated();
  const submit = useSubmit();
  const navigation = useNavigation();
  const formRef = useRef<HTMLFormElement>(null);
  const busy = navigation.state === "submitting" && navigation.formMethod?.toLowerCase() === "post";

  if (actionData && "started" in actionData && view) return <ImportProgress href={actionData.started.href} fileName={view.fileName} />;

  const errors = actionData?.result?.error ?? {};
  const formErrors = (errors[""] ?? []).filter(Boolean);
  // Has-headers and the sheet change the preview and the column names: with JavaScript they re-render at once.
  const refresh = () => {
    if (formRef.current) submit(formRef.current, { method: "get", replace: true, preventScrollReset: true });
  };

  return (
    <Dialog
      title={view ? t("analyze.titleFor", { name: view.fileName }) : t("analyze.title")}
      closeHref={closeHref}
      size="xl"
      footer={
        view && canImport ? (
          <>
            <Link to={closeHref} className="btn btn-ghost btn-sm">
              {t("analyze.cancel")}
            </Link>
            <button type="submit" form="analyze-form" name="intent" value="analyze" className="btn btn-primary btn-sm" disabled={busy}>
              {busy ? t("analyze.starting") : t("analyze.submit")}
            </button>
          </>
        ) : null
      }
    >
      {refused || !view ? (
        <p role="alert" className="text-error">
          {refused}
        </p>
      ) : (
        <Form ref={formRef} method="post" id="analyze-form" action={`/files/${fileId}/analyze`} className="space-y-4" preventScrollReset>
          <input type="hidden" name="mapped" value="1" />
          {returnTo ? <input type="hidden" name="returnTo" value={returnTo} /> : null}
          {hydrated ? <input type="hidden" name="js" value="1" /> : null}
          <p className="text-sm text-base-content/70">{canImport ? t("analyze.intro") : t("analyze.viewOnly")}</p>
          <div className="flex flex-wrap items-end gap-4">
            <label className="label cursor-pointer gap-2">
              <input type="checkbox" name="hasHeaders" value="1" defaultChecked={view.hasHeaders} className="checkbox checkbox-sm" onChange={refresh} />
              <span className="text-sm">{t("analyze.hasHeaders")}</span>
            </label>
            {view.sheets.length > 1 ? (
              <div className="flex flex-col gap-1">
                <label htmlFor="analyze-sheet" className="label text-sm font-medium">
                  {t("analyze.sheet")}
                </label>
                <select id="analyze-sheet" name="sheet" defaultValue={String(view.sheet)} className="select select-bordered select-sm" onChange={refresh}>
                  {view.sheets.map((name, i) => (
                    <option key={i} value={i}>
                      {name}
                    </option>
                  ))}
                </select>
              </div>
            ) : (
              <input type="hidden" name="sheet" value={view.sheet} />
            )}
            {hydrated ? null : (
              <button type="submit" formMethod="get" className="btn btn-outline btn-sm">
                {t("analyze.refresh")}
              </button>
            )}
          </div>
          <div className="grid gap-3 sm:grid-cols-3">
            <ColumnSelect name="orgId" label={t("analyze.orgId")} view={view} value={view.mapping.orgId} error={errors.orgId} />
            <ColumnSelect name="orgName" label={t("analyze.orgName")} view={view} value={view.mapping.orgName} error={errors.orgName} />
            <ColumnSelect name="countryCode" label={t("analyze.country")} view={view} value={view.mapping.countryCode} optional error={errors.countryCode} />
          </div>
          {formErrors.length ? (
            <p role="alert" className="text-sm text-error">
              {formErrors.join(" ")}
            </p>
          ) : null}
          <section aria-labelledby="analyze-preview">
            <h3 id="analyze-preview" className="text-sm font-semibold">
              {t("analyze.preview")}
            </h3>
            <p className="text-xs text-base-content/70">{t("analyze.previewNote", { count: view.preview.length })}</p>
            <TableScroll className="mt-2 rounded-box border border-base-300" labelledBy="analyze-preview">
              <table className="table table-xs">
                <thead>
                  <tr>
                    <th scope="col">#</th>
                    {view.columns.map((c) => (
                      <th key={c.index} scope="col">
                        {c.label}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {(view.hasHeaders ? view.preview.slice(1) : view.preview).map((row, r) => (
                    <tr key={r}>
                      <th scope="row">{r + (view.hasHeaders ? 2 : 1)}</th>
                      {row.map((cell, c) => (
                        <td key={c}>{cell}</td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
          </section>
        </Form>
      )}
    </Dialog>
  );
}
