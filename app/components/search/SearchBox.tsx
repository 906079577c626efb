import { Form, Link, useFetcher, useLocation } from "@remix-run/react";
import { useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Icon } from "~/components/ui/icons";
import { SearchResults, type SearchResultView } from "./SearchResults";

/** Pause after typing before the search runs (spec 01 §9). */
export const SEARCH_DEBOUNCE_MS = 300;

type Tab = "organizations" | "people";

/** Adds a search parameter to the current URL (dialogs are URL state). */
function useDialogHref() {
  const location = useLocation();
  return (dialog: string) => {
    const params = new URLSearchParams(location.search);
    params.set("dialog", dialog);
    return `${location.pathname}?${params}`;
  };
}

/**
 * The top-bar search (spec 01 §2.2, §4). Without JavaScript it is a GET form
 * to /search. With JavaScript it opens a dropdown on focus, searches 300 ms
 * after typing stops, and closes on an outside click or Escape.
 */
export function SearchBox() {
  const { t } = useTranslation("search");
  // The /search route answers the dropdown too; a failed search comes back as no results (its clientLoader), never as an error page.
  const fetcher = useFetcher<SearchResultView>();
  const dialogHref = useDialogHref();
  const [open, setOpen] = useState(false);
  const [q, setQ] = useState("");
  const [tab, setTab] = useState<Tab>("organizations");
  const [typing, setTyping] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  const box = useRef<HTMLDivElement>(null);
  const dropdownId = useId();

  const run = (text: string, which: Tab) => {
    clearTimeout(timer.current);
    if (!text.trim()) {
      setTyping(false);
      return;
    }
    setTyping(true);
    timer.current = setTimeout(() => {
      setTyping(false);
      fetcher.load(`/search?${new URLSearchParams({ q: text.trim(), tab: which, limit: "dropdown" })}`);
    }, SEARCH_DEBOUNCE_MS);
  };

  useEffect(() => () => clearTimeout(timer.current), []);
  useEffect(() => {
    if (!open) return;
    const onPointer = (e: PointerEvent) => {
      if (!box.current?.contains(e.target as Node)) setOpen(false);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") setOpen(false);
    };
    document.addEventListener("pointerdown", onPointer);
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("pointerdown", onPointer);
      document.removeEventListener("keydown", onKey);
    };
  }, [open]);

  const loading = typing || fetcher.state === "loading";
  const result = q.trim() && fetcher.data && fetcher.data.q === q.trim() && fetcher.data.tab === tab ? fetcher.data : null;

  return (
    <div ref={box} className="relative w-full max-w-xl">
      <Form method="get" action="/search" role="search" aria-label={t("label")} onFocus={() => setOpen(true)}>
        <input type="hidden" name="tab" value={tab} />
        <label className="input input-sm w-full">
          <Icon name="search" className="size-4 opacity-60" />
          <span className="sr-only">{t("label")}</span>
          <input
            type="search"
            name="q"
            required
            autoComplete="off"
            placeholder={t("placeholder")}
            role="combobox"
            aria-autocomplete="list"
            aria-controls={dropdownId}
            aria-expanded={open}
            value={q}
            onChange={(e) => {
              setQ(e.target.value);
              run(e.target.value, tab);
            }}
          />
          <button type="submit" className="sr-only">
            {t("submit")}
          </button>
        </label>
      </Form>
      {open ? (
        <div id={dropdownId} className="absolute left-0 right-0 top-full z-40 mt-1 overflow-hidden rounded-box border border-base-300 bg-base-100 shadow-lg">
          <div className="flex items-center justify-between gap-2 border-b border-base-300 px-2 py-1.5">
            <div role="tablist" aria-label={t("tabs.label")} className="tabs tabs-box tabs-sm">
              {(["organizations", "people"] as const).map((which) => (
                <button
                  key={which}
                  type="button"
                  role="tab"
                  aria-selected={tab === which}
                  className={`tab ${tab === which ? "tab-active" : ""}`}
                  onClick={() => {
                    setTab(which);
                    run(q, which);
                  }}
                >
                  {t(`tabs.${which}`)}
                </button>
              ))}
            </div>
            <div className="flex gap-1">
              <Link to={dialogHref("credit")} preventScrollReset className="btn btn-xs btn-outline" title={t("creditHint")} onClick={() => setOpen(false)}>
                {t("credit")}
              </Link>
              <Link to={dialogHref("lei")} preventScrollReset className="btn btn-xs btn-outline" title={t("leiHint")} onClick={() => setOpen(false)}>
                {t("lei")}
              </Link>
            </div>
          </div>
          <div className="max-h-96 overflow-y-auto" aria-live="polite" aria-busy={loading}>
            {loading ? (
              <p className="flex items-center gap-2 p-4 text-sm text-base-content/70">
                <span className="loading loading-spinner loading-sm" aria-hidden="true" />
                {t("loading")}
              </p>
            ) : (
              <SearchResults
                result={result ?? { q: q.trim() && fetcher.data ? q.trim() : "", tab, organizations: [], people: [] }}
                onChoose={() => setOpen(false)}
              />
            )}
          </div>
        </div>
      ) : null}
    </div>
  );
}
