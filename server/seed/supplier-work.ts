import type { Kysely } from "kysely";
import type { DB } from "../db-types";

export interface SeededOrganizations {
  /** The three customer organisations, by name. */
  customers: Map<string, number>;
  /** Supplier organisations (local), in the order they were created. */
  suppliers: Array<{ id: number; orgNumber: string; name: string }>;
}

/**
 * Local state around suppliers: connections, sub-suppliers and data sharing,
 * uploaded files, compliance tasks with responses, and surveys. Runs after the
 * organisations and accounts exist.
 */
export async function seedSupplierWork(_database: Kysely<DB>, _orgs: SeededOrganizations, _opts: { log: (line: string) => void; today: Date }): Promise<void> {
  // Filled in by the supplier-work seed.
}
