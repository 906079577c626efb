import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { ConfirmStep } from "~/components/ui/ConfirmStep";
import { FieldErrors, FormAlert } from "~/components/ui/form";
import { GeneralErrorBoundary } from "~/components/ui/GeneralErrorBoundary";
import { titleMeta } from "~/components/ui/meta";
import { requireUser } from "~/http/auth.server";
import { refuseForm, refuseFormFor } from "~/http/forms.server";
import { redirectWithNotice } from "~/http/notice.server";
import { parseId, readForm } from "~/http/parse.server";
import i18nServer from "~/i18n.server";
import { formatDateTime } from "~/models/shared/format";
import { isRefusal } from "~/models/shared/refusal";
import {
  addNewsFeed,
  checkNewsFeedNow,
  getNewsFeed,
  listNewsFeeds,
  removeNewsFeed,
  setNewsFeedEnabled,
  type NewsFeedListItem,
} from "~/models/notifications/news-feeds.server";
import { pageTitle } from "~/models/shared/page-title.server";
import { useTranslation } from "~/translations";

export const meta = titleMeta;

/** The translation namespaces this screen renders besides the root's (the browser loads only these). */
export const handle = { i18n: ["newsFeeds"] };

const PATH = "/notifications/feeds";

/** The forms of this screen, by the `intent` each posts. */
const FEEDS_INTENT = { add: "add", enable: "enable", disable: "disable", remove: "remove", check: "check" } as const;
const ROW_INTENTS = [FEEDS_INTENT.enable, FEEDS_INTENT.disable, FEEDS_INTENT.remove, FEEDS_INTENT.check] as const;

type Translate = (key: string, options?: Record<string, unknown>) => string;

/** Add a feed: the URL (checked further by the model: scheme, credentials, private addresses) and an optional name. */
const addSchema = (t: Translate) =>
  z.object({
    intent: z.literal(FEEDS_INTENT.add),
    url: z
      .string({ error: t("newsFeeds:errors.required") })
      .trim()
      .min(1, t("newsFeeds:errors.required"))
      .max(2000, t("newsFeeds:errors.too_long")),
    title: z.string().trim().max(200, t("newsFeeds:errors.titleTooLong")).optional(),
  });

/** The row actions: a feed of the organisation, by id. */
const feedSchema = (t: Translate) =>
  z.object({
    intent: z.enum(ROW_INTENTS),
    id: z.string({ error: t("newsFeeds:errors.notFound") }).transform((value, ctx) => {
      const id = parseId(value);
      if (id === null) ctx.addIssue({ code: "custom", message: t("newsFeeds:errors.notFound") });
      return id ?? 0;
    }),
  });

const COUNT = /^\d{1,6}$/;

/** What 'Check now' found, carried in the URL it redirects to (POST → redirect → GET, with and without JavaScript). */
function checkedFrom(url: URL, feeds: NewsFeedListItem[]) {
  const id = parseId(url.searchParams.get("checked"));
  const feed = id ? feeds.find((f) => f.id === id) : undefined;
  if (!feed) return null;
  const count = (name: string) => {
    const value = url.searchParams.get(name) ?? "0";
    return COUNT.test(value) ? Number(value) : 0;
  };
  return {
    feed: feed.title ?? feed.url,
    failed: url.searchParams.get("status") === "failed",
    error: feed.lastError,
    items: count("items"),
    skipped: count("skipped"),
    matches: count("matches"),
    raised: count("raised"),
  };
}

/**
 * /notifications/feeds: the organisation's news feeds for its administrator (permission newsFeedsManage): the list,
 * add, enable/disable, remove (`?remove={id}` is the confirmation step) and 'Check now'.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { organizationId } = await requireUser(request, "newsFeedsManage");
  const url = new URL(request.url);
  const feeds = await listNewsFeeds({ organizationId });
  const removeId = parseId(url.searchParams.get("remove"));
  const confirm = removeId ? ((await getNewsFeed({ organizationId, id: removeId })) ?? null) : null;
  return json({ feeds, confirm, checked: checkedFrom(url, feeds), title: await pageTitle(request, "newsFeeds:title") });
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request, "newsFeedsManage");
  const formData = await readForm(request);
  const t = await i18nServer.getFixedT(request);
  const change: FeedChange = { request, formData, t, user: { id: user.id, organizationId: user.organizationId } };
  const intent = formData.get("intent");
  switch (intent) {
    case FEEDS_INTENT.add:
      return addFeed(change);
    case FEEDS_INTENT.enable:
      return setFeedEnabled(change, true);
    case FEEDS_INTENT.disable:
      return setFeedEnabled(change, false);
    case FEEDS_INTENT.remove:
      return removeFeed(change);
    case FEEDS_INTENT.check:
      return checkFeedNow(change);
    default:
      return refuseForm(formData, { intent: null, formErrors: [t("newsFeeds:errors.invalidRequest")] });
  }
}

/** What every change of this screen works with. */
interface FeedChange {
  request: Request;
  formData: FormData;
  t: Translate;
  user: { id: number; organizationId: number };
}

async function addFeed({ request, formData, t, user }: FeedChange) {
  const intent = FEEDS_INTENT.add;
  const submission = parseWithZod(formData, { schema: addSchema(t) });
  if (submission.status !== "success") return refuseForm(submission, { intent });
  try {
    await addNewsFeed({ organizationId: user.organizationId, userId: user.id, url: submission.value.url, title: submission.value.title || null });
  } catch (error) {
    if (!isRefusal(error)) throw error;
    return refuseFormFor(error, submission, t(`newsFeeds:errors.${error.code}`), { intent });
  }
  return redirectWithNotice(request, PATH, "newsFeeds:notices.added");
}

/**
 * A row's form read: the feed's id, or a refusal to answer with. A malformed id (a tampered form) is a 400 with no
 * message of its own; another organisation's feed, or one that is gone, a 404 saying so.
 */
function readRowForm({ formData, t }: FeedChange, intent: string) {
  const submission = parseWithZod(formData, { schema: feedSchema(t) });
  if (submission.status !== "success") return { refused: refuseForm(submission, { intent }) } as const;
  const gone = (error: unknown) => {
    if (!isRefusal(error)) throw error;
    return refuseFormFor(error, submission, t("newsFeeds:errors.notFound"), { intent });
  };
  return { id: submission.value.id, gone } as const;
}

async function setFeedEnabled(change: FeedChange, enabled: boolean) {
  const row = readRowForm(change, enabled ? FEEDS_INTENT.enable : FEEDS_INTENT.disable);
  if (row.refused) return row.refused;
  try {
    await setNewsFeedEnabled({ organizationId: change.user.organizationId, id: row.id, enabled });
  } catch (error) {
    return row.gone(error);
  }
  return redirectWithNotice(change.request, PATH, enabled ? "newsFeeds:notices.enabled" : "newsFeeds:notices.disabled");
}

async function removeFeed(change: FeedChange) {
  const row = readRowForm(change, FEEDS_INTENT.remove);
  if (row.refused) return row.refused;
  try {
    await removeNewsFeed({ organizationId: change.user.organizationId, id: row.id });
  } catch (error) {
    return row.gone(error);
  }
  return redirectWithNotice(change.request, PATH, "newsFeeds:notices.removed");
}

async function checkFeedNow(change: FeedChange) {
  const row = readRowForm(change, FEEDS_INTENT.check);
  if (row.refused) return row.refused;
  let check;
  try {
    check = await checkNewsFeedNow({ organizationId: change.user.organizationId, id: row.id });
  } catch (error) {
    return row.gone(error);
  }
  const query = new URLSearchParams({
    checked: String(row.id),
    status: check.status,
    items: String(check.items),
    skipped: String(check.skipped),
    matches: String(check.matches),
    raised: String(check.raised),
  });
  return redirect(`${PATH}?${query}`);
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

function errorText(t: Translate, error: NewsFeedListItem["lastError"]): string {
  if (!error) return "";
  const known = [
    "invalid",
    "scheme",
    "credentials",
    "too_long",
    "private_address",
    "unresolvable",
    "network",
    "timeout",
    "http_status",
    "too_large",
    "too_many_redirects",
    "not_a_feed",
    "not_xml",
    "unsupported_charset",
  ];
  return known.includes(error.code) ? t(`errors.${error.code}`, { detail: error.detail ?? "" }) : t("errors.unknown");
}

export default function NewsFeedsScreen() {
  const { feeds, confirm, checked } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("newsFeeds");
  // A refused row action (the feed is gone, the form was tampered with) is shown at the top; the add form shows its own.
  const rowErrors =
    actionData && actionData.intent !== FEEDS_INTENT.add && !(confirm && actionData.intent === FEEDS_INTENT.remove)
      ? Object.values(actionData.result.error ?? {}).flatMap((e) => e ?? [])
      : [];
  return (
    <section aria-labelledby="news-feeds-title" className="mx-auto max-w-4xl">
      <h1 id="news-feeds-title" className="text-2xl font-semibold">
        {t("title")}
      </h1>
      <p className="mt-1 max-w-prose text-sm text-base-content/70">{t("intro")}</p>
      {checked ? (
        <div role="status" className={`alert mt-4 text-sm ${checked.failed ? "alert-warning" : "alert-info"}`}>
          <p>
            {checked.failed
              ? t("checked.failed", { feed: checked.feed, error: errorText(t, checked.error) })
              : t("checked.ok", { feed: checked.feed, items: checked.items, matches: checked.matches, raised: checked.raised })}
            {!checked.failed && checked.skipped > 0 ? ` ${t("checked.skipped", { skipped: checked.skipped })}` : null}
          </p>
        </div>
      ) : null}
      {rowErrors.length ? (
        <div className="mt-4">
          <FormAlert errors={rowErrors} />
        </div>
      ) : null}
      {confirm ? (
        <ConfirmStep
          title={t("confirmTitle")}
          detail={confirm.title ? `${confirm.title} — ${confirm.url}` : confirm.url}
          text={t("confirmRemove")}
          intent={FEEDS_INTENT.remove}
          fields={{ id: confirm.id }}
          confirmLabel={t("remove")}
          busyLabel={t("removing")}
          cancelLabel={t("common:cancel")}
          cancelHref={PATH}
          redirectTo={PATH}
        />
      ) : null}
      <FeedList feeds={feeds} />
      {/* A new key after each added feed: with JavaScript the page is not reloaded, and the form must start empty again. */}
      <AddFeedForm key={feeds.length} />
    </section>
  );
}

function StatusBadge({ feed }: { feed: NewsFeedListItem }) {
  const { t } = useTranslation("newsFeeds");
  const status = feed.lastStatus ?? "never";
  const tone = status === "failed" ? "badge-error" : status === "never" ? "badge-ghost" : "badge-success";
  return (
    <span className="flex flex-wrap gap-1">
      <span className={`badge badge-sm ${tone}`}>{t(`status.${status}`)}</span>
      {feed.isEnabled ? null : <span className="badge badge-sm badge-neutral">{t("status.disabled")}</span>}
    </span>
  );
}

function FeedList({ feeds }: { feeds: NewsFeedListItem[] }) {
  const { t, i18n } = useTranslation("newsFeeds");
  const navigation = useNavigation();
  const pending = (intent: string, id: number) =>
    navigation.state !== "idle" && navigation.formData?.get("intent") === intent && navigation.formData?.get("id") === String(id);
  if (feeds.length === 0) {
    return (
      <div className="mt-6 rounded-box border border-dashed border-base-300 bg-base-100 p-8">
        <p className="font-medium">{t("empty")}</p>
        <p className="mt-2 text-sm text-base-content/70">{t("emptyHint")}</p>
      </div>
    );
  }
  return (
    <ul aria-label={t("listLabel")} className="mt-6 flex flex-col gap-3">
      {feeds.map((feed) => {
        const name = feed.title ?? feed.url;
        return (
          <li key={feed.id} className="rounded-box border border-base-300 bg-base-100 p-4">
            <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
              <div className="min-w-0">
                <h2 className="font-medium">{name}</h2>
                <a href={feed.url} className="link link-hover block break-all text-sm text-base-content/70" rel="noreferrer noopener" target="_blank">
                  {feed.url}
                </a>
                <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
                  <dt className="text-base-content/70">{t("columns.lastRead")}</dt>
                  <dd>{feed.lastReadAt ? formatDateTime(feed.lastReadAt, i18n.language) : t("never")}</dd>
                  <dt className="text-base-content/70">{t("columns.status")}</dt>
                  <dd>
                    <StatusBadge feed={feed} />
                  </dd>
                </dl>
                {feed.lastStatus === "failed" && feed.lastError ? <p className="mt-2 text-sm text-error">{errorText(t, feed.lastError)}</p> : null}
              </div>
              <div className="flex shrink-0 flex-wrap gap-2">
                <Form method="post" action={PATH} preventScrollReset>
                  <input type="hidden" name="intent" value={FEEDS_INTENT.check} />
                  <input type="hidden" name="id" value={feed.id} />
                  <button
                    type="submit"
                    className="btn btn-sm btn-primary"
                    aria-label={t("checkFeed", { feed: name })}
                    disabled={pending(FEEDS_INTENT.check, feed.id)}
                  >
                    {pending(FEEDS_INTENT.check, feed.id) ? t("checking") : t("checkNow")}
                  </button>
                </Form>
                <Form method="post" action={PATH} preventScrollReset>
                  <input type="hidden" name="intent" value={feed.isEnabled ? FEEDS_INTENT.disable : FEEDS_INTENT.enable} />
                  <input type="hidden" name="id" value={feed.id} />
                  <button type="submit" className="btn btn-sm" aria-label={t(feed.isEnabled ? "disableFeed" : "enableFeed", { feed: name })}>
                    {feed.isEnabled ? t("disable") : t("enable")}
                  </button>
                </Form>
                <Link
                  to={`${PATH}?remove=${feed.id}`}
                  className="btn btn-sm btn-ghost text-error"
                  aria-label={t("removeFeed", { feed: name })}
                  preventScrollReset
                >
                  {t("remove")}
                </Link>
              </div>
            </div>
          </li>
        );
      })}
    </ul>
  );
}

function AddFeedForm() {
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === FEEDS_INTENT.add;
  const { t } = useTranslation("newsFeeds");
  const { t: tAll } = useTranslation();
  const [form, fields] = useForm({
    id: "add-news-feed",
    lastResult: actionData?.intent === FEEDS_INTENT.add ? actionData.result : undefined,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: addSchema((k, o) => tAll(k, o)) }),
  });
  return (
    <section aria-labelledby="add-feed-heading" className="mt-8 max-w-2xl rounded-box border border-base-300 bg-base-100 p-5">
      <h2 id="add-feed-heading" className="text-lg font-semibold">
        {t("add.heading")}
      </h2>
      <Form method="post" action={PATH} {...getFormProps(form)} className="mt-4 flex flex-col gap-4">
        <input type="hidden" name="intent" value={FEEDS_INTENT.add} />
        <div>
          <label htmlFor={fields.url.id} className="mb-1 block text-sm font-medium">
            {t("add.urlLabel")}
          </label>
          <input
            {...getInputProps(fields.url, { type: "url" })}
            key={fields.url.key}
            inputMode="url"
            autoComplete="off"
            placeholder="https://"
            aria-describedby={[`${fields.url.id}-hint`, fields.url.errors ? fields.url.errorId : null].filter(Boolean).join(" ")}
            className={`input w-full ${fields.url.errors ? "input-error" : ""}`}
          />
          <p id={`${fields.url.id}-hint`} className="mt-1 text-xs text-base-content/70">
            {t("add.urlHint")}
          </p>
          <FieldErrors id={fields.url.errorId} errors={fields.url.errors} />
        </div>
        <div>
          <label htmlFor={fields.title.id} className="mb-1 block text-sm font-medium">
            {t("add.titleLabel")}
          </label>
          <input
            {...getInputProps(fields.title, { type: "text" })}
            key={fields.title.key}
            aria-describedby={[`${fields.title.id}-hint`, fields.title.errors ? fields.title.errorId : null].filter(Boolean).join(" ")}
            className={`input w-full ${fields.title.errors ? "input-error" : ""}`}
          />
          <p id={`${fields.title.id}-hint`} className="mt-1 text-xs text-base-content/70">
            {t("add.titleHint")}
          </p>
          <FieldErrors id={fields.title.errorId} errors={fields.title.errors} />
        </div>
        <div className="sm:text-right">
          <button type="submit" className="btn btn-primary w-full sm:w-auto" disabled={busy}>
            {busy ? t("add.submitting") : t("add.submit")}
          </button>
        </div>
      </Form>
    </section>
  );
}
