import { useCallback, useEffect, useId, useRef, useState } from "react";
import { renderMarkdown } from "~/models/shared/markdown";
import { useTranslation } from "~/translations";
import { fitHistory, MESSAGE_LIMIT, type HistoryMessage } from "./history";

/** Spec 01 §5, §9: the text area grows to 24 rows of 24 px; the copy tooltip shows for 500 ms. */
const LINE_PX = 24;
const MAX_ROWS = 24;
const COPIED_MS = 500;

interface Message {
  key: number;
  from: "user" | "assistant";
  text: string;
  isStreaming: boolean;
  /** An answer that failed: shown, never sent back to the assistant as history. */
  failed?: boolean;
  /** The document attached to a question (/ai/documents). */
  file?: DocumentChoice | null;
}

interface DocumentChoice {
  id: number;
  fileName: string;
}

interface StoredMessage {
  text: string;
  is_assistant: boolean;
  fileUpload?: DocumentChoice | null;
}

let nextKey = 1;
const message = (from: Message["from"], text: string, extra: Partial<Message> = {}): Message => ({ key: nextKey++, from, text, isStreaming: false, ...extra });

const jsonHeaders = { "Content-Type": "application/json", Accept: "application/json" };

/** The conversations, newest first; a non-OK answer is ignored silently (shared/spec/01-shell-chat-lei.md §8): null. */
async function fetchConversations(): Promise<{ status: number; list: { id: number }[] | null }> {
  try {
    const res = await fetch("/api/conversations", { headers: { Accept: "application/json" } });
    if (!res.ok) return { status: res.status, list: null };
    const body = (await res.json()) as unknown;
    return { status: res.status, list: Array.isArray(body) ? (body as { id: number }[]) : null };
  } catch {
    return { status: 0, list: null };
  }
}

async function fetchMessages(id: number): Promise<StoredMessage[] | null> {
  try {
    const res = await fetch(`/api/conversations/${id}/messages`, { headers: { Accept: "application/json" } });
    if (!res.ok) return null;
    const body = (await res.json()) as unknown;
    return Array.isArray(body) ? (body as StoredMessage[]) : null;
  } catch {
    return null;
  }
}

/** The user's documents that may be attached (their uploads); none when they cannot be read. */
async function fetchDocuments(): Promise<DocumentChoice[]> {
  try {
    const res = await fetch("/api/file-uploads", { headers: { Accept: "application/json" } });
    if (!res.ok) return [];
    const body = (await res.json()) as { data?: unknown };
    return Array.isArray(body.data) ? (body.data as DocumentChoice[]).map((d) => ({ id: d.id, fileName: d.fileName })) : [];
  } catch {
    return [];
  }
}

async function saveMessage(id: number, text: string, isAssistant: boolean, fileUploadId: number | null = null): Promise<void> {
  try {
    await fetch(`/api/conversations/${id}/messages`, {
      method: "POST",
      headers: jsonHeaders,
      body: JSON.stringify({ text, is_assistant: isAssistant, ...(fileUploadId != null ? { fileUploadId } : {}) }),
    });
  } catch {
    // Ignored silently (shared/spec/01-shell-chat-lei.md §8).
  }
}

async function createConversation(): Promise<number | null> {
  try {
    const res = await fetch("/api/conversations", { method: "POST", headers: jsonHeaders, body: "{}" });
    if (!res.ok) return null;
    const body = (await res.json()) as { id?: unknown };
    return typeof body.id === "number" ? body.id : null;
  } catch {
    return null;
  }
}

/** The reason of a refused answer: the JSON error's message, or the text body ("Error from server"). */
async function failureMessage(res: Response): Promise<string> {
  const text = await res.text().catch(() => "");
  try {
    const body = JSON.parse(text) as { message?: unknown };
    if (typeof body.message === "string" && body.message) return body.message;
  } catch {
    // Not JSON: the text itself.
  }
  return text.trim();
}

/**
 * The AI chat panel (shared/spec/01-shell-chat-lei.md §2.6, §4, §5, §8, §9): the message list, the growing text area, Send, new conversation and
 * load latest. A question is saved, answered as a stream re-rendered as markdown while it arrives, and the answer saved.
 */
export function ChatPanel({ open, provider, onClose }: { open: boolean; provider: string; onClose: () => void }) {
  const { t } = useTranslation("chat");
  const ids = useId();
  const [messages, setMessages] = useState<Message[]>([]);
  const [conversationId, setConversationId] = useState<number | null>(null);
  const [input, setInput] = useState("");
  const [busy, setBusy] = useState(false);
  const [signedIn, setSignedIn] = useState(true);
  const [copied, setCopied] = useState<{ x: number; y: number } | null>(null);
  const [documents, setDocuments] = useState<DocumentChoice[]>([]);
  const [attached, setAttached] = useState<DocumentChoice | null>(null);
  const listRef = useRef<HTMLDivElement>(null);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const abortRef = useRef<AbortController | null>(null);
  const stickToBottom = useRef(true);

  const scrollToBottom = useCallback(() => {
    const list = listRef.current;
    if (list) list.scrollTop = list.scrollHeight;
  }, []);

  // The conversation list loads on mount (shared/spec/01-shell-chat-lei.md §4); a visitor (401) gets the login prompt.
  useEffect(() => {
    void fetchConversations().then(({ status }) => {
      if (status === 401) setSignedIn(false);
    });
    return () => abortRef.current?.abort();
  }, []);

  // The documents that may be attached, read each time the panel opens (an upload elsewhere shows up).
  useEffect(() => {
    if (!open || !signedIn) return;
    void fetchDocuments().then(setDocuments);
  }, [open, signedIn]);

  // Opening with messages scrolls to the bottom; the text area takes the focus.
  useEffect(() => {
    if (!open) return;
    stickToBottom.current = true;
    scrollToBottom();
    inputRef.current?.focus();
  }, [open, scrollToBottom]);

  useEffect(() => {
    if (stickToBottom.current) scrollToBottom();
  }, [messages, scrollToBottom]);

  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") onClose();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [open, onClose]);

  // The text area grows with its content up to 24 rows of 24 px (576 px), then scrolls.
  useEffect(() => {
    const area = inputRef.current;
    if (!area) return;
    area.style.height = "auto";
    const borders = area.offsetHeight - area.clientHeight;
    area.style.height = `${Math.min(area.scrollHeight + borders, LINE_PX * MAX_ROWS)}px`;
  }, [input]);

  function startBlank() {
    abortRef.current?.abort();
    setConversationId(null);
    setMessages([]);
    setBusy(false);
  }

  async function loadLatest() {
    const { status, list } = await fetchConversations();
    if (status === 401) return setSignedIn(false);
    if (!list) return;
    if (list.length === 0) {
      window.alert(t("noConversations"));
      return startBlank();
    }
    const latest = list[0]!;
    const stored = await fetchMessages(latest.id);
    if (!stored) return;
    abortRef.current?.abort();
    setBusy(false);
    setConversationId(latest.id);
    stickToBottom.current = true;
    setMessages(stored.map((m) => message(m.is_assistant ? "assistant" : "user", m.text, { file: m.fileUpload ?? null })));
  }

  async function send() {
    const text = input.trim();
    if (!text || busy) return;
    setBusy(true);
    setInput("");
    const file = attached;
    setAttached(null);
    stickToBottom.current = true;
    const history: HistoryMessage[] = fitHistory([
      ...messages.filter((m) => !m.failed && !m.isStreaming).map((m) => ({ role: m.from, content: m.text })),
      { role: "user", content: text },
    ]);
    const placeholder = message("assistant", "", { isStreaming: true });
    setMessages((current) => [...current, message("user", text, { file }), placeholder]);
    const update = (change: Partial<Message>) => setMessages((current) => current.map((m) => (m.key === placeholder.key ? { ...m, ...change } : m)));

    let id = conversationId;
    if (id === null) {
      id = await createConversation();
      if (id !== null) setConversationId(id);
    }
    if (id !== null) await saveMessage(id, text, false, file?.id ?? null);

    const controller = new AbortController();
    abortRef.current = controller;
    let answer = "";
    try {
      const res = await fetch(`/api/clients/${encodeURIComponent(provider)}`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "text/plain" },
        body: JSON.stringify({ messages: history, conversationId: id, ...(file ? { fileUploadId: file.id } : {}) }),
        signal: controller.signal,
      });
      if (!res.ok || !res.body) throw new Error((await failureMessage(res)) || t("serverError"));
      const reader = res.body.getReader();
      const decoder = new TextDecoder();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        answer += decoder.decode(value, { stream: true });
        update({ text: answer });
      }
      answer += decoder.decode();
      update({ text: answer, isStreaming: false });
      if (id !== null && answer) await saveMessage(id, answer, true);
    } catch (error) {
      if (controller.signal.aborted) return;
      const reason = error instanceof Error && error.message ? t("error", { message: error.message }) : t("unknownError");
      update({ text: reason, isStreaming: false, failed: true });
    } finally {
      if (abortRef.current === controller) {
        abortRef.current = null;
        setBusy(false);
      }
    }
  }

  async function copy(text: string, event: React.MouseEvent) {
    const rect = event.currentTarget.getBoundingClientRect();
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      // The tooltip still shows where the user clicked; a browser without clipboard access copies nothing.
    }
    setCopied({ x: rect.left + rect.width / 2, y: rect.top });
    window.setTimeout(() => setCopied(null), COPIED_MS);
  }

  const titleId = `${ids}-title`;
  const blank = input.trim() === "";
  return (
    <section
      role="dialog"
      aria-modal="false"
      aria-labelledby={titleId}
      hidden={!open}
      className="fixed inset-0 z-50 flex flex-col border-base-300 bg-base-100 shadow-2xl sm:inset-auto sm:right-4 sm:bottom-4 sm:h-[75vh] sm:w-[28rem] sm:rounded-box sm:border"
    >
      <header className="flex items-center gap-1 border-b border-base-300 px-3 py-2">
        <h2 id={titleId} className="flex-1 text-base font-semibold">
          {t("title")}
        </h2>
        {signedIn ? (
          <>
            <button
              type="button"
              className="btn btn-ghost btn-sm btn-square"
              aria-label={t("newConversation")}
              title={t("newConversation")}
              onClick={startBlank}
            >
              <svg aria-hidden="true" viewBox="0 0 24 24" width="18" height="18" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
                <path d="M12 5v14M5 12h14" />
              </svg>
            </button>
            <button
              type="button"
              className="btn btn-ghost btn-sm btn-square"
              aria-label={t("loadLatest")}
              title={t("loadLatest")}
              onClick={() => void loadLatest()}
            >
              <svg
                aria-hidden="true"
                viewBox="0 0 24 24"
                width="18"
                height="18"
                fill="none"
                stroke="currentColor"
                strokeWidth="2"
                strokeLinecap="round"
                strokeLinejoin="round"
              >
                <path d="M20 11a8 8 0 1 0-2.3 5.7M20 4v7h-7" />
              </svg>
            </button>
          </>
        ) : null}
        <button type="button" className="btn btn-ghost btn-sm btn-square" aria-label={t("close")} title={t("close")} onClick={onClose}>
          <svg aria-hidden="true" viewBox="0 0 24 24" width="18" height="18" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
            <path d="M6 6l12 12M18 6L6 18" />
          </svg>
        </button>
      </header>

      <div
        ref={listRef}
        role="log"
        aria-label={t("messages")}
        aria-live="polite"
        className="flex-1 space-y-3 overflow-y-auto px-3 py-3"
        onScroll={(event) => {
          const list = event.currentTarget;
          stickToBottom.current = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
        }}
      >
        {messages.length === 0 ? (
          <div className="flex h-full flex-col items-center justify-center gap-2 text-center text-base-content/70">
            <p className="text-lg font-semibold text-base-content">{t("title")}</p>
            <p>{signedIn ? t("emptySignedIn") : t("emptySignedOut")}</p>
          </div>
        ) : (
          messages.map((m) =>
            m.from === "user" ? (
              <div key={m.key} className="flex justify-end">
                <p className="max-w-[85%] rounded-box bg-primary px-3 py-2 whitespace-pre-wrap text-primary-content">
                  <span className="sr-only">{t("you")}: </span>
                  {m.text}
                  {m.file ? (
                    <>
                      <br />
                      <a href={`/ai/documents/${m.file.id}`} className="link text-sm">
                        {t("attachedFile", { name: m.file.fileName })}
                      </a>
                    </>
                  ) : null}
                </p>
              </div>
            ) : (
              <div key={m.key} className="group relative flex max-w-[92%] flex-col items-start gap-1" data-testid="assistant-message">
                <span className="sr-only">{t("assistant")}:</span>
                {m.isStreaming && !m.text ? (
                  <p className="rounded-box bg-base-200 px-3 py-2 text-base-content/70">{t("thinking")}</p>
                ) : m.failed ? (
                  <p className="rounded-box bg-error/10 px-3 py-2 text-error">{m.text}</p>
                ) : (
                  // renderMarkdown makes the answer inert (app/models/shared/markdown.ts): raw HTML is text, links are safe.
                  <div className="markdown rounded-box bg-base-200 px-3 py-2" dangerouslySetInnerHTML={{ __html: renderMarkdown(m.text) }} />
                )}
                {!m.isStreaming && !m.failed && m.text ? (
                  <button type="button" className="btn btn-ghost btn-xs" aria-label={t("copy")} title={t("copy")} onClick={(event) => void copy(m.text, event)}>
                    <svg aria-hidden="true" viewBox="0 0 24 24" width="14" height="14" fill="none" stroke="currentColor" strokeWidth="2">
                      <rect x="9" y="9" width="11" height="11" rx="2" />
                      <path d="M5 15V5a2 2 0 0 1 2-2h10" />
                    </svg>
                  </button>
                ) : null}
              </div>
            ),
          )
        )}
      </div>

      {signedIn && documents.length ? (
        <div className="flex flex-wrap items-center gap-2 border-t border-base-300 px-3 pt-2">
          {attached ? (
            <span className="badge badge-outline gap-1 py-3" data-testid="attached-document">
              <span className="sr-only">{t("attached")}: </span>
              <span className="max-w-56 truncate">{attached.fileName}</span>
              <button
                type="button"
                className="btn btn-ghost btn-xs btn-circle"
                aria-label={t("removeAttachment", { name: attached.fileName })}
                onClick={() => setAttached(null)}
              >
                <svg aria-hidden="true" viewBox="0 0 24 24" width="12" height="12" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
                  <path d="M6 6l12 12M18 6L6 18" />
                </svg>
              </button>
            </span>
          ) : (
            <>
              <label htmlFor={`${ids}-document`} className="sr-only">
                {t("attachLabel")}
              </label>
              <select
                id={`${ids}-document`}
                className="select select-bordered select-sm max-w-full"
                value=""
                onChange={(event) => setAttached(documents.find((d) => String(d.id) === event.target.value) ?? null)}
              >
                <option value="">{t("attachLabel")}</option>
                {documents.map((d) => (
                  <option key={d.id} value={d.id}>
                    {d.fileName}
                  </option>
                ))}
              </select>
            </>
          )}
        </div>
      ) : null}

      <form
        className="flex items-end gap-2 border-t border-base-300 p-3"
        onSubmit={(event) => {
          event.preventDefault();
          void send();
        }}
      >
        <label htmlFor={`${ids}-input`} className="sr-only">
          {t("inputLabel")}
        </label>
        <textarea
          id={`${ids}-input`}
          ref={inputRef}
          rows={1}
          maxLength={MESSAGE_LIMIT}
          value={input}
          placeholder={t("placeholder")}
          className="textarea textarea-bordered min-h-0 flex-1 resize-none overflow-y-auto py-0 text-base leading-6"
          style={{ lineHeight: `${LINE_PX}px`, maxHeight: LINE_PX * MAX_ROWS }}
          onChange={(event) => setInput(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
              event.preventDefault();
              void send();
            }
          }}
        />
        <button type="submit" className="btn btn-primary" disabled={busy || blank}>
          {t("send")}
        </button>
      </form>

      {copied ? (
        <span
          role="status"
          className="pointer-events-none fixed z-[60] -translate-x-1/2 -translate-y-full rounded bg-neutral px-2 py-1 text-xs text-neutral-content"
          style={{ left: copied.x, top: copied.y - 4 }}
        >
          {t("copied")}
        </span>
      ) : null}
    </section>
  );
}
