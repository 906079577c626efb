import { db } from "@server/db";
import { monthlyTotals, osloMonth, type MonthlyTotal } from "~/models/credit/credit";
import { OPEN_STATUSES } from "~/models/tasks/task-states";

/**
 * /my-organization/overview (decision 041): the organisation's profile, its counts and its credit-report
 * spending per billing month. Every query filters by the session's organisation.
 */

export const SPENDING_MONTHS = 12;

/** The last `count` billing months ('YYYY-MM', Europe/Oslo), newest first, ending with the month of `at`. */
export function lastMonths(at: Date, count: number = SPENDING_MONTHS): string[] {
  const [year, month] = osloMonth(at).split("-").map(Number);
  return Array.from({ length: count }, (_, i) => {
    const index = year * 12 + (month - 1) - i;
    return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, "0")}`;
  });
}

export interface OrganizationOverview {
  name: string;
  kind: "customer" | "supplier";
  orgNumber: string | null;
  countryCode: string;
  members: number;
  followedSuppliers: number;
  openTasks: number;
  openSurveys: number;
  /** One row per month of the last SPENDING_MONTHS, newest first, months without orders at zero. */
  spending: MonthlyTotal[];
}

export async function organizationOverview(input: { organizationId: number; now?: Date }): Promise<OrganizationOverview | null> {
  const org = input.organizationId;
  const months = lastMonths(input.now ?? new Date());
  // A day before the oldest month's first UTC day covers its Oslo start; orders are then grouped by their Oslo month.
  const since = new Date(Date.parse(`${months[months.length - 1]}-01T00:00:00Z`) - 86_400_000).toISOString();
  const [profile, members, followed, open, orders] = await Promise.all([
    db().selectFrom("organizations").select(["name", "kind", "org_number", "country_code"]).where("id", "=", org).executeTakeFirst(),
    db()
      .selectFrom("users")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("organization_id", "=", org)
      .where("deactivated_at", "is", null)
      .executeTakeFirstOrThrow(),
    db()
      .selectFrom("organization_connections")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("parent_organization_id", "=", org)
      .where("is_deleted", "=", 0)
      .executeTakeFirstOrThrow(),
    db()
      .selectFrom("supplier_tasks")
      .select(["kind", (eb) => eb.fn.countAll<number>().as("n")])
      .where("organization_id", "=", org)
      .where("status", "in", [...OPEN_STATUSES])
      .groupBy("kind")
      .execute(),
    db().selectFrom("credit_reports").select(["created_at", "price_nok"]).where("organization_id", "=", org).where("created_at", ">=", since).execute(),
  ]);
  if (!profile) return null;
  const totals = new Map(monthlyTotals(orders.map((o) => ({ createdAt: o.created_at, priceNok: o.price_nok }))).map((m) => [m.month, m]));
  return {
    name: profile.name,
    kind: profile.kind,
    orgNumber: profile.org_number,
    countryCode: profile.country_code,
    members: Number(members.n),
    followedSuppliers: Number(followed.n),
    openTasks: Number(open.find((r) => r.kind === "task")?.n ?? 0),
    openSurveys: Number(open.find((r) => r.kind === "survey")?.n ?? 0),
    spending: months.map((month) => totals.get(month) ?? { month, count: 0, totalNok: 0 }),
  };
}
