import { useEffect, useRef } from "react";

/** How often a page asks again while something it shows is still running (an analysis in progress). */
export const POLL_MS = 1_500;

/**
 * Calls `refresh` every `ms` while `active` (with JavaScript; without it the page shows the state of its load and a
 * refresh link). The latest `refresh` is called, so callers need not memoise it.
 */
export function usePolling(active: boolean, refresh: () => void, ms: number = POLL_MS) {
  const latest = useRef(refresh);
  latest.current = refresh;
  useEffect(() => {
    if (!active) return;
    const timer = window.setInterval(() => latest.current(), ms);
    return () => window.clearInterval(timer);
  }, [active, ms]);
}
