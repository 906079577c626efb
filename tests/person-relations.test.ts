import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@server/db";
import { loadPersonDialog } from "~/models/registry/person-dialog.server";
import { personRelations } from "~/models/registry/person-relations.server";

/**
 * A small board world:
 *   Alpha AS  — Anna (chair), Bjørn, Cecilie, Erik (left in 2020)
 *   Beta AS   — Anna, Bjørn (two roles), Dag
 *   Gamma AS  — Anna, Bjørn, Cecilie
 *   Delta AS  — Dag, Frida (Anna is not on it)
 *   Omega AS  — Anna left in 2019, Gunnar still sits there
 * Seen from Anna: Bjørn shares 3 boards, Cecilie 2, Dag 1; Erik, Frida and
 * Gunnar share none that both hold now. Hanne sits on no board.
 */
const ids: Record<string, number> = {};

beforeAll(async () => {
  const now = new Date().toISOString();
  for (const [name, org] of [
    ["Alpha AS", "900000001"],
    ["Beta AS", "900000002"],
    ["Gamma AS", "900000003"],
    ["Delta AS", "900000004"],
    ["Omega AS", "900000005"],
  ] as const) {
    const row = await db()
      .insertInto("companies")
      .values({ org_number: org, country_code: "NO", legal_name: name, source: "seed", updated_at: now })
      .returning("id")
      .executeTakeFirstOrThrow();
    ids[name] = row.id;
  }
  for (const [name, score] of [
    ["Anna Aas", 80],
    ["Bjørn Berg", 60],
    ["Cecilie Dahl", 55],
    ["Dag Eng", 40],
    ["Erik Fjell", 30],
    ["Frida Gran", 20],
    ["Gunnar Hagen", 10],
    ["Hanne Lie", 5],
  ] as const) {
    const row = await db()
      .insertInto("persons")
      .values({ name, boardscore: score, birth_year: 1970, sex: "F", country_code: "NO" })
      .returning("id")
      .executeTakeFirstOrThrow();
    ids[name] = row.id;
  }
  const role = (person: string, company: string, position: string, active_to: string | null = null) => ({
    person_id: ids[person],
    company_id: ids[company],
    position,
    active_from: "2015-01-01",
    active_to,
  });
  await db()
    .insertInto("roles")
    .values([
      role("Anna Aas", "Alpha AS", "Styreleder"),
      role("Bjørn Berg", "Alpha AS", "Styremedlem"),
      role("Cecilie Dahl", "Alpha AS", "Styremedlem"),
      role("Erik Fjell", "Alpha AS", "Styremedlem", "2020-06-30"),
      role("Anna Aas", "Beta AS", "Styremedlem"),
      role("Bjørn Berg", "Beta AS", "Daglig leder"),
      role("Bjørn Berg", "Beta AS", "Styremedlem"),
      role("Dag Eng", "Beta AS", "Styremedlem"),
      role("Anna Aas", "Gamma AS", "Styremedlem"),
      role("Bjørn Berg", "Gamma AS", "Styremedlem"),
      role("Cecilie Dahl", "Gamma AS", "Styreleder"),
      role("Dag Eng", "Delta AS", "Styreleder"),
      role("Frida Gran", "Delta AS", "Styremedlem"),
      role("Anna Aas", "Omega AS", "Styremedlem", "2019-12-31"),
      role("Gunnar Hagen", "Omega AS", "Styreleder"),
    ])
    .execute();
});

describe("personRelations", () => {
  it("lists the people on shared boards, most shared boards first", async () => {
    const relations = await personRelations(ids["Anna Aas"]);
    expect(relations.map((r) => [r.name, r.sharedBoards.length])).toEqual([
      ["Bjørn Berg", 3],
      ["Cecilie Dahl", 2],
      ["Dag Eng", 1],
    ]);
  });

  it("names each shared board once, as a reference and a name", async () => {
    const [bjorn] = await personRelations(ids["Anna Aas"]);
    expect(bjorn.person).toBe(`/people/${ids["Bjørn Berg"]}`);
    expect(bjorn.id).toBe(ids["Bjørn Berg"]);
    expect(bjorn.boardscore).toBe(60);
    expect(bjorn.sharedBoards).toEqual([
      { organization: "/organizations/900000001", organization_name: "Alpha AS" },
      { organization: "/organizations/900000002", organization_name: "Beta AS" },
      { organization: "/organizations/900000003", organization_name: "Gamma AS" },
    ]);
  });

  it("leaves out the person themself and roles that have ended on either side", async () => {
    const names = (await personRelations(ids["Anna Aas"])).map((r) => r.name);
    expect(names).not.toContain("Anna Aas");
    expect(names).not.toContain("Erik Fjell"); // left Alpha
    expect(names).not.toContain("Gunnar Hagen"); // Anna left Omega
    expect(names).not.toContain("Frida Gran"); // only a relation of a relation
  });

  it("breaks ties by name and is symmetric", async () => {
    const fromDag = await personRelations(ids["Dag Eng"]);
    expect(fromDag.map((r) => r.name)).toEqual(["Anna Aas", "Bjørn Berg", "Frida Gran"]);
    const fromBjorn = await personRelations(ids["Bjørn Berg"]);
    expect(fromBjorn.find((r) => r.name === "Anna Aas")?.sharedBoards).toHaveLength(3);
  });

  it("is empty for a person without a board and for a former board member only", async () => {
    expect(await personRelations(ids["Hanne Lie"])).toEqual([]);
    expect(await personRelations(ids["Erik Fjell"])).toEqual([]);
    expect(await personRelations(999_999)).toEqual([]);
  });

  it("honours the limit", async () => {
    expect((await personRelations(ids["Anna Aas"], 2)).map((r) => r.name)).toEqual(["Bjørn Berg", "Cecilie Dahl"]);
  });
});

describe("loadPersonDialog", () => {
  it("carries the relations with the person and the tab", async () => {
    const dialog = await loadPersonDialog(ids["Anna Aas"], "relations");
    expect(dialog?.person.name).toBe("Anna Aas");
    expect(dialog?.tab).toBe("relations");
    expect(dialog?.relations.map((r) => r.name)).toEqual(["Bjørn Berg", "Cecilie Dahl", "Dag Eng"]);
  });

  it("falls back to the CV tab and answers null for an unknown person", async () => {
    expect((await loadPersonDialog(ids["Hanne Lie"], "bogus"))?.tab).toBe("cv");
    expect(await loadPersonDialog(999_999, null)).toBeNull();
    expect(await loadPersonDialog(Number("abc"), null)).toBeNull();
  });
});
