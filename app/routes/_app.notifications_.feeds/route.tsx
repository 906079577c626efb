import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { ConfirmStep } from "~/components/ui/ConfirmStep";
import { FormAlert } from "~/components/ui/form";
import { GeneralErrorBoundary } from "~/components/ui/GeneralErrorBoundary";
import { titleMeta } from "~/components/ui/meta";
import { requireUser } from "~/http/auth.server";
import { refuseForm, refuseFormFor } from "~/http/forms.server";
import { redirectWithNotice } from "~/http/notice.server";
import { parseId, readForm } from "~/http/parse.server";
import i18nServer from "~/i18n.server";
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
import { addSchema, feedSchema, FEEDS_INTENT, PATH, type Translate } from "./news-feeds-schema";
import { AddFeedForm, errorText, FeedList } from "./news-feeds-parts";

export const meta = titleMeta;

/** The translation namespaces this screen renders besides the root's (the browser loads only these). */
export const handle = { i18n: ["newsFeeds"] };

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
