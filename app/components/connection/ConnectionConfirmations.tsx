import { useLocation } from "@remix-run/react";
import { useTranslation } from "~/translations";
import { ConfirmStep } from "~/components/ui/ConfirmStep";
import { CONFIRM_PARAMS, LAYER_PARAMS, useUrlWith } from "./urls";

/**
 * The slide-over's confirmation steps (shared/spec/02-supplier-credit-connections.md §5), URL state `&confirm=…`:
 * delete a comment, remove a file, soft delete the connection (which closes
 * the slide-over after it).
 */
export function ConnectionConfirmations() {
  const { t } = useTranslation("connections");
  const url = useUrlWith();
  const params = new URLSearchParams(useLocation().search);
  const withoutStep = url({}, CONFIRM_PARAMS);
  const common = { title: t("confirm.title"), cancelLabel: t("confirm.cancel"), cancelHref: withoutStep };
  const confirm = params.get("confirm");
  const comment = params.get("comment");
  const file = params.get("file");
  if (confirm === "delete-comment" && comment) {
    return (
      <ConfirmStep
        {...common}
        text={t("confirm.deleteComment")}
        intent="delete-comment"
        fields={{ commentId: comment }}
        confirmLabel={t("confirm.confirmDelete")}
        redirectTo={withoutStep}
      />
    );
  }
  if (confirm === "remove-file" && file) {
    return (
      <ConfirmStep
        {...common}
        text={t("confirm.removeFile")}
        intent="detach-file"
        fields={{ fileId: file }}
        confirmLabel={t("confirm.confirmRemove")}
        redirectTo={withoutStep}
      />
    );
  }
  if (confirm === "delete-connection") {
    return (
      <ConfirmStep
        {...common}
        text={t("confirm.deleteConnection")}
        intent="delete-connection"
        confirmLabel={t("confirm.confirmDelete")}
        redirectTo={url({}, LAYER_PARAMS)}
      />
    );
  }
  return null;
}
