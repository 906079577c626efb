import { Form, Link, useActionData, useFetcher, useLocation, useNavigate, useNavigation } from "@remix-run/react";
import { createContext, useContext, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Icon } from "~/components/ui/icons";
import { useModal } from "~/components/ui/useModal";
import { useRootData } from "~/root";
import type { ConnectionData } from "~/models/connections.server";
import type { FileListItem } from "~/models/files.server";
import type { TagItem } from "~/models/tags.server";
import { useHydrated } from "~/components/ui/useHydrated";
export { useHydrated };

/** Saved confirmation time (spec 02 §4, §9). */
export const SAVED_MS = 1500;

/** The URL parameters of the connection's slide-over, dialog and confirmation steps. */
const LAYER_PARAMS = ["edit", "dialog", "confirm", "comment", "file", "tag"] as const;
const CONFIRM_PARAMS = ["confirm", "comment", "file", "tag"] as const;

/** The current URL changed by `change` (null deletes a parameter). */
export function useHref() {
  const location = useLocation();
  return (change: Record<string, string | null>, drop: readonly string[] = []) => {
    const params = new URLSearchParams(location.search);
    for (const key of drop) params.delete(key);
    for (const [key, value] of Object.entries(change)) {
      if (value === null) params.delete(key);
      else params.set(key, value);
    }
    const search = params.toString();
    return search ? `${location.pathname}?${search}` : location.pathname;
  };
}

/** What the supplier screen's action answers a fetcher. */
export type ConnectionActionResult = { ok: true } | { ok: false; status: number; message: string };

const SAVE_FETCHER = "connection-save";

const SavedContext = createContext<() => void>(() => {});

/**
 * A POST form with an `intent`. With JavaScript it runs through its own
 * fetcher (no reload; a refused call leaves the input as it was); without it
 * it also posts `redirectTo`, so the action redirects back here with the
 * 'Saved!' notice.
 */
export function ActionForm({
  intent,
  fields = {},
  resetOnSuccess = false,
  className,
  id,
  fetcherKey,
  children,
}: {
  intent: string;
  fetcherKey?: string;
  fields?: Record<string, string | number>;
  resetOnSuccess?: boolean;
  className?: string;
  id?: string;
  children: (busy: boolean) => React.ReactNode;
}) {
  const fetcher = useFetcher<ConnectionActionResult>(fetcherKey ? { key: fetcherKey } : undefined);
  const hydrated = useHydrated();
  const href = useHref();
  const formRef = useRef<HTMLFormElement>(null);
  const onSaved = useContext(SavedContext);
  const busy = fetcher.state !== "idle";
  const handled = useRef<unknown>(null);

  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data || handled.current === fetcher.data) return;
    handled.current = fetcher.data;
    if (fetcher.data.ok) {
      if (resetOnSuccess) formRef.current?.reset();
      onSaved();
    }
  }, [fetcher.state, fetcher.data, resetOnSuccess, onSaved]);

  return (
    <fetcher.Form ref={formRef} method="post" action={href({}, CONFIRM_PARAMS)} className={className} id={id}>
      <input type="hidden" name="intent" value={intent} />
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {hydrated ? null : <input type="hidden" name="redirectTo" value={href({}, CONFIRM_PARAMS)} />}
      {children(busy)}
    </fetcher.Form>
  );
}

/**
 * A confirmation step (spec 02 §5): URL state, so it works without
 * JavaScript; shown as a dialog over the slide-over either way. The POST
 * carries `redirectTo` so the page comes back without the step.
 */
export function ConfirmStep({
  text,
  intent,
  fields,
  confirmLabel,
  cancelHref,
  redirectTo,
  error,
}: {
  text: string;
  intent: string;
  fields: Record<string, string | number>;
  confirmLabel: string;
  cancelHref: string;
  redirectTo: string;
  error?: string | null;
}) {
  const { t } = useTranslation("connections");
  const navigation = useNavigation();
  const cancelRef = useRef<HTMLAnchorElement>(null);
  useEffect(() => {
    cancelRef.current?.focus();
  }, []);
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
  return (
    <div className="fixed inset-0 z-[70] flex items-center justify-center bg-black/40 p-4">
      <div
        role="alertdialog"
        aria-modal="true"
        aria-labelledby="confirm-title"
        aria-describedby="confirm-text"
        className="w-full max-w-md rounded-box bg-base-100 p-5 shadow-xl"
      >
        <h2 id="confirm-title" className="text-lg font-semibold">
          {t("confirm.title")}
        </h2>
        <p id="confirm-text" className="mt-2">
          {text}
        </p>
        {error ? (
          <p role="alert" className="mt-2 text-sm text-error">
            {error}
          </p>
        ) : null}
        <Form method="post" action={redirectTo} className="mt-4 flex justify-end gap-2" preventScrollReset>
          <input type="hidden" name="intent" value={intent} />
          {Object.entries(fields).map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          <input type="hidden" name="redirectTo" value={redirectTo} />
          <Link ref={cancelRef} to={cancelHref} className="btn btn-ghost" preventScrollReset replace>
            {t("confirm.cancel")}
          </Link>
          <button type="submit" className="btn btn-error" disabled={busy}>
            {confirmLabel}
          </button>
        </Form>
      </div>
    </div>
  );
}

function SectionBlock({ title, id, children }: { title: string; id: string; children: React.ReactNode }) {
  return (
    <section aria-labelledby={id} className="border-t border-base-300 pt-4">
      <h3 id={id} className="mb-2 text-sm font-semibold uppercase tracking-wide text-base-content/70">
        {title}
      </h3>
      {children}
    </section>
  );
}

/** The 'Saved!' text: with JavaScript for 1.5 s after each save; without it after the redirect's notice. */
function useSavedIndicator(): [boolean, () => void] {
  const root = useRootData();
  const hydrated = useHydrated();
  const [shownAt, setShownAt] = useState<number | null>(null);
  useEffect(() => {
    if (shownAt == null) return;
    const timer = setTimeout(() => setShownAt(null), SAVED_MS);
    return () => clearTimeout(timer);
  }, [shownAt]);
  const flashed = !hydrated && root?.notice === "common:saved";
  return [flashed || shownAt != null, () => setShownAt(Date.now())];
}

/**
 * The Edit Supplier Connection slide-over (spec 02), URL state
 * `?edit=connection`. Every button is a POST form with an intent; the
 * destructive ones go through a confirmation step (`&confirm=…`).
 */
export function EditConnectionSlideOver({
  connection,
  tags,
  myFiles,
  children,
}: {
  connection: ConnectionData | null;
  tags: TagItem[];
  myFiles: FileListItem[];
  children?: React.ReactNode;
}) {
  const { t } = useTranslation("connections");
  const href = useHref();
  const location = useLocation();
  const navigate = useNavigate();
  const actionData = useActionData<ConnectionActionResult>();
  const ref = useRef<HTMLDivElement>(null);
  const params = new URLSearchParams(location.search);
  const confirm = params.get("confirm");
  const closeHref = href({}, LAYER_PARAMS);
  const withoutConfirm = href({}, CONFIRM_PARAMS);
  // Escape closes the topmost layer: a confirmation step, the tag dialog, else the slide-over.
  const escapeHref = confirm ? withoutConfirm : params.get("dialog") ? href({ dialog: null }, CONFIRM_PARAMS) : closeHref;
  useModal(ref, () => navigate(escapeHref, { preventScrollReset: true, replace: true }));
  const [saved, showSaved] = useSavedIndicator();

  const saveForm = "connection-save-form";
  const tagIds = new Set(connection?.tags.map((x) => x.tag.id));
  const available = tags.filter((tag) => !tagIds.has(tag.id));
  const attachedIds = new Set(connection?.files.map((f) => f.fileUpload.id));
  const attachable = myFiles.filter((f) => !attachedIds.has(f.id));
  const confirmError = actionData && !actionData.ok ? actionData.message : null;

  let confirmStep: React.ReactNode = null;
  if (connection && confirm === "delete-comment" && params.get("comment")) {
    confirmStep = (
      <ConfirmStep
        text={t("confirm.deleteComment")}
        intent="delete-comment"
        fields={{ commentId: params.get("comment") ?? "" }}
        confirmLabel={t("confirm.confirmDelete")}
        cancelHref={withoutConfirm}
        redirectTo={withoutConfirm}
        error={confirmError}
      />
    );
  } else if (connection && confirm === "remove-file" && params.get("file")) {
    confirmStep = (
      <ConfirmStep
        text={t("confirm.removeFile")}
        intent="detach-file"
        fields={{ fileId: params.get("file") ?? "" }}
        confirmLabel={t("confirm.confirmRemove")}
        cancelHref={withoutConfirm}
        redirectTo={withoutConfirm}
        error={confirmError}
      />
    );
  } else if (connection && confirm === "delete-connection") {
    confirmStep = (
      <ConfirmStep
        text={t("confirm.deleteConnection")}
        intent="delete-connection"
        fields={{}}
        confirmLabel={t("confirm.confirmDelete")}
        cancelHref={withoutConfirm}
        redirectTo={closeHref}
        error={confirmError}
      />
    );
  }

  return (
    <SavedContext.Provider value={showSaved}>
      <div className="fixed inset-0 z-50 flex justify-end">
        <Link to={closeHref} className="absolute inset-0 bg-black/30" aria-hidden="true" tabIndex={-1} preventScrollReset replace />
        <div
          ref={ref}
          role="dialog"
          aria-modal="true"
          aria-labelledby="edit-connection-title"
          tabIndex={-1}
          className="relative flex h-full w-full max-w-lg flex-col bg-base-100 shadow-xl outline-none"
        >
          <header className="flex items-center justify-between gap-2 border-b border-base-300 p-4">
            <h2 id="edit-connection-title" className="text-lg font-semibold">
              {t("edit.title")}
            </h2>
            <Link to={closeHref} className="btn btn-ghost btn-sm btn-square" aria-label={t("edit.close")} preventScrollReset replace>
              <Icon name="x" />
            </Link>
          </header>
          {connection ? (
            <div className="flex-1 space-y-4 overflow-y-auto p-4">
              <div>
                <p className="font-semibold">{connection.child.organization_name}</p>
                <p className="text-sm text-base-content/70">{t("edit.localId", { id: connection.child.local_organization_id })}</p>
              </div>

              <ActionForm intent="save" id={saveForm} fetcherKey={SAVE_FETCHER} className="space-y-4">
                {() => (
                  <>
                    <SectionBlock title={t("edit.status")} id="edit-status">
                      <div className="mb-2 flex flex-wrap gap-2">
                        {connection.is_priority ? <span className="badge badge-warning">{t("edit.priorityBadge")}</span> : null}
                        {connection.is_due_diligence ? <span className="badge badge-info">{t("edit.considerationBadge")}</span> : null}
                      </div>
                      <label className="flex cursor-pointer items-center gap-2 py-1">
                        <input
                          type="checkbox"
                          name="is_priority"
                          className="checkbox checkbox-sm"
                          defaultChecked={connection.is_priority}
                          key={`p${connection.is_priority}`}
                        />
                        <span>{t("edit.prioritySupplier")}</span>
                      </label>
                      <label className="flex cursor-pointer items-center gap-2 py-1">
                        <input
                          type="checkbox"
                          name="is_due_diligence"
                          className="checkbox checkbox-sm"
                          defaultChecked={connection.is_due_diligence}
                          key={`d${connection.is_due_diligence}`}
                        />
                        <span>{t("edit.underDueDiligence")}</span>
                      </label>
                    </SectionBlock>
                    <SectionBlock title={t("edit.contactInfo")} id="edit-contact">
                      <label htmlFor="contact_email" className="sr-only">
                        {t("edit.contactEmail")}
                      </label>
                      <input
                        id="contact_email"
                        type="email"
                        name="contact_email"
                        className="input w-full"
                        placeholder={t("edit.contactEmailPlaceholder")}
                        defaultValue={connection.contact_email ?? ""}
                        autoComplete="off"
                        maxLength={254}
                      />
                    </SectionBlock>
                  </>
                )}
              </ActionForm>

              <SectionBlock title={t("edit.tags")} id="edit-tags">
                {connection.tags.length ? (
                  <ul className="mb-3 flex flex-wrap gap-2">
                    {connection.tags.map(({ tag }) => (
                      <li key={tag.id}>
                        <ActionForm intent="remove-tag" fields={{ tagId: tag.id }} className="badge badge-outline gap-1 py-3">
                          {(busy) => (
                            <>
                              <span>{tag.title}</span>
                              <button
                                type="submit"
                                className="btn btn-ghost btn-xs btn-circle"
                                aria-label={t("edit.removeTag", { title: tag.title })}
                                disabled={busy}
                              >
                                <Icon name="x" className="size-3" />
                              </button>
                            </>
                          )}
                        </ActionForm>
                      </li>
                    ))}
                  </ul>
                ) : (
                  <p className="mb-3 text-sm text-base-content/70">{t("edit.noTags")}</p>
                )}
                <Link to={href({ dialog: "tags" }, CONFIRM_PARAMS)} className="btn btn-sm btn-outline mb-3" preventScrollReset>
                  {t("edit.manageTags")}
                </Link>
                <ActionForm intent="add-tag" className="mb-3">
                  {(busy) => (
                    <>
                      <label htmlFor="add-tag-select" className="mb-1 block text-sm font-medium">
                        {t("edit.addExistingTag")}
                      </label>
                      <div className="flex gap-2">
                        <select
                          id="add-tag-select"
                          name="tagId"
                          className="select select-sm flex-1"
                          required
                          defaultValue=""
                          key={available.map((x) => x.id).join()}
                        >
                          <option value="" disabled>
                            {t("edit.chooseTag")}
                          </option>
                          {available.map((tag) => (
                            <option key={tag.id} value={tag.id}>
                              {tag.title}
                            </option>
                          ))}
                        </select>
                        <button type="submit" className="btn btn-sm" disabled={busy}>
                          {t("edit.addSelectedTag")}
                        </button>
                      </div>
                    </>
                  )}
                </ActionForm>
                <ActionForm intent="create-tag" resetOnSuccess>
                  {(busy) => (
                    <>
                      <label htmlFor="create-tag-input" className="mb-1 block text-sm font-medium">
                        {t("edit.createNewTag")}
                      </label>
                      <div className="flex gap-2">
                        <input
                          id="create-tag-input"
                          name="title"
                          className="input input-sm flex-1"
                          required
                          maxLength={100}
                          pattern=".*\S.*"
                          placeholder={t("edit.newTagPlaceholder")}
                        />
                        <button type="submit" className="btn btn-sm" disabled={busy}>
                          {t("edit.createAndAdd")}
                        </button>
                      </div>
                    </>
                  )}
                </ActionForm>
              </SectionBlock>

              <SectionBlock title={t("edit.comments")} id="edit-comments">
                {connection.comments.length ? (
                  <ul className="mb-3 space-y-2">
                    {connection.comments.map((comment) => (
                      <li key={comment.id} className="rounded-box bg-base-200 p-3">
                        <p className="whitespace-pre-wrap break-words">{comment.text}</p>
                        <div className="mt-1 flex items-center justify-between gap-2 text-xs text-base-content/70">
                          <span>{t("edit.postedBy", { author: comment.user?.email ?? t("edit.unknown") })}</span>
                          <Link
                            to={href({ confirm: "delete-comment", comment: String(comment.id) }, CONFIRM_PARAMS)}
                            className="btn btn-ghost btn-xs text-error"
                            preventScrollReset
                          >
                            {t("edit.deleteComment")}
                          </Link>
                        </div>
                      </li>
                    ))}
                  </ul>
                ) : (
                  <p className="mb-3 text-sm text-base-content/70">{t("edit.noComments")}</p>
                )}
                <ActionForm intent="add-comment" resetOnSuccess>
                  {(busy) => (
                    <>
                      <label htmlFor="add-comment-text" className="sr-only">
                        {t("edit.addComment")}
                      </label>
                      <textarea
                        id="add-comment-text"
                        name="text"
                        className="textarea w-full"
                        rows={3}
                        required
                        maxLength={5000}
                        placeholder={t("edit.commentPlaceholder")}
                      />
                      <button type="submit" className="btn btn-sm mt-2" disabled={busy}>
                        {t("edit.addComment")}
                      </button>
                    </>
                  )}
                </ActionForm>
              </SectionBlock>

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
                          to={href({ confirm: "remove-file", file: String(fileUpload.id) }, CONFIRM_PARAMS)}
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
                <ActionForm intent="attach-file">
                  {(busy) => (
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
                          defaultValue=""
                          key={attachable.map((x) => x.id).join()}
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
                        <button type="submit" className="btn btn-sm" disabled={busy}>
                          {t("edit.attachFile")}
                        </button>
                      </div>
                      {myFiles.length === 0 ? <p className="mt-1 text-xs text-base-content/70">{t("edit.noFilesToAttach")}</p> : null}
                    </>
                  )}
                </ActionForm>
              </SectionBlock>
            </div>
          ) : (
            <p className="flex-1 p-4">{t("edit.notConnected")}</p>
          )}
          <footer className="flex flex-wrap items-center justify-end gap-2 border-t border-base-300 p-4">
            <span role="status" className="mr-auto text-sm font-medium text-success">
              {saved ? t("edit.saved") : ""}
            </span>
            {connection ? (
              <>
                <SaveButton form={saveForm} />
                <Link to={href({ confirm: "delete-connection" }, CONFIRM_PARAMS)} className="btn btn-error btn-outline" preventScrollReset>
                  {t("edit.delete")}
                </Link>
              </>
            ) : null}
            <Link to={closeHref} className="btn btn-ghost" preventScrollReset replace>
              {t("edit.cancel")}
            </Link>
          </footer>
          {confirmStep}
          {children}
        </div>
      </div>
    </SavedContext.Provider>
  );
}

/** 'Save Changes', 'Saving...' while the save form's fetcher runs (shared by its key). */
function SaveButton({ form }: { form: string }) {
  const { t } = useTranslation("connections");
  const busy = useFetcher({ key: SAVE_FETCHER }).state !== "idle";
  return (
    <button type="submit" form={form} className="btn btn-primary" disabled={busy}>
      {busy ? t("edit.saving") : t("edit.save")}
    </button>
  );
}
