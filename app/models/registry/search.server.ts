import { refreshSearch } from "~/models/registry/registry-live.server";
import { searchCompanies, searchPersons, type OrganizationHit, type PersonHit } from "~/models/registry/registry.server";

export type SearchTab = "organizations" | "people";

export interface SearchResult {
  q: string;
  tab: SearchTab;
  found: number;
  organizations: OrganizationHit[];
  people: PersonHit[];
}

/** The top-bar search. A failing search shows "no results" (shared/spec/01-shell-chat-lei.md §8), logged for the operator. */
export async function globalSearch(q: string, tab: SearchTab, limit = 10): Promise<SearchResult> {
  const empty: SearchResult = { q, tab, found: 0, organizations: [], people: [] };
  if (!q.trim()) return empty;
  try {
    if (tab === "people") {
      const r = await searchPersons(q, limit);
      return { ...empty, found: r.found, people: r.hits };
    }
    await refreshSearch(q);
    const r = await searchCompanies(q, limit);
    return { ...empty, found: r.found, organizations: r.hits };
  } catch (error) {
    console.error("search failed", { q, tab, error });
    return empty;
  }
}
