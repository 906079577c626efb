import { ActionForm, FieldError } from "~/components/ui/ActionForm";
import { useTranslation } from "~/translations";
import { INTENT, LEVELS } from "./organization-members-schema";

/** The administrator's invitation of a new member at a level. */
export function InviteForm({ redirectTo }: { redirectTo: string }) {
  const { t } = useTranslation("organization");
  return (
    <section aria-labelledby="org-invite-heading" className="mt-8 max-w-2xl rounded-box border border-base-300 bg-base-100 p-5">
      <h2 id="org-invite-heading" className="text-lg font-semibold">
        {t("users.invite.heading")}
      </h2>
      <p className="mt-1 text-sm text-base-content/70">{t("users.invite.lead")}</p>
      <ActionForm intent={INTENT.invite} redirectTo={redirectTo} className="mt-4 flex flex-col gap-4">
        {(form) => (
          <>
            <div>
              <label htmlFor="invite-email" className="mb-1 block text-sm font-medium">
                {t("users.invite.email")}
              </label>
              <input
                id="invite-email"
                name="email"
                type="email"
                autoComplete="off"
                required
                defaultValue={form.kept("email") ?? ""}
                className="input w-full"
                {...form.invalid("email")}
              />
              <FieldError form={form} name="email" />
            </div>
            <div>
              <label htmlFor="invite-level" className="mb-1 block text-sm font-medium">
                {t("users.invite.level")}
              </label>
              <select
                id="invite-level"
                name="accessLevel"
                defaultValue={form.kept("accessLevel") ?? "1"}
                className="select w-full"
                {...form.invalid("accessLevel")}
              >
                {LEVELS.map((level) => (
                  <option key={level} value={level}>
                    {t(`levels.${level}`)} — {t(`levelHints.${level}`)}
                  </option>
                ))}
              </select>
              <FieldError form={form} name="accessLevel" />
            </div>
            <div className="sm:text-right">
              <button type="submit" className="btn btn-primary w-full sm:w-auto" disabled={form.busy}>
                {form.busy ? t("users.invite.sending") : t("users.invite.submit")}
              </button>
            </div>
          </>
        )}
      </ActionForm>
    </section>
  );
}
