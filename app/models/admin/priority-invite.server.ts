import { db } from "@server/db";
import { sendInvitation } from "~/models/accounts/auth-mail.server";
import { recordSecurityEvent, type RequestSource } from "~/models/accounts/security-events.server";
import { createInvitation, normalizeEmail, type Language } from "~/models/accounts/users.server";

/**
 * Inviting a customer organisation's priority suppliers' contacts (decision 044): for each priority supplier
 * the customer follows with a contact e-mail, an invitation into the supplier's organisation at level 1 through the
 * ordinary invitation flow, mailed once. Never twice for one address and supplier: an address that has an account, or
 * that was ever invited into that supplier's organisation, is skipped.
 */

export type ContactState = "ready" | "user" | "invited" | "noEmail" | "inactive";

export interface PriorityContact {
  connectionId: number;
  supplierOrganizationId: number;
  supplierName: string;
  email: string | null;
  state: ContactState;
}

/** The customer organisation (not a supplier, not missing), or undefined. */
export function findCustomerOrganization(id: number) {
  return db().selectFrom("organizations").select(["id", "name"]).where("id", "=", id).where("kind", "=", "customer").executeTakeFirst();
}

/** The customer's priority suppliers (followed, not removed) with their contact address and whether it can be invited. */
export async function priorityContacts(customerId: number): Promise<PriorityContact[]> {
  const rows = await db()
    .selectFrom("organization_connections as c")
    .innerJoin("organizations as s", "s.id", "c.child_organization_id")
    .select(["c.id", "c.child_organization_id", "c.contact_email", "s.name", "s.deactivated_at"])
    .where("c.parent_organization_id", "=", customerId)
    .where("c.is_priority", "=", 1)
    .where("c.is_deleted", "=", 0)
    .orderBy("s.name")
    .orderBy("c.id")
    .execute();
  const emails = [...new Set(rows.map((r) => (r.contact_email?.trim() ? normalizeEmail(r.contact_email) : null)).filter((e): e is string => e !== null))];
  const users = new Set(emails.length ? (await db().selectFrom("users").select("email").where("email", "in", emails).execute()).map((u) => u.email) : []);
  const invited = new Set(
    emails.length
      ? (await db().selectFrom("invitations").select(["email", "organization_id"]).where("email", "in", emails).execute()).map(
          (i) => `${i.organization_id}:${i.email}`,
        )
      : [],
  );
  return rows.map((r) => {
    const email = r.contact_email?.trim() ? normalizeEmail(r.contact_email) : null;
    const state: ContactState = !email
      ? "noEmail"
      : users.has(email)
        ? "user"
        : invited.has(`${r.child_organization_id}:${email}`)
          ? "invited"
          : r.deactivated_at
            ? "inactive"
            : "ready";
    return { connectionId: r.id, supplierOrganizationId: r.child_organization_id, supplierName: r.name, email, state };
  });
}

export interface InviteSummary {
  invited: { supplierName: string; email: string }[];
  skipped: { supplierName: string; email: string | null; reason: Exclude<ContactState, "ready"> }[];
  failed: { supplierName: string; email: string }[];
}

/**
 * Invites every contact that is "ready", one mail each. The same address for two suppliers gets one invitation per
 * supplier; the same address and supplier twice in one run (two connections) only once. A mail that fails leaves its
 * invitation (the address counts as invited from then on) and is in the mail log to be sent again from /admin/send-old.
 */
export async function invitePriorityContacts(input: {
  customer: { id: number; name: string };
  invitedBy: number;
  origin: string;
  language: Language;
  source: RequestSource | null;
}): Promise<InviteSummary> {
  const summary: InviteSummary = { invited: [], skipped: [], failed: [] };
  const done = new Set<string>();
  for (const contact of await priorityContacts(input.customer.id)) {
    if (contact.state !== "ready" || !contact.email) {
      summary.skipped.push({ supplierName: contact.supplierName, email: contact.email, reason: contact.state === "ready" ? "noEmail" : contact.state });
      continue;
    }
    const key = `${contact.supplierOrganizationId}:${contact.email}`;
    if (done.has(key)) {
      summary.skipped.push({ supplierName: contact.supplierName, email: contact.email, reason: "invited" });
      continue;
    }
    done.add(key);
    const token = await createInvitation({ email: contact.email, organizationId: contact.supplierOrganizationId, accessLevel: 1, invitedBy: input.invitedBy });
    await recordSecurityEvent({
      kind: "invitation_sent",
      userId: null,
      email: contact.email,
      actorUserId: input.invitedBy,
      organizationId: contact.supplierOrganizationId,
      source: input.source,
      detail: { accessLevel: 1, priorityOf: input.customer.id },
    });
    const mailed = await sendInvitation(input.origin, {
      variant: "supplier",
      email: contact.email,
      token,
      language: input.language,
      organization: contact.supplierName,
      invitedBy: input.customer.name,
    });
    (mailed ? summary.invited : summary.failed).push({ supplierName: contact.supplierName, email: contact.email });
  }
  return summary;
}
