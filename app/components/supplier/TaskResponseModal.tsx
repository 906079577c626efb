import { Link, useLocation, useNavigation } from "@remix-run/react";
import { useState } from "react";
import { useTranslation } from "~/translations";
import { fetchAndSave, isPlainClick } from "~/components/ui/download";
import { StatusBadge } from "~/components/supplier-tasks/StatusBadge";
import { ActionForm } from "~/components/ui/ActionForm";
import { Dialog } from "~/components/ui/Dialog";
import { useHydrated } from "~/components/ui/useHydrated";
import { formatDate, formatThousands } from "~/models/shared/format";
import { canDo, displayStatus, osloDate } from "~/models/tasks/task-states";
import type { SupplierScreenData } from "~/models/suppliers/supplier-screen.server";
import { uiLanguage } from "~/i18n";
import { withParams } from "./screen-url";
import { taskName } from "./TasksSection";

type TaskResponse = NonNullable<SupplierScreenData["taskResponse"]>;
type FileRef = TaskResponse["complianceTaskResponseFiles"][number]["fileUpload"];

const PARAM = "task";

export function taskFileHref(fileId: number): string {
  return `/api/tasks/files/${fileId}/download`;
}

/**
 * The task response dialog (shared/spec/02-supplier-credit-connections.md "Task response modal"), URL state:
 * `task={responseId}`. Without JavaScript its Close and backdrop are plain
 * links and its downloads plain downloads; with it the dialog shows at once
 * while the response loads, Escape closes it too, focus moves in and back,
 * and the page behind is inert (ui/Dialog).
 */
export function TaskResponseModal({ data }: { data: SupplierScreenData; extra?: string }) {
  const location = useLocation();
  const navigation = useNavigation();
  const current = new URLSearchParams(location.search).get(PARAM);
  // While a link opens or closes the dialog, show where it is going.
  const pending = navigation.state === "loading" && navigation.location.pathname === location.pathname ? navigation.location : null;
  const shown = pending ? new URLSearchParams(pending.search).get(PARAM) : current;
  if (shown == null) return null;
  const response = shown === current && data.taskResponse && String(data.taskResponse.id) === current ? data.taskResponse : null;
  const state = shown !== current ? "loading" : response ? "loaded" : "error";
  return <TaskDialog state={state} response={response} />;
}

function TaskDialog({ state, response }: { state: "loading" | "loaded" | "error"; response: TaskResponse | null }) {
  const { t, i18n } = useTranslation("supplierWork");
  const lng = uiLanguage(i18n.language);
  const { pathname, search } = useLocation();
  const hydrated = useHydrated();
  // Without JavaScript the page reloads: the fragment brings the user back to the tasks.
  const closeTo = `${pathname}${withParams(search, { [PARAM]: null })}${hydrated ? "" : "#tasks"}`;

  const title = response
    ? taskName({ title: response.complianceTask.title, complianceTaskTemplate: response.complianceTaskTemplate })
    : t("taskResponse.dialogTitle");
  const template = response?.complianceTaskTemplate ?? null;

  return (
    <Dialog title={title} closeHref={closeTo} closeLabel={t("taskResponse.close")} size="lg">
      <div aria-busy={state === "loading" || undefined} className="flex flex-col gap-5 text-sm sm:px-1">
        {state === "loading" ? (
          <p className="flex items-center gap-2 text-base-content/70">
            <span className="loading loading-spinner loading-sm" aria-hidden="true" />
            {t("taskResponse.loading")}
          </p>
        ) : null}
        {state === "error" ? (
          <div role="alert" className="alert alert-error">
            {t("taskResponse.error")}
          </div>
        ) : null}
        {state === "loaded" && response ? (
          <>
            <dl className="grid grid-cols-1 gap-3 sm:grid-cols-2">
              <div>
                <dt className="text-xs text-base-content/70">{t("taskResponse.organization")}</dt>
                <dd className="font-medium break-words">{response.organization.organization_name}</dd>
              </div>
              <div>
                <dt className="text-xs text-base-content/70">{t("taskResponse.updated")}</dt>
                <dd className="font-medium tabular-nums">
                  <time dateTime={response.updatedAt}>{formatDate(response.updatedAt, lng)}</time>
                </dd>
              </div>
            </dl>

            <section aria-labelledby="task-response-comment">
              <h3 id="task-response-comment" className="mb-1 font-semibold">
                {t("taskResponse.comment")}
              </h3>
              {response.comment?.trim() ? (
                <p className="whitespace-pre-line break-words">{response.comment}</p>
              ) : (
                <p className="text-base-content/70">{t("taskResponse.noComment")}</p>
              )}
            </section>

            <section aria-labelledby="task-response-template">
              <h3 id="task-response-template" className="mb-1 font-semibold">
                {t("taskResponse.template")}
              </h3>
              {template ? (
                <div className="rounded-box border border-base-300 p-3">
                  <p className="font-medium break-words">{template.title}</p>
                  <p className={`mt-1 whitespace-pre-line break-words ${template.description ? "" : "text-base-content/70"}`}>
                    {template.description || t("taskResponse.noDescription")}
                  </p>
                  <h4 className="mt-3 text-xs text-base-content/70">{t("taskResponse.templateFile")}</h4>
                  {template.templateFile ? (
                    <FileList files={[template.templateFile]} failedMessage={t("taskResponse.templateDownloadFailed")} lng={lng} />
                  ) : (
                    <p className="text-base-content/70">{t("taskResponse.noTemplateFile")}</p>
                  )}
                </div>
              ) : (
                <p className="text-base-content/70">{t("taskResponse.noTemplate")}</p>
              )}
            </section>

            <section aria-labelledby="task-response-files">
              <h3 id="task-response-files" className="mb-1 font-semibold">
                {t("taskResponse.files")}
              </h3>
              {response.complianceTaskResponseFiles.length > 0 ? (
                <FileList
                  files={response.complianceTaskResponseFiles.map((f) => f.fileUpload)}
                  failedMessage={t("taskResponse.supplierDownloadFailed")}
                  lng={lng}
                />
              ) : (
                <p className="text-base-content/70">{t("taskResponse.noFiles")}</p>
              )}
            </section>
          </>
        ) : null}
      </div>
    </Dialog>
  );
}

/**
 * Files with a download link each. The link is a plain download that works
 * without JavaScript; with it the file is fetched first, so that a failure
 * shows the spec's message instead of an error page.
 */
function FileList({ files, failedMessage, lng }: { files: FileRef[]; failedMessage: string; lng: "en" | "no" }) {
  const { t } = useTranslation("supplierWork");
  const [busy, setBusy] = useState<number | null>(null);
  const [failed, setFailed] = useState(false);

  const onDownload = async (event: React.MouseEvent<HTMLAnchorElement>, file: FileRef) => {
    if (!isPlainClick(event)) return;
    event.preventDefault();
    if (busy != null) return;
    setBusy(file.id);
    setFailed(false);
    const ok = await fetchAndSave(taskFileHref(file.id), file.fileName);
    setBusy(null);
    setFailed(!ok);
  };

  return (
    <>
      <ul className="divide-y divide-base-300">
        {files.map((file) => (
          <li key={file.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 py-2">
            <span className="min-w-0 flex-1 break-words font-medium">{file.fileName}</span>
            <span className="shrink-0 text-base-content/70 tabular-nums">
              {t("taskResponse.fileSize", { count: file.fileSize, size: formatThousands(file.fileSize, lng) })}
            </span>
            <a
              href={taskFileHref(file.id)}
              download={file.fileName}
              onClick={(event) => void onDownload(event, file)}
              aria-busy={busy === file.id || undefined}
              className="btn btn-outline btn-primary btn-xs shrink-0"
            >
              {busy === file.id ? t("taskResponse.downloading") : t("taskResponse.download")}
              <span className="sr-only"> {file.fileName}</span>
            </a>
          </li>
        ))}
      </ul>
      {failed ? (
        <p role="alert" className="alert alert-error mt-2 py-2">
          {failedMessage}
        </p>
      ) : null}
    </>
  );
}

const ITEM_PARAM = "item";

/**
 * A task not yet submitted, URL state `item={supplierTaskId}`: its state, due date, when it was sent and to
 * whom, and — for a viewer who may act on what the organisation sent — a Remind button: a plain POST to
 * /supplier_tasks/{id} (intent remind) that comes back here with its notice, or a fetcher with JavaScript.
 */
export function TaskStateModal({ data }: { data: SupplierScreenData; extra?: string }) {
  const location = useLocation();
  const id = new URLSearchParams(location.search).get(ITEM_PARAM);
  if (id == null) return null;
  const item = data.taskItems.find((i) => String(i.id) === id && i.kind === "task") ?? null;
  const task = item ? (data.tasks.find((t) => t.id === item.complianceTaskId) ?? null) : null;
  return <TaskStateDialog item={item} name={task ? taskName(task) : null} canManage={data.canManageTasks} today={osloDate(new Date(data.now))} />;
}

function TaskStateDialog({
  item,
  name,
  canManage,
  today,
}: {
  item: SupplierScreenData["taskItems"][number] | null;
  name: string | null;
  canManage: boolean;
  today: string;
}) {
  const { t, i18n } = useTranslation("supplierTasks");
  const lng = uiLanguage(i18n.language);
  const { pathname, search } = useLocation();
  const hydrated = useHydrated();
  const [reminded, setReminded] = useState(false);
  const closeTo = `${pathname}${withParams(search, { [ITEM_PARAM]: null })}${hydrated ? "" : "#tasks"}`;
  const here = `${pathname}${search}`;
  return (
    <Dialog title={name ?? t("screen.stateTitle")} closeHref={closeTo} closeLabel={t("screen.close")}>
      {item ? (
        <div className="flex flex-col gap-4 text-sm">
          <dl className="grid grid-cols-1 gap-3 sm:grid-cols-2">
            <div>
              <dt className="text-xs text-base-content/70">{t("screen.status")}</dt>
              <dd>
                <StatusBadge status={displayStatus(item, today)} />
              </dd>
            </div>
            <div>
              <dt className="text-xs text-base-content/70">{t("screen.dueDate")}</dt>
              <dd className="font-medium tabular-nums">{item.dueDate ? formatDate(item.dueDate, lng) : t("screen.noDue")}</dd>
            </div>
            <div className="sm:col-span-2">
              <dt className="text-xs text-base-content/70">{t("screen.recipient")}</dt>
              <dd className="font-medium break-all">{item.recipientEmail ?? t("list.noRecipient")}</dd>
            </div>
          </dl>
          <p className="text-base-content/70">{t("screen.notSubmitted")}</p>
          <div className="flex flex-wrap items-center gap-3">
            {canManage && canDo("remind", "customer", item.status) ? (
              item.recipientEmail ? (
                <ActionForm intent="remind" action={`/supplier_tasks/${item.id}`} redirectTo={here} onSuccess={() => setReminded(true)} className="inline">
                  {(form) => (
                    <button type="submit" className="btn btn-primary btn-sm" disabled={form.busy}>
                      {t("screen.remind")}
                    </button>
                  )}
                </ActionForm>
              ) : (
                <p>{t("screen.noRecipient")}</p>
              )
            ) : null}
            {canManage ? (
              <Link to={`/supplier_tasks/${item.id}`} className="link">
                {t("screen.openItem")}
              </Link>
            ) : null}
          </div>
          {reminded ? (
            <p role="status" className="text-success">
              {t("screen.reminded")}
            </p>
          ) : null}
        </div>
      ) : (
        <div role="alert" className="alert alert-error text-sm">
          {t("supplierWork:taskResponse.error")}
        </div>
      )}
    </Dialog>
  );
}
