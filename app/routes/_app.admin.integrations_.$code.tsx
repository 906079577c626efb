import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { ActionForm, FieldError } from "~/components/ui/ActionForm";
import { GeneralErrorBoundary } from "~/components/ui/GeneralErrorBoundary";
import { titleMeta } from "~/components/ui/meta";
import { requireUser } from "~/http/auth.server";
import { refuseForm, refuseFormFor } from "~/http/forms.server";
import { redirectWithNotice } from "~/http/notice.server";
import { readForm } from "~/http/parse.server";
import { errorResponse } from "~/http/responses.server";
import { requestSource } from "~/http/request-source.server";
import i18nServer from "~/i18n.server";
import { formatDateTime } from "~/models/shared/format";
import {
  canStoreSettings,
  clearRuntimeSetting,
  integration,
  setRuntimeSetting,
  SETTING_REFUSALS,
  testIntegration,
  type IntegrationCode,
} from "~/models/admin/integrations.server";
import { isRefusalOf } from "~/models/shared/refusal";
import { pageTitle } from "~/models/shared/page-title.server";
import { useTranslation } from "~/translations";

export const meta = titleMeta;
export const handle = { i18n: ["integrations"] };

type Translate = (key: string, options?: Record<string, unknown>) => string;

const INTENT = { test: "test", set: "set", clear: "clear" } as const;
const INTENTS = Object.values(INTENT);

/** Setting values are never sent back to the page, not even after a refusal: what a refusal keeps leaves them out. */
function withoutValues(formData: FormData): FormData {
  const kept = new FormData();
  for (const [name, value] of formData.entries()) if (name !== "value") kept.append(name, value);
  return kept;
}

const schema = (t: Translate, code: IntegrationCode) =>
  z.discriminatedUnion("intent", [
    z.object({
      intent: z.literal(INTENT.test),
      query: (code === "registry"
        ? z
            .string()
            .trim()
            .regex(/^\d{9}$/, t("integrations:errors.orgNumber"))
        : z
            .string()
            .trim()
            .max(100, t("integrations:errors.tooLong", { max: 100 }))
      ).optional(),
      email: z.email(t("integrations:errors.email")).max(200).optional(),
    }),
    z.object({
      intent: z.literal(INTENT.set),
      name: z.string().max(100),
      value: z
        .string({ error: t("integrations:errors.valueRequired") })
        .min(1, t("integrations:errors.valueRequired"))
        .max(2000, t("integrations:errors.tooLong", { max: 2000 })),
    }),
    z.object({ intent: z.literal(INTENT.clear), name: z.string().max(100) }),
  ]);

async function requireIntegration(request: Request, code: string | undefined) {
  const user = await requireUser(request, "admin");
  const item = code ? await integration(code) : null;
  if (!item) throw errorResponse(404, "There is no such integration");
  return { user, item };
}

/**
 * /admin/integrations/{code} (decision 043): one outside service — its provider and settings (secrets masked),
 * last success and error, the last test; "Test connection" makes one harmless call through the configured provider
 * with a timeout; runtime settings are stored encrypted and never shown back. The installation's administrator only.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { item } = await requireIntegration(request, params.code);
  return json({
    item,
    canStore: canStoreSettings(),
    title: await pageTitle(request, `integrations:services.${item.code}`),
  });
}

type Change = z.infer<ReturnType<typeof schema>>;
type Item = Awaited<ReturnType<typeof requireIntegration>>["item"];
interface IntegrationPost {
  request: Request;
  item: Item;
  sent: FormData;
  t: Translate;
  actor: { userId: number; source: ReturnType<typeof requestSource> };
  page: string;
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const { user, item } = await requireIntegration(request, params.code);
  const formData = await readForm(request);
  const t = await i18nServer.getFixedT(request);
  const submission = parseWithZod(formData, { schema: schema(t, item.code) });
  const sent = withoutValues(formData);
  if (submission.status !== "success") {
    const intent = formData.get("intent");
    const known = INTENTS.find((i) => i === intent) ?? null;
    if (!known) return refuseForm(sent, { intent: null, formErrors: [t("integrations:errors.invalidRequest")] });
    const fieldErrors = Object.fromEntries(Object.entries(submission.error ?? {}).flatMap(([name, messages]) => (messages ? [[name, messages]] : [])));
    return refuseForm(sent, { intent: known, fieldErrors });
  }
  const post: IntegrationPost = {
    request,
    item,
    sent,
    t,
    actor: { userId: user.id, source: requestSource(request, context) },
    page: `/admin/integrations/${item.code}`,
  };
  const v = submission.value;
  switch (v.intent) {
    case INTENT.test:
      return testConnection(post, v);
    case INTENT.set:
      return setSetting(post, v);
    case INTENT.clear:
      return clearSetting(post, v);
  }
}

/** One harmless call through the configured provider; a query or address only where the service takes one. */
async function testConnection({ request, item, sent, t, actor, page }: IntegrationPost, v: Extract<Change, { intent: "test" }>) {
  if ((v.email && item.code !== "mail") || (v.query && (item.code === "llm" || item.code === "mail")))
    return refuseForm(sent, { intent: INTENT.test, formErrors: [t("integrations:errors.invalidRequest")] });
  const result = await testIntegration(item.code, { query: v.query, email: v.email }, actor);
  return redirectWithNotice(request, page, result.ok ? "integrations:notices.testOk" : "integrations:notices.testFailed");
}

async function setSetting(post: IntegrationPost, v: Extract<Change, { intent: "set" }>) {
  try {
    await setRuntimeSetting(post.item.code, v.name, v.value, post.actor);
  } catch (error) {
    return settingRefused(post, INTENT.set, error);
  }
  return redirectWithNotice(post.request, post.page, "integrations:notices.saved");
}

async function clearSetting(post: IntegrationPost, v: Extract<Change, { intent: "clear" }>) {
  try {
    await clearRuntimeSetting(post.item.code, v.name, post.actor);
  } catch (error) {
    return settingRefused(post, INTENT.clear, error);
  }
  return redirectWithNotice(post.request, post.page, "integrations:notices.cleared");
}

function settingRefused({ sent, t }: IntegrationPost, intent: string, error: unknown) {
  if (!isRefusalOf(error, SETTING_REFUSALS)) throw error;
  const message = error.code === "no-settings-key" ? "integrations:errors.noKey" : "integrations:errors.unknownSetting";
  return refuseFormFor(error, sent, t(message), { intent });
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

export default function IntegrationScreen() {
  const { item, canStore } = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation("integrations");
  const when = (at: string | null) => (at ? formatDateTime(at, i18n.language) : t("never"));
  const page = `/admin/integrations/${item.code}`;
  const runtime = item.settings.filter((s) => s.runtime);
  return (
    <div className="mx-auto max-w-3xl space-y-8">
      <section aria-labelledby="integration-title">
        <p className="text-sm">
          <Link to="/admin/integrations" className="link">
            {t("back")}
          </Link>
        </p>
        <h1 id="integration-title" className="mt-2 text-2xl font-semibold">
          {t(`services.${item.code}`)}
        </h1>
        <dl className="mt-4 grid grid-cols-1 gap-x-4 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
          <dt className="font-medium">{t("provider")}</dt>
          <dd>
            {t(`providers.${item.provider}`)} <span className="text-base-content/70">({item.providerVariable})</span>
          </dd>
          <dt className="font-medium">{t("lastSuccess")}</dt>
          <dd>{when(item.lastSuccessAt)}</dd>
          <dt className="font-medium">{t("lastError")}</dt>
          <dd className="break-words">
            {when(item.lastErrorAt)}
            {item.lastError ? <span className="block text-error">{item.lastError}</span> : null}
          </dd>
        </dl>
      </section>

      <section aria-labelledby="integration-settings">
        <h2 id="integration-settings" className="text-lg font-semibold">
          {t("settings")}
        </h2>
        <dl className="mt-2 grid grid-cols-1 gap-x-4 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
          {item.settings.map((s) => (
            <div key={s.name} className="contents">
              <dt className="font-mono text-xs sm:text-sm">{s.name}</dt>
              <dd className="mb-2 break-all sm:mb-0">
                {s.value !== null ? s.value : s.set ? t("set") : t("notSet")}
                <span className="ml-2 text-base-content/70">({t(`sources.${s.source}`)})</span>
              </dd>
            </div>
          ))}
        </dl>
      </section>

      <section aria-labelledby="integration-test" className="rounded-box border border-base-300 bg-base-100 p-4">
        <h2 id="integration-test" className="text-lg font-semibold">
          {t("test.title")}
        </h2>
        <p className="mt-1 text-sm text-base-content/70">{t(`test.explain.${item.code}`)}</p>
        {item.lastTest ? (
          <p className={`mt-3 text-sm ${item.lastTest.ok ? "text-success" : "text-error"}`} role="status" data-testid="test-result">
            <strong>{item.lastTest.ok ? t("test.ok") : t("test.failed")}</strong> — {item.lastTest.message} ·{" "}
            {t("test.duration", { ms: item.lastTest.ms ?? 0 })} · {when(item.lastTest.at)}
          </p>
        ) : null}
        <ActionForm intent={INTENT.test} redirectTo={page} className="mt-3 space-y-3">
          {(form) => (
            <>
              {item.code === "registry" || item.code === "lei" || item.code === "credit" ? (
                <div>
                  <label htmlFor="test-query" className="mb-1 block text-sm font-medium">
                    {t(`test.query.${item.code}`)}
                  </label>
                  <input id="test-query" name="query" className="input w-full" maxLength={100} defaultValue={form.kept("query")} {...form.invalid("query")} />
                  <FieldError form={form} name="query" />
                </div>
              ) : null}
              {item.code === "mail" ? (
                <div>
                  <label htmlFor="test-email" className="mb-1 block text-sm font-medium">
                    {t("test.email")}
                  </label>
                  <input
                    id="test-email"
                    name="email"
                    type="email"
                    className="input w-full"
                    maxLength={200}
                    defaultValue={form.kept("email")}
                    {...form.invalid("email")}
                  />
                  <FieldError form={form} name="email" />
                </div>
              ) : null}
              <FieldError form={form} name="" />
              <button type="submit" className="btn btn-primary w-full sm:w-auto" disabled={form.busy}>
                {form.busy ? t("test.running") : t("test.submit")}
              </button>
            </>
          )}
        </ActionForm>
      </section>

      {runtime.length > 0 ? (
        <section aria-labelledby="integration-runtime">
          <h2 id="integration-runtime" className="text-lg font-semibold">
            {t("runtime.title")}
          </h2>
          <p className="mt-1 text-sm text-base-content/70">{t("runtime.intro")}</p>
          {!canStore ? (
            <p className="alert alert-warning mt-3 text-sm" role="note">
              {t("runtime.noKey")}
            </p>
          ) : null}
          <ul className="mt-3 space-y-4">
            {runtime.map((s) => (
              <li key={s.name} className="rounded-box border border-base-300 p-3">
                <p className="font-mono text-sm">{s.name}</p>
                <p className="text-sm text-base-content/70">{s.runtimeSetAt ? t("runtime.setAt", { when: when(s.runtimeSetAt) }) : t("runtime.notSet")}</p>
                {canStore ? (
                  <ActionForm
                    intent={INTENT.set}
                    fields={{ name: s.name }}
                    redirectTo={page}
                    resetOnSuccess
                    className="mt-2 flex flex-col gap-2 sm:flex-row sm:items-end"
                  >
                    {(form) => (
                      <>
                        <div className="grow">
                          <label htmlFor={`value-${s.name}`} className="mb-1 block text-sm font-medium">
                            {t("runtime.newValue", { name: s.name })}
                          </label>
                          <input
                            id={`value-${s.name}`}
                            name="value"
                            type={s.secret ? "password" : "text"}
                            autoComplete="off"
                            maxLength={2000}
                            className="input w-full"
                            {...form.invalid("value")}
                          />
                          <FieldError form={form} name="value" />
                          <FieldError form={form} name="" />
                        </div>
                        <button type="submit" className="btn btn-outline" disabled={form.busy}>
                          {t("runtime.save")}
                        </button>
                      </>
                    )}
                  </ActionForm>
                ) : null}
                {s.runtimeSetAt ? (
                  <ActionForm intent={INTENT.clear} fields={{ name: s.name }} redirectTo={page} className="mt-2">
                    {(form) => (
                      <button type="submit" className="btn btn-ghost btn-sm" disabled={form.busy}>
                        {t("runtime.clear")}
                        <span className="sr-only">: {s.name}</span>
                      </button>
                    )}
                  </ActionForm>
                ) : null}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}
