import { Link, useNavigate } from "@remix-run/react";
import { useId, useRef } from "react";
import { useTranslation } from "react-i18next";
import { Icon } from "./icons";
import { useModal } from "./useModal";

/** Stacking of layers: a page's dialog (1), a dialog over it (2), a confirmation step over both (3). */
const LAYERS = { 1: "z-50", 2: "z-[60]", 3: "z-[70]" } as const;

export interface DialogProps {
  /** The heading that names the dialog for screen readers (aria-labelledby). */
  title: React.ReactNode;
  /**
   * The URL without this layer. The close (X) link, a click on the backdrop
   * and, with JavaScript, Escape go there: a dialog is URL state, so it opens
   * and closes without JavaScript.
   */
  closeHref: string;
  /** Accessible name of the X link; the common "Close" by default. */
  closeLabel?: string;
  /** "dialog": a centred box; "slide-over": a panel from the right. Both take the whole screen on a phone. */
  variant?: "dialog" | "slide-over";
  /** 1 for a page's dialog, 2 for a dialog opened over another (Manage Tags over the slide-over). */
  layer?: 1 | 2 | 3;
  /** Content of the footer bar (its buttons); none without it. */
  footer?: React.ReactNode;
  /** When it changes while the dialog stays open, focus moves into it again (useModal's focusKey). */
  focusKey?: unknown;
  /** The body; it scrolls when taller than the screen. */
  children: React.ReactNode;
  /** Rendered after the body and footer, inside the dialog: confirmation steps and dialogs over this one. */
  overlays?: React.ReactNode;
}

/**
 * The shell of every dialog and slide-over: title, close link, body, footer.
 * It is URL state and works as plain links without JavaScript; with it,
 * useModal moves focus in and back, makes the page behind inert and closes on
 * Escape (the innermost layer first).
 */
export function Dialog({ title, closeHref, closeLabel, variant = "dialog", layer = 1, footer, focusKey, children, overlays }: DialogProps) {
  const { t } = useTranslation("common");
  const navigate = useNavigate();
  const ref = useRef<HTMLDivElement>(null);
  const titleId = useId();
  useModal(ref, () => navigate(closeHref, { preventScrollReset: true, replace: true }), focusKey);
  const slideOver = variant === "slide-over";
  return (
    <div className={`fixed inset-0 ${LAYERS[layer]} flex ${slideOver ? "justify-end" : "items-center justify-center sm:p-4"}`}>
      <Link to={closeHref} className="absolute inset-0 bg-black/40" aria-hidden="true" tabIndex={-1} preventScrollReset replace />
      <div
        ref={ref}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        className={
          slideOver
            ? "relative flex h-full w-full flex-col bg-base-100 shadow-xl outline-none sm:max-w-lg"
            : "relative flex h-full w-full flex-col bg-base-100 shadow-xl outline-none sm:h-auto sm:max-h-[85vh] sm:max-w-lg sm:rounded-box"
        }
      >
        <header className="flex items-center justify-between gap-2 border-b border-base-300 p-4">
          <h2 id={titleId} className="text-lg font-semibold">
            {title}
          </h2>
          <Link to={closeHref} className="btn btn-ghost btn-sm btn-square" aria-label={closeLabel ?? t("close")} preventScrollReset replace>
            <Icon name="x" />
          </Link>
        </header>
        <div className="flex-1 overflow-y-auto p-4">{children}</div>
        {footer ? <footer className="flex flex-wrap items-center justify-end gap-2 border-t border-base-300 p-4">{footer}</footer> : null}
        {overlays}
      </div>
    </div>
  );
}
