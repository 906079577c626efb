import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form, Link, useActionData, useNavigation } from "@remix-run/react";
import { FieldErrors } from "~/components/ui/form";
import { formatDateTime } from "~/models/shared/format";
import { type NewsFeedListItem } from "~/models/notifications/news-feeds.server";
import { useTranslation } from "~/translations";
import type { action } from "./route";
import { addSchema, FEEDS_INTENT, PATH, type Translate } from "./news-feeds-schema";

/** The news-feed screen's parts: the feed list with its row actions, the add form, the last error in words. */

export function errorText(t: Translate, error: NewsFeedListItem["lastError"]): string {
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

export function StatusBadge({ feed }: { feed: NewsFeedListItem }) {
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

export function FeedList({ feeds }: { feeds: NewsFeedListItem[] }) {
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

export function AddFeedForm() {
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
