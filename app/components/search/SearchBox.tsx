import { Form, Link, useFetcher, useLocation, useNavigate } from "@remix-run/react";
import { useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "~/translations";
import { Icon } from "~/components/ui/icons";
import { SearchResults, hitCount, hitHref, usePersonHref, type SearchResultView } from "./SearchResults";

/** Pause after typing before the search runs (shared/spec/01-shell-chat-lei.md §9). */
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
 * The top-bar search (shared/spec/01-shell-chat-lei.md §2.2, §4). Without JavaScript it is a GET form
 * to /search. With JavaScript it opens a dropdown on focus, searches 300 ms
 * after typing stops, and closes on an outside click or Escape.
 *
 * Keyboard (WAI-ARIA 1.2 combobox with a listbox popup): focus stays in the
 * box; ArrowDown/ArrowUp move the active option (aria-activedescendant),
 * Home/End jump to the first/last option once one is active, Enter opens the
 * active option (or submits the form to /search when none is), Escape closes
 * the dropdown and a second Escape clears the text. The tabs are a tablist
 * with a roving tabindex: ArrowLeft/ArrowRight (Home/End) switch them.
 */
export function SearchBox() {
  const { t } = useTranslation("search");
  // The /search route answers the dropdown too; a failed search comes back as no results (its clientLoader), never as an error page.
  const fetcher = useFetcher<SearchResultView>();
  const navigate = useNavigate();
  const dialogHref = useDialogHref();
  const personHref = usePersonHref();
  const [open, setOpen] = useState(false);
  const [q, setQ] = useState("");
  const [tab, setTab] = useState<Tab>("organizations");
  const [typing, setTyping] = useState(false);
  const [active, setActive] = useState(-1);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  const box = useRef<HTMLDivElement>(null);
  const tabRefs = useRef<Partial<Record<Tab, HTMLButtonElement | null>>>({});
  const dropdownId = useId();
  const listboxId = `${dropdownId}-listbox`;
  const optionId = (index: number) => `${dropdownId}-option-${index}`;
  const tabId = (which: Tab) => `${dropdownId}-tab-${which}`;

  const run = (text: string, which: Tab) => {
    clearTimeout(timer.current);
    setActive(-1);
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

  const close = () => {
    setOpen(false);
    setActive(-1);
  };

  useEffect(() => () => clearTimeout(timer.current), []);
  useEffect(() => {
    if (!open) return;
    const onPointer = (e: PointerEvent) => {
      if (!box.current?.contains(e.target as Node)) close();
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") close();
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
  const count = open && !loading && result ? hitCount(result) : 0;
  const activeIndex = active < count ? active : -1;

  useEffect(() => {
    if (activeIndex >= 0) document.getElementById(optionId(activeIndex))?.scrollIntoView({ block: "nearest" });
    // optionId derives from the stable useId.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [activeIndex]);

  const chooseTab = (which: Tab, focus: boolean) => {
    setTab(which);
    run(q, which);
    if (focus) tabRefs.current[which]?.focus();
  };

  const onComboboxKey = (e: React.KeyboardEvent<HTMLInputElement>) => {
    switch (e.key) {
      case "ArrowDown":
      case "ArrowUp": {
        e.preventDefault();
        if (!open) setOpen(true);
        if (count === 0) return;
        const step = e.key === "ArrowDown" ? 1 : -1;
        setActive(activeIndex < 0 ? (step > 0 ? 0 : count - 1) : (activeIndex + step + count) % count);
        return;
      }
      case "Home":
      case "End":
        if (activeIndex < 0) return; // the text cursor moves as usual
        e.preventDefault();
        setActive(e.key === "Home" ? 0 : count - 1);
        return;
      case "Enter": {
        if (activeIndex < 0 || !result) return; // the form goes to /search
        const href = hitHref(result, activeIndex, personHref);
        if (!href) return;
        e.preventDefault();
        close();
        navigate(href, { preventScrollReset: result.tab === "people" });
        return;
      }
      case "Escape":
        // The browser would clear a search field on the first Escape; the first one closes the dropdown.
        e.preventDefault();
        if (open) {
          close();
        } else {
          setQ("");
          run("", tab);
        }
        return;
    }
  };

  const onTabKey = (e: React.KeyboardEvent<HTMLButtonElement>) => {
    const order = ["organizations", "people"] as const;
    const at = order.indexOf(tab);
    const next =
      e.key === "ArrowRight"
        ? order[(at + 1) % order.length]
        : e.key === "ArrowLeft"
          ? order[(at - 1 + order.length) % order.length]
          : e.key === "Home"
            ? order[0]
            : e.key === "End"
              ? order[order.length - 1]
              : null;
    if (!next) return;
    e.preventDefault();
    chooseTab(next, true);
  };

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
            aria-controls={count > 0 ? listboxId : dropdownId}
            aria-expanded={open}
            aria-activedescendant={activeIndex >= 0 ? optionId(activeIndex) : undefined}
            value={q}
            onKeyDown={onComboboxKey}
            onChange={(e) => {
              setQ(e.target.value);
              if (!open) setOpen(true);
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
                  ref={(element) => {
                    tabRefs.current[which] = element;
                  }}
                  id={tabId(which)}
                  type="button"
                  role="tab"
                  aria-selected={tab === which}
                  aria-controls={`${dropdownId}-panel`}
                  tabIndex={tab === which ? 0 : -1}
                  className={`tab ${tab === which ? "tab-active" : ""}`}
                  onClick={() => chooseTab(which, false)}
                  onKeyDown={onTabKey}
                >
                  {t(`tabs.${which}`)}
                </button>
              ))}
            </div>
            <div className="flex gap-1">
              <Link to={dialogHref("credit")} preventScrollReset className="btn btn-xs btn-outline" title={t("creditHint")} onClick={close}>
                {t("credit")}
              </Link>
              <Link to={dialogHref("lei")} preventScrollReset className="btn btn-xs btn-outline" title={t("leiHint")} onClick={close}>
                {t("lei")}
              </Link>
            </div>
          </div>
          <div
            id={`${dropdownId}-panel`}
            role="tabpanel"
            aria-labelledby={tabId(tab)}
            // A tab panel whose options are not focusable (focus stays in the combobox) takes focus itself, so it can scroll from the keyboard.
            tabIndex={0}
            className="max-h-96 overflow-y-auto"
            aria-live="polite"
            aria-busy={loading}
          >
            {loading ? (
              <p className="flex items-center gap-2 p-4 text-sm text-base-content/70">
                <span className="loading loading-spinner loading-sm" aria-hidden="true" />
                {t("loading")}
              </p>
            ) : (
              <SearchResults
                result={result ?? { q: q.trim() && fetcher.data ? q.trim() : "", tab, organizations: [], people: [] }}
                onChoose={close}
                listbox={{ id: listboxId, label: t(`tabs.${tab}`), activeIndex, optionId }}
              />
            )}
          </div>
        </div>
      ) : null}
    </div>
  );
}
