import { Link, useNavigate } from "@remix-run/react";
import { useId, useRef } from "react";
import { useTranslation } from "~/translations";
import { Icon } from "./icons";
import { useModal } from "./useModal";
import { isPlainClick } from "~/components/ui/download";

/** Stacking of layers: a page's dialog (1), a dialog over it (2), a confirmation step over both (3). */
const LAYERS = { 1: "z-50", 2: "z-[60]", 3: "z-[70]" } as const;

/** Width of a dialog or slide-over from the `sm` breakpoint up (below it, the whole screen). */
const SIZES = { md: "sm:max-w-lg", lg: "sm:max-w-2xl", xl: "sm:max-w-3xl" } as const;

/** The page behind an open dialog does not scroll, with or without JavaScript. */
const SCROLL_LOCK = "html:has([data-dialog]){overflow:hidden}";

export interface DialogProps {
  /** The heading that names the dialog for screen readers (aria-labelledby). */
  title: React.ReactNode;
  /**
   * The URL without this layer. The close (X) link, a click on the backdrop
   * and, with JavaScript, Escape go there: a dialog is URL state, so it opens
   * and closes without JavaScript.
   */
  closeHref: string;
  /**
   * With JavaScript, for a layer opened in place (not from the URL): closing calls this instead of following
   * `closeHref` (which stays the link's target for a modified click and before hydration).
   */
  onClose?: () => void;
  /** Accessible name of the X link; the common "Close" by default. */
  closeLabel?: string;
  /**
   * "dialog": a centred box; "slide-over": a panel from the right; both take the whole screen on a phone.
   * "full-screen": the whole screen at every width, its header and body centred in a wide column (the person dialog).
   */
  variant?: "dialog" | "slide-over" | "full-screen";
  /** Width of a "dialog" or "slide-over" from `sm` up: md (the default), lg or xl. */
  size?: keyof typeof SIZES;
  /** 1 for a page's dialog, 2 for a dialog opened over another (Manage Tags over the slide-over). */
  layer?: 1 | 2 | 3;
  /** Shown in the header before the title (a Back link). */
  headerStart?: React.ReactNode;
  /** The language of the dialog's content when it differs from the page's (the terms in Norwegian, say). */
  lang?: string;
  /** False while Escape must not close (an order being placed); the X link and the backdrop still do. */
  closeOnEscape?: boolean;
  /** Content of the footer bar (its buttons); none without it. */
  footer?: React.ReactNode;
  /** When it changes while the dialog stays open, focus moves into it again (useModal's focusKey). */
  focusKey?: unknown;
  /** The body; it scrolls when taller than the screen. */
  children: React.ReactNode;
  /** Rendered after the body and footer, inside the dialog: confirmation steps and dialogs over this one. */
  overlays?: React.ReactNode;
}

function panelClass(variant: NonNullable<DialogProps["variant"]>, size: keyof typeof SIZES): string {
  const common = "relative flex h-full w-full flex-col shadow-xl outline-none";
  switch (variant) {
    case "slide-over":
      return `${common} bg-base-100 ${SIZES[size]}`;
    case "full-screen":
      return `${common} bg-base-200`;
    default:
      return `${common} bg-base-100 sm:h-auto sm:max-h-[85vh] sm:rounded-box ${SIZES[size]}`;
  }
}

/**
 * The shell of every dialog and slide-over: title, close link, body, footer.
 * It is URL state and works as plain links without JavaScript; with it,
 * useModal moves focus in and back, makes the page behind inert and closes on
 * Escape (the innermost layer first).
 */
export function Dialog({
  title,
  closeHref,
  onClose,
  closeLabel,
  variant = "dialog",
  size = "md",
  layer = 1,
  headerStart,
  lang,
  closeOnEscape = true,
  footer,
  focusKey,
  children,
  overlays,
}: DialogProps) {
  const { t } = useTranslation("common");
  const navigate = useNavigate();
  const ref = useRef<HTMLDivElement>(null);
  const titleId = useId();
  useModal(
    ref,
    () => {
      if (!closeOnEscape) return;
      if (onClose) onClose();
      else navigate(closeHref, { preventScrollReset: true, replace: true });
    },
    focusKey,
  );
  const full = variant === "full-screen";
  const closeHere = onClose
    ? (event: React.MouseEvent<HTMLAnchorElement>) => {
        if (!isPlainClick(event)) return;
        event.preventDefault();
        onClose();
      }
    : undefined;
  const placement = variant === "dialog" ? "items-center justify-center sm:p-4" : "justify-end";
  // The full-screen dialog keeps its header and body in one centred column.
  const column = full ? "mx-auto w-full max-w-5xl" : "";
  return (
    <div data-dialog="" className={`fixed inset-0 ${LAYERS[layer]} flex ${placement}`}>
      <style>{SCROLL_LOCK}</style>
      <Link
        to={closeHref}
        className="absolute inset-0 bg-black/40"
        aria-hidden="true"
        tabIndex={-1}
        // useModal's BACKDROP_ATTRIBUTE: it stays clickable while the page behind is inert.
        data-modal-backdrop=""
        preventScrollReset
        replace
        onClick={closeHere}
      />
      <div ref={ref} role="dialog" aria-modal="true" aria-labelledby={titleId} lang={lang} tabIndex={-1} className={panelClass(variant, size)}>
        <header className="border-b border-base-300 bg-base-100">
          <div className={`flex items-center gap-2 ${full ? "px-4 py-3" : "p-4"} ${column}`}>
            {headerStart}
            <h2 id={titleId} className={`min-w-0 flex-1 text-lg font-semibold ${full ? "truncate text-center" : "break-words"}`}>
              {title}
            </h2>
            <Link
              to={closeHref}
              className="btn btn-ghost btn-sm btn-square"
              aria-label={closeLabel ?? t("close")}
              preventScrollReset
              replace
              onClick={closeHere}
            >
              <Icon name="x" />
            </Link>
          </div>
        </header>
        <div className="flex-1 overflow-y-auto overscroll-contain p-4">{full ? <div className={column}>{children}</div> : children}</div>
        {footer ? <footer className="flex flex-wrap items-center justify-end gap-2 border-t border-base-300 p-4">{footer}</footer> : null}
        {overlays}
      </div>
    </div>
  );
}
