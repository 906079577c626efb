import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { requireUser } from "~/http/auth.server";
import { readQuery } from "~/http/parse.server";
import { methodNotAllowed } from "~/http/responses.server";
import { listNotifications } from "~/models/notifications/notification-list.server";
import { notificationQuerySchema } from "~/models/notifications/notification-query";

/**
 * GET /api/notifications?minRiskScore&lookbackDays&type&limit&offset (shared/spec/01-shell-chat-lei.md §7) — `{data: [notification]}`, newest
 * first: the risk notifications about the user's organisation's followed suppliers that it has not dismissed. Defaults
 * (spec §9): minimum risk score 50, lookback 30 days, type all, 25 per page; a larger limit is capped at 100. A bad number
 * or type is a 400 naming the parameter.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request, "notificationsRead");
  const { limit, offset, ...filters } = readQuery(request, notificationQuerySchema);
  const data = await listNotifications({ userId: user.id, organizationId: user.organizationId, language: user.language }, filters, { limit, offset });
  // The spec's shape only (no per-user fields: the list of the page and the panel carry those).
  return json({ data: data.map(({ read: _read, dismissed: _dismissed, kind: _kind, ...notification }) => notification) });
}

export function action() {
  throw methodNotAllowed(["GET"]);
}
