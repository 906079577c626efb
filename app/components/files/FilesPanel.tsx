import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Link, useFetcher, useLocation } from "@remix-run/react";
import { useEffect, useId, useRef } from "react";
import { useTranslation } from "~/translations";
import { ConfirmStep } from "~/components/ui/ConfirmStep";
import { FieldErrors, FormAlert } from "~/components/ui/form";
import { useHydrated } from "~/components/ui/useHydrated";
import { formatThousands } from "~/models/shared/format";
import type { ImportProgressItem } from "~/models/files/supplier-imports.server";
import { usePolling } from "~/components/ui/usePolling";
import { uploadFormSchema, type FilesActionData } from "./schemas";

/**
 * The user's uploaded files: the upload form, the list and the per-file
 * actions, shared by the top bar's `?panel=files` slide-over and the /files
 * page. Every change is a POST to /files with an `intent`. The upload's
 * plain post carries `redirectTo` (rendered only before hydration) and is
 * redirected back, its fetcher post gets JSON; the delete step always posts
 * `redirectTo` and comes back without the step, with the notice.
 */
export interface PanelFile {
  id: number;
  fileName: string;
  fileSize: number;
  mimeType: string;
  attachedConnections: number;
  /** Preview is offered (PDF, xlsx, xls, CSV by the sniffed bytes, app/models/files/files.server.ts). */
  previewable: boolean;
  /** View / analyse is offered (xlsx and the other spreadsheet kinds). */
  analysable: boolean;
}

/** A supplier-list analysis of the user not yet confirmed (app/models/files/supplier-imports.server.ts). */
export type { ImportProgressItem };

export interface FilesPanelData {
  signedIn: boolean;
  files: PanelFile[];
  limit: string;
  /** Analyses of the user's supplier lists not yet confirmed. */
  imports?: ImportProgressItem[];
}

/** The browser's fallback name when a download carries no Content-Disposition name (shared/spec/02-supplier-credit-connections.md §7). */
export const DOWNLOAD_FALLBACK_NAME = "downloaded-file";

export function formatBytes(size: number, language: string): string {
  return new Intl.NumberFormat(language === "no" ? "nb-NO" : "en-GB").format(size);
}

/** The body of the `?panel=files` slide-over: a fetcher with JavaScript, a link to /files without. */
export function FilesPanel() {
  const { t } = useTranslation("files");
  const hydrated = useHydrated();
  const location = useLocation();
  const list = useFetcher<FilesPanelData>({ key: "files-panel" });
  const loadedOnce = useRef(false);
  useEffect(() => {
    if (hydrated && !loadedOnce.current) {
      loadedOnce.current = true;
      list.load("/files/panel");
    }
  }, [hydrated, list]);
  // While an analysis runs, the list asks again: its progress moves in the open panel.
  usePolling(Boolean(list.data?.imports?.some(isRunning)), () => {
    if (list.state === "idle") list.load("/files/panel");
  });

  if (!hydrated) {
    return (
      <div className="mt-6 flex flex-col gap-3">
        <p className="text-sm text-base-content/70">{t("noScriptHint")}</p>
        <Link to="/files" className="btn btn-primary self-start">
          {t("openPage")}
        </Link>
      </div>
    );
  }
  const data = list.data;
  const deleteId = new URLSearchParams(location.search).get(PANEL_DELETE_PARAM);
  const toDelete = data?.signedIn ? data.files.find((file) => String(file.id) === deleteId) : undefined;
  if (!data) {
    return (
      <p className="mt-6 flex items-center gap-2 text-sm text-base-content/70" role="status">
        <span className="loading loading-spinner loading-sm" aria-hidden="true" />
        {t("loading")}
      </p>
    );
  }
  if (!data.signedIn) {
    return (
      <div className="mt-6 flex flex-col gap-3">
        <p>{t("loginPrompt")}</p>
        <Link to="/login" className="btn btn-primary self-start">
          {t("login")}
        </Link>
      </div>
    );
  }
  return (
    <div className="mt-6 flex flex-col gap-6">
      <UploadForm limit={data.limit} />
      <ImportsInProgress imports={data.imports} />
      <FileList files={data.files} deleteHref={(id) => withPanelParam(location, String(id))} />
      <Link to="/files" className="link link-primary text-sm">
        {t("openPage")}
      </Link>
      {toDelete ? <DeleteFileStep file={toDelete} cancelHref={withPanelParam(location, null)} action="/files" /> : null}
    </div>
  );
}

/** The panel's delete step is URL state on whatever page the panel is open: `&deleteFile={id}`. */
const PANEL_DELETE_PARAM = "deleteFile";

function withPanelParam(location: { pathname: string; search: string }, id: string | null): string {
  const params = new URLSearchParams(location.search);
  if (id === null) params.delete(PANEL_DELETE_PARAM);
  else params.set(PANEL_DELETE_PARAM, id);
  return params.size ? `${location.pathname}?${params}` : location.pathname;
}

/**
 * Upload form. The input is `required`; with JavaScript Conform checks it
 * first and an empty submit shows 'Please select a file first.' instead of
 * the browser's own bubble, and the server says the same when a file is
 * missing (and why it refused any other file).
 */
export function UploadForm({ limit, actionData }: { limit: string; actionData?: FilesActionData }) {
  const { t } = useTranslation("files");
  const { t: tAll } = useTranslation();
  const hydrated = useHydrated();
  const location = useLocation();
  const fetcher = useFetcher<FilesActionData>({ key: "files-upload" });
  const formRef = useRef<HTMLFormElement>(null);
  const formId = useId();
  const busy = fetcher.state !== "idle";
  const lastResult = fetcher.data?.intent === "upload" ? fetcher.data.result : actionData?.result;
  const [form, fields] = useForm({
    id: formId,
    lastResult,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: uploadFormSchema((key) => tAll(key)) }),
  });
  const file = fields.file;
  const errors = file.errors;
  const hintId = `${file.id}-hint`;

  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.done === "upload") formRef.current?.reset();
  }, [fetcher.state, fetcher.data]);

  const { key, ...fileProps } = getInputProps(file, { type: "file", ariaDescribedBy: errors?.length ? `${hintId} ${file.errorId}` : hintId });

  return (
    <section aria-labelledby={`${formId}-heading`}>
      <h3 id={`${formId}-heading`} className="mb-2 font-semibold">
        {t("uploadHeading")}
      </h3>
      {/* One element before and after hydration, so a file chosen early stays chosen; without JavaScript it is a plain multipart post. */}
      <fetcher.Form ref={formRef} method="post" action="/files" encType="multipart/form-data" {...getFormProps(form)}>
        <FormAlert id={form.errorId} errors={form.errors} />
        <input type="hidden" name="intent" value="upload" />
        {hydrated ? null : <input type="hidden" name="redirectTo" value={location.pathname + location.search} />}
        <label htmlFor={file.id} className="mb-1 block text-sm font-medium">
          {t("fileLabel")}
        </label>
        <input key={key} {...fileProps} required className={`file-input w-full ${errors?.length ? "file-input-error" : ""}`} />
        <p id={hintId} className="mt-1 text-xs text-base-content/70">
          {t("limitHint", { limit })}
        </p>
        <div role="alert">
          <FieldErrors id={file.errorId} errors={errors} />
        </div>
        {fetcher.state === "idle" && fetcher.data?.done === "upload" ? (
          <p role="status" className="mt-1 text-sm font-medium">
            <span aria-hidden="true" className="mr-1 text-success">
              ✓
            </span>
            {t("uploaded")}
          </p>
        ) : null}
        <button type="submit" className="btn btn-primary mt-3" disabled={busy}>
          {busy ? t("uploading") : t("upload")}
        </button>
      </fetcher.Form>
    </section>
  );
}

export function FileList({ files, deleteHref }: { files: PanelFile[]; deleteHref: (id: number) => string }) {
  const { t, i18n } = useTranslation("files");
  const headingId = useId();
  return (
    <section aria-labelledby={headingId}>
      <h3 id={headingId} className="mb-2 font-semibold">
        {t("listHeading")}
      </h3>
      {files.length === 0 ? (
        <p className="text-sm text-base-content/70">{t("empty")}</p>
      ) : (
        <ul className="divide-y divide-base-300 rounded-box border border-base-300 bg-base-100">
          {files.map((file) => (
            <li key={file.id} className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 px-3 py-2">
              <div className="min-w-0 flex-1">
                <p className="break-words font-medium">{file.fileName}</p>
                <p className="text-xs text-base-content/70">{t("size", { size: formatBytes(file.fileSize, i18n.language) })}</p>
              </div>
              <FileActions file={file} deleteHref={deleteHref(file.id)} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** `?returnTo=` for a page opened from the list, so closing it comes back here (/files is the page's own default). */
function withReturnTo(href: string, location: { pathname: string; search: string }): string {
  const here = location.pathname + location.search;
  return here === "/files" ? href : `${href}?${new URLSearchParams({ returnTo: here })}`;
}

/**
 * Preview (PDF, xlsx, xls, CSV) and View / analyse (xlsx and the other
 * spreadsheet kinds), offered by the kind the bytes showed at upload, never
 * by the browser's claimed mime type; each is a page (a modal over the
 * shell) that closes back here, so they work without JavaScript. Then
 * Download, and Delete, which opens the confirmation step (URL state).
 */
function FileActions({ file, deleteHref }: { file: PanelFile; deleteHref: string }) {
  const { t } = useTranslation("files");
  const location = useLocation();
  return (
    <div className="flex flex-wrap items-center gap-2">
      {file.previewable ? (
        <Link to={withReturnTo(`/files/${file.id}/preview`, location)} className="btn btn-ghost btn-xs" aria-label={t("previewName", { name: file.fileName })}>
          {t("preview")}
        </Link>
      ) : null}
      {file.analysable ? (
        <Link to={withReturnTo(`/files/${file.id}/analyze`, location)} className="btn btn-ghost btn-xs" aria-label={t("analyseName", { name: file.fileName })}>
          {t("analyse")}
        </Link>
      ) : null}
      <a
        href={`/api/file-uploads/${file.id}/download`}
        // The Content-Disposition name wins over this one; it is only the fallback.
        download={DOWNLOAD_FALLBACK_NAME}
        className="btn btn-ghost btn-xs"
        aria-label={t("downloadName", { name: file.fileName })}
      >
        {t("download")}
      </a>
      <Link to={deleteHref} preventScrollReset className="btn btn-ghost btn-xs text-error" aria-label={t("deleteName", { name: file.fileName })}>
        {t("delete")}
      </Link>
    </div>
  );
}

/**
 * The confirmation step of a delete (ui/ConfirmStep), the same with and
 * without JavaScript: the file's name, the spec's question and how many
 * connections the file will be removed from, a POST button and Cancel.
 * `cancelHref` is the URL without the step; an accepted delete goes there too.
 */
export function DeleteFileStep({
  file,
  cancelHref,
  action,
}: {
  file: Pick<PanelFile, "id" | "fileName" | "attachedConnections">;
  cancelHref: string;
  action?: string;
}) {
  const { t } = useTranslation("files");
  const text = file.attachedConnections > 0 ? `${t("confirmDelete")} ${t("attachedWarning", { count: file.attachedConnections })}` : t("confirmDelete");
  return (
    <ConfirmStep
      title={t("confirmTitle")}
      detail={file.fileName}
      text={text}
      intent="delete"
      fields={{ id: file.id }}
      confirmLabel={t("delete")}
      busyLabel={t("deleting")}
      cancelLabel={t("cancel")}
      cancelHref={cancelHref}
      redirectTo={cancelHref}
      action={action}
    />
  );
}

/**
 * Analyses of the user's supplier lists that are not finished, with their
 * progress (rows done of total) and a link to each one's page, which shows
 * the current state with and without JavaScript. Nothing when there are none.
 */
export function isRunning(item: ImportProgressItem): boolean {
  return item.status === "queued" || item.status === "running";
}

export function ImportsInProgress({ imports }: { imports?: ImportProgressItem[] }) {
  const { t, i18n } = useTranslation("files");
  const headingId = useId();
  if (!imports?.length) return null;
  return (
    <section aria-labelledby={headingId}>
      <h3 id={headingId} className="mb-2 font-semibold">
        {t("importsHeading")}
      </h3>
      <ul className="flex flex-col gap-2">
        {imports.map((item) => (
          <li key={item.importId} className="rounded-box border border-base-300 px-3 py-2">
            <Link to={item.href} className="link link-primary break-words font-medium">
              {item.fileName}
            </Link>
            <p className="text-sm">{t(`importStatus.${item.status}`)}</p>
            {isRunning(item) ? (
              <>
                <progress
                  className="progress progress-primary mt-1 block w-full"
                  value={item.total ? item.done : undefined}
                  max={item.total ?? undefined}
                  aria-label={item.fileName}
                />
                <p className="text-xs text-base-content/70">
                  {t("importProgress", {
                    done: formatThousands(item.done, i18n.language),
                    total: item.total == null ? "…" : formatThousands(item.total, i18n.language),
                  })}
                </p>
              </>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
