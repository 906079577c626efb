import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/translations";
import { z } from "zod";
import { DeleteFileStep, FileList, ImportsInProgress, UploadForm } from "~/components/files/FilesPanel";
import { intentSchema, type FilesActionData } from "~/components/files/schemas";
import { FormAlert } from "~/components/ui/form";
import { GeneralErrorBoundary } from "~/components/ui/GeneralErrorBoundary";
import { titleMeta } from "~/components/ui/meta";
import { requireUser } from "~/http/auth.server";
import { refuseForm } from "~/http/forms.server";
import { redirectWithNotice } from "~/http/notice.server";
import { parseId, readForm } from "~/http/parse.server";
import { safeRedirect } from "~/http/redirect.server";
import { formatByteLimit, isMultipart, readUpload, type UploadResult, uploadMaxBytes } from "~/http/upload.server";
import i18nServer from "~/i18n.server";
import { attachedConnectionsCount, deleteFile, listFilesWithAttachments, ownFile, storeUpload, type FileListItem } from "~/models/files/files.server";
import { importsInProgress } from "~/models/files/supplier-imports.server";
import { pageTitle } from "~/models/shared/page-title.server";

export const meta = titleMeta;

/** The translation namespaces this screen renders besides the root's (the browser loads only these). */
export const handle = { i18n: ["files"] };

/**
 * /files: the file uploads panel as a full page, for browsers without
 * JavaScript (the panel links here) and for anyone who wants more room.
 * `?delete={id}` is the confirmation step of a delete.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request, "ownFiles");
  const owner = { organizationId: user.organizationId, userId: user.id };
  const deleteId = parseId(new URL(request.url).searchParams.get("delete"));
  const [files, toDelete, imports] = await Promise.all([
    listFilesWithAttachments(owner),
    deleteId ? ownFile({ ...owner, id: deleteId }) : undefined,
    importsInProgress(owner),
  ]);
  const confirm = toDelete
    ? { ...toDelete, attachedConnections: await attachedConnectionsCount({ organizationId: owner.organizationId, id: toDelete.id }) }
    : null;
  return json({ files, confirm, imports, limit: formatByteLimit(uploadMaxBytes()), title: await pageTitle(request, "files:title") });
}

type Translate = (key: string, options?: Record<string, unknown>) => string;

const uploadSchema = z.object({ intent: z.literal("upload"), redirectTo: z.string().optional() });

const deleteSchema = (t: Translate) =>
  z.object({
    intent: z.literal("delete"),
    id: z.string({ error: t("files:notFound") }).transform((value, ctx) => {
      const id = parseId(value);
      if (id === null) ctx.addIssue({ code: "custom", message: t("files:notFound") });
      return id ?? 0;
    }),
    redirectTo: z.string().optional(),
  });

/** Drops `?delete=` so a redirect after deleting does not ask again. */
function withoutDelete(path: string): string {
  const url = new URL(path, "http://local");
  url.searchParams.delete("delete");
  return url.pathname + url.search + url.hash;
}

type Owner = { organizationId: number; userId: number };

/**
 * Upload (multipart, streamed to disk) and delete. A plain post carries
 * `redirectTo` and is redirected back (only to a path of this site) with a
 * notice; a fetcher gets `FilesActionData`. Refused input is a 400 (413 for
 * a file above the limit) with the message in the user's language, and
 * nothing is kept.
 */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request, "ownFiles");
  const t = await i18nServer.getFixedT(request);
  const owner = { organizationId: user.organizationId, userId: user.id };
  let upload: UploadResult<FileListItem> | null = null;
  let formData: FormData;
  if (isMultipart(request)) {
    upload = await readUpload(request, {
      maxBytes: uploadMaxBytes(),
      // The form sends its intent before the file: only an upload's file is stored.
      accept: (fields) => fields.get("intent") === "upload",
      store: (file) => storeUpload({ ...owner, ...file }),
      discard: (file) => deleteFile({ ...owner, id: file.id }),
    });
    formData = upload.fields;
  } else {
    formData = await readForm(request);
  }

  const intent = formData.get("intent");
  switch (intent) {
    case "upload":
      return uploadFile(request, owner, formData, upload, t);
    case "delete":
      return deleteOwnFile(request, owner, formData, t);
    default: {
      const submission = parseWithZod(formData, { schema: intentSchema(t) });
      return refuseForm(submission, { intent: null, formErrors: [t("files:invalidRequest")] });
    }
  }
}

async function uploadFile(request: Request, owner: Owner, formData: FormData, upload: UploadResult<FileListItem> | null, t: Translate) {
  const submission = parseWithZod(formData, { schema: uploadSchema });
  if (submission.status !== "success" || !upload?.file) {
    if (upload?.file) await deleteFile({ ...owner, id: upload.file.id });
    const refused = upload?.refused ?? "missing";
    const message =
      refused === "too_large"
        ? t("files:tooLarge", { limit: formatByteLimit(upload?.limitBytes ?? uploadMaxBytes()) })
        : refused === "empty"
          ? t("files:emptyFile")
          : refused === "not_accepted"
            ? t("files:uploadFailed")
            : t("files:selectFirst");
    return refuseForm(submission, { intent: "upload", status: refused === "too_large" ? 413 : 400, fieldErrors: { file: [message] } });
  }
  if (formData.has("redirectTo")) return redirectWithNotice(request, safeRedirect(submission.value.redirectTo, "/files"), "files:uploaded");
  return json<FilesActionData>({ intent: "upload", result: submission.reply({ resetForm: true }), done: "upload" }, { status: 201 });
}

async function deleteOwnFile(request: Request, owner: Owner, formData: FormData, t: Translate) {
  const submission = parseWithZod(formData, { schema: deleteSchema(t) });
  if (submission.status !== "success") return refuseForm(submission, { intent: "delete" });
  // Someone else's file, another organisation's or one already gone: the same 404.
  if (!(await deleteFile({ ...owner, id: submission.value.id })))
    return refuseForm(submission, { intent: "delete", status: 404, formErrors: [t("files:notFound")] });
  if (formData.has("redirectTo")) return redirectWithNotice(request, withoutDelete(safeRedirect(submission.value.redirectTo, "/files")), "files:deleted");
  return json<FilesActionData>({ intent: "delete", result: submission.reply(), done: "delete" });
}

export default function FilesScreen() {
  const { files, confirm, imports, limit } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("files");
  // A refused delete (or a form the server could not read) comes back here; the delete step shows its own while it is open.
  const pageErrors =
    actionData && actionData.intent !== "upload" && !(confirm && actionData.intent === "delete")
      ? Object.values(actionData.result.error ?? {}).flatMap((e) => e ?? [])
      : [];
  return (
    <section aria-labelledby="files-title" className="mx-auto max-w-3xl">
      <h1 id="files-title" className="text-2xl font-semibold">
        {t("title")}
      </h1>
      <p className="mt-1 text-sm text-base-content/70">{t("intro")}</p>
      {pageErrors.length ? (
        <div className="mt-4">
          <FormAlert errors={pageErrors} />
        </div>
      ) : null}
      {confirm ? <DeleteFileStep file={confirm} cancelHref="/files" /> : null}
      <div className="mt-6 flex flex-col gap-8">
        <div className="rounded-box border border-base-300 bg-base-100 p-5">
          <UploadForm limit={limit} actionData={actionData?.intent === "upload" ? actionData : undefined} />
        </div>
        <ImportsInProgress imports={imports} />
        <FileList files={files} deleteHref={(id) => `/files?delete=${id}`} />
      </div>
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
