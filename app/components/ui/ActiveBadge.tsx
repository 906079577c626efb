/** Whether an account or an organisation is active or deactivated, the same badge on every screen that lists them. */
export function ActiveBadge({ deactivated, labels }: { deactivated: boolean; labels: { active: string; deactivated: string } }) {
  return <span className={`badge badge-sm ${deactivated ? "badge-warning" : "badge-success"}`}>{deactivated ? labels.deactivated : labels.active}</span>;
}
