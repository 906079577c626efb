import type { Kysely } from "kysely";
import type { DB } from "../db-types";

/**
 * The registry part of the demo world: the real Brønnøysund sample and
 * generated statements, people, roles, shareholdings, announcements, risk
 * notifications and supplier intelligence. Runs before the organisations.
 */
export async function seedRegistryWorld(_database: Kysely<DB>, _opts: { log: (line: string) => void; today: Date }): Promise<void> {
  // Filled in by the registry seed work.
}
