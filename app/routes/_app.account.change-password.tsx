import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/translations";
import { uiLanguage } from "~/i18n";
import { ActionForm, FieldError, type ActionFormState } from "~/components/ui/ActionForm";
import { ConfirmStep } from "~/components/ui/ConfirmStep";
import { GeneralErrorBoundary } from "~/components/ui/GeneralErrorBoundary";
import { titleMeta } from "~/components/ui/meta";
import { requireUser } from "~/http/auth.server";
import { redirectWithNotice } from "~/http/notice.server";
import { refuseForm, refuseFormFor } from "~/http/forms.server";
import { readForm } from "~/http/parse.server";
import { refuseSecretForm } from "~/http/secret-forms.server";
import { publicOrigin, requestSource } from "~/http/request-source.server";
import i18nServer from "~/i18n.server";
import { changePassword, endOtherSessions, endOwnSession, listOwnSessions, PASSWORD_CHANGE_REFUSALS } from "~/models/accounts/account.server";
import { isRefusalOf } from "~/models/shared/refusal";
import { sendPasswordChanged } from "~/models/accounts/account-mail.server";
import { mailLanguageOf } from "~/models/notifications/notification-mail.server";
import { changePasswordSchema } from "~/models/accounts/auth-schemas";
import { formatDateTime } from "~/models/shared/format";
import { pageTitle } from "~/models/shared/page-title.server";
import { describeUserAgent, deviceLabel } from "~/models/accounts/user-agent";

export const meta = titleMeta;

export const handle = { i18n: ["account"] };

const PAGE = "/account/change-password";
/** The password fields are never sent back to the page, not even after a refusal. */
const HIDDEN = ["currentPassword", "password", "confirmPassword"];

/**
 * /account/change-password (shared/spec/01-shell-chat-lei.md §2.2, the user menu; decision 040): the signed-in user changes their
 * password, and sees and ends their other sessions. Only the session's own user: no form names a user, and a session
 * is named by a keyed handle, never its id. `?confirm=others` is the confirmation step of "Sign out everywhere else".
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const sessions = (await listOwnSessions(user)).map((s) => ({ ...s, device: describeUserAgent(s.userAgent), userAgent: undefined }));
  const confirmOthers = new URL(request.url).searchParams.get("confirm") === "others" && sessions.some((s) => !s.current);
  return json({ email: user.email, sessions, confirmOthers, title: await pageTitle(request, "account:changePassword.title") });
}

const INTENT = { changePassword: "change-password", endOthers: "end-others", endSession: "end-session" } as const;

type Translate = Awaited<ReturnType<typeof i18nServer.getFixedT>>;
interface AccountPost {
  request: Request;
  formData: FormData;
  user: Awaited<ReturnType<typeof requireUser>>;
  t: Translate;
  source: ReturnType<typeof requestSource>;
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const formData = await readForm(request);
  const t = await i18nServer.getFixedT(request);
  const post: AccountPost = { request, formData, user, t, source: requestSource(request, context) };
  switch (formData.get("intent")) {
    case INTENT.changePassword:
      return changeOwnPassword(post);
    case INTENT.endOthers:
      return endOthers(post);
    case INTENT.endSession:
      return endSession(post);
    default:
      return refuseForm(formData, { intent: null, formErrors: [t("account:sessions.unknownIntent")] });
  }
}

async function changeOwnPassword({ request, formData, user, t, source }: AccountPost) {
  const intent = INTENT.changePassword;
  const submission = parseWithZod(formData, { schema: changePasswordSchema(t, user.email) });
  if (submission.status !== "success") return refuseSecretForm(submission, formData, HIDDEN, { intent });
  let changedAt: string;
  try {
    ({ changedAt } = await changePassword(user, submission.value.currentPassword, submission.value.password, source));
  } catch (error) {
    if (!isRefusalOf(error, PASSWORD_CHANGE_REFUSALS)) throw error;
    if (error.code === "password-change-slowed") {
      const message = t("account:changePassword.errors.slowed", { count: Number(error.details.minutes) });
      return refuseSecretForm(submission, formData, HIDDEN, { intent, status: 429, formErrors: [message] });
    }
    return refuseSecretForm(submission, formData, HIDDEN, { intent, fieldErrors: { currentPassword: [t("account:changePassword.errors.wrongCurrent")] } });
  }
  await sendPasswordChanged(publicOrigin(), {
    email: user.email,
    language: await mailLanguageOf(user.id),
    at: changedAt,
    ip: source.ip,
    userAgent: source.userAgent,
  });
  return redirectWithNotice(request, PAGE, "account:changePassword.changed");
}

async function endOthers({ request, user, source }: AccountPost) {
  await endOtherSessions(user, source);
  return redirectWithNotice(request, PAGE, "account:sessions.endedOthers");
}

async function endSession({ request, formData, user, t, source }: AccountPost) {
  const handle = formData.get("session");
  try {
    await endOwnSession(user, typeof handle === "string" ? handle : "", source);
  } catch (error) {
    if (!isRefusalOf(error, ["session-not-found"])) throw error;
    return refuseFormFor(error, formData, t("account:sessions.notFound"), { intent: INTENT.endSession });
  }
  return redirectWithNotice(request, PAGE, "account:sessions.endedOne");
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

export default function ChangePasswordScreen() {
  const { t } = useTranslation("account");
  return (
    <div className="mx-auto max-w-2xl space-y-8">
      <section aria-labelledby="change-password-title">
        <h1 id="change-password-title" className="text-2xl font-semibold">
          {t("changePassword.title")}
        </h1>
        <p className="mt-1 text-sm text-base-content/70">{t("changePassword.intro")}</p>
        <ActionForm intent={INTENT.changePassword} redirectTo={PAGE} className="mt-6 rounded-box border border-base-300 bg-base-100 p-5">
          {(form) => (
            <>
              <PasswordInput form={form} name="currentPassword" label={t("changePassword.current")} autoComplete="current-password" />
              <PasswordInput form={form} name="password" label={t("changePassword.new")} autoComplete="new-password" hint={t("changePassword.hint")} />
              <PasswordInput form={form} name="confirmPassword" label={t("changePassword.repeat")} autoComplete="new-password" />
              <div className="sm:text-right">
                <button type="submit" className="btn btn-primary w-full sm:w-auto" disabled={form.busy}>
                  {form.busy ? t("changePassword.saving") : t("changePassword.submit")}
                </button>
              </div>
            </>
          )}
        </ActionForm>
      </section>
      <Sessions />
    </div>
  );
}

function PasswordInput({ form, name, label, autoComplete, hint }: { form: ActionFormState; name: string; label: string; autoComplete: string; hint?: string }) {
  const id = `change-password-${name}`;
  const hintId = hint ? `${id}-hint` : undefined;
  const invalid = form.invalid(name);
  const describedBy = [hintId, invalid["aria-describedby"]].filter(Boolean).join(" ") || undefined;
  return (
    <div className="mb-4">
      <label htmlFor={id} className="mb-1 block text-sm font-medium">
        {label}
      </label>
      <input
        id={id}
        name={name}
        type="password"
        autoComplete={autoComplete}
        maxLength={200}
        aria-invalid={invalid["aria-invalid"]}
        aria-describedby={describedBy}
        className={`input w-full ${invalid["aria-invalid"] ? "input-error" : ""}`}
      />
      {hint ? (
        <p id={hintId} className="mt-1 text-xs text-base-content/70">
          {hint}
        </p>
      ) : null}
      <FieldError form={form} name={name} />
    </div>
  );
}

function Sessions() {
  const { sessions, confirmOthers } = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation("account");
  const lng = uiLanguage(i18n.language);
  const others = sessions.filter((s) => !s.current).length;
  return (
    <section aria-labelledby="sessions-title">
      <h2 id="sessions-title" className="text-xl font-semibold">
        {t("sessions.title")}
      </h2>
      <p className="mt-1 text-sm text-base-content/70">{t("sessions.intro")}</p>
      {confirmOthers ? (
        <ConfirmStep
          title={t("sessions.confirmTitle")}
          text={t("sessions.confirmText", { count: others })}
          intent={INTENT.endOthers}
          confirmLabel={t("sessions.confirmEndOthers")}
          busyLabel={t("sessions.endingOthers")}
          cancelLabel={t("common:cancel")}
          cancelHref={PAGE}
          redirectTo={PAGE}
        />
      ) : null}
      <ul className="mt-4 divide-y divide-base-300 rounded-box border border-base-300 bg-base-100" data-testid="sessions">
        {sessions.map((s) => (
          <li key={s.handle} className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:justify-between" data-testid="session">
            <div className="min-w-0">
              <p className="font-medium">
                {deviceLabel(s.device, t)}
                {s.current ? <span className="badge badge-primary badge-soft ml-2 align-middle">{t("sessions.thisDevice")}</span> : null}
              </p>
              <p className="text-sm text-base-content/70">
                {t("sessions.created", { at: formatDateTime(s.createdAt, lng) })} ·{" "}
                {t("sessions.lastSeen", { at: formatDateTime(s.lastSeenAt ?? s.createdAt, lng) })}
              </p>
            </div>
            {s.current ? null : (
              <ActionForm intent={INTENT.endSession} fields={{ session: s.handle }} redirectTo={PAGE}>
                {(form) => (
                  <button type="submit" className="btn btn-outline btn-sm min-h-11 w-full sm:w-auto" disabled={form.busy}>
                    {t("sessions.endOne")}
                  </button>
                )}
              </ActionForm>
            )}
          </li>
        ))}
      </ul>
      {others > 0 ? (
        <div className="mt-4 sm:text-right">
          <Link to={`${PAGE}?confirm=others`} className="btn btn-warning w-full sm:w-auto" preventScrollReset>
            {t("sessions.endOthers", { count: others })}
          </Link>
        </div>
      ) : (
        <p className="mt-4 text-sm text-base-content/70">{t("sessions.onlyThis")}</p>
      )}
    </section>
  );
}
