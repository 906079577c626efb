import { Link } from "@remix-run/react";
import { useTranslation } from "~/translations";
import { FieldError } from "~/components/ui/ActionForm";
import type { ConnectionData } from "~/models/suppliers/connections.server";
import { formatDateTime, formatRelativeTime } from "~/models/shared/format";
import { ConnectionForm } from "./ConnectionForm";
import { SectionBlock } from "./SectionBlock";
import { CONFIRM_PARAMS, useUrlWith } from "./urls";

export interface CommentViewer {
  email: string;
  isAdmin: boolean;
}

/**
 * The slide-over's Comments: text, 'Posted by' and when ('3 hours ago', the full date and time on hover),
 * Delete (asks first) on the viewer's own comments (every comment for an administrator: the server's rule), and Add
 * Comment. `now` is the loader's time of the render, never the browser's clock, so the hydrated text is the server's.
 */
export function CommentsSection({ connection, now, viewer }: { connection: ConnectionData; now: string; viewer: CommentViewer }) {
  const { t, i18n } = useTranslation("connections");
  const url = useUrlWith();
  return (
    <SectionBlock title={t("edit.comments")} id="edit-comments">
      {connection.comments.length ? (
        <ul className="mb-3 space-y-2">
          {connection.comments.map((comment) => (
            <li key={comment.id} className="rounded-box bg-base-200 p-3">
              <p className="whitespace-pre-wrap break-words">{comment.text}</p>
              <div className="mt-1 flex items-center justify-between gap-2 text-xs text-base-content/70">
                <span className="flex min-w-0 flex-wrap gap-x-2">
                  <span>{t("edit.postedBy", { author: comment.user?.email ?? t("edit.unknown") })}</span>
                  <time dateTime={comment.createdAt} title={formatDateTime(comment.createdAt, i18n.language)}>
                    {formatRelativeTime(comment.createdAt, now, i18n.language)}
                  </time>
                </span>
                {viewer.isAdmin || (comment.user != null && comment.user.email === viewer.email) ? (
                  <Link
                    to={url({ confirm: "delete-comment", comment: String(comment.id) }, CONFIRM_PARAMS)}
                    className="btn btn-ghost btn-xs text-error"
                    preventScrollReset
                  >
                    {t("edit.deleteComment")}
                  </Link>
                ) : null}
              </div>
            </li>
          ))}
        </ul>
      ) : (
        <p className="mb-3 text-sm text-base-content/70">{t("edit.noComments")}</p>
      )}
      <ConnectionForm intent="add-comment" resetOnSuccess>
        {(form) => (
          <>
            <label htmlFor="add-comment-text" className="sr-only">
              {t("edit.addComment")}
            </label>
            <textarea
              id="add-comment-text"
              name="text"
              className={`textarea w-full ${form.errors("text").length ? "textarea-error" : ""}`}
              rows={3}
              required
              maxLength={5000}
              placeholder={t("edit.commentPlaceholder")}
              defaultValue={form.kept("text")}
              {...form.invalid("text")}
            />
            <FieldError form={form} name="text" />
            <button type="submit" className="btn btn-sm mt-2" disabled={form.busy}>
              {t("edit.addComment")}
            </button>
          </>
        )}
      </ConnectionForm>
    </SectionBlock>
  );
}
