import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { flashNotice } from "@server/cookies";
import { uploadMaxBytes } from "@server/storage";
import { ConfirmText, FileList, UploadForm, type FilesActionData } from "~/components/files/FilesPanel";
import { titleMeta } from "~/components/ui/meta";
import i18nServer from "~/i18n.server";
import { attachedConnectionsCount, deleteFile, formatByteLimit, listFilesWithAttachments, ownFile, parseUpload } from "~/models/files.server";
import { pageTitle } from "~/models/page-title.server";
import { requireUser } from "~/models/session.server";

export const meta = titleMeta;

async function requireOrgUser(request: Request) {
  const user = await requireUser(request);
  if (user.organizationId == null) throw new Response("Forbidden", { status: 403 });
  return { user, organizationId: user.organizationId };
}

/**
 * /files: the file uploads panel as a full page, for browsers without
 * JavaScript (the panel links here) and for anyone who wants more room.
 * `?delete={id}` is the confirmation step of a delete.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { user, organizationId } = await requireOrgUser(request);
  const url = new URL(request.url);
  const deleteParam = url.searchParams.get("delete");
  const deleteId = deleteParam && /^[1-9]\d{0,15}$/.test(deleteParam) ? Number(deleteParam) : null;
  const [files, toDelete] = await Promise.all([
    listFilesWithAttachments({ organizationId, userId: user.id }),
    deleteId ? ownFile({ organizationId, userId: user.id, id: deleteId }) : undefined,
  ]);
  const confirm = toDelete ? { ...toDelete, attachedConnections: await attachedConnectionsCount({ organizationId, id: toDelete.id }) } : null;
  return json({ files, confirm, limit: formatByteLimit(uploadMaxBytes()), title: await pageTitle(request, "files:title") });
}

/** Only paths of this site; anything else goes to /files. */
function backTo(value: string | undefined): string {
  if (!value || !value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return "/files";
  return value;
}

/** Drops `?delete=` so a redirect after deleting does not ask again. */
function withoutDelete(path: string): string {
  const url = new URL(path, "http://local");
  url.searchParams.delete("delete");
  return url.pathname + url.search;
}

export async function action({ request }: ActionFunctionArgs) {
  const { user, organizationId } = await requireOrgUser(request);
  const t = await i18nServer.getFixedT(request);
  const contentType = request.headers.get("Content-Type") ?? "";
  if (contentType.startsWith("multipart/form-data")) {
    const upload = await parseUpload(request, { organizationId, userId: user.id });
    if (upload.fields.intent !== "upload") return json<FilesActionData>({ ok: false, intent: "upload", error: t("files:uploadFailed") }, { status: 400 });
    if (!upload.ok) {
      const error =
        upload.reason === "too_large"
          ? t("files:tooLarge", { limit: formatByteLimit(upload.limitBytes) })
          : upload.reason === "empty"
            ? t("files:emptyFile")
            : t("files:selectFirst");
      return json<FilesActionData>({ ok: false, intent: "upload", error }, { status: upload.reason === "too_large" ? 413 : 400 });
    }
    if (upload.fields.redirectTo !== undefined)
      return redirect(backTo(upload.fields.redirectTo), { headers: { "Set-Cookie": await flashNotice(request, "files:uploaded") } });
    return json<FilesActionData>({ ok: true, intent: "upload" }, { status: 201 });
  }
  const formData = await request.formData();
  const intent = formData.get("intent");
  if (intent !== "delete") return json<FilesActionData>({ ok: false, intent: "delete", error: t("files:notFound") }, { status: 400 });
  const rawId = String(formData.get("id") ?? "");
  const id = /^[1-9]\d{0,15}$/.test(rawId) ? Number(rawId) : null;
  if (!id || !(await deleteFile({ organizationId, userId: user.id, id }))) throw new Response("Not Found", { status: 404 });
  const redirectTo = formData.get("redirectTo");
  if (typeof redirectTo === "string")
    return redirect(withoutDelete(backTo(redirectTo)), { headers: { "Set-Cookie": await flashNotice(request, "files:deleted") } });
  return json<FilesActionData>({ ok: true, intent: "delete" });
}

export default function FilesScreen() {
  const { files, confirm, limit } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("files");
  return (
    <section aria-labelledby="files-title" className="mx-auto max-w-3xl">
      <h1 id="files-title" className="text-2xl font-semibold">
        {t("title")}
      </h1>
      <p className="mt-1 text-sm text-base-content/70">{t("intro")}</p>
      {confirm ? <DeleteConfirmation file={confirm} /> : null}
      <div className="mt-6 flex flex-col gap-8">
        <div className="rounded-box border border-base-300 bg-base-100 p-5">
          <UploadForm limit={limit} actionData={actionData} />
        </div>
        <FileList files={files} />
      </div>
    </section>
  );
}

/** Without JavaScript: the confirmation step of a delete, with the spec's text and a POST button. */
function DeleteConfirmation({ file }: { file: { id: number; fileName: string; attachedConnections: number } }) {
  const { t } = useTranslation("files");
  const busy = useNavigation().state === "submitting";
  return (
    <section
      role="alertdialog"
      aria-labelledby="confirm-delete-title"
      aria-describedby="confirm-delete-text"
      className="mt-6 rounded-box border border-error/40 bg-error/5 p-5"
    >
      <h2 id="confirm-delete-title" className="text-lg font-semibold">
        {t("confirmTitle")}
      </h2>
      <p className="mt-1 break-all text-sm text-base-content/70">{file.fileName}</p>
      <div id="confirm-delete-text">
        <ConfirmText attached={file.attachedConnections} />
      </div>
      <div className="mt-4 flex gap-2">
        <Form method="post" action="/files">
          <input type="hidden" name="intent" value="delete" />
          <input type="hidden" name="id" value={file.id} />
          <input type="hidden" name="redirectTo" value="/files" />
          <button type="submit" className="btn btn-error" disabled={busy}>
            {t("delete")}
          </button>
        </Form>
        <Link to="/files" className="btn btn-ghost">
          {t("cancel")}
        </Link>
      </div>
    </section>
  );
}
