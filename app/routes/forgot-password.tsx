import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useNavigation } from "@remix-run/react";
import { useTranslation } from "~/translations";
import { useServerForm } from "~/components/ui/server-form";
import { AuthCard, FormAlert, TextField } from "~/components/ui/form";
import { titleMeta } from "~/components/ui/meta";
import { publicOrigin, requestSource } from "~/http/request-source.server";
import { refuseForm } from "~/http/forms.server";
import i18nServer from "~/i18n.server";
import { forgotPasswordSchema } from "~/models/accounts/auth-schemas";
import { pageTitle } from "~/models/shared/page-title.server";
import { redirectSignedIn } from "~/http/session.server";
import { readForm } from "~/http/parse.server";
import { requestPasswordReset } from "~/models/accounts/password-reset-request.server";

export const meta = titleMeta;

/** The translation namespaces this screen renders besides the root's (the browser loads only these). */
export const handle = { i18n: ["auth"] };

export async function loader({ request }: LoaderFunctionArgs) {
  await redirectSignedIn(request);
  return json({ title: await pageTitle(request, "auth:forgot.title") });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const t = await i18nServer.getFixedT(request);
  const submission = parseWithZod(await readForm(request), { schema: forgotPasswordSchema(t) });
  if (submission.status !== "success") return refuseForm(submission);
  const { email } = submission.value;
  const source = requestSource(request, context as { clientAddress?: string | null });
  // The mail is a job, in the account's language whatever the page's language is.
  const outcome = await requestPasswordReset({ email, origin: publicOrigin(), source });
  if (outcome.limited) return refuseForm(submission, { formErrors: [t("auth:forgot.tooMany", { minutes: outcome.minutes })], status: 429 });
  // Same answer whether or not the account exists, so the form reveals no accounts.
  return json({ result: submission.reply({ resetForm: true }), sentTo: email });
}

export default function ForgotPassword() {
  const { t } = useTranslation("auth");
  const actionData = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const [form, fields] = useServerForm("forgot-password", actionData, ["email"]);
  return (
    <AuthCard title={t("forgot.title")} lead={t("forgot.lead")}>
      {actionData && "sentTo" in actionData && actionData.sentTo ? (
        <div role="status" className="alert alert-success mb-4 text-sm">
          {t("forgot.sent", { email: actionData.sentTo })}
        </div>
      ) : null}
      <Form method="post" id={form.id} noValidate>
        <FormAlert id={form.errorId} errors={form.errors} />
        <TextField meta={fields.email} label={t("email")} type="email" autoComplete="email" autoFocus />
        <button type="submit" className="btn btn-primary w-full" disabled={busy}>
          {t("forgot.submit")}
        </button>
      </Form>
      <Link to="/login" className="link mt-6 inline-block text-sm">
        {t("forgot.back")}
      </Link>
    </AuthCard>
  );
}
