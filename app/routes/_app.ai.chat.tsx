import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useId } from "react";
import { useTranslation } from "~/translations";
import { fitHistory, MESSAGE_LIMIT } from "~/components/chat/history";
import { GeneralErrorBoundary } from "~/components/ui/GeneralErrorBoundary";
import { titleMeta } from "~/components/ui/meta";
import { requireUser } from "~/http/auth.server";
import { parseId, readForm } from "~/http/parse.server";
import { errorResponse } from "~/http/responses.server";
import {
  addMessage,
  collectAnswer,
  createConversation,
  defaultProviderName,
  findProvider,
  listConversations,
  listMessages,
} from "~/models/conversations.server";
import { renderMarkdown } from "~/models/markdown";
import { pageTitle } from "~/models/page-title.server";

export const meta = titleMeta;

export const handle = { i18n: ["chat"] };

/**
 * /ai/chat (issue 13): the assistant as a full page that works without JavaScript — the conversation (`?c={id}`), the
 * user's conversations as links, and a form. Posting it saves the question, runs the provider to the end, saves the
 * answer and redirects back to the conversation (no streaming here; the floating panel streams).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request, "assistantUse");
  const owner = { userId: user.id, organizationId: user.organizationId };
  const url = new URL(request.url);
  const raw = url.searchParams.get("c");
  const current = raw ? parseId(raw) : null;
  if (raw && current === null) throw errorResponse(400, "c must be a positive whole number");
  const [conversations, messages] = await Promise.all([listConversations(owner), current ? listMessages(owner, current) : null]);
  if (current && !messages) throw errorResponse(404, "No conversation with this id.");
  return json({
    conversations,
    current,
    messages: messages ?? [],
    failed: url.searchParams.get("failed") === "1",
    title: await pageTitle(request, "chat:page.title"),
  });
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request, "assistantUse");
  const owner = { userId: user.id, organizationId: user.organizationId };
  const form = await readForm(request);
  const text = String(form.get("message") ?? "").trim();
  const raw = String(form.get("c") ?? "");
  if (!text) return json({ error: "blank" as const }, { status: 400 });
  if (text.length > MESSAGE_LIMIT) return json({ error: "tooLong" as const }, { status: 400 });
  let id = raw ? parseId(raw) : null;
  if (raw && id === null) throw errorResponse(400, "c must be a positive whole number");
  if (id === null) id = (await createConversation(owner)).id;
  const earlier = await listMessages(owner, id);
  if (!earlier) throw errorResponse(404, "No conversation with this id.");
  await addMessage(owner, id, { text, isAssistant: false });

  const found = await findProvider(defaultProviderName());
  let answer = "";
  if ("provider" in found) {
    try {
      const messages = fitHistory([
        ...earlier.map((m) => ({ role: m.is_assistant ? ("assistant" as const) : ("user" as const), content: m.text })),
        { role: "user", content: text },
      ]);
      answer = await collectAnswer({ provider: found.provider, messages, viewer: { ...owner, language: user.language }, signal: request.signal });
    } catch {
      answer = "";
    }
  }
  if (!answer) return redirect(`/ai/chat?c=${id}&failed=1`);
  await addMessage(owner, id, { text: answer, isAssistant: true });
  return redirect(`/ai/chat?c=${id}#latest`);
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

export default function AiChatScreen() {
  const { conversations, current, messages, failed } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const { t } = useTranslation("chat");
  const ids = useId();
  const busy = navigation.state === "submitting";
  return (
    <div className="flex flex-col gap-4 lg:flex-row">
      <nav aria-labelledby={`${ids}-list`} className="lg:w-64 lg:shrink-0">
        <h2 id={`${ids}-list`} className="mb-2 font-semibold">
          {t("page.conversations")}
        </h2>
        <Link to="/ai/chat" className="btn btn-sm btn-outline mb-2">
          {t("page.new")}
        </Link>
        {conversations.length === 0 ? (
          <p className="text-base-content/70">{t("page.none")}</p>
        ) : (
          <ul className="menu w-full rounded-box bg-base-200 p-1">
            {conversations.map((c) => (
              <li key={c.id}>
                <Link to={`/ai/chat?c=${c.id}`} aria-current={c.id === current ? "page" : undefined} className={c.id === current ? "menu-active" : undefined}>
                  <span className="truncate">{c.title || t("page.untitled", { id: c.id })}</span>
                </Link>
              </li>
            ))}
          </ul>
        )}
      </nav>

      <section aria-labelledby={`${ids}-title`} className="flex min-w-0 flex-1 flex-col gap-3">
        <h1 id={`${ids}-title`} className="text-xl font-semibold">
          {t("title")}
        </h1>
        <div role="log" aria-label={t("messages")} className="flex flex-col gap-3">
          {messages.length === 0 ? <p className="text-base-content/70">{t("emptySignedIn")}</p> : null}
          {messages.map((m, i) =>
            m.is_assistant ? (
              <div key={m.id} id={i === messages.length - 1 ? "latest" : undefined} data-testid="assistant-message" className="max-w-3xl">
                <span className="sr-only">{t("assistant")}:</span>
                <div
                  className="rounded-box bg-base-200 px-3 py-2 break-words [&_a]:link [&_ol]:list-decimal [&_ol]:pl-5 [&_p]:my-1 [&_pre]:overflow-x-auto [&_ul]:list-disc [&_ul]:pl-5"
                  // Inert by construction: app/models/markdown.ts.
                  dangerouslySetInnerHTML={{ __html: renderMarkdown(m.text) }}
                />
              </div>
            ) : (
              <p key={m.id} className="max-w-3xl self-end rounded-box bg-primary px-3 py-2 whitespace-pre-wrap text-primary-content">
                <span className="sr-only">{t("you")}: </span>
                {m.text}
              </p>
            ),
          )}
          {failed ? (
            <p role="alert" className="rounded-box bg-error/10 px-3 py-2 text-error">
              {t("error", { message: t("serverError") })}
            </p>
          ) : null}
        </div>
        <Form method="post" className="flex flex-col gap-2" key={`${current ?? "new"}-${messages.length}`}>
          {current ? <input type="hidden" name="c" value={current} /> : null}
          <label htmlFor={`${ids}-message`} className="font-medium">
            {t("inputLabel")}
          </label>
          <textarea
            id={`${ids}-message`}
            name="message"
            required
            maxLength={MESSAGE_LIMIT}
            rows={3}
            className="textarea textarea-bordered w-full"
            placeholder={t("placeholder")}
          />
          {actionData?.error ? (
            <p role="alert" className="text-error">
              {actionData.error === "tooLong" ? t("page.tooLong", { limit: MESSAGE_LIMIT.toLocaleString("en-GB") }) : t("page.blank")}
            </p>
          ) : null}
          <div>
            <button type="submit" className="btn btn-primary" disabled={busy}>
              {busy ? t("thinking") : t("send")}
            </button>
          </div>
        </Form>
      </section>
    </div>
  );
}
