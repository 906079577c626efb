import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { ChatConversation } from "~/components/chat/ChatConversation";
import { ConversationList } from "~/components/chat/ConversationList";
import { TITLE_LIMIT } from "~/components/chat/history";
import { ActionForm, FieldError } from "~/components/ui/ActionForm";
import { ConfirmStep } from "~/components/ui/ConfirmStep";
import { GeneralErrorBoundary } from "~/components/ui/GeneralErrorBoundary";
import { titleMeta } from "~/components/ui/meta";
import { requireUser } from "~/http/auth.server";
import { refuseForm } from "~/http/forms.server";
import { redirectWithNotice } from "~/http/notice.server";
import { parseId, readForm } from "~/http/parse.server";
import { safeRedirect } from "~/http/redirect.server";
import { askOnPage } from "~/http/page-question.server";
import { errorResponse } from "~/http/responses.server";
import i18nServer from "~/i18n.server";
import { deleteConversation, getConversation, listConversations, listMessages, renameConversation } from "~/models/assistant/conversations.server";
import { pageTitle } from "~/models/shared/page-title.server";
import { useTranslation } from "~/translations";
import { isSingleLine } from "~/models/shared/single-line";

export const meta = titleMeta;

export const handle = { i18n: ["chat"] };

const BASE = "/ai/chat-v2";

/**
 * /ai/chat-v2: the chat of /ai/chat with the conversation list beside it, where the user renames and deletes
 * conversations. `?c={id}` opens one, `?delete={id}` is the confirmation step of a delete. Works without JavaScript.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request, "assistantUse");
  const owner = { userId: user.id, organizationId: user.organizationId };
  const url = new URL(request.url);
  const raw = url.searchParams.get("c");
  const current = raw ? parseId(raw) : null;
  if (raw && current === null) throw errorResponse(400, "c must be a positive whole number");
  const rawDelete = url.searchParams.get("delete");
  const deleteId = rawDelete ? parseId(rawDelete) : null;
  const [conversations, messages, toDelete] = await Promise.all([
    listConversations(owner),
    current ? listMessages(owner, current) : null,
    deleteId ? getConversation(owner, deleteId) : null,
  ]);
  if (current && !messages) throw errorResponse(404, "No conversation with this id.");
  if (rawDelete && !toDelete) throw errorResponse(404, "No conversation with this id.");
  return json({
    conversations,
    current,
    messages: messages ?? [],
    toDelete,
    failed: url.searchParams.get("failed") === "1",
    title: await pageTitle(request, "chat:v2.title"),
  });
}

type Translate = (key: string, options?: Record<string, unknown>) => string;

const idField = (t: Translate) =>
  z.string({ error: t("chat:page.notFound") }).transform((value, ctx) => {
    const id = parseId(value);
    if (id === null) ctx.addIssue({ code: "custom", message: t("chat:page.notFound") });
    return id ?? 0;
  });

const renameSchema = (t: Translate) =>
  z.object({
    intent: z.literal("rename"),
    id: idField(t),
    title: z
      .string({ error: t("chat:v2.titleRequired") })
      .trim()
      .min(1, { error: t("chat:v2.titleRequired") })
      .max(TITLE_LIMIT, { error: t("chat:v2.titleTooLong", { limit: TITLE_LIMIT }) })
      .refine(isSingleLine, t("common:errors.singleLine")),
    redirectTo: z.string().optional(),
  });

const deleteSchema = (t: Translate) => z.object({ intent: z.literal("delete"), id: idField(t), redirectTo: z.string().optional() });

/** Drops `?delete=` so the page after a delete does not ask again, and `?c=` when it named the deleted conversation. */
function afterDelete(path: string, id: number): string {
  const url = new URL(path, "http://local");
  url.searchParams.delete("delete");
  if (url.searchParams.get("c") === String(id)) url.searchParams.delete("c");
  return url.pathname + url.search;
}

/**
 * `rename` and `delete` (Conform replies; 400 for refused input, 404 for anyone else's conversation, nothing changed) and
 * `ask` (the chat's form, as on /ai/chat). A plain post carries `redirectTo` and is redirected back with a notice.
 */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request, "assistantUse");
  const owner = { userId: user.id, organizationId: user.organizationId };
  const t = await i18nServer.getFixedT(request);
  const form = await readForm(request);
  const plainPost = form.has("redirectTo");
  const intent = form.get("intent");
  switch (intent) {
    case "rename": {
      const submission = parseWithZod(form, { schema: renameSchema(t) });
      if (submission.status !== "success") return refuseForm(submission, { intent: "rename" });
      if (!(await renameConversation(owner, submission.value.id, submission.value.title)))
        return refuseForm(submission, { intent: "rename", status: 404, formErrors: [t("chat:page.notFound")] });
      if (plainPost) return redirectWithNotice(request, safeRedirect(submission.value.redirectTo, BASE), "chat:v2.renamed");
      return json({ intent: "rename", result: submission.reply() });
    }
    case "delete": {
      const submission = parseWithZod(form, { schema: deleteSchema(t) });
      if (submission.status !== "success") return refuseForm(submission, { intent: "delete" });
      if (!(await deleteConversation(owner, submission.value.id)))
        return refuseForm(submission, { intent: "delete", status: 404, formErrors: [t("chat:page.notFound")] });
      return redirectWithNotice(request, afterDelete(safeRedirect(submission.value.redirectTo, BASE), submission.value.id), "chat:v2.deleted");
    }
    default: {
      const result = await askOnPage(form, user, request.signal);
      if ("error" in result) return json({ intent: "ask", error: result.error }, { status: 400 });
      return redirect(result.failed ? `${BASE}?c=${result.conversationId}&failed=1` : `${BASE}?c=${result.conversationId}#latest`);
    }
  }
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

function RenameForm({ id, title, here }: { id: number; title: string; here: string }) {
  const { t } = useTranslation("chat");
  return (
    <ActionForm intent="rename" fields={{ id }} redirectTo={here} className="flex flex-wrap items-start gap-2">
      {(form) => (
        <>
          <div className="min-w-0">
            <label htmlFor={`rename-${id}`} className="sr-only">
              {t("v2.titleLabel")}
            </label>
            <input
              id={`rename-${id}`}
              name="title"
              defaultValue={form.kept("title") ?? title}
              maxLength={TITLE_LIMIT}
              required
              className="input input-sm input-bordered w-full max-w-56"
              {...form.invalid("title")}
            />
            <FieldError form={form} name="title" />
          </div>
          <button type="submit" className="btn btn-sm" disabled={form.busy}>
            {t("v2.rename")}
          </button>
        </>
      )}
    </ActionForm>
  );
}

export default function AiChatV2Screen() {
  const { conversations, current, messages, failed, toDelete } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("chat");
  const here = current ? `${BASE}?c=${current}` : BASE;
  const open = conversations.find((c) => c.id === current);
  const askError = actionData && "error" in actionData ? actionData.error : null;
  return (
    <div className="flex flex-col gap-4 lg:flex-row">
      <ConversationList
        base={BASE}
        conversations={conversations}
        current={current}
        actions={(c) => (
          <Link
            to={`${here}${current ? "&" : "?"}delete=${c.id}`}
            className="btn btn-ghost btn-xs"
            aria-label={t("v2.deleteNamed", { title: c.title || t("page.untitled", { id: c.id }) })}
            preventScrollReset
          >
            {t("v2.delete")}
          </Link>
        )}
      />
      <ChatConversation
        current={current}
        messages={messages}
        failed={failed}
        error={askError}
        heading={open ? <RenameForm key={open.id} id={open.id} title={open.title ?? ""} here={here} /> : null}
      />
      {toDelete ? (
        <ConfirmStep
          title={t("v2.confirmTitle")}
          text={t("v2.confirmText")}
          detail={toDelete.title || t("page.untitled", { id: toDelete.id })}
          intent="delete"
          fields={{ id: toDelete.id }}
          confirmLabel={t("v2.delete")}
          cancelLabel={t("v2.cancel")}
          cancelHref={here}
          redirectTo={here}
        />
      ) : null}
    </div>
  );
}
