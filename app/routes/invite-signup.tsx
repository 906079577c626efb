import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "~/translations";
import { useServerForm } from "~/components/ui/server-form";
import { AuthCard, DeadLinkCard, FormAlert, TextField } from "~/components/ui/form";
import { titleMeta } from "~/components/ui/meta";
import i18nServer from "~/i18n.server";
import type { Language } from "~/i18n";
import { readForm } from "~/http/parse.server";
import { inviteSignupSchema } from "~/models/accounts/auth-schemas";
import { pageTitle } from "~/models/shared/page-title.server";
import { redirectSignedIn, startSession } from "~/http/session.server";
import { acceptInvitation, findOpenInvitation } from "~/models/accounts/users.server";
import { isRefusalOf } from "~/models/shared/refusal";
import { refuseSecretForm } from "~/http/secret-forms.server";

export const meta = titleMeta;

/** The translation namespaces this screen renders besides the root's (the browser loads only these). */
export const handle = { i18n: ["auth"] };

export async function loader({ request }: LoaderFunctionArgs) {
  await redirectSignedIn(request);
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const invitation = token ? await findOpenInvitation(token) : undefined;
  return json({
    title: await pageTitle(request, "auth:invite.title"),
    token,
    invitation: invitation ? { email: invitation.email, organization: invitation.organization_name } : null,
  });
}

export async function action({ request }: ActionFunctionArgs) {
  const t = await i18nServer.getFixedT(request);
  const formData = await readForm(request);
  const submission = parseWithZod(formData, { schema: inviteSignupSchema(t) });
  const hideFields = ["password", "confirmPassword"];
  if (submission.status !== "success") return refuseSecretForm(submission, formData, hideFields);
  try {
    const language = (await i18nServer.getLocale(request)) as Language;
    const userId = await acceptInvitation(submission.value.token, submission.value.password, language);
    // Gone: the link is used or expired.
    if (userId == null) return refuseSecretForm(submission, formData, hideFields, { status: 410, formErrors: [t("auth:invite.invalid")] });
    return startSession(request, userId, "/overview");
  } catch (error) {
    if (isRefusalOf(error, ["email-taken"]))
      return refuseSecretForm(submission, formData, hideFields, { status: 409, formErrors: [t("auth:signup.emailTaken")] });
    throw error;
  }
}

export default function InviteSignup() {
  const { t } = useTranslation("auth");
  const { token, invitation } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const [form, fields] = useServerForm("invite-signup", actionData, ["password", "confirmPassword"]);
  if (!invitation) {
    return (
      <DeadLinkCard
        title={t("invite.title")}
        message={token ? t("invite.invalid") : t("invite.missing")}
        to="/login"
        action={t("forgot.back")}
        primary={false}
      />
    );
  }
  return (
    <AuthCard title={t("invite.title")} lead={t("invite.lead", { organization: invitation.organization, email: invitation.email })}>
      <Form method="post" id={form.id} noValidate>
        <FormAlert id={form.errorId} errors={form.errors} />
        <input type="hidden" name="token" value={token} />
        <TextField meta={fields.password} label={t("password")} type="password" autoComplete="new-password" hint={t("passwordHint")} autoFocus />
        <TextField meta={fields.confirmPassword} label={t("confirmPassword")} type="password" autoComplete="new-password" />
        <button type="submit" className="btn btn-primary w-full" disabled={busy}>
          {t("invite.submit", { organization: invitation.organization })}
        </button>
      </Form>
    </AuthCard>
  );
}
