/**
 * The installation's administration (decision 042): paging and the rules that keep the installation
 * manageable. Pure: the admin screens and their tests use it.
 */

export const ADMIN_PAGE_SIZE = 25;
export const SEARCH_MAX = 200;

export interface PageWindow {
  page: number;
  pageCount: number;
  pageSize: number;
  offset: number;
}

/** The page to show of `total` rows: a page past the end shows the last one. */
export function pageWindow(total: number, requested: number | null, pageSize: number = ADMIN_PAGE_SIZE): PageWindow {
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const page = Math.min(pageCount, Math.max(1, requested ?? 1));
  return { page, pageCount, pageSize, offset: (page - 1) * pageSize };
}

/** Why an administrator may not change another account (or their own) the way they asked; null when they may. */
export type AccountChangeProblem = "lastAdmin" | "self";

/**
 * Taking away the admin flag (`otherActiveAdmins`: the active administrators besides the target): an administrator may give up their own flag only while another active administrator
 * remains (a handover); the last active administrator is never left without one.
 */
export function adminFlagProblem(input: { targetIsAdmin: boolean; otherActiveAdmins: number }): AccountChangeProblem | null {
  return input.targetIsAdmin && input.otherActiveAdmins === 0 ? "lastAdmin" : null;
}

/**
 * Deactivating an account: never one's own (the session doing it would end mid-action), and never the last active
 * administrator.
 */
export function deactivationProblem(input: {
  actorId: number;
  targetId: number;
  targetIsAdmin: boolean;
  otherActiveAdmins: number;
}): AccountChangeProblem | null {
  if (input.actorId === input.targetId) return "self";
  if (input.targetIsAdmin && input.otherActiveAdmins === 0) return "lastAdmin";
  return null;
}

/** Deactivating an organisation: never the acting administrator's own (they would lock themselves out). */
export function organizationDeactivationProblem(input: { actorOrganizationId: number | null; organizationId: number }): AccountChangeProblem | null {
  return input.actorOrganizationId === input.organizationId ? "self" : null;
}

/** A search term as typed: trimmed, at most SEARCH_MAX characters, null when empty. */
export function searchTerm(raw: string | null): string | null {
  const term = (raw ?? "").trim().slice(0, SEARCH_MAX);
  return term ? term : null;
}

/** A LIKE pattern that matches `term` literally anywhere (`\` escapes % and _). */
export function likePattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The confirmation step of a list's row (`?deactivate={id}`): URL state that no change and no link of the list keeps. */
export const STEP_PARAM = "deactivate";

/** A list's URL (path and search) without its confirmation step. */
export function withoutStep(path: string): string {
  const url = new URL(path, "http://local");
  url.searchParams.delete(STEP_PARAM);
  return url.pathname + url.search;
}

/** A searched list's URL on one page: the search kept, page 1 without the parameter. */
export function listPageHref(path: string, q: string | null, page: number): string {
  const params = new URLSearchParams();
  if (q) params.set("q", q);
  if (page > 1) params.set("page", String(page));
  const query = params.toString();
  return query ? `${path}?${query}` : path;
}
