import { Link } from "@remix-run/react";
import { useTranslation } from "~/translations";
import { FieldError } from "~/components/ui/ActionForm";
import type { ConnectionData } from "~/models/suppliers/connections.server";
import type { FileListItem } from "~/models/files/files.server";
import { ConnectionForm } from "./ConnectionForm";
import { SectionBlock } from "./SectionBlock";
import { CONFIRM_PARAMS, useUrlWith } from "./urls";

/** The slide-over's Files: name, size in bytes, Remove (asks first), and Attach Existing File from the user's uploads. */
export function FilesSection({ connection, myFiles }: { connection: ConnectionData; myFiles: FileListItem[] }) {
  const { t } = useTranslation("connections");
  const url = useUrlWith();
  const attached = new Set(connection.files.map((f) => f.fileUpload.id));
  const attachable = myFiles.filter((f) => !attached.has(f.id));
  return (
    <SectionBlock title={t("edit.files")} id="edit-files">
      {connection.files.length ? (
        <ul className="mb-3 divide-y divide-base-300">
          {connection.files.map(({ fileUpload }) => (
            <li key={fileUpload.id} className="flex items-center justify-between gap-2 py-2">
              <span className="min-w-0">
                <span className="block truncate">{fileUpload.fileName}</span>
                <span className="text-xs text-base-content/70">{t("edit.fileSize", { count: fileUpload.fileSize })}</span>
              </span>
              <Link
                to={url({ confirm: "remove-file", file: String(fileUpload.id) }, CONFIRM_PARAMS)}
                className="btn btn-ghost btn-xs text-error"
                preventScrollReset
                aria-label={`${t("edit.removeFile")} ${fileUpload.fileName}`}
              >
                {t("edit.removeFile")}
              </Link>
            </li>
          ))}
        </ul>
      ) : (
        <p className="mb-3 text-sm text-base-content/70">{t("edit.noFiles")}</p>
      )}
      <ConnectionForm intent="attach-file">
        {(form) => (
          <>
            <label htmlFor="attach-file-select" className="mb-1 block text-sm font-medium">
              {t("edit.attachExistingFile")}
            </label>
            <div className="flex gap-2">
              <select
                id="attach-file-select"
                name="fileId"
                className="select select-sm flex-1"
                required
                defaultValue={form.kept("fileId") ?? ""}
                key={attachable.map((x) => x.id).join()}
                {...form.invalid("fileId")}
              >
                <option value="" disabled>
                  {t("edit.chooseFile")}
                </option>
                {attachable.map((file) => (
                  <option key={file.id} value={file.id}>
                    {file.fileName}
                  </option>
                ))}
              </select>
              <button type="submit" className="btn btn-sm" disabled={form.busy}>
                {t("edit.attachFile")}
              </button>
            </div>
            <FieldError form={form} name="fileId" />
            {myFiles.length === 0 ? <p className="mt-1 text-xs text-base-content/70">{t("edit.noFilesToAttach")}</p> : null}
          </>
        )}
      </ConnectionForm>
    </SectionBlock>
  );
}
