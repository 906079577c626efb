import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "~/translations";
import { GeneralErrorBoundary } from "~/components/ui/GeneralErrorBoundary";
import { FieldErrors } from "~/components/ui/form";
import { titleMeta } from "~/components/ui/meta";
import { requireUser } from "~/http/auth.server";
import { refuseForm } from "~/http/forms.server";
import { redirectWithNotice } from "~/http/notice.server";
import { can } from "~/models/accounts/permissions";
import { readForm } from "~/http/parse.server";
import { badRequest } from "~/http/responses.server";
import i18nServer from "~/i18n.server";
import { getNotificationMailSettings, saveNotificationMailSettings } from "~/models/notifications/notification-mail.server";
import { DIGEST_FREQUENCIES, emailSettingsSchema, MAIL_LANGUAGES, mailPreferencesSchema } from "~/models/notifications/notification-settings";
import { pageTitle } from "~/models/shared/page-title.server";

export const meta = titleMeta;

export const handle = { i18n: ["account"] };

/**
 * /account/email-settings (shared/spec/01-shell-chat-lei.md §2.2, the user menu): the signed-in user's own notification e-mails —
 * the digest (off, daily, weekly) and the immediate mail for high-risk notifications. A user whose account cannot
 * read notifications (a viewer at level 1, a supplier respondent, an account without an organisation) is told that
 * these mails do not apply to them: they are never sent such mails (decision 025). Every user sets the reminders of
 * tasks and surveys sent to their own address and the language of their mails (decision 040).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const applies = can(user, "notificationsRead");
  const stored = await getNotificationMailSettings(user.id);
  const settings = { ...stored, mailLanguage: stored.mailLanguage ?? user.language };
  return json({ applies, settings, email: user.email, title: await pageTitle(request, "account:emailSettings.title") });
}

export async function action({ request }: ActionFunctionArgs) {
  // Only the session's own user: there is no user id in the form to point at anyone else.
  const user = await requireUser(request);
  const formData = await readForm(request);
  const t = await i18nServer.getFixedT(request);
  switch (formData.get("intent")) {
    case "save": {
      // Notification mails only for those who may read notifications; their fields are not even read for others.
      const schema = can(user, "notificationsRead") ? emailSettingsSchema(t) : mailPreferencesSchema(t);
      const submission = parseWithZod(formData, { schema });
      if (submission.status !== "success") return refuseForm(submission);
      await saveNotificationMailSettings(user.id, submission.value);
      return redirectWithNotice(request, "/account/email-settings", "account:emailSettings.saved");
    }
    default:
      throw badRequest("Unknown intent.");
  }
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

export default function EmailSettingsScreen() {
  const { applies, email } = useLoaderData<typeof loader>();
  const { t } = useTranslation("account");
  return (
    <section aria-labelledby="email-settings-title" className="mx-auto max-w-2xl">
      <h1 id="email-settings-title" className="text-2xl font-semibold">
        {t("emailSettings.title")}
      </h1>
      {applies ? (
        <p className="mt-1 text-sm text-base-content/70">{t("emailSettings.intro", { email })}</p>
      ) : (
        <div className="mt-6 rounded-box border border-base-300 bg-base-100 p-5">
          <h2 className="text-lg font-semibold">{t("emailSettings.notApplicable.heading")}</h2>
          <p className="mt-2 text-sm text-base-content/80">{t("emailSettings.notApplicable.body")}</p>
        </div>
      )}
      <SettingsForm />
    </section>
  );
}

function SettingsForm() {
  const { settings, applies } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === "save";
  const { t } = useTranslation("account");
  const { t: tAll } = useTranslation();
  const [form, fields] = useForm({
    id: "email-settings",
    lastResult: actionData?.result ?? undefined,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    // The same schema as the action's for this user; typed as the full form's (the notification fields render only when it applies).
    onValidate: ({ formData }) =>
      parseWithZod(formData, {
        schema: applies ? emailSettingsSchema((k) => tAll(k)) : (mailPreferencesSchema((k) => tAll(k)) as unknown as ReturnType<typeof emailSettingsSchema>),
      }),
  });
  const digestHint = "email-settings-digest-hint";
  const immediateHint = "email-settings-immediate-hint";
  const remindersHint = "email-settings-reminders-hint";
  const languageHint = "email-settings-language-hint";
  return (
    <Form method="post" {...getFormProps(form)} className="mt-6 space-y-6 rounded-box border border-base-300 bg-base-100 p-5">
      <input type="hidden" name="intent" value="save" />
      {settings.saved ? null : <p className="text-sm text-base-content/70">{t("emailSettings.defaults")}</p>}
      {applies ? (
        <>
          <fieldset aria-describedby={[digestHint, fields.digest.errors ? fields.digest.errorId : null].filter(Boolean).join(" ")}>
            <legend className="mb-2 text-base font-semibold">{t("emailSettings.digest.legend")}</legend>
            <div className="flex flex-col gap-2 sm:flex-row sm:gap-6">
              {DIGEST_FREQUENCIES.map((value) => (
                <label key={value} className="flex min-h-11 cursor-pointer items-center gap-2">
                  <input type="radio" name={fields.digest.name} value={value} defaultChecked={settings.digest === value} className="radio radio-primary" />
                  <span>{t(`emailSettings.digest.${value}`)}</span>
                </label>
              ))}
            </div>
            <p id={digestHint} className="mt-1 text-xs text-base-content/70">
              {t("emailSettings.digest.hint")}
            </p>
            <FieldErrors id={fields.digest.errorId} errors={fields.digest.errors} />
          </fieldset>
          <div>
            <label className="flex cursor-pointer items-start gap-3">
              <input
                type="checkbox"
                name={fields.immediate.name}
                defaultChecked={settings.immediate}
                className="checkbox checkbox-primary mt-0.5"
                aria-describedby={[immediateHint, fields.immediate.errors ? fields.immediate.errorId : null].filter(Boolean).join(" ")}
                aria-invalid={fields.immediate.errors ? true : undefined}
              />
              <span className="font-medium">{t("emailSettings.immediate.label")}</span>
            </label>
            <p id={immediateHint} className="mt-1 ml-9 text-xs text-base-content/70">
              {t("emailSettings.immediate.hint")}
            </p>
            <FieldErrors id={fields.immediate.errorId} errors={fields.immediate.errors} />
          </div>
        </>
      ) : null}
      <fieldset aria-describedby={remindersHint}>
        <legend className="mb-2 text-base font-semibold">{t("emailSettings.reminders.legend")}</legend>
        {(["taskReminders", "surveyReminders"] as const).map((name) => (
          <label key={name} className="flex min-h-11 cursor-pointer items-center gap-3">
            <input type="checkbox" name={fields[name].name} defaultChecked={settings[name]} className="checkbox checkbox-primary" />
            <span>{t(`emailSettings.reminders.${name === "taskReminders" ? "task" : "survey"}`)}</span>
          </label>
        ))}
        <p id={remindersHint} className="mt-1 text-xs text-base-content/70">
          {t("emailSettings.reminders.hint")}
        </p>
        <FieldErrors id={fields.taskReminders.errorId} errors={[...(fields.taskReminders.errors ?? []), ...(fields.surveyReminders.errors ?? [])]} />
      </fieldset>
      <fieldset aria-describedby={[languageHint, fields.mailLanguage.errors ? fields.mailLanguage.errorId : null].filter(Boolean).join(" ")}>
        <legend className="mb-2 text-base font-semibold">{t("emailSettings.language.legend")}</legend>
        <div className="flex flex-col gap-2 sm:flex-row sm:gap-6">
          {MAIL_LANGUAGES.map((value) => (
            <label key={value} className="flex min-h-11 cursor-pointer items-center gap-2">
              <input
                type="radio"
                name={fields.mailLanguage.name}
                value={value}
                defaultChecked={settings.mailLanguage === value}
                className="radio radio-primary"
              />
              <span lang={value === "no" ? "nb" : "en"}>{t(`emailSettings.language.${value}`)}</span>
            </label>
          ))}
        </div>
        <p id={languageHint} className="mt-1 text-xs text-base-content/70">
          {t("emailSettings.language.hint")}
        </p>
        <FieldErrors id={fields.mailLanguage.errorId} errors={fields.mailLanguage.errors} />
      </fieldset>
      <div className="sm:text-right">
        <button type="submit" className="btn btn-primary w-full sm:w-auto" disabled={busy}>
          {busy ? t("emailSettings.saving") : t("emailSettings.save")}
        </button>
      </div>
    </Form>
  );
}
