import type { Kysely } from "kysely";
import type { DB } from "../db-types";
import type { SeededOrganizations } from "./supplier-work";

/**
 * The customers' supplier lists at a realistic size (20–200 connections each)
 * with tags, comments, attached files and case files. Runs after the supplier work.
 * SCAFFOLDING: being built.
 */
export async function seedConnectionWork(_database: Kysely<DB>, _orgs: SeededOrganizations, _opts: { log: (line: string) => void; today: Date }): Promise<void> {}
