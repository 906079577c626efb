import { useEffect, useLayoutEffect, useRef } from "react";

// The dialogs open on the page, so a dialog inside another (a confirmation step
// inside a slide-over) can tell that it is the innermost one.
const openDialogs = new Set<HTMLElement>();

/**
 * Marks a dialog's backdrop (a link out of it, hidden from assistive
 * technology and the Tab order): it stays clickable, where everything else
 * outside the dialog becomes inert.
 */
export const BACKDROP_ATTRIBUTE = "data-modal-backdrop";

/**
 * Runs with the commit that shows or removes a dialog (a layout effect; a plain effect on the server, where neither
 * runs). A passive effect runs later, after the browser may have painted and handled a key: an Escape pressed the
 * moment a page's dialog replaced another (the file preview opened from the files panel) went to the listener of the
 * dialog no longer shown, which closed that one instead.
 */
const useCommitEffect = typeof document === "undefined" ? useEffect : useLayoutEffect;

/** True when another open dialog sits inside `dialog`: that one is on top. */
function hasInnerDialog(dialog: HTMLElement): boolean {
  for (const other of openDialogs) if (other !== dialog && dialog.contains(other)) return true;
  return false;
}

/**
 * What a dialog does once JavaScript runs: focus moves into it and back to
 * the opener on close; everything outside it is inert (a focus trap without
 * a trap's tricks) but its backdrop (BACKDROP_ATTRIBUTE); Escape closes the innermost open dialog only. `focusKey`
 * moves focus in again when the dialog's subject changes while it stays open
 * (another person, say); `initialFocus` is the element that gets it (the
 * dialog itself by default; a confirmation's Cancel link, say).
 */
export function useModal(
  ref: React.RefObject<HTMLElement>,
  close: () => void,
  focusKey?: unknown,
  options: { initialFocus?: React.RefObject<HTMLElement> } = {},
) {
  const closeRef = useRef(close);
  closeRef.current = close;
  const initialFocus = options.initialFocus;

  useCommitEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    openDialogs.add(dialog);
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const made: Element[] = [];
    for (let node: Element | null = dialog; node && node !== document.body; node = node.parentElement) {
      for (const sibling of Array.from(node.parentElement?.children ?? [])) {
        if (sibling === node || sibling.hasAttribute("inert") || sibling.hasAttribute(BACKDROP_ATTRIBUTE)) continue;
        if (sibling.tagName === "SCRIPT" || sibling.tagName === "STYLE") continue;
        sibling.setAttribute("inert", "");
        made.push(sibling);
      }
    }
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape" || event.defaultPrevented || !dialog.isConnected || hasInnerDialog(dialog)) return;
      event.preventDefault();
      closeRef.current();
    };
    document.addEventListener("keydown", onKey);
    return () => {
      openDialogs.delete(dialog);
      document.removeEventListener("keydown", onKey);
      for (const el of made) el.removeAttribute("inert");
      if (opener?.isConnected && opener !== document.body) opener.focus({ preventScroll: true });
    };
  }, [ref]);

  useEffect(() => {
    const target = () => initialFocus?.current ?? ref.current;
    target()?.focus();
    // Opened together with an outer dialog (a page loaded with both in its URL),
    // the inner one mounts first and the outer one's focus would win: take it back.
    const frame = requestAnimationFrame(() => {
      const dialog = ref.current;
      if (!dialog || dialog.contains(document.activeElement) || hasInnerDialog(dialog)) return;
      target()?.focus();
    });
    return () => cancelAnimationFrame(frame);
  }, [ref, focusKey, initialFocus]);
}
