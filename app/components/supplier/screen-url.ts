import { LEI_DIALOG_PARAMS } from "~/components/lei/links";
import { NOTIFICATIONS_PANEL_PARAMS } from "~/models/notifications/notifications";

/**
 * The supplier screen's URL state (every part reachable without JavaScript):
 *   externalId   the organisation number (required)     localId   the local organisation id
 *   view=statements          the full financial statements page
 *   chart={field}            the chart of one statements row (on that page)
 *   tree={orgnr}             an expanded ownership tree (repeatable)
 *   task={responseId}        the task response modal
 *   announcements=all        every announcement, not only the newest 5
 *   intelligence=expanded    the supplier intelligence with descriptions
 *   subSearch={text}         the sub-supplier search
 *   person={id}&personTab=cv|shares|relations   the person dialog (shell-wide)
 *   dialog=credit            the credit report order dialog (shell-wide)
 */
export type ScreenParam = "view" | "chart" | "tree" | "task" | "announcements" | "intelligence" | "subSearch" | "person" | "personTab" | "dialog";

/** The current search with some parameters set (a value of null removes the parameter). */
export function withParams(search: string, changes: Partial<Record<ScreenParam | string, string | null>>): string {
  const params = new URLSearchParams(search);
  for (const [key, value] of Object.entries(changes)) {
    if (value == null) params.delete(key);
    else params.set(key, value);
  }
  return `?${params}`;
}

/** Adds or removes one value of a repeatable parameter (tree=…). */
export function toggleParam(search: string, key: ScreenParam, value: string): string {
  const params = new URLSearchParams(search);
  const values = params.getAll(key);
  params.delete(key);
  for (const v of values) if (v !== value) params.append(key, v);
  if (!values.includes(value)) params.append(key, value);
  return `?${params}`;
}

/** URL state that only changes what is shown of data the page already has. */
const DISPLAY_ONLY_PARAMS = [
  "view",
  "chart",
  "announcements",
  "intelligence",
  "person",
  "personTab",
  "edit",
  "dialog",
  "confirm",
  "comment",
  "file",
  "tag",
  // A task's state dialog shows what the page already has (taskItems).
  "item",
  // The shell's panels and the LEI dialog: the layout's loader answers them.
  ...NOTIFICATIONS_PANEL_PARAMS,
  ...LEI_DIALOG_PARAMS,
];

/** Whether two searches of the screen ask for the same supplier data (they differ only in what is shown of it). */
export function sameSupplierData(current: string, next: string): boolean {
  const dataParams = (search: string) => {
    const params = new URLSearchParams(search);
    for (const key of DISPLAY_ONLY_PARAMS) params.delete(key);
    params.sort();
    return params.toString();
  };
  return dataParams(current) === dataParams(next);
}
