import { formAuthenticator } from "@server/auth/authenticator";
import { clearAccountFailures, clearLoginFailures, loginLimit, recordLoginFailure } from "@server/auth/rate-limit";
import { env } from "@server/env";
import { recordSecurityEvent } from "~/models/accounts/security-events.server";
import {
  createAccountUnlock,
  findOpenAccountUnlock,
  findUserByEmail,
  normalizeEmail,
  redeemAccountUnlock,
  verifyLogin,
  type Language,
} from "~/models/accounts/users.server";

/** Credentials through remix-auth's form strategy; the limits on guessing (server/auth/rate-limit.ts) apply before it runs. */
const checkCredentials = formAuthenticator((form) => verifyLogin(String(form.get("email") ?? ""), String(form.get("password") ?? "")));

export type LoginResult =
  | { ok: true; userId: number }
  | { ok: false; reason: "invalid" }
  | { ok: false; reason: "rate-limited"; minutes: number }
  /** Many failures from many addresses: only a known browser or the mailed unlock link signs in. `unlockMail` is a new link to send, if any. */
  | { ok: false; reason: "protected"; unlockMail: { email: string; language: Language; token: string } | null };

/**
 * Checks a sign-in form (already read and normalised by the route).
 * `knownUserIds`: accounts this browser has signed in to before.
 */
export async function login(
  form: FormData,
  { clientAddress, knownUserIds, userAgent = null }: { clientAddress: string | null; knownUserIds: number[]; userAgent?: string | null },
): Promise<LoginResult> {
  const email = normalizeEmail(String(form.get("email") ?? ""));
  const account = await findUserByEmail(email);
  // Every attempt goes to the security log (decision 039), with the account when the address has one.
  const log = (kind: "sign_in" | "sign_in_failed", detail?: Record<string, unknown>) =>
    recordSecurityEvent({
      kind,
      userId: account?.id ?? null,
      email: email.slice(0, 320),
      organizationId: account?.organization_id ?? null,
      source: { ip: clientAddress, userAgent: userAgent?.slice(0, 300) ?? null },
      detail,
    });
  const unlock = account ? await findOpenAccountUnlock(String(form.get("unlock") ?? ""), account.id) : undefined;
  const limit = await loginLimit({
    email,
    address: clientAddress,
    knownBrowser: Boolean(account && knownUserIds.includes(account.id)),
    unlocked: Boolean(unlock),
  });
  if (limit.limited) {
    await log("sign_in_failed", { reason: limit.reason });
    if (limit.reason === "slowed") return { ok: false, reason: "rate-limited", minutes: limit.retryAfterMinutes };
    // The same answer for an unknown email; only a real owner gets a mail.
    const token = account ? await createAccountUnlock(account.id, env().LOGIN_WINDOW_MINUTES) : null;
    return { ok: false, reason: "protected", unlockMail: account && token ? { email: account.email, language: account.language, token } : null };
  }

  const userId = await checkCredentials(form);
  if (userId == null) {
    await recordLoginFailure(email, clientAddress);
    await log("sign_in_failed", { reason: account && (account.deactivated_at || account.organization_deactivated_at) ? "deactivated" : "invalid" });
    return { ok: false, reason: "invalid" };
  }
  await clearLoginFailures(email, clientAddress);
  if (unlock) {
    await redeemAccountUnlock(unlock.id);
    await clearAccountFailures(email);
  }
  await log("sign_in");
  return { ok: true, userId };
}
