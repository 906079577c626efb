import { Link, useActionData, useLocation, useNavigate } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { Icon } from "~/components/ui/icons";
import { useModal } from "~/components/ui/useModal";
import type { TagWithCount } from "~/models/tags.server";
import { ConfirmStep, useHref, type ConnectionActionResult } from "./EditConnectionSlideOver";

const CONFIRM_PARAMS = ["confirm", "tag"] as const;

/**
 * The Manage Tags dialog (spec 02), URL state `dialog=tags`: the
 * organisation's tags with their use counts; Delete asks first (a
 * confirmation step, `&confirm=delete-tag&tag={id}`) and removes the tag
 * from every connection. Opened from the slide-over it sits inside it.
 */
export function ManageTagsDialog({ tags }: { tags: TagWithCount[] }) {
  const { t } = useTranslation("connections");
  const href = useHref();
  const location = useLocation();
  const navigate = useNavigate();
  const actionData = useActionData<ConnectionActionResult>();
  const ref = useRef<HTMLDivElement>(null);
  const params = new URLSearchParams(location.search);
  const closeHref = href({ dialog: null }, CONFIRM_PARAMS);
  const withoutConfirm = href({}, CONFIRM_PARAMS);
  // Escape closes the topmost layer: the confirmation step, else this dialog.
  useModal(ref, () => navigate(params.get("confirm") ? withoutConfirm : closeHref, { preventScrollReset: true, replace: true }));
  useEffect(() => {
    // The slide-over focuses itself after this dialog mounts; take focus back.
    const frame = requestAnimationFrame(() => ref.current?.focus());
    return () => cancelAnimationFrame(frame);
  }, []);

  const confirmTag = params.get("confirm") === "delete-tag" ? tags.find((tag) => String(tag.id) === params.get("tag")) : undefined;
  const failed = actionData && !actionData.ok ? actionData.message || t("tags.deleteFailed") : null;

  return (
    <div className="fixed inset-0 z-[60] flex items-center justify-center bg-black/40 p-4">
      <div
        ref={ref}
        role="dialog"
        aria-modal="true"
        aria-labelledby="manage-tags-title"
        tabIndex={-1}
        className="flex max-h-[85vh] w-full max-w-lg flex-col rounded-box bg-base-100 shadow-xl outline-none"
      >
        <header className="flex items-center justify-between gap-2 border-b border-base-300 p-4">
          <h2 id="manage-tags-title" className="text-lg font-semibold">
            {t("tags.title")}
          </h2>
          <Link to={closeHref} className="btn btn-ghost btn-sm btn-square" aria-label={t("tags.close")} preventScrollReset replace>
            <Icon name="x" />
          </Link>
        </header>
        <div className="flex-1 overflow-y-auto p-4">
          <p className="mb-3 text-sm text-base-content/80">{t("tags.explanation")}</p>
          {failed && !confirmTag ? (
            <p role="alert" className="alert alert-error mb-3 text-sm">
              {failed}
            </p>
          ) : null}
          {tags.length ? (
            <ul className="divide-y divide-base-300">
              {tags.map((tag) => (
                <li key={tag.id} className="flex items-center justify-between gap-2 py-2">
                  <span className="min-w-0">
                    <span className="block truncate font-medium">{tag.title}</span>
                    <span className="text-xs text-base-content/70">{t("tags.usedIn", { count: tag.organizationConnectionsCount })}</span>
                  </span>
                  <Link
                    to={href({ confirm: "delete-tag", tag: String(tag.id) }, CONFIRM_PARAMS)}
                    className="btn btn-error btn-outline btn-xs"
                    aria-label={`${t("tags.delete")} ${tag.title}`}
                    preventScrollReset
                  >
                    {t("tags.delete")}
                  </Link>
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-sm text-base-content/70">{t("tags.empty")}</p>
          )}
        </div>
        <footer className="flex justify-end border-t border-base-300 p-4">
          <Link to={closeHref} className="btn" preventScrollReset replace>
            {t("tags.close")}
          </Link>
        </footer>
        {confirmTag ? (
          <ConfirmStep
            text={t("confirm.deleteTag", { title: confirmTag.title, count: confirmTag.organizationConnectionsCount })}
            intent="delete-tag"
            fields={{ tagId: confirmTag.id }}
            confirmLabel={t("confirm.confirmDelete")}
            cancelHref={withoutConfirm}
            redirectTo={withoutConfirm}
            error={failed}
          />
        ) : null}
      </div>
    </div>
  );
}
