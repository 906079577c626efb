import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "~/translations";
import { useServerForm } from "~/components/ui/server-form";
import { AuthCard, DeadLinkCard, FormAlert, TextField } from "~/components/ui/form";
import { titleMeta } from "~/components/ui/meta";
import { requestSource } from "~/http/request-source.server";
import { refuseSecretForm } from "~/http/secret-forms.server";
import i18nServer from "~/i18n.server";
import { resetPasswordSchema } from "~/models/accounts/auth-schemas";
import { pageTitle } from "~/models/shared/page-title.server";
import { findOpenPasswordReset, resetPassword } from "~/models/accounts/users.server";
import { readForm } from "~/http/parse.server";
import { redirectWithNotice } from "~/http/notice.server";

export const meta = titleMeta;

/** The translation namespaces this screen renders besides the root's (the browser loads only these). */
export const handle = { i18n: ["auth"] };

export async function loader({ request }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const reset = token ? await findOpenPasswordReset(token) : undefined;
  return json({ title: await pageTitle(request, "auth:reset.title"), token, valid: Boolean(reset), email: reset?.email ?? null });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const t = await i18nServer.getFixedT(request);
  const formData = await readForm(request);
  const submission = parseWithZod(formData, { schema: resetPasswordSchema(t) });
  const hideFields = ["password", "confirmPassword"];
  if (submission.status !== "success") return refuseSecretForm(submission, formData, hideFields);
  const userId = await resetPassword(submission.value.token, submission.value.password, requestSource(request, context));
  // Gone: the link is used or expired.
  if (userId == null) return refuseSecretForm(submission, formData, hideFields, { status: 410, formErrors: [t("auth:reset.invalid")] });
  return redirectWithNotice(request, "/login", "auth:login.passwordChanged");
}

export default function ResetPassword() {
  const { t } = useTranslation("auth");
  const { token, valid, email } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const [form, fields] = useServerForm("reset-password", actionData, ["password", "confirmPassword"]);
  if (!valid) {
    return <DeadLinkCard title={t("reset.title")} message={t("reset.invalid")} to="/forgot-password" action={t("reset.requestNew")} />;
  }
  return (
    <AuthCard title={t("reset.title")} lead={email ?? undefined}>
      <Form method="post" id={form.id} noValidate>
        <FormAlert id={form.errorId} errors={form.errors} />
        <input type="hidden" name="token" value={token} />
        <TextField meta={fields.password} label={t("newPassword")} type="password" autoComplete="new-password" hint={t("passwordHint")} autoFocus />
        <TextField meta={fields.confirmPassword} label={t("confirmPassword")} type="password" autoComplete="new-password" />
        <button type="submit" className="btn btn-primary w-full" disabled={busy}>
          {t("reset.submit")}
        </button>
      </Form>
    </AuthCard>
  );
}
