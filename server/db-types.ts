import type { Generated } from "kysely";

/**
 * The typed shape of the database. Each migration that adds a table adds
 * its interface here. Booleans are stored as 0/1 integers.
 */

export interface OrganizationTable {
  id: Generated<number>;
  name: string;
  /** 'customer' follows suppliers; 'supplier' answers tasks and surveys. */
  kind: "customer" | "supplier";
  /** Norwegian organisation number (9 digits) when known. */
  org_number: string | null;
  country_code: string;
  created_at: string;
}

export interface UserTable {
  id: Generated<number>;
  email: string;
  password_hash: string;
  language: "en" | "no";
  is_admin: number;
  organization_id: number | null;
  /** Organisation access level: 1 viewer, 2 analyst, 3 manager. */
  access_level: number;
  created_at: string;
}

export interface SessionTable {
  /** sha256 of the token; the token itself is only in the user's cookie. */
  id: string;
  user_id: number;
  created_at: string;
  expires_at: string;
  user_agent: string | null;
}

export interface InvitationTable {
  id: Generated<number>;
  token_hash: string;
  email: string;
  organization_id: number;
  access_level: number;
  invited_by: number | null;
  created_at: string;
  expires_at: string;
  accepted_at: string | null;
}

export interface PasswordResetTable {
  id: Generated<number>;
  token_hash: string;
  user_id: number;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface LoginFailureTable {
  id: Generated<number>;
  /** 'account:{email}' or 'address:{ip}' */
  key: string;
  at: string;
}

export interface DB {
  organizations: OrganizationTable;
  users: UserTable;
  sessions: SessionTable;
  invitations: InvitationTable;
  password_resets: PasswordResetTable;
  login_failures: LoginFailureTable;
}
