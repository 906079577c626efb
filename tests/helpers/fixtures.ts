import type { LoaderFunctionArgs } from "@remix-run/node";
import { db } from "@server/db";
import { createSession } from "@server/auth/session";
import { call, get } from "./requests";

/** Builders for integration tests: the rows a test needs, made directly in its own database. */

const AT = "2025-01-01T00:00:00.000Z";

export type Loader = (a: LoaderFunctionArgs) => unknown;

/** Calls a loader with a GET of `url`, route params and, when given, a Bearer token. */
export function request(loader: Loader, url: string, params: Record<string, string> = {}, token?: string): Promise<Response> {
  return call(loader, { request: get(url, token ? { Authorization: `Bearer ${token}` } : {}), params, context: {} });
}

export async function makeOrg(name: string, kind: "customer" | "supplier", orgNumber: string | null = null, countryCode = "NO", sharing = 0): Promise<number> {
  const row = await db()
    .insertInto("organizations")
    .values({ name, kind, org_number: orgNumber, country_code: countryCode, data_sharing_enabled: sharing, created_at: AT })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A user of the organisation with a live session; returns the session token. */
export async function signedIn(email: string, organizationId: number | null, accessLevel = 1): Promise<string> {
  const user = await db()
    .insertInto("users")
    .values({ email, password_hash: "x", language: "en", is_admin: 0, organization_id: organizationId, access_level: accessLevel, created_at: AT })
    .returning("id")
    .executeTakeFirstOrThrow();
  return (await createSession(user.id, null)).token;
}

/** The customer `parent` follows the supplier `child`. */
export async function follow(parent: number, child: number, isDeleted = 0): Promise<void> {
  await db()
    .insertInto("organization_connections")
    .values({ parent_organization_id: parent, child_organization_id: child, is_deleted: isDeleted, created_at: AT, updated_at: AT })
    .execute();
}

export async function company(orgNumber: string, legalName: string): Promise<number> {
  const row = await db()
    .insertInto("companies")
    .values({ org_number: orgNumber, legal_name: legalName, country_code: "NO", source: "seed", updated_at: AT })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}
