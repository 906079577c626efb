import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { titleMeta } from "~/components/ui/meta";
import { pageTitle } from "~/models/page-title.server";
import { AuthCard, FormAlert, TextField } from "~/components/ui/form";
import i18nServer from "~/i18n.server";
import type { Language } from "~/i18n";
import { signupSchema } from "~/models/auth-schemas";
import { redirectSignedIn, startSession } from "~/models/session.server";
import { EmailTakenError, signUpWithOrganization } from "~/models/user.server";

export const meta = titleMeta;

export async function loader({ request }: LoaderFunctionArgs) {
  await redirectSignedIn(request);
  return json({ title: await pageTitle(request, "auth:signup.title") });
}

export async function action({ request }: ActionFunctionArgs) {
  const t = await i18nServer.getFixedT(request);
  const submission = parseWithZod(await request.formData(), { schema: signupSchema(t) });
  const hideFields = ["password", "confirmPassword"];
  if (submission.status !== "success") return json({ result: submission.reply({ hideFields }) }, { status: 400 });
  try {
    const userId = await signUpWithOrganization({
      ...submission.value,
      language: (await i18nServer.getLocale(request)) as Language,
    });
    return startSession(request, userId, "/overview");
  } catch (error) {
    if (error instanceof EmailTakenError) {
      return json({ result: submission.reply({ fieldErrors: { email: [t("auth:signup.emailTaken")] }, hideFields }) }, { status: 409 });
    }
    throw error;
  }
}

export default function Signup() {
  const { t } = useTranslation("auth");
  const actionData = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const [form, fields] = useForm({
    id: "signup",
    lastResult: actionData?.result,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: signupSchema(t) }),
  });
  return (
    <AuthCard title={t("signup.title")} lead={t("signup.lead")}>
      <Form method="post" {...getFormProps(form)}>
        <FormAlert id={form.errorId} errors={form.errors} />
        <TextField meta={fields.organizationName} label={t("organizationName")} autoComplete="organization" autoFocus />
        <TextField meta={fields.email} label={t("email")} type="email" autoComplete="email" />
        <TextField meta={fields.password} label={t("password")} type="password" autoComplete="new-password" hint={t("passwordHint")} />
        <TextField meta={fields.confirmPassword} label={t("confirmPassword")} type="password" autoComplete="new-password" />
        <button type="submit" className="btn btn-primary w-full" disabled={busy}>
          {t("signup.submit")}
        </button>
      </Form>
      <p className="mt-6 text-sm">
        {t("signup.haveAccount")}{" "}
        <Link to="/login" className="link link-primary">
          {t("signup.signIn")}
        </Link>
      </p>
    </AuthCard>
  );
}
