import { Link } from "@remix-run/react";
import { useCallback, useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "~/translations";
import { Dialog } from "~/components/ui/Dialog";
import { Icon } from "~/components/ui/icons";
import { useHydrated } from "~/components/ui/useHydrated";
import type { LeiDialogData } from "~/models/registry/lei-dialog.server";
import {
  LEI_COPIED_MS,
  LEI_QUERY_MAX,
  LEI_SEARCH_DEBOUNCE_MS,
  LEI_STANDARD_URL,
  entityCard,
  managingLouName,
  recordView,
  resultViews,
  type LabelPart,
  type LeiEntityCard,
  type LeiRecordView,
  type LeiResultView,
} from "~/models/registry/lei";
import { useLeiLinks, type LeiDialogState } from "./links";
import { isPlainClick } from "~/components/ui/download";

/** The ultimate parent as the dialog knows it: being asked for, found, or not there. */
type ParentState = { state: "loading" } | { state: "none" } | { state: "found"; card: LeiEntityCard };
/** The direct children: not asked for (the button shows), being loaded, or loaded. */
type ChildrenState = null | "loading" | LeiEntityCard[];

/** GET one of the `/api/lei-api/*` calls (shared/spec/01-shell-chat-lei.md §7); a non-OK answer is a failure the caller turns into nothing. */
async function getJson(path: string, params: Record<string, string>, signal?: AbortSignal): Promise<unknown> {
  const response = await fetch(`/api/lei-api/${path}?${new URLSearchParams(params)}`, { headers: { Accept: "application/json" }, signal });
  if (!response.ok) throw new Error(`${path}: ${response.status}`);
  return response.json();
}

function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === "AbortError";
}

/**
 * The LEI search modal (shared/spec/01-shell-chat-lei.md §2.7, §4, §5, §8, §9), URL state on any page (`?dialog=lei`, components/lei/links.ts).
 *
 * Without JavaScript the server renders it from the URL (models/registry/lei-dialog.server.ts): the search is a GET form, a
 * result, the parent and each child are links to the dialog on that record, "Load child entities" is a link, and the
 * LEI sits in a read-only field to select and copy. With JavaScript it starts from that and then works in place over
 * `/api/lei-api/*`: typing searches after 750 ms (Enter at once, blank clears without a call), choosing a result
 * loads the record, its managing LOU's name and its ultimate parent, the children load on demand, Copy copies and
 * says so for 2 s; the address bar follows the record shown, so Back and reload come back to it.
 */
export function LeiDialog({ dialog }: { dialog: LeiDialogData }) {
  const { t } = useTranslation("lei");
  const links = useLeiLinks();
  const hydrated = useHydrated();
  const ids = useId();

  const [query, setQuery] = useState(dialog.q);
  // null: no search ran (nothing shows); []: "No results.".
  const [results, setResults] = useState<LeiResultView[] | null>(dialog.searched ? dialog.results : null);
  const [searching, setSearching] = useState(false);
  const [record, setRecord] = useState<LeiRecordView | null>(dialog.record);
  const [recordMissing, setRecordMissing] = useState(dialog.recordMissing);
  const [recordLoading, setRecordLoading] = useState(false);
  const [louName, setLouName] = useState<string | null>(dialog.managingLouName);
  const [parent, setParent] = useState<ParentState>(dialog.parent ? { state: "found", card: dialog.parent } : { state: "none" });
  const [children, setChildren] = useState<ChildrenState>(dialog.children);

  const searchBox = useRef<HTMLDivElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const recordHeading = useRef<HTMLHeadingElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  const searchCall = useRef<AbortController>();
  const recordCall = useRef<AbortController>();
  const focusRecord = useRef(false);

  useEffect(
    () => () => {
      clearTimeout(timer.current);
      searchCall.current?.abort();
      recordCall.current?.abort();
    },
    [],
  );

  // A click outside the search box clears the results list (shared/spec/01-shell-chat-lei.md §4).
  useEffect(() => {
    if (!hydrated) return;
    const onPointerDown = (event: PointerEvent) => {
      if (searchBox.current && event.target instanceof Node && !searchBox.current.contains(event.target)) setResults(null);
    };
    document.addEventListener("pointerdown", onPointerDown);
    return () => document.removeEventListener("pointerdown", onPointerDown);
  }, [hydrated]);

  // After choosing a result, the parent or a child, focus goes to the record's name (what changed).
  useEffect(() => {
    if (focusRecord.current && record && !recordLoading) {
      focusRecord.current = false;
      recordHeading.current?.focus();
    }
  }, [record, recordLoading]);

  /** Keeps the address bar on what the dialog shows, without a navigation (no loader runs again). */
  const remember = useCallback(
    (state: LeiDialogState) => {
      window.history.replaceState(window.history.state, "", links.href(state));
    },
    [links],
  );

  const search = useCallback(async (text: string) => {
    clearTimeout(timer.current);
    searchCall.current?.abort();
    const term = text.trim();
    // Blank or whitespace: the results go, no call (shared/spec/01-shell-chat-lei.md §5).
    if (!term) {
      setSearching(false);
      setResults(null);
      return;
    }
    const call = new AbortController();
    searchCall.current = call;
    setSearching(true);
    try {
      const items = await getJson("autocomplete", { term }, call.signal);
      setResults(resultViews(Array.isArray(items) ? items : []));
    } catch (error) {
      if (isAbort(error)) return;
      // No error is shown in this dialog (shared/spec/01-shell-chat-lei.md §8): the list is empty.
      setResults([]);
    }
    if (searchCall.current === call) setSearching(false);
  }, []);

  // Text typed before this code arrived (a slow link: the server's form was there first) is not lost: it is searched now.
  const [ready, setReady] = useState(false);
  useEffect(() => {
    setReady(true);
    const typed = input.current?.value ?? "";
    if (typed !== dialog.q) {
      setQuery(typed);
      if (typed.trim()) {
        setSearching(true);
        timer.current = setTimeout(() => void search(typed), LEI_SEARCH_DEBOUNCE_MS);
      }
    }
    // Once, when the dialog comes to life.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const openRecord = useCallback(
    async (lei: string, searchText: string) => {
      clearTimeout(timer.current);
      searchCall.current?.abort();
      recordCall.current?.abort();
      const call = new AbortController();
      recordCall.current = call;
      setSearching(false);
      setResults(null);
      // Choosing clears the children and the parent, then loads the record, the managing LOU's name and the parent (§4).
      setChildren(null);
      setParent({ state: "loading" });
      setLouName(null);
      setRecordMissing(false);
      setRecordLoading(true);
      focusRecord.current = true;
      remember({ q: searchText, lei });
      const signal = call.signal;
      const recordAnswer = getJson("record", { lei }, signal)
        .then((answer) => recordView((answer as { data?: Parameters<typeof recordView>[0] }).data ?? {}))
        .catch((error: unknown) => (isAbort(error) ? undefined : null));
      getJson("relationship", { lei, path: "managing-lou" }, signal)
        .then((answer) => {
          if (recordCall.current === call) setLouName(managingLouName(answer as Parameters<typeof managingLouName>[0]));
        })
        // The managing LOU's lookup fails silently: the raw value stays.
        .catch(() => {});
      getJson("ultimate_parent", { lei }, signal)
        .then((answer) => {
          const data = (answer as { data?: Parameters<typeof entityCard>[0] } | null)?.data;
          const card = data ? entityCard(data) : null;
          if (recordCall.current === call) setParent(card ? { state: "found", card } : { state: "none" });
        })
        .catch((error: unknown) => {
          if (!isAbort(error) && recordCall.current === call) setParent({ state: "none" });
        });
      const view = await recordAnswer;
      if (view === undefined || recordCall.current !== call) return;
      setRecord(view);
      setRecordMissing(view === null);
      setRecordLoading(false);
    },
    [remember],
  );

  const loadChildren = useCallback(
    async (lei: string) => {
      setChildren("loading");
      const call = recordCall.current;
      let cards: LeiEntityCard[] = [];
      try {
        const list = await getJson("direct_children", { lei }, call?.signal);
        cards = (Array.isArray(list) ? list : []).flatMap((child) => entityCard(child) ?? []);
      } catch (error) {
        if (isAbort(error)) return;
      }
      if (recordCall.current !== call) return;
      setChildren(cards);
      remember({ q: query, lei, children: true });
    },
    [query, remember],
  );

  /** A link of the dialog that, with JavaScript, does its work in place instead of loading the page again. */
  const inPlace = (run: () => void) => (event: React.MouseEvent<HTMLAnchorElement>) => {
    if (!isPlainClick(event)) return;
    event.preventDefault();
    run();
  };

  const cardLink = (card: LeiEntityCard) => ({
    to: links.href({ lei: card.lei }),
    onClick: inPlace(() => {
      setQuery(card.name);
      void openRecord(card.lei, card.name);
    }),
  });

  return (
    <Dialog
      title={t("title")}
      closeHref={links.closeHref}
      closeLabel={t("close")}
      size="lg"
      footer={
        <div className="flex w-full flex-wrap items-center justify-between gap-3">
          <a href={LEI_STANDARD_URL} target="_blank" rel="noopener noreferrer" className="link link-primary inline-flex items-center gap-1 text-sm">
            {t("standard")}
            <Icon name="external" className="size-4" aria-hidden="true" />
            <span className="sr-only">{t("newTab")}</span>
          </a>
          <Link to={links.closeHref} replace preventScrollReset className="btn btn-sm">
            {t("close")}
          </Link>
        </div>
      }
    >
      <div className="flex flex-col gap-5">
        <div ref={searchBox} className="relative">
          <form
            method="get"
            action={links.pathname}
            role="search"
            aria-label={t("title")}
            className="flex gap-2"
            // Set once the dialog's code runs in the browser (tests wait for it before typing).
            data-ready={ready ? "" : undefined}
            onSubmit={(event) => {
              if (!hydrated) return;
              // Enter searches at once (shared/spec/01-shell-chat-lei.md §5).
              event.preventDefault();
              void search(query);
            }}
          >
            {links.pageFields.map(([key, value], index) => (
              <input key={`${key}-${index}`} type="hidden" name={key} value={value} />
            ))}
            <input type="hidden" name="dialog" value="lei" />
            <label htmlFor={`${ids}-q`} className="sr-only">
              {t("searchLabel")}
            </label>
            <div className="relative min-w-0 flex-1">
              <input
                ref={input}
                id={`${ids}-q`}
                type="search"
                name="leiq"
                value={query}
                maxLength={LEI_QUERY_MAX}
                placeholder={t("placeholder")}
                autoComplete="off"
                spellCheck={false}
                className="input w-full pr-9"
                aria-controls={`${ids}-results`}
                aria-describedby={`${ids}-status`}
                onChange={(event) => {
                  const text = event.target.value;
                  setQuery(text);
                  clearTimeout(timer.current);
                  if (!text.trim()) {
                    void search(text);
                    return;
                  }
                  setSearching(true);
                  timer.current = setTimeout(() => void search(text), LEI_SEARCH_DEBOUNCE_MS);
                }}
              />
              {searching ? (
                <span className="loading loading-spinner loading-sm absolute right-3 top-1/2 -translate-y-1/2" aria-hidden="true" data-testid="lei-spinner" />
              ) : null}
            </div>
            <button type="submit" className="btn btn-primary">
              <Icon name="search" className="size-4" aria-hidden="true" />
              <span className="max-sm:sr-only">{t("search")}</span>
            </button>
          </form>
          <p id={`${ids}-status`} className="sr-only" role="status">
            {searching ? t("searching") : ""}
          </p>
          <div id={`${ids}-results`}>
            {results ? (
              results.length === 0 ? (
                <p role="status" className="mt-3 text-sm text-base-content/70">
                  {t("noResults")}
                </p>
              ) : (
                <ul aria-label={t("results")} className="mt-2 max-h-80 divide-y divide-base-300 overflow-y-auto rounded-box border border-base-300">
                  {results.map((result) => (
                    <li key={result.lei}>
                      <Link
                        to={links.href({ q: query.trim() || dialog.q, lei: result.lei })}
                        replace
                        preventScrollReset
                        onClick={inPlace(() => {
                          // The box shows the chosen name; that is not a new search (§4).
                          const name = labelText(result.label);
                          setQuery(name);
                          void openRecord(result.lei, name);
                        })}
                        className="grid gap-x-4 gap-y-0.5 px-3 py-2 hover:bg-base-200 focus-visible:bg-base-200 sm:grid-cols-[1fr_auto]"
                      >
                        <span className="min-w-0 break-words">
                          <Label parts={result.label} />
                        </span>
                        <span className="font-mono text-xs text-base-content/70 sm:text-sm">{t("leiId", { id: result.lei })}</span>
                      </Link>
                    </li>
                  ))}
                </ul>
              )
            ) : null}
          </div>
        </div>

        {recordLoading && !record ? (
          <p className="flex items-center gap-2 text-sm text-base-content/70">
            <span className="loading loading-spinner loading-sm" aria-hidden="true" />
            {t("loadingRecord")}
          </p>
        ) : null}
        {/* No error is shown in this dialog (shared/spec/01-shell-chat-lei.md §8): an LEI the registry does not have is one more "No results.". */}
        {recordMissing && !recordLoading ? <p className="text-sm text-base-content/70">{t("noResults")}</p> : null}
        {record ? (
          <RecordDetail
            record={record}
            busy={recordLoading}
            louName={louName}
            parent={parent}
            children={children}
            headingRef={recordHeading}
            cardLink={cardLink}
            loadChildrenLink={{
              to: links.href({ q: query.trim() || dialog.q, lei: record.lei, children: true }),
              onClick: inPlace(() => {
                if (children !== "loading") void loadChildren(record.lei);
              }),
            }}
          />
        ) : null}
      </div>
    </Dialog>
  );
}

function labelText(parts: LabelPart[]): string {
  return parts.map((p) => p.text).join("");
}

/** A result's label with the matched part marked (never the answer's own HTML). */
function Label({ parts }: { parts: LabelPart[] }) {
  return (
    <>
      {parts.map((part, index) =>
        part.match ? (
          <mark key={index} className="bg-transparent font-semibold text-inherit">
            {part.text}
          </mark>
        ) : (
          <span key={index}>{part.text}</span>
        ),
      )}
    </>
  );
}

type LinkProps = { to: string; onClick: (event: React.MouseEvent<HTMLAnchorElement>) => void };

function RecordDetail({
  record,
  busy,
  louName,
  parent,
  children,
  headingRef,
  cardLink,
  loadChildrenLink,
}: {
  record: LeiRecordView;
  busy: boolean;
  louName: string | null;
  parent: ParentState;
  children: ChildrenState;
  headingRef: React.RefObject<HTMLHeadingElement>;
  cardLink: (card: LeiEntityCard) => LinkProps;
  loadChildrenLink: LinkProps;
}) {
  const { t } = useTranslation("lei");
  const ids = useId();
  return (
    <section aria-labelledby={`${ids}-name`} aria-busy={busy} className={`flex flex-col gap-5 ${busy ? "opacity-60" : ""}`}>
      <h3 id={`${ids}-name`} ref={headingRef} tabIndex={-1} className="break-words text-xl font-semibold outline-none">
        {record.name}
      </h3>

      <Facts
        rows={[
          [t("registeredId"), record.registeredAs],
          [t("jurisdiction"), record.jurisdiction],
          [t("legalForm"), record.legalForm],
          [t("status"), record.status],
          [
            t("legalAddress"),
            record.address.length ? (
              <address className="not-italic">
                {record.address.map((line, index) => (
                  <span key={index} className="block">
                    {line}
                  </span>
                ))}
              </address>
            ) : (
              "—"
            ),
          ],
          [t("countryRegion"), record.countryRegion],
        ]}
      />

      <div>
        <h4 className="mb-2 font-semibold">{t("registration")}</h4>
        <Facts
          rows={[
            [t("lei"), <CopyLei key="lei" lei={record.lei} />],
            [t("status"), record.registrationStatus],
            [t("nextRenewal"), record.nextRenewal],
            [t("managingLou"), louName ?? record.managingLou],
          ]}
        />
      </div>

      <div>
        <h4 className="mb-2 font-semibold">{t("otherNames")}</h4>
        {record.otherNames.length ? (
          <ul className="list-inside list-disc text-sm">
            {record.otherNames.map((name, index) => (
              <li key={index} className="break-words">
                {name}
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-base-content/70">{t("noOtherNames")}</p>
        )}
      </div>

      <div>
        <h4 className="mb-2 font-semibold">{t("ultimateParent")}</h4>
        {parent.state === "loading" ? (
          <p className="flex items-center gap-2 text-sm text-base-content/70">
            <span className="loading loading-spinner loading-xs" aria-hidden="true" />
            {t("loadingParent")}
          </p>
        ) : parent.state === "found" ? (
          <EntityCard card={parent.card} link={cardLink(parent.card)} />
        ) : (
          <p className="text-sm text-base-content/70">{t("noParent")}</p>
        )}
      </div>

      <div>
        {children === null || children === "loading" ? (
          // Hidden once loaded (shared/spec/01-shell-chat-lei.md §2.7); a link, so it works without JavaScript.
          <Link
            to={loadChildrenLink.to}
            onClick={loadChildrenLink.onClick}
            replace
            preventScrollReset
            className="btn btn-outline btn-sm"
            aria-disabled={children === "loading"}
          >
            {children === "loading" ? <span className="loading loading-spinner loading-xs" aria-hidden="true" /> : null}
            {children === "loading" ? t("loadingChildren") : t("loadChildren")}
          </Link>
        ) : (
          <>
            <h4 id={`${ids}-children`} className="mb-2 font-semibold">
              {t("directChildren")}
            </h4>
            {children.length ? (
              // A region that scrolls is reachable from the keyboard (axe: scrollable-region-focusable); at most 12 rem high (§9).
              <div
                {...({ role: "region", "aria-labelledby": `${ids}-children`, tabIndex: 0 } as const)}
                className="max-h-48 overflow-y-auto rounded-box p-1 focus-visible:outline focus-visible:outline-2"
                data-testid="lei-children"
              >
                <ul className="flex flex-col gap-2">
                  {children.map((child) => (
                    <li key={child.lei}>
                      <EntityCard card={child} link={cardLink(child)} />
                    </li>
                  ))}
                </ul>
              </div>
            ) : (
              <p className="text-sm text-base-content/70">{t("noChildren")}</p>
            )}
          </>
        )}
      </div>
    </section>
  );
}

function Facts({ rows }: { rows: Array<[string, React.ReactNode]> }) {
  return (
    <dl className="grid grid-cols-[minmax(6rem,auto)_1fr] gap-x-4 gap-y-2 text-sm sm:gap-x-6">
      {rows.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className="font-medium text-base-content/70">{label}</dt>
          <dd className="min-w-0 break-words">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function EntityCard({ card, link }: { card: LeiEntityCard; link: LinkProps }) {
  const { t } = useTranslation("lei");
  return (
    <Link
      to={link.to}
      onClick={link.onClick}
      replace
      preventScrollReset
      className="block rounded-box border border-base-300 px-3 py-2 hover:bg-base-200 focus-visible:bg-base-200"
    >
      <span className="block break-words font-medium">{card.name}</span>
      <span className="block font-mono text-xs text-base-content/70">{t("leiId", { id: card.lei })}</span>
    </Link>
  );
}

/**
 * The LEI in a read-only field (select it to copy, with or without JavaScript) and, with JavaScript, a Copy button
 * whose "copied" note shows for 2 s (shared/spec/01-shell-chat-lei.md §9).
 */
function CopyLei({ lei }: { lei: string }) {
  const { t } = useTranslation("lei");
  const hydrated = useHydrated();
  const field = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  useEffect(() => () => clearTimeout(timer.current), []);

  const copy = async () => {
    let done = false;
    try {
      await navigator.clipboard.writeText(lei);
      done = true;
    } catch {
      // No clipboard API (an insecure origin, an old browser): copy the selected field the old way.
      field.current?.select();
      done = document.execCommand?.("copy") ?? false;
    }
    if (!done) {
      field.current?.select();
      return;
    }
    setCopied(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(false), LEI_COPIED_MS);
  };

  return (
    <span className="flex flex-wrap items-center gap-2">
      <input
        ref={field}
        readOnly
        value={lei}
        aria-label={t("lei")}
        size={22}
        onFocus={(event) => event.currentTarget.select()}
        className="input input-sm w-auto max-w-full font-mono"
      />
      {hydrated ? (
        <button type="button" className="btn btn-ghost btn-sm" onClick={() => void copy()} aria-label={t("copyLei", { lei })}>
          <Icon name="copy" className="size-4" aria-hidden="true" />
          {t("copy")}
        </button>
      ) : null}
      <span role="status" className="text-sm text-success">
        {copied ? t("copied") : ""}
      </span>
    </span>
  );
}
