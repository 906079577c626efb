import { publicOrigin } from "~/http/request-source.server";
import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { CheckboxField, FieldErrors, FormAlert, LabelledControl } from "~/components/ui/form";
import { GeneralErrorBoundary } from "~/components/ui/GeneralErrorBoundary";
import { titleMeta } from "~/components/ui/meta";
import { requireUser } from "~/http/auth.server";
import { redirectWithNotice } from "~/http/notice.server";
import { readForm } from "~/http/parse.server";
import { isLanguage } from "~/i18n";
import { refuseForm, refuseFormFor } from "~/http/forms.server";
import i18nServer from "~/i18n.server";
import { resolveSelection, sendableTemplates, type SupplierSelection } from "~/models/tasks/campaign-send.server";
import { CAMPAIGN_REFUSALS, createCampaign, MAX_CAMPAIGN_SUPPLIERS } from "~/models/tasks/campaigns.server";
import { isRefusalOf } from "~/models/shared/refusal";
import { pageTitle } from "~/models/shared/page-title.server";
import { osloDate } from "~/models/tasks/task-states";
import { useTranslation } from "~/translations";
import { campaignRefusalMessage, selectionFields, selectionFrom } from "./send-campaign-rules.server";

export const meta = titleMeta;

export const handle = { i18n: ["campaigns", "taskStates"] };

const MESSAGE_MAX = 2000;
const EMAIL_MAX = 254;

type Translate = (key: string, options?: Record<string, unknown>) => string;

export const INTENT = { send: "send" } as const;

async function load(organizationId: number, language: "en" | "no", selection: SupplierSelection) {
  const [templates, resolved] = await Promise.all([sendableTemplates({ organizationId, language }), resolveSelection({ organizationId, language, selection })]);
  return { templates, resolved };
}

/**
 * /supplier_tasks/send: send a task or a survey to one supplier (from the supplier screen), chosen rows or every row of a
 * filter of /suppliers (the list's own filter, resolved here). The page lists who will get it, with the address for each
 * (the connection's contact e-mail, or another one typed here) and flags those without one. Sending queues a campaign
 * and goes to its page.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request, "supplierTasksManage");
  const url = new URL(request.url);
  const locale = await i18nServer.getLocale(request);
  const language = isLanguage(locale) ? locale : "en";
  const selection = selectionFrom(url.searchParams);
  const { templates, resolved } = await load(user.organizationId, language, selection);
  const chosen = url.searchParams.get("template");
  return json({
    title: await pageTitle(request, "campaigns:send.title"),
    templates,
    template: templates.some((t) => t.value === chosen) ? chosen : null,
    recipients: resolved.recipients,
    unknown: resolved.unknown,
    tooMany: resolved.tooMany,
    total: resolved.total,
    byFilter: selection.kind === "filter",
    fields: selectionFields(
      selection,
      resolved.recipients.map((r) => r.supplierOrganizationId),
    ),
    today: osloDate(new Date()),
    max: MAX_CAMPAIGN_SUPPLIERS,
  });
}

const sendSchema = (t: Translate) =>
  z.object({
    intent: z.literal(INTENT.send),
    template: z.string({ error: t("campaigns:errors.template") }).regex(/^(task|survey):[1-9]\d{0,15}$/, t("campaigns:errors.template")),
    dueDate: z
      .string()
      .optional()
      .refine(
        (v) =>
          v === undefined ||
          (/^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v)),
        {
          message: t("campaigns:errors.dueDate"),
        },
      ),
    message: z
      .string()
      .max(MESSAGE_MAX, t("campaigns:errors.messageTooLong", { max: MESSAGE_MAX }))
      .optional(),
    yearly: z.literal("on").optional(),
  });

const emailSchema = z.email().max(EMAIL_MAX);

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request, "supplierTasksManage");
  const formData = await readForm(request);
  const t = await i18nServer.getFixedT(request);
  switch (formData.get("intent")) {
    case INTENT.send: {
      const submission = parseWithZod(formData, { schema: sendSchema(t) });
      const locale = await i18nServer.getLocale(request);
      const language = isLanguage(locale) ? locale : "en";
      const selection = selectionFrom(formData);
      const resolved = await resolveSelection({ organizationId: user.organizationId, language, selection });
      const fieldErrors: Record<string, string[]> = {};
      const formErrors: string[] = [];
      if (resolved.tooMany) formErrors.push(t("campaigns:errors.tooManySuppliers", { max: MAX_CAMPAIGN_SUPPLIERS, count: resolved.total }));
      // Each supplier's address: the contact e-mail (empty or unchanged field) or another address.
      const contacts = new Map(resolved.recipients.map((r) => [r.supplierOrganizationId, r.contactEmail]));
      const ids = selection.kind === "ids" ? [...new Set(selection.ids)] : resolved.recipients.map((r) => r.supplierOrganizationId);
      const recipients = ids.map((id) => {
        const typed = formData.get(`email_${id}`);
        const value = typeof typed === "string" ? typed.trim() : "";
        const contact = contacts.get(id) ?? null;
        if (!value || value.toLowerCase() === contact?.toLowerCase()) return { supplierOrganizationId: id, email: null };
        if (!emailSchema.safeParse(value).success) fieldErrors[`email_${id}`] = [t("campaigns:errors.email")];
        return { supplierOrganizationId: id, email: value };
      });
      if (submission.status !== "success" || formErrors.length || Object.keys(fieldErrors).length) {
        const own: Record<string, string[]> = {};
        if (submission.status !== "success") for (const [name, errors] of Object.entries(submission.error ?? {})) if (errors?.length) own[name] = errors;
        return refuseForm(submission, { intent: INTENT.send, formErrors: [...(own[""] ?? []), ...formErrors], fieldErrors: { ...own, ...fieldErrors } });
      }
      const [kind, templateId] = submission.value.template.split(":") as ["task" | "survey", string];
      try {
        const { campaignId } = await createCampaign({
          organizationId: user.organizationId,
          userId: user.id,
          kind,
          templateId: Number(templateId),
          message: submission.value.message?.trim() || null,
          dueDate: submission.value.dueDate ?? null,
          recurrence: submission.value.yearly ? "yearly" : null,
          recipients,
          origin: publicOrigin(),
        });
        return redirectWithNotice(request, `/supplier_tasks/campaigns/${campaignId}`, "campaigns:notice.queued");
      } catch (error) {
        if (!isRefusalOf(error, CAMPAIGN_REFUSALS)) throw error;
        return refuseFormFor(error, submission, campaignRefusalMessage(t, error, ids.length), { intent: INTENT.send });
      }
    }
    default:
      return refuseForm(formData, { intent: null, formErrors: [t("campaigns:errors.invalid")] });
  }
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

export default function SendScreen() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const { t } = useTranslation("campaigns");
  const { t: tState } = useTranslation("taskStates");
  const lastResult = actionData?.result ?? undefined;
  const [form, fields] = useForm({ id: "send-campaign", lastResult, shouldValidate: "onSubmit" });
  // What the user sent comes back only with this form's own refusal (not with an unknown intent's).
  const sent = actionData?.intent === INTENT.send ? (lastResult?.initialValue as Record<string, unknown> | undefined) : undefined;
  const kept = (name: string): string | undefined => {
    const value = sent?.[name];
    return typeof value === "string" ? value : undefined;
  };
  const errorsOf = (name: string) => (lastResult?.error?.[name] ?? []).filter(Boolean);
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === INTENT.send;
  const withoutEmail = data.recipients.filter((r) => !r.contactEmail).length;
  const tasks = data.templates.filter((x) => x.kind === "task");
  const surveys = data.templates.filter((x) => x.kind === "survey");
  const templateLabel = (x: (typeof data.templates)[number]) =>
    [x.title, x.system ? t("send.systemTemplate") : null, x.dueInDays ? t("send.dueIn", { count: x.dueInDays }) : null].filter(Boolean).join(" · ");
  const own = lastResult?.error?.[""] ?? [];
  const nothing = data.recipients.length === 0;

  return (
    <section aria-labelledby="send-title" className="mx-auto max-w-4xl">
      <p className="text-sm">
        <Link to="/suppliers" className="link">
          {t("send.back")}
        </Link>
      </p>
      <h1 id="send-title" className="mt-1 text-2xl font-semibold">
        {t("send.heading")}
      </h1>
      <p className="mt-1 max-w-prose text-sm text-base-content/70">{t("send.intro")}</p>
      <p className="mt-1 text-sm">
        <Link to="/supplier_tasks/reminders" className="link">
          {t("send.reminders")}
        </Link>
      </p>

      {data.unknown > 0 ? (
        <div role="status" className="alert alert-warning mt-4 text-sm">
          {t("send.unknown", { count: data.unknown })}
        </div>
      ) : null}
      {data.tooMany ? (
        <div role="alert" className="alert alert-error mt-4 text-sm">
          {t("errors.tooManySuppliers", { max: data.max, count: data.total })}
        </div>
      ) : null}

      {nothing && !data.tooMany ? (
        <div className="mt-4 rounded-box border border-dashed border-base-300 bg-base-100 p-6">
          <p className="font-medium">{t("send.noSuppliers")}</p>
          <p className="mt-2 text-sm text-base-content/70">{t("send.noSuppliersHint")}</p>
          <Link to="/suppliers" className="btn btn-sm btn-primary mt-3">
            {t("send.toSuppliers")}
          </Link>
        </div>
      ) : null}

      {!nothing ? (
        // No action: the post goes to this URL with its query, so a refused post re-renders the same suppliers.
        <Form method="post" {...getFormProps(form)} noValidate className="mt-5 flex flex-col gap-5">
          <input type="hidden" name="intent" value={INTENT.send} />
          {data.fields.map(([name, value], i) => (
            <input key={`${name}-${i}`} type="hidden" name={name} value={value} />
          ))}
          {own.length ? <FormAlert errors={own} /> : null}

          <fieldset className="rounded-box border border-base-300 bg-base-100 p-4">
            <legend className="px-1 text-lg font-semibold">{t("send.what")}</legend>
            <div className="flex flex-col gap-4">
              <LabelledControl id="send-template" label={t("send.template")} errors={errorsOf("template")}>
                {(control) => (
                  <select
                    {...control}
                    name="template"
                    defaultValue={kept("template") ?? data.template ?? ""}
                    key={fields.template.key}
                    className={`select w-full ${errorsOf("template").length ? "select-error" : ""}`}
                  >
                    <option value="">{t("send.chooseTemplate")}</option>
                    {(
                      [
                        ["task", tasks],
                        ["survey", surveys],
                      ] as const
                    ).map(([kind, list]) =>
                      list.length ? (
                        <optgroup key={kind} label={tState(`kind.${kind}`)}>
                          {list.map((x) => (
                            <option key={x.value} value={x.value}>
                              {templateLabel(x)}
                            </option>
                          ))}
                        </optgroup>
                      ) : null,
                    )}
                  </select>
                )}
              </LabelledControl>
              <LabelledControl id="send-due-date" label={t("send.dueDate")} hint={t("send.dueDateHint")} errors={errorsOf("dueDate")}>
                {(control) => (
                  <input
                    {...control}
                    name="dueDate"
                    type="date"
                    min={data.today}
                    defaultValue={kept("dueDate") ?? ""}
                    key={fields.dueDate.key}
                    className={`input w-full sm:w-60 ${errorsOf("dueDate").length ? "input-error" : ""}`}
                  />
                )}
              </LabelledControl>
              <LabelledControl id="send-message" label={t("send.message")} hint={t("send.messageHint")} errors={errorsOf("message")}>
                {(control) => (
                  <textarea
                    {...control}
                    name="message"
                    rows={4}
                    maxLength={MESSAGE_MAX}
                    defaultValue={kept("message") ?? ""}
                    key={fields.message.key}
                    className={`textarea w-full ${errorsOf("message").length ? "textarea-error" : ""}`}
                  />
                )}
              </LabelledControl>
              <CheckboxField id="send-yearly" name="yearly" label={t("send.yearly")} hint={t("send.yearlyHint")} defaultChecked={kept("yearly") === "on"} />
            </div>
          </fieldset>

          <fieldset className="rounded-box border border-base-300 bg-base-100 p-4">
            <legend className="px-1 text-lg font-semibold">{t("send.recipients", { count: data.recipients.length })}</legend>
            <p className="text-sm text-base-content/70">
              {data.byFilter ? t("send.byFilter", { count: data.recipients.length }) : t("send.chosen", { count: data.recipients.length })}{" "}
              {withoutEmail > 0 ? t("send.withoutEmail", { count: withoutEmail }) : null}
            </p>
            <ul className="mt-3 divide-y divide-base-300" aria-label={t("send.recipientsLabel")}>
              {data.recipients.map((r) => {
                const name = `email_${r.supplierOrganizationId}`;
                const errors = errorsOf(name);
                const id = `send-${name}`;
                return (
                  <li key={r.supplierOrganizationId} className="flex flex-col gap-1 py-2 sm:flex-row sm:items-center sm:gap-4">
                    <div className="min-w-0 sm:w-1/2">
                      <label htmlFor={id} className="font-medium break-words">
                        {r.name}
                      </label>
                      {r.orgNumber ? <span className="ml-2 text-xs text-base-content/70 tabular-nums">{r.orgNumber}</span> : null}
                      {r.contactEmail ? null : (
                        <span className="badge badge-warning badge-sm ml-2 whitespace-nowrap" id={`${id}-flag`}>
                          {t("send.noContactEmail")}
                        </span>
                      )}
                    </div>
                    <div className="min-w-0 sm:w-1/2">
                      <input
                        id={id}
                        name={name}
                        type="email"
                        maxLength={EMAIL_MAX}
                        autoComplete="off"
                        defaultValue={kept(name) ?? r.contactEmail ?? ""}
                        key={`${name}-${kept(name) ?? ""}`}
                        placeholder={r.contactEmail ? undefined : t("send.emailPlaceholder")}
                        aria-invalid={errors.length ? true : undefined}
                        aria-describedby={[r.contactEmail ? "" : `${id}-flag`, errors.length ? `${id}-error` : ""].filter(Boolean).join(" ") || undefined}
                        className={`input input-sm w-full ${errors.length ? "input-error" : ""}`}
                      />
                      <FieldErrors id={`${id}-error`} errors={errors} />
                    </div>
                  </li>
                );
              })}
            </ul>
          </fieldset>

          <div className="flex flex-wrap items-center gap-3">
            <button type="submit" className="btn btn-primary" disabled={busy}>
              {busy ? t("send.sending") : t("send.submit", { count: data.recipients.length })}
            </button>
            <Link to="/suppliers" className="link text-sm">
              {t("send.cancel")}
            </Link>
          </div>
        </Form>
      ) : null}
    </section>
  );
}
