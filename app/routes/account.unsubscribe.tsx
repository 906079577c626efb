import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "~/translations";
import { AuthCard, DeadLinkCard } from "~/components/ui/form";
import { titleMeta } from "~/components/ui/meta";
import { readForm } from "~/http/parse.server";
import { UNSUBSCRIBE_SETTINGS, type UnsubscribeSetting } from "~/models/notifications/notification-settings";
import { pageTitle } from "~/models/shared/page-title.server";
import { checkUnsubscribeLink } from "~/models/accounts/unsubscribe.server";
import { saveNotificationMailSettings } from "~/models/notifications/notification-mail.server";

export const meta = titleMeta;

export const handle = { i18n: ["account"] };

/**
 * /account/unsubscribe?token=… (decision 040): the one-click link at the end of every mail to a user. Works
 * without being signed in: the signed token names the user and exactly one setting. GET only shows what the button will
 * do (mail scanners follow links); the POST turns that one setting off and redirects to the confirmation. A bad or
 * expired token is a page saying so, never an error.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const title = await pageTitle(request, "account:unsubscribe.title");
  const done = url.searchParams.get("done");
  if (done && (UNSUBSCRIBE_SETTINGS as readonly string[]).includes(done)) return json({ title, state: "done" as const, setting: done as UnsubscribeSetting });
  const token = url.searchParams.get("token") ?? "";
  const result = await checkUnsubscribeLink(token);
  if (!result.ok) return json({ title, state: result.reason }, { status: result.reason === "expired" ? 410 : 400 });
  return json({ title, state: "confirm" as const, setting: result.setting, email: result.email, token });
}

export async function action({ request }: ActionFunctionArgs) {
  const form = await readForm(request);
  const result = await checkUnsubscribeLink(form.get("token"));
  const title = await pageTitle(request, "account:unsubscribe.title");
  if (!result.ok) return json({ title, state: result.reason }, { status: result.reason === "expired" ? 410 : 400 });
  const off = {
    digest: { digest: "off" as const },
    immediate: { immediate: false },
    taskReminders: { taskReminders: false },
    surveyReminders: { surveyReminders: false },
  };
  await saveNotificationMailSettings(result.userId, off[result.setting]);
  return redirect(`/account/unsubscribe?done=${result.setting}`);
}

export default function Unsubscribe() {
  const data = useLoaderData<typeof loader>();
  const { t } = useTranslation("account");
  const busy = useNavigation().state === "submitting";
  if (data.state === "invalid" || data.state === "expired") {
    return (
      <DeadLinkCard title={t("unsubscribe.title")} message={t(`unsubscribe.${data.state}`)} to="/account/email-settings" action={t("unsubscribe.toSettings")} />
    );
  }
  if (data.state === "done") {
    return (
      <AuthCard title={t("unsubscribe.doneTitle")}>
        <p role="status" className="alert alert-success text-sm">
          {t(`unsubscribe.done.${data.setting}`)}
        </p>
        <a href="/account/email-settings" className="btn btn-ghost mt-4">
          {t("unsubscribe.toSettings")}
        </a>
      </AuthCard>
    );
  }
  if (data.state !== "confirm") {
    return (
      <DeadLinkCard title={t("unsubscribe.title")} message={t(`unsubscribe.${data.state}`)} to="/account/email-settings" action={t("unsubscribe.toSettings")} />
    );
  }
  return (
    <AuthCard title={t("unsubscribe.title")} lead={data.email}>
      <p className="text-sm">{t(`unsubscribe.confirm.${data.setting}`)}</p>
      <Form method="post" className="mt-6">
        <input type="hidden" name="token" value={data.token} />
        <button type="submit" className="btn btn-primary w-full" disabled={busy}>
          {t("unsubscribe.submit")}
        </button>
      </Form>
    </AuthCard>
  );
}
