import type { LoaderFunctionArgs } from "@remix-run/node";
import Papa from "papaparse";
import { requireUser } from "~/http/auth.server";
import { fileDownloadResponse } from "~/http/download.server";
import { readQuery } from "~/http/parse.server";
import { methodNotAllowed } from "~/http/responses.server";
import i18nServer from "~/i18n.server";
import { listNotifications } from "~/models/notifications/notification-list.server";
import { notificationPageQuerySchema } from "~/models/notifications/notification-query";
import { osloDate } from "~/models/shared/oslo-time";

/** One export holds at most this many rows, newest first (a year of a large organisation's notifications). */
export const NOTIFICATIONS_CSV_MAX = 50_000;

/**
 * GET /notifications.csv — the notifications /notifications lists with the same filters (every page), in the user's
 * language: UTF-8 with a byte order mark for Excel, cells that start like a formula escaped (titles and descriptions
 * come from outside). A bad filter is a 400 naming it.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request, "notificationsRead");
  const { page: _page, tag, ...query } = readQuery(request, notificationPageQuerySchema);
  const items = await listNotifications(
    { userId: user.id, organizationId: user.organizationId, language: user.language },
    { ...query, tagId: tag },
    { limit: NOTIFICATIONS_CSV_MAX },
  );
  const t = await i18nServer.getFixedT(request, "notifications");
  const yesNo = (value: boolean) => (value ? t("csv.yes") : t("csv.no"));
  const csv = Papa.unparse(
    {
      fields: [
        t("csv.date"),
        t("csv.supplier"),
        t("csv.orgNumber"),
        t("csv.type"),
        t("csv.title"),
        t("csv.description"),
        t("csv.riskScore"),
        t("csv.relevance"),
        t("csv.source"),
        t("csv.url"),
        t("csv.read"),
        t("csv.dismissed"),
        t("csv.reason"),
      ],
      data: items.map((n) => [
        n.date,
        n.organization.organization_name,
        n.organization.id,
        t(`types.${n.type}`),
        n.content.title,
        n.content.risk.description ?? "",
        n.risk_score,
        n.relevance_score,
        n.content.source ?? "",
        n.content.url ?? "",
        yesNo(n.read),
        yesNo(n.dismissed != null),
        n.dismissed?.reason ?? "",
      ]),
    },
    { header: true, newline: "\r\n", escapeFormulae: true },
  );
  const response = fileDownloadResponse(`\uFEFF${csv}\r\n`, { fileName: `notifications-${osloDate(new Date())}.csv`, contentType: "text/csv" });
  response.headers.set("Content-Type", "text/csv; charset=utf-8");
  return response;
}

export function action() {
  throw methodNotAllowed(["GET"]);
}
