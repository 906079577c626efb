import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { ChatConversation } from "~/components/chat/ChatConversation";
import { ConversationList } from "~/components/chat/ConversationList";
import { GeneralErrorBoundary } from "~/components/ui/GeneralErrorBoundary";
import { titleMeta } from "~/components/ui/meta";
import { requireUser } from "~/http/auth.server";
import { parseId, readForm } from "~/http/parse.server";
import { askOnPage } from "~/http/page-question.server";
import { errorResponse } from "~/http/responses.server";
import { listConversations, listMessages } from "~/models/assistant/conversations.server";
import { documentChoices } from "~/models/files/documents.server";
import { pageTitle } from "~/models/shared/page-title.server";

export const meta = titleMeta;

export const handle = { i18n: ["chat"] };

/**
 * /ai/chat: the assistant as a full page that works without JavaScript — the conversation (`?c={id}`), the
 * user's conversations as links, and a form. Posting it saves the question, runs the provider to the end, saves the
 * answer and redirects back to the conversation (no streaming here; the floating panel streams). The form may attach one
 * of the user's documents (`fileUploadId`; `?attach={fileId}` chooses it beforehand), which the assistant reads and cites.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request, "assistantUse");
  const owner = { userId: user.id, organizationId: user.organizationId };
  const url = new URL(request.url);
  const raw = url.searchParams.get("c");
  const current = raw ? parseId(raw) : null;
  if (raw && current === null) throw errorResponse(400, "c must be a positive whole number");
  const rawAttach = url.searchParams.get("attach");
  const attach = rawAttach ? parseId(rawAttach) : null;
  if (rawAttach && attach === null) throw errorResponse(400, "attach must be a positive whole number");
  const [conversations, messages, documents] = await Promise.all([
    listConversations(owner),
    current ? listMessages(owner, current) : null,
    documentChoices(owner),
  ]);
  if (current && !messages) throw errorResponse(404, "No conversation with this id.");
  // `?attach=` preselects one of the user's documents (the document page's "Ask the assistant"); anyone else's is a 404.
  if (attach !== null && !documents.some((d) => d.id === attach)) throw errorResponse(404, "No document with this id.");
  return json({
    conversations,
    current,
    messages: messages ?? [],
    documents,
    attach,
    failed: url.searchParams.get("failed") === "1",
    title: await pageTitle(request, "chat:page.title"),
  });
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request, "assistantUse");
  const result = await askOnPage(await readForm(request), user, request.signal);
  if ("error" in result) return json({ error: result.error }, { status: 400 });
  return redirect(result.failed ? `/ai/chat?c=${result.conversationId}&failed=1` : `/ai/chat?c=${result.conversationId}#latest`);
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

export default function AiChatScreen() {
  const { conversations, current, messages, failed, documents, attach } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <div className="flex flex-col gap-4 lg:flex-row">
      <ConversationList base="/ai/chat" conversations={conversations} current={current} />
      <ChatConversation current={current} messages={messages} failed={failed} error={actionData?.error} documents={documents} attach={attach} />
    </div>
  );
}
