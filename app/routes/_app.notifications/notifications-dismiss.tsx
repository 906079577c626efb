import { Link, useNavigate } from "@remix-run/react";
import { useId } from "react";
import { ActionForm, FieldError } from "~/components/ui/ActionForm";
import { Dialog } from "~/components/ui/Dialog";
import { DISMISS_REASON_MAX } from "~/models/notifications/notifications";
import { useTranslation } from "~/translations";
import { NOTIFICATIONS_INTENT } from "./notifications-intents";

/** The dismiss step (`?dismiss={id}`): the reason, required, for the colleagues who see the notification later. */
export function NotificationDismissDialog({ id, title, closeHref }: { id: number; title: string; closeHref: string }) {
  const { t } = useTranslation("notifications");
  const fieldId = useId();
  const navigate = useNavigate();
  return (
    <Dialog title={t("page.dismissTitle")} closeHref={closeHref} closeLabel={t("page.cancel")}>
      <p className="break-words text-sm font-medium">{title}</p>
      <p className="mt-2 text-sm text-base-content/70">{t("page.dismissText")}</p>
      <ActionForm
        intent={NOTIFICATIONS_INTENT.dismiss}
        fields={{ id }}
        redirectTo={closeHref}
        // With JavaScript the change is a fetcher post: the dialog leaves once it is accepted.
        onSuccess={() => navigate(closeHref, { replace: true, preventScrollReset: true })}
        className="mt-4 flex flex-col gap-3"
      >
        {(form) => (
          <>
            <div>
              <label htmlFor={fieldId} className="mb-1 block text-sm font-medium">
                {t("page.reason")}
              </label>
              <textarea
                id={fieldId}
                name="reason"
                required
                maxLength={DISMISS_REASON_MAX}
                rows={3}
                defaultValue={form.kept("reason")}
                className="textarea w-full"
                aria-describedby={`${fieldId}-hint`}
                {...form.invalid("reason")}
              />
              <p id={`${fieldId}-hint`} className="mt-1 text-xs text-base-content/70">
                {t("page.reasonHint")}
              </p>
              <FieldError form={form} name="reason" />
            </div>
            <div className="flex justify-end gap-2">
              <Link to={closeHref} className="btn btn-ghost" preventScrollReset replace>
                {t("page.cancel")}
              </Link>
              <button type="submit" className="btn btn-error" disabled={form.busy}>
                {t("page.dismiss")}
              </button>
            </div>
          </>
        )}
      </ActionForm>
    </Dialog>
  );
}
