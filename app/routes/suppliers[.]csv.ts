import type { LoaderFunctionArgs } from "@remix-run/node";
import Papa from "papaparse";
import { requireUser } from "~/http/auth.server";
import { fileDownloadResponse } from "~/http/download.server";
import { parseId, readQuery } from "~/http/parse.server";
import { methodNotAllowed } from "~/http/responses.server";
import i18nServer from "~/i18n.server";
import { isLanguage } from "~/i18n";
import { exportSuppliers, supplierListQuery } from "~/models/suppliers/supplier-list.server";
import { RISK_BAND_LEVEL } from "~/models/suppliers/risk";
import { osloDate } from "~/models/shared/oslo-time";

/**
 * GET /suppliers.csv — the organisation's suppliers as CSV, with the same
 * search, filters and order as /suppliers (all pages). Headers in the user's
 * language; UTF-8 with a byte order mark so that Excel shows æ, ø and å;
 * cells that start like a formula are escaped (papaparse `escapeFormulae`),
 * since company names and tag titles come from outside.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request, "suppliersRead");
  const { tag, page: _page, size: _size, ...rest } = readQuery(request, supplierListQuery);
  const filters = { ...rest, tagId: parseId(tag) };
  const locale = await i18nServer.getLocale(request);
  const rows = await exportSuppliers({ ...filters, organizationId: user.organizationId, language: isLanguage(locale) ? locale : "en" });
  const t = await i18nServer.getFixedT(request, "suppliers");
  const yesNo = (value: boolean) => (value ? t("csv.yes") : t("csv.no"));
  const csv = Papa.unparse(
    {
      fields: [
        t("csv.name"),
        t("csv.orgNumber"),
        t("csv.countryCode"),
        t("csv.country"),
        t("csv.tags"),
        t("csv.priority"),
        t("csv.dueDiligence"),
        t("csv.added"),
        t("csv.risk"),
        t("csv.riskLevel"),
      ],
      data: rows.map((r) => [
        r.name,
        r.orgNumber ?? "",
        r.country.code,
        r.country.name ?? "",
        r.tags.map((tag) => tag.title).join("; "),
        yesNo(r.isPriority),
        yesNo(r.isDueDiligence),
        osloDate(r.createdAt),
        r.overallRisk?.score ?? "",
        r.overallRisk ? t(`risk.${RISK_BAND_LEVEL[r.overallRisk.band]}`) : "",
      ]),
    },
    { header: true, newline: "\r\n", escapeFormulae: true },
  );
  const response = fileDownloadResponse(`\uFEFF${csv}\r\n`, { fileName: `suppliers-${osloDate(new Date())}.csv`, contentType: "text/csv" });
  // The stored-file download takes a bare media type; this text is ours and is UTF-8.
  response.headers.set("Content-Type", "text/csv; charset=utf-8");
  return response;
}

export function action() {
  throw methodNotAllowed(["GET"]);
}
