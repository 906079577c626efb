import { Form, Link, useNavigation } from "@remix-run/react";
import { useId } from "react";
import { useTranslation } from "~/translations";
import { renderMarkdown } from "~/models/shared/markdown";
import { MESSAGE_LIMIT } from "./history";

export interface ChatConversationMessage {
  id: number;
  text: string;
  is_assistant: boolean;
  /** The document the user attached to the message (/ai/documents). */
  fileUpload?: { id: number; fileName: string } | null;
}

export interface ChatDocumentChoice {
  id: number;
  fileName: string;
}

/**
 * One conversation as a full page: its messages (the answers as inert markdown) and the form that asks the next
 * question — a plain POST that works without JavaScript. /ai/chat and /ai/chat-v2 render the same; each route's action saves
 * the question and the answer (`answerPageQuestion`).
 */
export function ChatConversation({
  current,
  messages,
  failed,
  error,
  heading,
  documents = [],
  attach = null,
}: {
  current: number | null;
  messages: ChatConversationMessage[];
  failed: boolean;
  error?: "blank" | "tooLong" | null;
  /** What sits beside the title (chat-v2: rename and delete). */
  heading?: React.ReactNode;
  /** The user's documents, offered to attach to the question (`fileUploadId`). */
  documents?: ChatDocumentChoice[];
  /** The document chosen beforehand (`?attach=`). */
  attach?: number | null;
}) {
  const navigation = useNavigation();
  const { t } = useTranslation("chat");
  const ids = useId();
  const busy = navigation.state === "submitting" && navigation.formData?.has("message") === true;
  return (
    <section aria-labelledby={`${ids}-title`} className="flex min-w-0 flex-1 flex-col gap-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 id={`${ids}-title`} className="text-xl font-semibold">
          {t("title")}
        </h1>
        {heading}
      </div>
      <div role="log" aria-label={t("messages")} className="flex flex-col gap-3">
        {messages.length === 0 ? <p className="text-base-content/70">{t("emptySignedIn")}</p> : null}
        {messages.map((m, i) =>
          m.is_assistant ? (
            <div key={m.id} id={i === messages.length - 1 ? "latest" : undefined} data-testid="assistant-message" className="max-w-3xl">
              <span className="sr-only">{t("assistant")}:</span>
              <div
                className="markdown rounded-box bg-base-200 px-3 py-2"
                // Inert by construction: app/models/shared/markdown.ts.
                dangerouslySetInnerHTML={{ __html: renderMarkdown(m.text) }}
              />
            </div>
          ) : (
            <p key={m.id} className="max-w-3xl self-end rounded-box bg-primary px-3 py-2 break-words whitespace-pre-wrap text-primary-content">
              <span className="sr-only">{t("you")}: </span>
              {m.text}
              {m.fileUpload ? (
                <>
                  <br />
                  <Link to={`/ai/documents/${m.fileUpload.id}`} className="link text-sm">
                    {t("attachedFile", { name: m.fileUpload.fileName })}
                  </Link>
                </>
              ) : null}
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
        <input type="hidden" name="intent" value="ask" />
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
        {documents.length ? (
          <div className="flex flex-col gap-1">
            <label htmlFor={`${ids}-document`} className="text-sm font-medium">
              {t("attachLabel")}
            </label>
            <select id={`${ids}-document`} name="fileUploadId" defaultValue={attach ?? ""} className="select select-bordered w-full max-w-md">
              <option value="">{t("attachNone")}</option>
              {documents.map((d) => (
                <option key={d.id} value={d.id}>
                  {d.fileName}
                </option>
              ))}
            </select>
          </div>
        ) : null}
        {error ? (
          <p role="alert" className="text-error">
            {error === "tooLong" ? t("page.tooLong", { limit: MESSAGE_LIMIT.toLocaleString("en-GB") }) : t("page.blank")}
          </p>
        ) : null}
        <div>
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {busy ? t("thinking") : t("send")}
          </button>
        </div>
      </Form>
    </section>
  );
}
