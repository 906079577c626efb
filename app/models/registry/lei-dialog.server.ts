import { leiProvider, type LeiProvider } from "@server/providers/lei";
import { LeiProviderError } from "@server/providers/lei";
import {
  LEI_QUERY_MAX,
  entityCard,
  managingLouName,
  normalizeLei,
  recordView,
  resultViews,
  type LeiEntityCard,
  type LeiRecordView,
  type LeiResultView,
} from "~/models/registry/lei";
import { withLegalFormName } from "~/models/registry/lei-api.server";

/**
 * The LEI dialog (shared/spec/01-shell-chat-lei.md §2.7) as the server renders it from the URL (components/lei/links.ts): the search's
 * results, or the chosen record with its managing LOU's name, its ultimate parent and — once asked for — its
 * direct children. Without JavaScript this is the whole dialog; with it, the dialog starts from this and then
 * asks `/api/lei-api/*` itself.
 *
 * The spec shows no error in this dialog (§8): a registry that fails gives no results, no parent, no children;
 * the managing LOU's lookup fails silently to its raw value.
 */
export interface LeiDialogData {
  /** The search text as typed (trimmed, cut to LEI_QUERY_MAX). */
  q: string;
  /** A search ran (a non-blank text and no record chosen): the list shows, or "No results.". */
  searched: boolean;
  results: LeiResultView[];
  record: LeiRecordView | null;
  /** The URL asked for a record the registry does not have (or not a valid LEI). */
  recordMissing: boolean;
  managingLouName: string | null;
  parent: LeiEntityCard | null;
  /** null until "Load child entities". */
  children: LeiEntityCard[] | null;
}

async function quietly<T>(call: () => Promise<T>, fallback: T): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!(error instanceof LeiProviderError)) throw error;
    console.error("LEI dialog: the registry failed", { kind: error.kind, status: error.status, error: error.message });
    return fallback;
  }
}

export async function loadLeiDialog(url: URL, provider?: LeiProvider): Promise<LeiDialogData> {
  const registry = provider ?? (await leiProvider());
  const params = url.searchParams;
  const q = (params.get("leiq") ?? "").trim().slice(0, LEI_QUERY_MAX);
  const asked = params.get("lei");
  const lei = normalizeLei(asked);
  const empty: LeiDialogData = { q, searched: false, results: [], record: null, recordMissing: false, managingLouName: null, parent: null, children: null };

  if (asked != null && asked.trim() !== "") {
    if (!lei) return { ...empty, recordMissing: true };
    const [answer, lou, parent, children] = await Promise.all([
      quietly(() => registry.record(lei), null),
      quietly(() => registry.managingLou(lei), null),
      quietly(() => registry.ultimateParent(lei), null),
      params.get("children") === "1" ? quietly(() => registry.directChildren(lei), []) : null,
    ]);
    const record = answer ? recordView((await withLegalFormName(answer)).data) : null;
    if (!record) return { ...empty, recordMissing: true };
    return {
      ...empty,
      record,
      managingLouName: managingLouName(lou),
      parent: parent ? entityCard(parent.data) : null,
      children: children ? children.flatMap((child) => entityCard(child) ?? []) : null,
    };
  }

  // Blank or whitespace: no call (shared/spec/01-shell-chat-lei.md §5).
  if (!q) return empty;
  const items = await quietly(() => registry.autocomplete(q), []);
  return { ...empty, searched: true, results: resultViews(items) };
}
