import { Link } from "@remix-run/react";
import { useTranslation } from "~/translations";

/** Spec 02 §3: priority 1 lime, 2 green, 3 yellow, 4 orange, 5 red, anything else neutral 'n/a'. */
const PRIORITY_CLASSES: Record<number, string> = {
  1: "border-lime-300 bg-lime-200 text-lime-950",
  2: "border-green-300 bg-green-200 text-green-950",
  3: "border-yellow-300 bg-yellow-200 text-yellow-950",
  4: "border-orange-300 bg-orange-200 text-orange-950",
  5: "border-red-300 bg-red-200 text-red-950",
};

export function PriorityBadge({ priority }: { priority: number | null }) {
  const { t } = useTranslation("casefiles");
  const known = priority != null ? PRIORITY_CLASSES[priority] : undefined;
  return (
    <span className={`badge badge-sm border ${known ?? "badge-neutral badge-outline"}`} data-priority={known ? priority : "none"}>
      {known ? priority : t("priorityNone")}
    </span>
  );
}

export function StatusBadge({ status }: { status: string }) {
  const { t } = useTranslation("casefiles");
  const tone =
    status === "closed"
      ? "badge-ghost"
      : status === "on_hold"
        ? "border-amber-300 bg-amber-100 text-amber-950"
        : status === "in_progress"
          ? "border-sky-300 bg-sky-100 text-sky-950"
          : "border-indigo-300 bg-indigo-100 text-indigo-950";
  return <span className={`badge badge-sm whitespace-nowrap border ${tone}`}>{t(`status.${status}`, { defaultValue: status })}</span>;
}

/** The supplier's name, linking to its screen when it has an organisation number. */
export function SupplierName({ supplier }: { supplier: { name: string; orgNumber: string | null } }) {
  if (!supplier.orgNumber) return <>{supplier.name}</>;
  return (
    <Link to={`/supplier?externalId=${encodeURIComponent(supplier.orgNumber)}`} className="link link-hover">
      {supplier.name}
    </Link>
  );
}
