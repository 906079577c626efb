import type { SupplierScreenData } from "~/routes/supplier";

/** SCAFFOLDING: replaced by the section's real component. */
export function AnnouncementsSection(_props: { data: SupplierScreenData; extra?: string }) {
  return null;
}
