import { Link, useLocation, useNavigate, useNavigation, useSearchParams } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { Icon } from "~/components/ui/icons";
import { MISSING } from "~/models/format";
import type { SupplierScreenData } from "~/models/supplier-page.server";
import { withParams } from "./screen-url";
import { Empty, Section } from "./Section";

/** Pause after the last keystroke before the search runs (spec 02 §5: it re-runs on each change of the text). */
export const SUB_SEARCH_DEBOUNCE_MS = 250;
const PARAM = "subSearch";

type SubSupplier = Extract<SupplierScreenData["subSuppliers"], { status: "ok" }>["data"][number];

export function subSupplierHref(s: Pick<SubSupplier, "organizationId" | "localOrganizationId">): string | null {
  if (s.organizationId == null) return null;
  return `/supplier?${new URLSearchParams({ externalId: s.organizationId, localId: String(s.localOrganizationId) })}`;
}

/**
 * The supplier's own suppliers (spec 02 "Sub-suppliers", §5, §6). The search
 * is a GET form on this screen (`subSearch`, the rest of the URL kept in
 * hidden fields), answered by the server; with JavaScript it runs as the user
 * types and replaces the history entry instead of adding one per keystroke.
 */
export function SubSuppliersSection({ data }: { data: SupplierScreenData; extra?: string }) {
  const { t } = useTranslation("supplierWork");
  const result = data.subSuppliers;
  let body: React.ReactNode;
  switch (result.status) {
    case "ok":
      body = <SubSupplierSearch rows={result.data} />;
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

function SubSupplierSearch({ rows }: { rows: SubSupplier[] }) {
  const { t, i18n } = useTranslation("supplierWork");
  const location = useLocation();
  const navigate = useNavigate();
  const navigation = useNavigation();
  const [params] = useSearchParams();
  const term = params.get(PARAM) ?? "";
  const inputRef = useRef<HTMLInputElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  const searchRef = useRef(location.search);
  searchRef.current = location.search;

  // Back/forward changes the URL under the field: show its term, unless the user is typing.
  useEffect(() => {
    const input = inputRef.current;
    if (input && document.activeElement !== input && input.value !== term) input.value = term;
  }, [term]);
  useEffect(() => () => clearTimeout(timer.current), []);

  const run = (value: string, replace: boolean) => {
    clearTimeout(timer.current);
    const next = withParams(searchRef.current, { [PARAM]: value.trim() ? value : null });
    if (next !== `?${new URLSearchParams(searchRef.current)}`) navigate(`${location.pathname}${next}`, { replace, preventScrollReset: true });
  };

  const pending =
    navigation.state === "loading" &&
    navigation.location.pathname === location.pathname &&
    (new URLSearchParams(navigation.location.search).get(PARAM) ?? "") !== term;

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
          run(inputRef.current?.value ?? "", false);
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
            maxLength={100}
            autoComplete="off"
            placeholder={t("subSuppliers.searchPlaceholder")}
            className="input input-sm w-full"
            onChange={(event) => {
              const value = event.currentTarget.value;
              clearTimeout(timer.current);
              timer.current = setTimeout(() => run(value, true), SUB_SEARCH_DEBOUNCE_MS);
            }}
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

      {rows.length === 0 ? (
        <Empty>{t("subSuppliers.empty")}</Empty>
      ) : (
        <ul
          aria-label={t("subSuppliers.listLabel")}
          aria-busy={pending || undefined}
          // Scrolls at 14rem (spec 02 §9); focusable so the keyboard can scroll it too.
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
