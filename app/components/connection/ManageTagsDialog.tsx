import { Link, useLocation } from "@remix-run/react";
import { useTranslation } from "~/translations";
import { errorsOf, useActionResult } from "~/components/ui/ActionForm";
import { ConfirmStep } from "~/components/ui/ConfirmStep";
import { Dialog } from "~/components/ui/Dialog";
import type { TagWithCount } from "~/models/suppliers/tags.server";
import { useUrlWith } from "./urls";

const CONFIRM_PARAMS = ["confirm", "tag"] as const;

/**
 * The Manage Tags dialog (shared/spec/02-supplier-credit-connections.md), URL state `dialog=tags`: the
 * organisation's tags with their use counts; Delete asks first (a
 * confirmation step, `&confirm=delete-tag&tag={id}`) and removes the tag
 * from every connection. Opened from the slide-over it sits over it (layer 2).
 */
export function ManageTagsDialog({ tags, layer = 1 }: { tags: TagWithCount[]; layer?: 1 | 2 }) {
  const { t } = useTranslation("connections");
  const url = useUrlWith();
  const params = new URLSearchParams(useLocation().search);
  const closeHref = url({ dialog: null }, CONFIRM_PARAMS);
  const withoutStep = url({}, CONFIRM_PARAMS);
  const confirmTag = params.get("confirm") === "delete-tag" ? tags.find((tag) => String(tag.id) === params.get("tag")) : undefined;
  // A refused deletion of a tag that is no longer listed has no step to show it in.
  const refused = useActionResult("delete-tag");
  const failed = !confirmTag && refused ? [...errorsOf(refused), ...errorsOf(refused, "tagId")].join(" ") || t("tags.deleteFailed") : null;

  return (
    <Dialog
      title={t("tags.title")}
      closeHref={closeHref}
      closeLabel={t("tags.close")}
      layer={layer}
      footer={
        <Link to={closeHref} className="btn" preventScrollReset replace>
          {t("tags.close")}
        </Link>
      }
      overlays={
        confirmTag ? (
          <ConfirmStep
            title={t("confirm.title")}
            text={t("confirm.deleteTag", { title: confirmTag.title, count: confirmTag.organizationConnectionsCount })}
            intent="delete-tag"
            fields={{ tagId: confirmTag.id }}
            confirmLabel={t("confirm.confirmDelete")}
            cancelLabel={t("confirm.cancel")}
            cancelHref={withoutStep}
            redirectTo={withoutStep}
          />
        ) : null
      }
    >
      <p className="mb-3 text-sm text-base-content/80">{t("tags.explanation")}</p>
      {failed ? (
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
                to={url({ confirm: "delete-tag", tag: String(tag.id) }, CONFIRM_PARAMS)}
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
    </Dialog>
  );
}
