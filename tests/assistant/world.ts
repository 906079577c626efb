import { db } from "@server/db";
import { seedDemoWorld, DEMO_CUSTOMERS } from "@server/seed/demo";
import type { AssistantViewer } from "@server/providers/llm/types";
import { recomputeOverallRisk } from "~/models/suppliers/overall-risk.server";
import { createUser } from "../helpers/factory";

/** The demo world (with its stored overall risks), seeded once per test file on a fixed day, and its viewers (analysts of two customer organisations). */
export const TODAY = new Date(Date.UTC(2026, 10, 20, 12));

export async function seedWorld(): Promise<void> {
  await seedDemoWorld(db(), { today: TODAY });
  // The seed queues the recomputation as a job; the tests run it here, on the same day.
  await recomputeOverallRisk({ now: TODAY });
}

export async function viewerOf(customer: (typeof DEMO_CUSTOMERS)[number], language: "en" | "no" = "en"): Promise<AssistantViewer> {
  const org = await db().selectFrom("organizations").select("id").where("name", "=", customer).where("kind", "=", "customer").executeTakeFirstOrThrow();
  // The demo accounts cover two of the customers; the third gets an analyst of its own here.
  const existing = await db().selectFrom("users").select("id").where("organization_id", "=", org.id).where("access_level", "=", 2).executeTakeFirst();
  const userId =
    existing?.id ??
    (await createUser({ email: `analyst-${org.id}@assistant.test`, organizationId: org.id, accessLevel: 2, language, createdAt: TODAY.toISOString() }));
  return { userId, organizationId: org.id, language };
}

/** The organisation's active connections: supplier id, name, number and flags, read straight from the tables. */
export async function connectionsOf(organizationId: number) {
  return db()
    .selectFrom("organization_connections as c")
    .innerJoin("organizations as s", "s.id", "c.child_organization_id")
    .select(["c.id as connectionId", "s.id", "s.name", "s.org_number", "s.country_code", "c.is_priority", "c.is_due_diligence"])
    .where("c.parent_organization_id", "=", organizationId)
    .where("c.is_deleted", "=", 0)
    .execute();
}

/** The supplier ids (localId) of every supplier-screen link in a markdown answer. */
export function linkedLocalIds(markdown: string): number[] {
  return [...markdown.matchAll(/\/supplier\?externalId=\d+&localId=(\d+)/g)].map((m) => Number(m[1]));
}

export { DEMO_CUSTOMERS };
