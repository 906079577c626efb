import type { SerializeFrom } from "@remix-run/node";
import type { loadCreditDialog } from "~/models/credit-dialog.server";

export type CreditDialogData = NonNullable<SerializeFrom<Awaited<ReturnType<typeof loadCreditDialog>>>>;

/** SCAFFOLDING: replaced by the order dialog. */
export function CreditDialog(_props: { dialog: CreditDialogData }) {
  return null;
}
