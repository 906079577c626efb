import { Link, useLocation, useSearchParams } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "~/translations";
import { Icon } from "~/components/ui/icons";
import { MISSING } from "~/models/shared/format";
import type { SupplierScreenData } from "~/models/suppliers/supplier-screen.server";
import { withParams } from "./screen-url";
import { Empty, Section } from "./Section";

const PARAM = "subSearch";
/** The longest search the API takes (GET /api/suppliers/{id}/sub-suppliers, searchTerm). */
const MAX_TERM = 100;

type SubSupplier = Extract<SupplierScreenData["subSuppliers"], { status: "ok" }>["data"][number];

/** What the browser's own search last answered; null while the server's rows stand. */
type ClientResult = { status: "ok"; rows: SubSupplier[] } | { status: "not-shared" } | { status: "failed" };

export function subSupplierHref(s: Pick<SubSupplier, "organizationId" | "localOrganizationId">): string | null {
  if (s.organizationId == null) return null;
  return `/supplier?${new URLSearchParams({ externalId: s.organizationId, localId: String(s.localOrganizationId) })}`;
}

/**
 * The supplier's own suppliers (shared/spec/02-supplier-credit-connections.md "Sub-suppliers", §5, §6). The search
 * is a GET form on this screen (`subSearch`, the rest of the URL kept in
 * hidden fields), answered by the server; with JavaScript it runs as the user
 * types and replaces the history entry instead of adding one per keystroke.
 */
/**
 * The supplier's own suppliers (shared/spec/02-supplier-credit-connections.md "Sub-suppliers", §5, §6). The search
 * is a GET form on this screen (`subSearch`, the rest of the URL kept in
 * hidden fields), answered by the server. With JavaScript it calls the API
 * (GET /api/suppliers/{id}/sub-suppliers?searchTerm=) on each change of the
 * text, cancelling the request before it, and keeps the URL's `subSearch` in
 * step without reloading the rest of the screen.
 */
export function SubSuppliersSection({ data }: { data: SupplierScreenData; extra?: string }) {
  const { t } = useTranslation("supplierWork");
  const result = data.subSuppliers;
  let body: React.ReactNode;
  switch (result.status) {
    case "ok":
      body = data.localId != null ? <SubSupplierSearch rows={result.data} supplierId={data.localId} /> : <Empty>{t("subSuppliers.empty")}</Empty>;
      break;
    case "not-shared":
      body = <Empty>{t("subSuppliers.notShared")}</Empty>;
      break;
    case "not-found":
      body = <Empty>{t("subSuppliers.empty")}</Empty>;
      break;
    default:
      body = <Empty>{t("subSuppliers.error")}</Empty>;
  }
  return (
    <Section id="sub-suppliers" title={t("subSuppliers.title")}>
      {body}
    </Section>
  );
}

function SubSupplierSearch({ rows: serverRows, supplierId }: { rows: SubSupplier[]; supplierId: number }) {
  const { t, i18n } = useTranslation("supplierWork");
  const location = useLocation();
  const [params] = useSearchParams();
  const term = params.get(PARAM) ?? "";
  const inputRef = useRef<HTMLInputElement>(null);
  const pendingRequest = useRef<AbortController | null>(null);
  const [client, setClient] = useState<ClientResult | null>(null);
  const [searching, setSearching] = useState(false);

  // A navigation (another supplier, back/forward, a link on this screen) shows the server's answer for the new URL;
  // a revalidation of the same URL (after a change elsewhere on the screen) keeps what the user searched.
  useEffect(() => {
    pendingRequest.current?.abort();
    setClient(null);
    setSearching(false);
    const input = inputRef.current;
    if (input && document.activeElement !== input && input.value !== term) input.value = term;
  }, [location.key, term]);
  useEffect(() => () => pendingRequest.current?.abort(), []);

  const search = (value: string) => {
    pendingRequest.current?.abort();
    const request = new AbortController();
    pendingRequest.current = request;
    const text = value.slice(0, MAX_TERM);
    // The URL follows the text (a reload or a shared link shows the same search) without a navigation.
    const next = withParams(window.location.search, { [PARAM]: text.trim() ? text : null });
    window.history.replaceState(window.history.state, "", `${window.location.pathname}${next}${window.location.hash}`);
    setSearching(true);
    const query = text.trim() ? `?${new URLSearchParams({ searchTerm: text })}` : "";
    fetch(`/api/suppliers/${supplierId}/sub-suppliers${query}`, { signal: request.signal, headers: { Accept: "application/json" }, credentials: "same-origin" })
      .then(async (response): Promise<ClientResult> => {
        if (response.status === 403) return { status: "not-shared" };
        if (!response.ok) return { status: "failed" };
        const body = (await response.json()) as { data: SubSupplier[] };
        return { status: "ok", rows: body.data };
      })
      .catch((): ClientResult => ({ status: "failed" }))
      .then((result) => {
        // A newer keystroke has taken over: its answer is the one to show.
        if (request.signal.aborted) return;
        setClient(result);
        setSearching(false);
      });
  };

  const shown: ClientResult = client ?? { status: "ok", rows: serverRows };
  const rows = shown.status === "ok" ? shown.rows : [];
  const pending = searching;

  // The other parameters of the screen (open trees, the statements view, …) ride along.
  const hidden = [...params.entries()].filter(([key]) => key !== PARAM);

  return (
    <div className="flex flex-col gap-3">
      <form
        method="get"
        // Without JavaScript the answer is a new page: the fragment brings the user back to this section.
        action={`${location.pathname}#sub-suppliers`}
        role="search"
        aria-label={t("subSuppliers.searchLabel")}
        className="flex items-end gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          search(inputRef.current?.value ?? "");
        }}
      >
        {hidden.map(([key, value], i) => (
          <input key={`${key}-${i}`} type="hidden" name={key} value={value} />
        ))}
        <label className="flex min-w-0 flex-1 flex-col gap-1">
          <span className="text-xs text-base-content/70">{t("subSuppliers.searchLabel")}</span>
          <input
            ref={inputRef}
            type="search"
            name={PARAM}
            defaultValue={term}
            maxLength={MAX_TERM}
            autoComplete="off"
            placeholder={t("subSuppliers.searchPlaceholder")}
            className="input input-sm w-full"
            onChange={(event) => search(event.currentTarget.value)}
          />
        </label>
        <button type="submit" className="btn btn-sm">
          <Icon name="search" className="size-4" />
          {t("subSuppliers.search")}
        </button>
      </form>

      <p role="status" className="text-xs text-base-content/70">
        {pending ? t("subSuppliers.searching") : rows.length > 0 ? t("subSuppliers.count", { count: rows.length }) : ""}
      </p>

      {shown.status === "not-shared" ? (
        <Empty>{t("subSuppliers.notShared")}</Empty>
      ) : shown.status === "failed" ? (
        <Empty>{t("subSuppliers.error")}</Empty>
      ) : rows.length === 0 ? (
        <Empty>{t("subSuppliers.empty")}</Empty>
      ) : (
        <ul
          aria-label={t("subSuppliers.listLabel")}
          aria-busy={pending || undefined}
          // Scrolls at 14rem (shared/spec/02-supplier-credit-connections.md §9); focusable so the keyboard can scroll it too (axe: scrollable-region-focusable).
          // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
          tabIndex={0}
          className={`max-h-56 divide-y divide-base-300 overflow-y-auto rounded-box border border-base-300 px-3 transition-opacity focus-visible:outline-2 focus-visible:outline-primary ${pending ? "opacity-60" : ""}`}
        >
          {rows.map((s) => {
            const href = subSupplierHref(s);
            return (
              <li key={s.localOrganizationId} className="flex items-baseline gap-3 py-2 text-sm">
                <div className="min-w-0 flex-1">
                  {href ? (
                    <Link to={href} className="link link-hover font-medium break-words">
                      {s.organizationName}
                    </Link>
                  ) : (
                    <span className="font-medium break-words">{s.organizationName}</span>
                  )}
                  {s.organizationId ? (
                    <div className="text-xs text-base-content/70 tabular-nums">{t("subSuppliers.orgNumber", { id: s.organizationId })}</div>
                  ) : null}
                </div>
                <span className="shrink-0 text-right text-base-content/70">
                  <span className="sr-only">{t("subSuppliers.country")}: </span>
                  {(i18n.language === "no" ? s.country.country_name_no : s.country.country_name) ?? MISSING}
                </span>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
