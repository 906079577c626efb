import type { LoaderFunctionArgs } from "@remix-run/node";
import Papa from "papaparse";
import { requireUser } from "~/http/auth.server";
import { fileDownloadResponse } from "~/http/download.server";
import { parseId, readQuery } from "~/http/parse.server";
import { badRequest, methodNotAllowed, notFound } from "~/http/responses.server";
import i18nServer from "~/i18n.server";
import { isLanguage } from "~/i18n";
import { dashboardChart, isOwnTag } from "~/models/overview/dashboard.server";
import { dashboardQuery, DASHBOARD_CHARTS, SNAPSHOT_BANDS } from "~/models/overview/dashboard";
import { osloDate } from "~/models/shared/oslo-time";

/** A share in percent with one decimal, as a plain number (no locale: a spreadsheet reads it). */
const share = (count: number, total: number) => (total > 0 ? Math.round((count * 1000) / total) / 10 : 0);

/**
 * GET /dashboard.csv?chart=bands|countries|industries|regimes|due-diligence (+ the dashboard's tag, priority and dd
 * filters) — the data of one dashboard chart as CSV, the conventions of /suppliers.csv: headers in the user's language,
 * UTF-8 with a byte order mark, formula-like cells escaped, a dated file name.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request, "suppliersRead");
  const { tag, priority, dueDiligence, chart } = readQuery(request, dashboardQuery);
  if (!chart) throw badRequest(`chart must be one of ${DASHBOARD_CHARTS.join(", ")}`);
  const tagId = parseId(tag);
  if (tagId != null && !(await isOwnTag(user.organizationId, tagId))) throw notFound("No such tag in your organization.");
  const locale = await i18nServer.getLocale(request);
  const language = isLanguage(locale) ? locale : "en";
  const filters = { organizationId: user.organizationId, tagId, priority, dueDiligence, language };
  const t = await i18nServer.getFixedT(request, "dashboard");
  let fields: string[];
  let data: Array<Array<string | number>>;
  switch (chart) {
    case "bands": {
      const history = await dashboardChart("bands", filters);
      fields = [t("csv.day"), t("csv.high"), t("csv.medium"), t("csv.low"), t("csv.unknown"), t("csv.total")];
      // Only the days a snapshot was taken: a day without one has no figures, not zeros.
      data = history.days.flatMap(({ day, counts }) =>
        counts ? [[day, counts.red, counts.yellow, counts.green, counts.unknown, SNAPSHOT_BANDS.reduce((n, b) => n + counts[b], 0)]] : [],
      );
      break;
    }
    case "countries": {
      const rows = await dashboardChart("countries", filters);
      fields = [t("csv.countryCode"), t("csv.country"), t("csv.countryRisk"), t("csv.suppliers")];
      data = rows.map((r) => [r.code ?? "", r.code == null ? t("csv.other") : (r.name ?? ""), r.riskScore ?? "", r.count]);
      break;
    }
    case "industries": {
      const rows = await dashboardChart("industries", filters);
      fields = [t("csv.section"), t("csv.industry"), t("csv.suppliers")];
      data = rows.map((r) => [r.section ?? "", r.section == null ? t("industries.unknown") : t(`industries.${r.section}`), r.count]);
      break;
    }
    case "regimes": {
      const r = await dashboardChart("regimes", filters);
      fields = [t("csv.regime"), t("csv.suppliers"), t("csv.assessed")];
      data = (["arp", "transparencyAct", "csrd"] as const).map((key) => [t(`regimes.${key}`), r[key], r.assessed]);
      break;
    }
    case "due-diligence": {
      const r = await dashboardChart("due-diligence", filters);
      fields = [t("csv.underDueDiligence"), t("csv.total"), t("csv.share")];
      data = [[r.count, r.total, share(r.count, r.total)]];
      break;
    }
  }
  const csv = Papa.unparse({ fields, data }, { header: true, newline: "\r\n", escapeFormulae: true });
  const response = fileDownloadResponse(`\uFEFF${csv}\r\n`, { fileName: `dashboard-${chart}-${osloDate(new Date())}.csv`, contentType: "text/csv" });
  // The stored-file download takes a bare media type; this text is ours and is UTF-8.
  response.headers.set("Content-Type", "text/csv; charset=utf-8");
  return response;
}

export function action() {
  throw methodNotAllowed(["GET"]);
}
