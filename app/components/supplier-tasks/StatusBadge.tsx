import { useTranslation } from "~/translations";
import type { StatusFilter } from "~/models/tasks/task-states";

/** Badge colour per shown status: what needs the customer stands out, what is closed is muted. */
const STATUS_CLASS: Record<StatusFilter, string> = {
  sent: "badge-outline",
  opened: "badge-info badge-soft",
  draft: "badge-info badge-soft",
  submitted: "badge-primary",
  accepted: "badge-success badge-soft",
  returned: "badge-warning badge-soft",
  cancelled: "badge-ghost text-base-content/70",
  overdue: "badge-error badge-soft",
};

/** A task's or survey's status as the lists show it (taskStates' words; "Overdue" derived by displayStatus). */
export function StatusBadge({ status }: { status: StatusFilter }) {
  const { t } = useTranslation("taskStates");
  return <span className={`badge badge-sm whitespace-nowrap ${STATUS_CLASS[status]}`}>{t(`status.${status}`)}</span>;
}

/** The supplier screen of a supplier organisation (shared/spec/01-shell-chat-lei.md §2.4: externalId, and localId when known). */
export function supplierScreenHref(supplier: { id: number; orgNumber: string | null }): string {
  const params = new URLSearchParams({ externalId: supplier.orgNumber ?? "", localId: String(supplier.id) });
  return `/supplier?${params}`;
}
