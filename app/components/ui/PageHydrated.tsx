import { useEffect } from "react";

/**
 * Marks `<html data-js>` once the page itself has hydrated. React hydrates the content of a Suspense boundary in a
 * later, low-priority pass than the frame around it, so a mark set by the frame would say "hydrated" while the
 * page's links and forms were still the server's HTML. The layouts render this inside their innermost boundary,
 * after the page, and an error page renders it with the error. CSS reads the mark too: the fallbacks that only
 * plain HTML needs (the navigation's hover flyouts) stop applying.
 */
export function PageHydrated() {
  useEffect(() => {
    document.documentElement.dataset.js = "";
  }, []);
  return null;
}
