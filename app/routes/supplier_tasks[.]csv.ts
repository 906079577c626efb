import type { LoaderFunctionArgs } from "@remix-run/node";
import Papa from "papaparse";
import { requireUser } from "~/http/auth.server";
import { fileDownloadResponse } from "~/http/download.server";
import { errorResponse, methodNotAllowed } from "~/http/responses.server";
import i18nServer from "~/i18n.server";
import { SUPPLIER_TASKS_CSV_MAX } from "~/models/tasks/task-list";
import { listSupplierTasks } from "~/models/tasks/task-list.server";
import { parseSupplierTaskQuery, taskFilters } from "~/models/tasks/task-query";
import { osloDate } from "~/models/tasks/task-states";

/**
 * GET /supplier_tasks.csv — what /supplier_tasks lists with the same filters and order (every page), in the user's
 * language: UTF-8 with a byte order mark for Excel, cells that start like a formula escaped (titles, names and
 * addresses are typed by people). A bad filter is a 400 naming it.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request, "supplierTasksRead");
  const url = new URL(request.url);
  const { parsed } = parseSupplierTaskQuery(url);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw errorResponse(400, issue?.message ?? "Invalid filter.", { extra: { field: String(issue?.path[0] ?? "") } });
  }
  const today = osloDate(new Date());
  const items = await listSupplierTasks({
    organizationId: user.organizationId,
    filters: taskFilters(parsed.data),
    sort: parsed.data.sort,
    today,
    limit: SUPPLIER_TASKS_CSV_MAX,
  });
  const t = await i18nServer.getFixedT(request, ["supplierTasks", "taskStates"]);
  const csv = Papa.unparse(
    {
      fields: [
        t("csv.supplier"),
        t("csv.orgNumber"),
        t("csv.type"),
        t("csv.title"),
        t("csv.status"),
        t("csv.dueDate"),
        t("csv.sent"),
        t("csv.submitted"),
        t("csv.recipient"),
        t("csv.answeredBy"),
        t("csv.link"),
      ],
      data: items.map((item) => [
        item.supplier.name,
        item.supplier.orgNumber ?? "",
        t(`taskStates:kind.${item.kind}`),
        item.title,
        t(`taskStates:status.${item.shownStatus}`),
        item.dueDate ?? "",
        osloDate(new Date(item.sentAt)),
        item.submittedAt ? osloDate(new Date(item.submittedAt)) : "",
        item.recipientEmail ?? "",
        item.answeredByName ?? "",
        `${url.origin}/supplier_tasks/${item.id}`,
      ]),
    },
    { header: true, newline: "\r\n", escapeFormulae: true },
  );
  const response = fileDownloadResponse(`\uFEFF${csv}\r\n`, { fileName: `supplier-tasks-${today}.csv`, contentType: "text/csv" });
  response.headers.set("Content-Type", "text/csv; charset=utf-8");
  return response;
}

export function action() {
  throw methodNotAllowed(["GET"]);
}
