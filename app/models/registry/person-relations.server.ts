import { db } from "@server/db";
import { orgReference, personReference } from "~/models/registry/registry.server";

export interface PersonRelation {
  /** The related person's reference, `/people/{id}`. */
  person: string;
  id: number;
  name: string;
  boardscore: number;
  /** The boards both people sit on now, by company name. */
  sharedBoards: Array<{ organization: string; organization_name: string }>;
}

/**
 * People who sit on the same boards as this person now (shared/spec/02-supplier-credit-connections.md "Person
 * full-screen modal", Relations tab), most shared boards first, then by name.
 * Only held roles count on both sides, as in the supplier's board relations:
 * someone who left a board years ago is no longer a connection to follow.
 * A person with several roles in one company shares that board once.
 */
export async function personRelations(personId: number, limit = 50): Promise<PersonRelation[]> {
  const rows = await db()
    .selectFrom("roles as mine")
    .innerJoin("roles as theirs", (join) => join.onRef("theirs.company_id", "=", "mine.company_id").onRef("theirs.person_id", "<>", "mine.person_id"))
    .innerJoin("persons", "persons.id", "theirs.person_id")
    .innerJoin("companies", "companies.id", "mine.company_id")
    .select(["persons.id", "persons.name", "persons.boardscore", "companies.org_number", "companies.legal_name"])
    .distinct()
    .where("mine.person_id", "=", personId)
    .where("mine.active_to", "is", null)
    .where("theirs.active_to", "is", null)
    .orderBy("companies.legal_name")
    .execute();
  const byPerson = new Map<number, PersonRelation>();
  for (const row of rows) {
    let relation = byPerson.get(row.id);
    if (!relation) {
      relation = { person: personReference(row.id), id: row.id, name: row.name, boardscore: row.boardscore ?? 0, sharedBoards: [] };
      byPerson.set(row.id, relation);
    }
    relation.sharedBoards.push({ organization: orgReference(row.org_number), organization_name: row.legal_name });
  }
  return [...byPerson.values()]
    .sort((a, b) => b.sharedBoards.length - a.sharedBoards.length || a.name.localeCompare(b.name, "nb") || a.id - b.id)
    .slice(0, limit);
}
