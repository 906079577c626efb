import { createCookieSessionStorage } from "@remix-run/node";
import { Authenticator, AuthorizationError } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { clearLoginFailures, loginLimit, recordLoginFailure } from "@server/auth/rate-limit";
import { normalizeEmail, verifyLogin } from "./user.server";

/**
 * Sign-in goes through remix-auth's form strategy. Sessions are our own
 * (database rows behind the `token` cookie), so the authenticator is used
 * only to verify credentials and never commits its own session.
 */
const unusedStorage = createCookieSessionStorage({ cookie: { name: "__auth_unused", secrets: ["unused"] } });
const authenticator = new Authenticator<number>(unusedStorage, { throwOnError: true });

authenticator.use(
  new FormStrategy(async ({ form, context }) => {
    const email = normalizeEmail(String(form.get("email") ?? ""));
    const password = String(form.get("password") ?? "");
    const address = (context?.clientAddress as string | undefined) ?? null;
    const limit = await loginLimit(email, address);
    if (limit.limited) throw new AuthorizationError(`rate-limited:${limit.retryAfterMinutes}`);
    const userId = await verifyLogin(email, password);
    if (userId == null) {
      await recordLoginFailure(email, address);
      throw new AuthorizationError("invalid");
    }
    await clearLoginFailures(email);
    return userId;
  }),
  "form",
);

export type LoginResult = { ok: true; userId: number } | { ok: false; reason: "invalid" } | { ok: false; reason: "rate-limited"; minutes: number };

export async function login(request: Request, clientAddress: string | null): Promise<LoginResult> {
  try {
    const userId = await authenticator.authenticate("form", request, { context: { clientAddress: clientAddress ?? undefined } });
    return { ok: true, userId };
  } catch (error) {
    if (error instanceof AuthorizationError) {
      const match = error.message.match(/^rate-limited:(\d+)$/);
      if (match) return { ok: false, reason: "rate-limited", minutes: Number(match[1]) };
      return { ok: false, reason: "invalid" };
    }
    throw error;
  }
}
