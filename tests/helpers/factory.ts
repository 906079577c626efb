import { db, type Db } from "@server/db";
import { createSession } from "@server/auth/session";

/**
 * The one place tests make organisations, users and connections. Each builder takes what the test cares about and
 * fills the rest with the same defaults everywhere; a column a test does not name is left to the schema's default
 * (kysely leaves `undefined` values out). Every builder takes an optional database handle, so a world written inside a
 * transaction (`db().transaction().execute(async (trx) => …)`) or into another file uses the same builders. The bulk
 * forms (`createOrganizations`, `createUsers`, `createConnections`) write one statement for many rows, for the scale
 * worlds.
 */

export const FACTORY_AT = "2025-01-01T00:00:00.000Z";

export interface OrganizationInput {
  name: string;
  kind?: "customer" | "supplier";
  orgNumber?: string | null;
  countryCode?: string;
  dataSharing?: number;
  createdAt?: string;
  deactivatedAt?: string | null;
}

export interface UserInput {
  email: string;
  organizationId: number | null;
  accessLevel?: number;
  isAdmin?: boolean;
  language?: "en" | "no";
  /** The stored hash; tests that sign in with a password hash it with server/auth/password's `hashPassword`. */
  passwordHash?: string;
  createdAt?: string;
  deactivatedAt?: string | null;
}

export interface ConnectionInput {
  /** The customer that follows. */
  parent: number;
  /** The supplier it follows. */
  child: number;
  contactEmail?: string | null;
  priority?: number;
  dueDiligence?: number;
  deleted?: number;
  createdAt?: string;
  /** Defaults to `createdAt`. */
  updatedAt?: string;
  overallRisk?: number | null;
  overallRiskBand?: "green" | "yellow" | "red" | null;
  overallRiskReasons?: string | null;
  overallRiskAt?: string | null;
  naceSection?: string | null;
  complianceFlags?: number | null;
}

function organizationRow(o: OrganizationInput) {
  return {
    name: o.name,
    kind: o.kind ?? "customer",
    org_number: o.orgNumber ?? null,
    country_code: o.countryCode ?? "NO",
    data_sharing_enabled: o.dataSharing,
    created_at: o.createdAt ?? FACTORY_AT,
    deactivated_at: o.deactivatedAt,
  };
}

function userRow(u: UserInput) {
  return {
    email: u.email,
    password_hash: u.passwordHash ?? "x",
    language: u.language ?? "en",
    is_admin: u.isAdmin ? 1 : 0,
    organization_id: u.organizationId,
    access_level: u.accessLevel ?? 1,
    created_at: u.createdAt ?? FACTORY_AT,
    deactivated_at: u.deactivatedAt,
  };
}

function connectionRow(c: ConnectionInput) {
  const createdAt = c.createdAt ?? FACTORY_AT;
  return {
    parent_organization_id: c.parent,
    child_organization_id: c.child,
    contact_email: c.contactEmail,
    is_priority: c.priority,
    is_due_diligence: c.dueDiligence,
    is_deleted: c.deleted,
    created_at: createdAt,
    updated_at: c.updatedAt ?? createdAt,
    overall_risk: c.overallRisk,
    overall_risk_band: c.overallRiskBand,
    overall_risk_reasons: c.overallRiskReasons,
    overall_risk_at: c.overallRiskAt,
    nace_section: c.naceSection,
    compliance_flags: c.complianceFlags,
  };
}

/** An organisation (a customer unless `kind` says otherwise); returns its id. */
export async function createOrganization(input: OrganizationInput, database: Db = db()): Promise<number> {
  return (await database.insertInto("organizations").values(organizationRow(input)).returning("id").executeTakeFirstOrThrow()).id;
}

/** Many organisations in one statement; returns their ids in the given order. */
export async function createOrganizations(inputs: OrganizationInput[], database: Db = db()): Promise<number[]> {
  if (!inputs.length) return [];
  return (await database.insertInto("organizations").values(inputs.map(organizationRow)).returning("id").execute()).map((r) => r.id);
}

/** A user (level 1, English, no administrator, password hash "x" unless given); returns its id. */
export async function createUser(input: UserInput, database: Db = db()): Promise<number> {
  return (await database.insertInto("users").values(userRow(input)).returning("id").executeTakeFirstOrThrow()).id;
}

/** Many users in one statement; returns their ids in the given order. */
export async function createUsers(inputs: UserInput[], database: Db = db()): Promise<number[]> {
  if (!inputs.length) return [];
  return (await database.insertInto("users").values(inputs.map(userRow)).returning("id").execute()).map((r) => r.id);
}

/** A user with a live session; returns the user's id and the session token. */
export async function createSignedInUser(input: UserInput, database: Db = db()): Promise<{ userId: number; token: string }> {
  const userId = await createUser(input, database);
  return { userId, token: (await createSession(userId, null)).token };
}

/** The customer `parent` follows the supplier `child`; returns the connection's id. */
export async function createConnection(input: ConnectionInput, database: Db = db()): Promise<number> {
  return (await database.insertInto("organization_connections").values(connectionRow(input)).returning("id").executeTakeFirstOrThrow()).id;
}

/** Many connections in one statement; returns each one's id with its customer and supplier. */
export async function createConnections(inputs: ConnectionInput[], database: Db = db()): Promise<Array<{ id: number; parent: number; child: number }>> {
  if (!inputs.length) return [];
  const rows = await database
    .insertInto("organization_connections")
    .values(inputs.map(connectionRow))
    .returning(["id", "parent_organization_id", "child_organization_id"])
    .execute();
  return rows.map((r) => ({ id: r.id, parent: r.parent_organization_id, child: r.child_organization_id }));
}
