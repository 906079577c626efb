import { useNavigation } from "@remix-run/react";
import { useEffect } from "react";

/**
 * Updates (shared/spec/01-shell-chat-lei.md §4): the browser polls the latest-build indicator; once a
 * new build has been deployed, the next navigation loads the whole page from
 * the server instead of navigating inside the old one, at most once per
 * 10 seconds per path (so a server that keeps answering with another build
 * cannot trap the user in reloads). A screen chunk that fails to load (the
 * old build's files are gone) reloads the page too: Remix does that for
 * route modules itself; this covers the chunks the app imports on demand.
 */

/** Served by the express server (server/app.ts), outside Remix. */
export const BUILD_INDICATOR_PATH = "/_build/latest.json";
export const RELOAD_THROTTLE_MS = 10_000;
const POLL_MS = 5 * 60_000;

let newBuildDeployed = false;

function runningBuild(): string | undefined {
  return (window as unknown as { __remixManifest?: { version?: string } }).__remixManifest?.version;
}

async function checkForNewBuild(): Promise<void> {
  try {
    const response = await fetch(`${BUILD_INDICATOR_PATH}?t=${Date.now()}`, { cache: "no-store", credentials: "same-origin" });
    if (!response.ok) return;
    const { id } = (await response.json()) as { id?: unknown };
    const running = runningBuild();
    if (typeof id === "string" && running && id !== running) newBuildDeployed = true;
  } catch {
    // Offline or between deploys: ask again later.
  }
}

/** Loads `href` from the server unless `path` was reloaded less than 10 s ago; true when it does. */
export function reloadOnce(href: string, path: string): boolean {
  const key = `reload:${path}`;
  try {
    const last = Number(window.sessionStorage.getItem(key) ?? 0);
    if (Date.now() - last < RELOAD_THROTTLE_MS) return false;
    window.sessionStorage.setItem(key, String(Date.now()));
  } catch {
    // Storage refused (private mode): reload without the throttle's memory.
  }
  window.location.assign(href);
  return true;
}

const CHUNK_FAILURE = /dynamically imported module|Importing a module script failed|error loading dynamically imported module|Unable to preload CSS/i;

export function useReloadOnNewBuild() {
  const navigation = useNavigation();

  useEffect(() => {
    const onPreloadError = (event: Event) => {
      if (reloadOnce(window.location.href, window.location.pathname)) event.preventDefault();
    };
    const onRejection = (event: PromiseRejectionEvent) => {
      const message = event.reason instanceof Error ? event.reason.message : String(event.reason ?? "");
      if (CHUNK_FAILURE.test(message)) reloadOnce(window.location.href, window.location.pathname);
    };
    const onVisible = () => {
      if (document.visibilityState === "visible") void checkForNewBuild();
    };
    const timer = window.setInterval(() => void checkForNewBuild(), POLL_MS);
    window.addEventListener("vite:preloadError", onPreloadError);
    window.addEventListener("unhandledrejection", onRejection);
    window.addEventListener("focus", onVisible);
    document.addEventListener("visibilitychange", onVisible);
    return () => {
      window.clearInterval(timer);
      window.removeEventListener("vite:preloadError", onPreloadError);
      window.removeEventListener("unhandledrejection", onRejection);
      window.removeEventListener("focus", onVisible);
      document.removeEventListener("visibilitychange", onVisible);
    };
  }, []);

  const { state, location, formMethod } = navigation;
  useEffect(() => {
    // Only plain page visits (links, GET forms): a form post must reach the action, not be replaced by a reload.
    if (!newBuildDeployed || state !== "loading" || !location || (formMethod && formMethod.toUpperCase() !== "GET")) return;
    reloadOnce(location.pathname + location.search + location.hash, location.pathname);
  }, [state, location, formMethod]);
}
