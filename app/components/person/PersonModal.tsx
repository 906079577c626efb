import type { SerializeFrom } from "@remix-run/node";
import type { loadPersonDialog } from "~/models/person-dialog.server";

export type PersonDialogData = NonNullable<SerializeFrom<Awaited<ReturnType<typeof loadPersonDialog>>>>;

/** SCAFFOLDING: replaced by the person dialog. */
export function PersonModal(_props: { dialog: PersonDialogData }) {
  return null;
}
