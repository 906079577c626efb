import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { useTranslation } from "~/translations";
import { isPlainClick } from "~/components/ui/download";

// The panel, its markdown (marked) and its requests load when it first opens (decision 015, 027): pages carry only this button.
const ChatPanel = lazy(() => import("./ChatPanel").then((m) => ({ default: m.ChatPanel })));

/**
 * The round floating button at bottom right of every signed-in page (shared/spec/01-shell-chat-lei.md §2.6). Without JavaScript it is a link
 * to the full chat page /ai/chat; with JavaScript it opens the panel in place. After the first opening the panel stays
 * mounted (hidden when closed), so a conversation survives closing and opening.
 */
export function ChatLauncher({ provider }: { provider: string }) {
  const { t } = useTranslation("chat");
  const [open, setOpen] = useState(false);
  const [opened, setOpened] = useState(false);
  const buttonRef = useRef<HTMLAnchorElement>(null);
  // Closing the panel gives the focus back to the button that opened it.
  useEffect(() => {
    if (opened && !open) buttonRef.current?.focus();
  }, [open, opened]);
  return (
    <>
      {open ? null : (
        <a
          ref={buttonRef}
          href="/ai/chat"
          aria-label={t("open")}
          title={t("title")}
          className="btn btn-circle btn-primary btn-lg fixed right-4 bottom-4 z-40 shadow-lg print:hidden"
          onClick={(event) => {
            if (!isPlainClick(event)) return;
            event.preventDefault();
            setOpened(true);
            setOpen(true);
          }}
        >
          <svg
            aria-hidden="true"
            viewBox="0 0 24 24"
            width="26"
            height="26"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
            strokeLinecap="round"
            strokeLinejoin="round"
          >
            <path d="M21 12a8 8 0 0 1-11.6 7.1L4 20l1-4.6A8 8 0 1 1 21 12z" />
          </svg>
        </a>
      )}
      {opened ? (
        <Suspense>
          <ChatPanel open={open} provider={provider} onClose={() => setOpen(false)} />
        </Suspense>
      ) : null}
    </>
  );
}
