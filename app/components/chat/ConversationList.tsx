import { Link } from "@remix-run/react";
import { useId } from "react";
import { useTranslation } from "~/translations";

/**
 * The user's conversations as links (`{base}?c={id}`), newest first, and a link to a new one: /ai/chat and /ai/chat-v2.
 * `actions` renders more per conversation (chat-v2: rename and delete).
 */
export function ConversationList({
  base,
  conversations,
  current,
  actions,
}: {
  base: string;
  conversations: Array<{ id: number; title: string | null }>;
  current: number | null;
  actions?: (conversation: { id: number; title: string | null }) => React.ReactNode;
}) {
  const { t } = useTranslation("chat");
  const id = useId();
  return (
    <nav aria-labelledby={`${id}-list`} className="min-w-0 lg:w-64 lg:shrink-0">
      <h2 id={`${id}-list`} className="mb-2 font-semibold">
        {t("page.conversations")}
      </h2>
      <Link to={base} className="btn btn-sm btn-outline mb-2">
        {t("page.new")}
      </Link>
      {conversations.length === 0 ? (
        <p className="text-base-content/70">{t("page.none")}</p>
      ) : (
        <ul className="menu w-full rounded-box bg-base-200 p-1">
          {conversations.map((c) => (
            <li key={c.id} className="flex-row flex-nowrap items-center">
              <Link
                to={`${base}?c=${c.id}`}
                aria-current={c.id === current ? "page" : undefined}
                className={`min-w-0 flex-1 ${c.id === current ? "menu-active" : ""}`}
              >
                <span className="truncate">{c.title || t("page.untitled", { id: c.id })}</span>
              </Link>
              {actions?.(c)}
            </li>
          ))}
        </ul>
      )}
    </nav>
  );
}
