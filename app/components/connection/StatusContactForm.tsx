import { useTranslation } from "~/translations";
import { FieldError } from "~/components/ui/ActionForm";
import type { ConnectionData } from "~/models/suppliers/connections.server";
import { ConnectionForm } from "./ConnectionForm";
import { SectionBlock } from "./SectionBlock";

/** The fetcher key of the save form, shared with the footer's Save Changes button. */
export const SAVE_FETCHER = "connection-save";
/** The save form's id, for the footer's `form=` button. */
export const SAVE_FORM = "connection-save-form";

/**
 * Status (flags) and Contact Info, saved together by the footer's Save
 * Changes (intent "save"). A refused email shows its message under the input
 * and keeps what the user typed, with and without JavaScript.
 */
export function StatusContactForm({ connection }: { connection: ConnectionData }) {
  const { t } = useTranslation("connections");
  return (
    <ConnectionForm intent="save" id={SAVE_FORM} fetcherKey={SAVE_FETCHER} className="space-y-4">
      {(form) => {
        // After a refused plain post the boxes show what the user sent (an unticked box is not sent).
        const checked = (name: "is_priority" | "is_due_diligence") => (form.keeping ? form.kept(name) === "on" : connection[name]);
        return (
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
                  defaultChecked={checked("is_priority")}
                  key={`p${connection.is_priority}`}
                />
                <span>{t("edit.prioritySupplier")}</span>
              </label>
              <label className="flex cursor-pointer items-center gap-2 py-1">
                <input
                  type="checkbox"
                  name="is_due_diligence"
                  className="checkbox checkbox-sm"
                  defaultChecked={checked("is_due_diligence")}
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
                className={`input w-full ${form.errors("contact_email").length ? "input-error" : ""}`}
                placeholder={t("edit.contactEmailPlaceholder")}
                defaultValue={form.kept("contact_email") ?? connection.contact_email ?? ""}
                autoComplete="off"
                maxLength={254}
                {...form.invalid("contact_email")}
              />
              <FieldError form={form} name="contact_email" />
            </SectionBlock>
          </>
        );
      }}
    </ConnectionForm>
  );
}
