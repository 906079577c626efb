import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useNavigation, useSearchParams } from "@remix-run/react";
import { useTranslation } from "~/translations";
import { titleMeta } from "~/components/ui/meta";
import { pageTitle } from "~/models/shared/page-title.server";
import { useServerForm } from "~/components/ui/server-form";
import { AuthCard, FormAlert, TextField } from "~/components/ui/form";
import { publicOrigin } from "~/http/request-source.server";
import i18nServer from "~/i18n.server";
import { refuseSecretForm } from "~/http/secret-forms.server";
import { readForm } from "~/http/parse.server";
import { safeRedirect } from "~/http/redirect.server";
import { sendUnlock } from "~/models/accounts/auth-mail.server";
import { loginSchema } from "~/models/accounts/auth-schemas";
import { login } from "~/models/accounts/login.server";
import { knownUserIds, redirectSignedIn, startSession } from "~/http/session.server";

export const meta = titleMeta;

/** The translation namespaces this screen renders besides the root's (the browser loads only these). */
export const handle = { i18n: ["auth"] };

export async function loader({ request }: LoaderFunctionArgs) {
  await redirectSignedIn(request);
  return json({ title: await pageTitle(request, "auth:login.title") });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const t = await i18nServer.getFixedT(request);
  const formData = await readForm(request);
  const submission = parseWithZod(formData, { schema: loginSchema(t) });
  if (submission.status !== "success") {
    return refuseSecretForm(submission, formData, ["password"]);
  }
  const result = await login(formData, {
    clientAddress: context.clientAddress ?? null,
    knownUserIds: await knownUserIds(request),
    userAgent: request.headers.get("User-Agent"),
  });
  if (!result.ok) {
    if (result.reason === "protected" && result.unlockMail) await sendUnlock(publicOrigin(), result.unlockMail);
    const message =
      result.reason === "rate-limited"
        ? t("auth:login.rateLimited", { count: result.minutes })
        : result.reason === "protected"
          ? t("auth:login.protected")
          : t("auth:login.invalid");
    return refuseSecretForm(submission, formData, ["password"], { status: result.reason === "invalid" ? 401 : 429, formErrors: [message] });
  }
  return startSession(request, result.userId, safeRedirect(submission.value.redirectTo));
}

export default function Login() {
  const { t } = useTranslation("auth");
  const actionData = useActionData<typeof action>();
  const [params] = useSearchParams();
  const unlock = params.get("unlock");
  const busy = useNavigation().state === "submitting";
  const [form, fields] = useServerForm("login", actionData, ["email", "password"]);
  return (
    <AuthCard title={t("login.title")}>
      <Form method="post" id={form.id} noValidate>
        <FormAlert id={form.errorId} errors={form.errors} />
        {unlock ? (
          <div role="status" className="alert alert-info mb-4 text-sm">
            {t("login.unlockHint")}
          </div>
        ) : null}
        <input type="hidden" name="redirectTo" value={params.get("redirectTo") ?? ""} />
        {unlock ? <input type="hidden" name="unlock" value={unlock} /> : null}
        <TextField meta={fields.email} label={t("email")} type="email" autoComplete="email" autoFocus />
        <TextField meta={fields.password} label={t("password")} type="password" autoComplete="current-password" />
        <button type="submit" className="btn btn-primary w-full" disabled={busy}>
          {t("login.submit")}
        </button>
      </Form>
      <div className="mt-6 flex flex-col gap-2 text-sm">
        <Link to="/forgot-password" className="link">
          {t("login.forgot")}
        </Link>
        <p>
          {t("login.noAccount")}{" "}
          <Link to="/signup" className="link link-primary">
            {t("login.signUp")}
          </Link>
        </p>
      </div>
    </AuthCard>
  );
}
