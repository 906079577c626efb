import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { CheckboxField, FormAlert, LabelledControl } from "~/components/ui/form";
import { GeneralErrorBoundary } from "~/components/ui/GeneralErrorBoundary";
import { titleMeta } from "~/components/ui/meta";
import { requireUser } from "~/http/auth.server";
import { redirectWithNotice } from "~/http/notice.server";
import { refuseForm } from "~/http/forms.server";
import { readForm } from "~/http/parse.server";
import i18nServer from "~/i18n.server";
import { pageTitle } from "~/models/shared/page-title.server";
import { formatDayList, MAX_REMINDER_DAY, MAX_REMINDER_STEPS, parseDayList } from "~/models/tasks/reminder-days";
import { reminderSettings, saveReminderSettings } from "~/models/tasks/task-reminders.server";
import { useTranslation } from "~/translations";

export const meta = titleMeta;

export const handle = { i18n: ["campaigns"] };

const PATH = "/supplier_tasks/reminders";

type Translate = (key: string, options?: Record<string, unknown>) => string;

export const INTENT = { save: "save" } as const;

/**
 * /supplier_tasks/reminders: the organisation's reminder settings (supplierTasksManage, like sending and "Remind now"):
 * on or off, and the days before and after the due date on which an open task or survey is reminded.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request, "supplierTasksManage");
  const settings = await reminderSettings({ organizationId: user.organizationId });
  return json({ settings, title: await pageTitle(request, "campaigns:reminders.title") });
}

const days = (t: Translate) =>
  z
    .string()
    .max(200, t("campaigns:reminders.errors.notWholeDays"))
    .optional()
    .transform((value, ctx) => {
      const parsed = parseDayList(value ?? "");
      if ("problem" in parsed) {
        ctx.addIssue({ code: "custom", message: t(`campaigns:reminders.errors.${parsed.problem}`, { max: MAX_REMINDER_DAY, steps: MAX_REMINDER_STEPS }) });
        return [];
      }
      return parsed.days;
    });

const saveSchema = (t: Translate) =>
  z.object({
    intent: z.literal(INTENT.save),
    enabled: z.literal("on").optional(),
    daysBefore: days(t),
    daysAfter: days(t),
  });

async function save(request: Request, formData: FormData, organizationId: number, t: Translate) {
  const submission = parseWithZod(formData, { schema: saveSchema(t) });
  if (submission.status !== "success") return refuseForm(submission, { intent: INTENT.save });
  const { enabled, daysBefore, daysAfter } = submission.value;
  await saveReminderSettings({ organizationId, settings: { enabled: enabled === "on", daysBefore, daysAfter } });
  return redirectWithNotice(request, PATH, "campaigns:reminders.saved");
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request, "supplierTasksManage");
  const formData = await readForm(request);
  const t = await i18nServer.getFixedT(request);
  switch (formData.get("intent")) {
    case INTENT.save:
      return save(request, formData, user.organizationId, t);
    default:
      return refuseForm(formData, { intent: null, formErrors: [t("campaigns:errors.invalid")] });
  }
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

export default function RemindersScreen() {
  const { settings } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const { t } = useTranslation("campaigns");
  const lastResult = actionData?.result ?? undefined;
  const [form, fields] = useForm({ id: "reminder-settings", lastResult, shouldValidate: "onSubmit" });
  // What the user sent comes back only with this form's own refusal (not with an unknown intent's).
  const sent = actionData?.intent === INTENT.save ? (lastResult?.initialValue as Record<string, unknown> | undefined) : undefined;
  const kept = (name: string, fallback: string) => (sent ? (typeof sent[name] === "string" ? (sent[name] as string) : "") : fallback);
  const errorsOf = (name: string) => (lastResult?.error?.[name] ?? []).filter(Boolean);
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === INTENT.save;
  const own = lastResult?.error?.[""] ?? [];
  const enabled = sent ? sent.enabled === "on" : settings.enabled;
  const field = (name: "daysBefore" | "daysAfter", meta: (typeof fields)["daysBefore"], value: number[]) => {
    const errors = errorsOf(name);
    return (
      <LabelledControl id={meta.id} label={t(`reminders.${name}`)} hint={t(`reminders.${name}Hint`, { max: MAX_REMINDER_DAY })} errors={errors}>
        {(control) => (
          <input
            {...control}
            name={name}
            type="text"
            inputMode="numeric"
            autoComplete="off"
            maxLength={200}
            defaultValue={kept(name, formatDayList(value))}
            key={`${meta.key}-${kept(name, formatDayList(value))}`}
            className={`input w-full sm:w-60 ${errors.length ? "input-error" : ""}`}
          />
        )}
      </LabelledControl>
    );
  };

  return (
    <section aria-labelledby="reminders-title" className="mx-auto max-w-3xl">
      <h1 id="reminders-title" className="text-2xl font-semibold">
        {t("reminders.heading")}
      </h1>
      <p className="mt-1 max-w-prose text-sm text-base-content/70">{t("reminders.intro")}</p>
      <p role="status" className="mt-3 text-sm">
        {settings.enabled
          ? t("reminders.current", {
              before: settings.daysBefore.length ? formatDayList(settings.daysBefore) : t("reminders.none"),
              after: settings.daysAfter.length ? formatDayList(settings.daysAfter) : t("reminders.none"),
            })
          : t("reminders.currentOff")}
      </p>
      <Form method="post" {...getFormProps(form)} noValidate className="mt-4 flex flex-col gap-4 rounded-box border border-base-300 bg-base-100 p-4">
        <input type="hidden" name="intent" value={INTENT.save} />
        {own.length ? <FormAlert errors={own} /> : null}
        <CheckboxField id="reminders-enabled" name="enabled" label={t("reminders.enabled")} hint={t("reminders.enabledHint")} defaultChecked={enabled} toggle />
        {field("daysBefore", fields.daysBefore, settings.daysBefore)}
        {field("daysAfter", fields.daysAfter, settings.daysAfter)}
        <div>
          <button type="submit" className="btn btn-primary btn-sm" disabled={busy}>
            {busy ? t("reminders.saving") : t("reminders.save")}
          </button>
        </div>
      </Form>
    </section>
  );
}
