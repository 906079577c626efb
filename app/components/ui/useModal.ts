import { useEffect, useRef } from "react";

/**
 * What a dialog does once JavaScript runs: focus moves into it and back to
 * the opener on close; everything outside it is inert (a focus trap without
 * a trap's tricks); Escape closes. `focusKey` moves focus in again when the
 * dialog's subject changes while it stays open (another person, say).
 */
export function useModal(ref: React.RefObject<HTMLElement>, close: () => void, focusKey?: unknown) {
  const closeRef = useRef(close);
  closeRef.current = close;

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const made: Element[] = [];
    for (let node: Element | null = dialog; node && node !== document.body; node = node.parentElement) {
      for (const sibling of Array.from(node.parentElement?.children ?? [])) {
        if (sibling === node || sibling.hasAttribute("inert") || sibling.tagName === "SCRIPT" || sibling.tagName === "STYLE") continue;
        sibling.setAttribute("inert", "");
        made.push(sibling);
      }
    }
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape" && !event.defaultPrevented) {
        event.preventDefault();
        closeRef.current();
      }
    };
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("keydown", onKey);
      for (const el of made) el.removeAttribute("inert");
      if (opener?.isConnected && opener !== document.body) opener.focus({ preventScroll: true });
    };
  }, [ref]);

  useEffect(() => {
    ref.current?.focus();
  }, [ref, focusKey]);
}
