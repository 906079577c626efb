import { Link } from "@remix-run/react";
import { useTranslation } from "~/translations";

export function SkipLink() {
  const { t } = useTranslation();
  return (
    <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:btn focus:btn-sm">
      {t("skipToContent")}
    </a>
  );
}

/**
 * A notice's text in parts: plain text, and links written `[label](/path)` in the translation (a path inside the
 * app only; anything else stays text).
 */
export function noticeParts(text: string): ({ text: string } | { label: string; href: string })[] {
  const parts: ({ text: string } | { label: string; href: string })[] = [];
  const pattern = /\[([^\]]+)\]\((\/(?!\/)[^)\s]*)\)/g;
  let at = 0;
  for (const match of text.matchAll(pattern)) {
    if (match.index > at) parts.push({ text: text.slice(at, match.index) });
    parts.push({ label: match[1], href: match[2] });
    at = match.index + match[0].length;
  }
  if (at < text.length) parts.push({ text: text.slice(at) });
  return parts;
}

/** The notice the root loader read: an i18n key and whether it is a success or a warning. */
export interface ShellNotice {
  key: string;
  tone: "success" | "warning";
}

/** A one-time notice from the flash cookie; its value is an i18n key. Its text may hold a link to a page of the app. */
export function Notice({ notice }: { notice: ShellNotice | null }) {
  const { t } = useTranslation();
  if (!notice) return null;
  return (
    <div role="status" className={`alert ${notice.tone === "warning" ? "alert-warning" : "alert-success"} mx-auto mb-4 max-w-3xl`}>
      <span>
        {noticeParts(t(notice.key)).map((part, index) =>
          "href" in part ? (
            <Link key={index} to={part.href} className="link">
              {part.label}
            </Link>
          ) : (
            part.text
          ),
        )}
      </span>
    </div>
  );
}
