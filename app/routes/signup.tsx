import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "~/translations";
import { titleMeta } from "~/components/ui/meta";
import { useServerForm } from "~/components/ui/server-form";
import { AuthCard, DeadLinkCard, FormAlert, TextField } from "~/components/ui/form";
import { readForm } from "~/http/parse.server";
import { badRequest } from "~/http/responses.server";
import { publicOrigin } from "~/http/request-source.server";
import { refuseSecretForm } from "~/http/secret-forms.server";
import i18nServer from "~/i18n.server";
import type { Language } from "~/i18n";
import { sendAccountExists, sendSignupConfirmation } from "~/models/accounts/auth-mail.server";
import { signupConfirmSchema, signupSchema } from "~/models/accounts/auth-schemas";
import { pageTitle } from "~/models/shared/page-title.server";
import { redirectSignedIn, startSession } from "~/http/session.server";
import { confirmSignup, findOpenSignupRequest, requestSignup } from "~/models/accounts/users.server";

export const meta = titleMeta;

/** The translation namespaces this screen renders besides the root's (the browser loads only these). */
export const handle = { i18n: ["auth"] };

/**
 * Sign-up in two steps (docs/decisions/011): the form asks for the details
 * and always answers "check your mail"; the mailed link (`/signup?token=`)
 * shows what will be created and a button that creates it. An address that
 * has an account gets a mail saying so instead, so the form never tells
 * whether an email is known.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await redirectSignedIn(request);
  const token = new URL(request.url).searchParams.get("token");
  const pending = token ? await findOpenSignupRequest(token) : undefined;
  return json({
    title: await pageTitle(request, "auth:signup.title"),
    confirm: token ? { token, valid: Boolean(pending), email: pending?.email ?? null, organization: pending?.organization_name ?? null } : null,
  });
}

export async function action({ request }: ActionFunctionArgs) {
  const t = await i18nServer.getFixedT(request);
  const formData = await readForm(request);
  const intent = formData.get("intent");
  switch (intent) {
    case "signup": {
      const submission = parseWithZod(formData, { schema: signupSchema(t) });
      const hideFields = ["password", "confirmPassword"];
      if (submission.status !== "success") return refuseSecretForm(submission, formData, hideFields);
      const { email, password, organizationName } = submission.value;
      const language = (await i18nServer.getLocale(request)) as Language;
      const outcome = await requestSignup({ email, password, organizationName, language });
      const origin = publicOrigin();
      if (outcome.kind === "new") {
        await sendSignupConfirmation(origin, { email: outcome.email, token: outcome.token, organizationName, language });
      } else {
        await sendAccountExists(origin, outcome);
      }
      // The same answer whether or not the address has an account.
      return json({ result: submission.reply({ resetForm: true }), sentTo: outcome.email });
    }
    case "confirm": {
      const parsed = signupConfirmSchema.safeParse({ token: formData.get("token") });
      if (!parsed.success) throw badRequest("token is missing");
      const userId = await confirmSignup(parsed.data.token);
      if (userId == null) return json({ result: null, sentTo: null, invalid: true }, { status: 410 });
      return startSession(request, userId, "/overview");
    }
    default:
      throw badRequest("intent must be 'signup' or 'confirm'");
  }
}

export default function Signup() {
  const { confirm } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  if (confirm) return <ConfirmSignup {...confirm} invalid={Boolean(actionData && "invalid" in actionData)} />;
  return <SignupForm />;
}

function SignupForm() {
  const { t } = useTranslation("auth");
  const actionData = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const [form, fields] = useServerForm("signup", actionData, ["organizationName", "email", "password", "confirmPassword"]);
  const sentTo = actionData && "sentTo" in actionData ? actionData.sentTo : null;
  return (
    <AuthCard title={t("signup.title")} lead={sentTo ? undefined : t("signup.lead")}>
      {sentTo ? (
        <div role="status" className="alert alert-success mb-4 text-sm">
          {t("signup.sent", { email: sentTo })}
        </div>
      ) : null}
      <Form method="post" id={form.id} noValidate>
        <FormAlert id={form.errorId} errors={form.errors} />
        <input type="hidden" name="intent" value="signup" />
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

function ConfirmSignup({
  token,
  valid,
  email,
  organization,
  invalid,
}: {
  token: string;
  valid: boolean;
  email: string | null;
  organization: string | null;
  invalid: boolean;
}) {
  const { t } = useTranslation("auth");
  const busy = useNavigation().state === "submitting";
  if (!valid || invalid) {
    return <DeadLinkCard title={t("signup.confirmTitle")} message={t("signup.confirmInvalid")} to="/signup" action={t("signup.startAgain")} />;
  }
  return (
    <AuthCard title={t("signup.confirmTitle")} lead={t("signup.confirmLead", { organization, email })}>
      <Form method="post">
        <input type="hidden" name="intent" value="confirm" />
        <input type="hidden" name="token" value={token} />
        <button type="submit" className="btn btn-primary w-full" disabled={busy}>
          {t("signup.confirmSubmit", { organization })}
        </button>
      </Form>
    </AuthCard>
  );
}
