import { Link, useFetcher } from "@remix-run/react";
import { useEffect, useState } from "react";
import { useTranslation } from "~/translations";
import { Dialog } from "~/components/ui/Dialog";
import { useHydrated } from "~/components/ui/useHydrated";
import type { ConnectionData } from "~/models/suppliers/connections.server";
import type { FileListItem } from "~/models/files/files.server";
import type { TagItem } from "~/models/suppliers/tags.server";
import { type CommentViewer, CommentsSection } from "./CommentsSection";
import { ConnectionConfirmations } from "./ConnectionConfirmations";
import { SavedContext } from "./ConnectionForm";
import { SAVE_FETCHER, SAVE_FORM, StatusContactForm } from "./StatusContactForm";
import { FilesSection } from "./FilesSection";
import { TagsSection } from "./TagsSection";
import { CONFIRM_PARAMS, LAYER_PARAMS, SAVED_MS, useUrlWith } from "./urls";

/** The 'Saved!' text: with JavaScript for 1.5 s after each save; without it after the redirect's notice. */
function useSavedIndicator(savedNotice: boolean): [boolean, () => void] {
  const hydrated = useHydrated();
  const [shownAt, setShownAt] = useState<number | null>(null);
  useEffect(() => {
    if (shownAt == null) return;
    const timer = setTimeout(() => setShownAt(null), SAVED_MS);
    return () => clearTimeout(timer);
  }, [shownAt]);
  return [(!hydrated && savedNotice) || shownAt != null, () => setShownAt(Date.now())];
}

/**
 * The Edit Supplier Connection slide-over (shared/spec/02-supplier-credit-connections.md), URL state
 * `?edit=connection`. Every button is a POST form with an intent; the
 * destructive ones go through a confirmation step (`&confirm=…`).
 * `savedNotice`: the page comes from a plain post's redirect with the 'Saved!'
 * notice (the root's flash), so the footer says so without JavaScript too.
 * `children`: a dialog opened over the slide-over (Manage Tags). `now`: the loader's time of the render, for
 * the comments' relative times.
 */
export function EditConnectionSlideOver({
  connection,
  tags,
  myFiles,
  now,
  viewer,
  savedNotice = false,
  children,
}: {
  connection: ConnectionData | null;
  tags: TagItem[];
  myFiles: FileListItem[];
  now: string;
  /** Who looks: the author of a comment, or an administrator, may delete it (the server's rule). */
  viewer: CommentViewer;
  savedNotice?: boolean;
  children?: React.ReactNode;
}) {
  const { t } = useTranslation("connections");
  const url = useUrlWith();
  const [saved, showSaved] = useSavedIndicator(savedNotice);
  const closeHref = url({}, LAYER_PARAMS);

  return (
    <SavedContext.Provider value={showSaved}>
      <Dialog
        variant="slide-over"
        title={t("edit.title")}
        closeHref={closeHref}
        closeLabel={t("edit.close")}
        footer={
          <>
            <span role="status" className="mr-auto text-sm font-medium text-success">
              {saved ? t("edit.saved") : ""}
            </span>
            {connection ? (
              <>
                <SaveButton />
                <Link to={url({ confirm: "delete-connection" }, CONFIRM_PARAMS)} className="btn btn-error btn-outline" preventScrollReset>
                  {t("edit.delete")}
                </Link>
              </>
            ) : null}
            <Link to={closeHref} className="btn btn-ghost" preventScrollReset replace>
              {t("edit.cancel")}
            </Link>
          </>
        }
        overlays={
          <>
            {connection ? <ConnectionConfirmations /> : null}
            {children}
          </>
        }
      >
        {connection ? (
          <div className="space-y-4">
            <div>
              <p className="font-semibold">{connection.child.organization_name}</p>
              <p className="text-sm text-base-content/70">{t("edit.localId", { id: connection.child.local_organization_id })}</p>
            </div>
            <StatusContactForm connection={connection} />
            <TagsSection connection={connection} tags={tags} />
            <CommentsSection connection={connection} now={now} viewer={viewer} />
            <FilesSection connection={connection} myFiles={myFiles} />
          </div>
        ) : (
          <p>{t("edit.notConnected")}</p>
        )}
      </Dialog>
    </SavedContext.Provider>
  );
}

/** 'Save Changes', 'Saving...' while the save form's fetcher runs (shared by its key). */
function SaveButton() {
  const { t } = useTranslation("connections");
  const busy = useFetcher({ key: SAVE_FETCHER }).state !== "idle";
  return (
    <button type="submit" form={SAVE_FORM} className="btn btn-primary" disabled={busy}>
      {busy ? t("edit.saving") : t("edit.save")}
    </button>
  );
}
