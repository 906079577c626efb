import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { FieldErrors, FormAlert } from "~/components/ui/form";
import { GeneralErrorBoundary } from "~/components/ui/GeneralErrorBoundary";
import { titleMeta } from "~/components/ui/meta";
import { TableScroll } from "~/components/ui/TableScroll";
import { requireUser } from "~/http/auth.server";
import { refuseForm } from "~/http/forms.server";
import { redirectWithNotice } from "~/http/notice.server";
import { readForm } from "~/http/parse.server";
import { formatByteLimit, isMultipart, readUpload, type UploadResult, uploadMaxBytes } from "~/http/upload.server";
import i18nServer from "~/i18n.server";
import { listDocuments, readOwnDocumentText } from "~/models/files/documents.server";
import { deleteFile, storeUpload, type FileListItem } from "~/models/files/files.server";
import { formatDate } from "~/models/shared/format";
import { pageTitle } from "~/models/shared/page-title.server";
import { useTranslation } from "~/translations";

export const meta = titleMeta;

export const handle = { i18n: ["aiDocuments"] };

/**
 * /ai/documents: the user's own uploads in the organisation — the same files as /files — with the state of the
 * text the assistant reads from each (server/documents/extract.ts). Uploading here reads the text at once (bounded by the
 * extraction's caps and time limit; decision 030) and opens the document's page. Works without JavaScript.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request, "assistantUse");
  const documents = await listDocuments({ userId: user.id, organizationId: user.organizationId });
  return json({ documents, limit: formatByteLimit(uploadMaxBytes()), title: await pageTitle(request, "aiDocuments:title") });
}

const uploadSchema = z.object({ intent: z.literal("upload") });

/** `upload` (multipart, streamed to disk like /files): the text is read, then the document's page opens. Anything else is a 400. */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request, "assistantUse");
  const t = await i18nServer.getFixedT(request);
  const owner = { organizationId: user.organizationId, userId: user.id };
  if (!isMultipart(request)) {
    // An upload is multipart; anything else is refused as the form would be.
    const submission = parseWithZod(await readForm(request), { schema: uploadSchema });
    return refuseForm(submission, {
      intent: null,
      ...(submission.status === "success" ? { fieldErrors: { file: [t("aiDocuments:selectFirst")] } } : { formErrors: [t("aiDocuments:invalidRequest")] }),
    });
  }
  const upload: UploadResult<FileListItem> = await readUpload(request, {
    maxBytes: uploadMaxBytes(),
    // The form sends its intent before the file: only an upload's file is stored.
    accept: (fields) => fields.get("intent") === "upload",
    store: (file) => storeUpload({ ...owner, ...file }),
    discard: (file) => deleteFile({ ...owner, id: file.id }),
  });
  const submission = parseWithZod(upload.fields, { schema: uploadSchema });
  if (submission.status !== "success" || !upload.file) {
    if (upload.file) await deleteFile({ ...owner, id: upload.file.id });
    if (submission.status !== "success" && upload.fields.get("intent") !== "upload")
      return refuseForm(submission, { intent: null, formErrors: [t("aiDocuments:invalidRequest")] });
    const refused = upload.refused ?? "missing";
    const message =
      refused === "too_large"
        ? t("aiDocuments:tooLarge", { limit: formatByteLimit(upload.limitBytes ?? uploadMaxBytes()) })
        : refused === "empty"
          ? t("aiDocuments:emptyFile")
          : refused === "not_accepted"
            ? t("aiDocuments:uploadFailed")
            : t("aiDocuments:selectFirst");
    return refuseForm(submission, { intent: "upload", status: refused === "too_large" ? 413 : 400, fieldErrors: { file: [message] } });
  }
  await readOwnDocumentText({ userId: owner.userId, organizationId: owner.organizationId }, upload.file.id);
  return redirectWithNotice(request, `/ai/documents/${upload.file.id}`, "aiDocuments:uploaded");
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

function UploadDocumentForm({ limit }: { limit: string }) {
  const { t } = useTranslation("aiDocuments");
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === "upload";
  const fileErrors = actionData?.result.error?.file ?? undefined;
  const formErrors = actionData?.result.error?.[""] ?? undefined;
  return (
    <section aria-labelledby="upload-document" className="rounded-box border border-base-300 bg-base-100 p-5">
      <h2 id="upload-document" className="mb-2 font-semibold">
        {t("uploadHeading")}
      </h2>
      <Form method="post" encType="multipart/form-data">
        <FormAlert errors={formErrors ?? undefined} />
        <input type="hidden" name="intent" value="upload" />
        <label htmlFor="document-file" className="mb-1 block text-sm font-medium">
          {t("fileLabel")}
        </label>
        <input
          id="document-file"
          type="file"
          name="file"
          required
          accept=".pdf,.xlsx,.csv,.tsv,.txt,.md,application/pdf,text/plain,text/csv"
          aria-invalid={fileErrors?.length ? true : undefined}
          aria-describedby={fileErrors?.length ? "document-file-hint document-file-error" : "document-file-hint"}
          className={`file-input w-full ${fileErrors?.length ? "file-input-error" : ""}`}
        />
        <p id="document-file-hint" className="mt-1 text-xs text-base-content/70">
          {t("limitHint", { limit })}
        </p>
        <div role="alert">
          <FieldErrors id="document-file-error" errors={fileErrors ?? undefined} />
        </div>
        <button type="submit" className="btn btn-primary mt-3" disabled={busy}>
          {busy ? t("uploading") : t("upload")}
        </button>
      </Form>
    </section>
  );
}

export default function AiDocumentsScreen() {
  const { documents, limit } = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation("aiDocuments");
  const lng = i18n.language === "no" ? "no" : "en";
  const number = new Intl.NumberFormat(lng === "no" ? "nb-NO" : "en-GB");
  return (
    <section aria-labelledby="documents-title" className="mx-auto flex max-w-5xl flex-col gap-6">
      <div>
        <h1 id="documents-title" className="text-2xl font-semibold">
          {t("title")}
        </h1>
        <p className="mt-1 text-sm text-base-content/70">{t("intro")}</p>
      </div>
      <UploadDocumentForm limit={limit} />
      <section aria-labelledby="documents-list">
        <h2 id="documents-list" className="mb-2 font-semibold">
          {t("listHeading")}
        </h2>
        {documents.length === 0 ? (
          <p className="text-sm text-base-content/70">{t("empty")}</p>
        ) : (
          <TableScroll className="rounded-box border border-base-300 bg-base-100">
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">{t("column.name")}</th>
                  <th scope="col">{t("column.kind")}</th>
                  <th scope="col" className="text-right">
                    {t("column.size")}
                  </th>
                  <th scope="col">{t("column.uploaded")}</th>
                  <th scope="col">{t("column.text")}</th>
                </tr>
              </thead>
              <tbody>
                {documents.map((d) => (
                  <tr key={d.id}>
                    <th scope="row" className="max-w-64 min-w-40 font-medium break-words">
                      <Link to={`/ai/documents/${d.id}`} className="link" aria-label={t("openName", { name: d.fileName })}>
                        {d.fileName}
                      </Link>
                    </th>
                    <td className="whitespace-nowrap">{t(`kind.${d.contentKind}`)}</td>
                    <td className="text-right whitespace-nowrap">{t("size", { size: number.format(d.fileSize) })}</td>
                    <td className="whitespace-nowrap">{formatDate(d.uploadedAt, lng)}</td>
                    <td className="min-w-56">
                      {d.state === "ready" ? (
                        <span>
                          {d.pages != null
                            ? t("state.readyPages", { count: d.pages, characters: number.format(d.characters) })
                            : t("state.ready", { characters: number.format(d.characters) })}
                          {d.truncated ? ` (${t("state.truncated")})` : ""}
                        </span>
                      ) : d.state === "failed" ? (
                        <span className="text-error">
                          {t("state.failed")}: {d.errorKey ? t(d.errorKey) : null}
                        </span>
                      ) : (
                        <span className="text-base-content/70">{t("state.pending")}</span>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </section>
    </section>
  );
}
