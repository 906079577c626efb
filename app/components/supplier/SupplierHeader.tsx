import { Link, useLocation, useNavigate, useNavigation } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { useTranslation } from "~/translations";
import { Icon } from "~/components/ui/icons";
import { formatDate } from "~/models/shared/format";
import { roleOrganisationStatus } from "~/models/suppliers/risk";
import type { SupplierScreenData } from "~/models/suppliers/supplier-screen.server";

/** Where the close button leads when there is no page of the app to go back to. */
const CLOSE_FALLBACK = "/suppliers";

/** react-router keeps the position in the history stack in `history.state.idx`. */
function historyIndex(): number | null {
  const state: unknown = typeof window === "undefined" ? null : window.history.state;
  if (typeof state === "object" && state !== null && "idx" in state && typeof state.idx === "number") return state.idx;
  return null;
}

/**
 * The supplier screen's header (shared/spec/02-supplier-credit-connections.md "Supplier detail (full-screen modal)"):
 * the legal name, status badges, a close button and a loading state.
 * Without JavaScript the close button is a link to the supplier list; with it,
 * a user who came from another page of the app goes back there — past the
 * entries the screen's own URL state (toggles, dialogs) added to the history.
 */
export function SupplierHeader({ data }: { data: SupplierScreenData; extra?: string }) {
  const { t, i18n } = useTranslation("supplier");
  const navigate = useNavigate();
  const navigation = useNavigation();
  const location = useLocation();
  const company = data.company;
  const status = roleOrganisationStatus(company);

  // The history entry this supplier was opened at; "default" is the first page of the tab.
  // Only a new supplier is a new entry point; URL-state changes of the same one are not,
  // so the location's key is read (through a ref) when the supplier changes, not watched.
  const locationKey = useRef(location.key);
  locationKey.current = location.key;
  const entry = useRef<{ fromApp: boolean; idx: number | null } | null>(null);
  useEffect(() => {
    entry.current = { fromApp: locationKey.current !== "default", idx: historyIndex() };
  }, [company.organization_id]);

  const onClose = (event: React.MouseEvent<HTMLAnchorElement>) => {
    const opened = entry.current;
    if (!opened?.fromApp || event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    const now = historyIndex();
    navigate(opened.idx !== null && now !== null ? opened.idx - now - 1 : -1);
  };

  const loading = navigation.state !== "idle" && navigation.location?.pathname === location.pathname;

  return (
    <header className="flex items-start gap-3 rounded-box border border-base-300 bg-base-100 px-4 py-3" aria-busy={loading}>
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-center gap-2">
          <h1 className="text-xl font-semibold break-words">{company.legal_name}</h1>
          {status.status === "bankrupt" ? (
            <span className="badge border border-red-300 bg-red-100 text-red-900">
              {t("header.bankrupt", { date: formatDate(status.date, i18n.language) })}
            </span>
          ) : status.status === "inactive" ? (
            <span className="badge border border-yellow-300 bg-yellow-100 text-yellow-900">{t("header.inactive")}</span>
          ) : null}
        </div>
        <p className="text-sm text-base-content/70">{t("header.orgNumber", { id: company.organization_id })}</p>
      </div>
      <div className="flex shrink-0 items-center gap-2">
        <span role="status" className="flex items-center gap-2 text-sm text-base-content/70">
          {loading ? (
            <>
              <span className="loading loading-spinner loading-sm" aria-hidden="true" />
              {t("header.loading")}
            </>
          ) : null}
        </span>
        {data.localId != null ? (
          // A followed supplier: its report on /ai/reports, the supplier chosen (the screen itself needs level 2, as reports do).
          <Link to={`/ai/reports?orgNumber=${company.organization_id}`} className="btn btn-ghost btn-sm" title={t("header.aiReportHint")}>
            {t("header.aiReport")}
          </Link>
        ) : null}
        <Link to={CLOSE_FALLBACK} onClick={onClose} className="btn btn-ghost btn-sm btn-square" aria-label={t("header.close")} title={t("header.close")}>
          <Icon name="x" />
        </Link>
      </div>
    </header>
  );
}
