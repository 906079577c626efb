import { personRelations } from "~/models/registry/person-relations.server";
import { person } from "~/models/registry/registry.server";
import { personTab } from "~/models/registry/registry-params";

/**
 * The person dialog's data (shared/spec/02-supplier-credit-connections.md "Person full-screen modal"): the person
 * with roles, shares and relations. Opened by `?person={id}` on any page.
 * All three tabs are loaded at once, so switching tabs with JavaScript shows
 * the new tab at once while the URL catches up.
 */
export async function loadPersonDialog(personId: number, tab: string | null) {
  if (!Number.isInteger(personId) || personId <= 0) return null;
  const [found, relations] = await Promise.all([person(personId), personRelations(personId)]);
  if (!found) return null;
  return { person: found, tab: personTab(tab), relations };
}
