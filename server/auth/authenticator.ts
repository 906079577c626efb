import { createCookieSessionStorage } from "@remix-run/node";
import { Authenticator, AuthorizationError } from "remix-auth";
import { FormStrategy } from "remix-auth-form";

/**
 * Sign-in credentials are checked through remix-auth's form strategy. Our
 * sessions are our own (database rows behind the `token` cookie), so the
 * authenticator's session storage is never committed. The check itself is
 * handed in by the caller (the user model), so this module knows no tables.
 */
export function formAuthenticator(verify: (form: FormData) => Promise<number | null>): (form: FormData) => Promise<number | null> {
  const unusedStorage = createCookieSessionStorage({ cookie: { name: "__auth_unused", secrets: ["unused"] } });
  const authenticator = new Authenticator<number>(unusedStorage, { throwOnError: true });
  authenticator.use(
    new FormStrategy(async ({ form }) => {
      const userId = await verify(form);
      if (userId == null) throw new AuthorizationError("invalid");
      return userId;
    }),
    "form",
  );
  return async (form) => {
    try {
      return await authenticator.authenticate("form", new Request("http://sign-in.invalid/", { method: "POST", body: form }));
    } catch (error) {
      if (error instanceof AuthorizationError) return null;
      throw error;
    }
  };
}
