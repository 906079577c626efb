import { z } from "zod";
import { passwordWeakness } from "~/models/accounts/common-passwords";
import { isSingleLine } from "~/models/shared/single-line";

/**
 * Sign-in and account forms. One schema per form, built with a translate
 * function so the server and the browser show the same words.
 */
type T = (key: string) => string;

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 200;

const email = (t: T) =>
  z
    .string({ error: t("auth:validation.emailRequired") })
    .trim()
    .min(1, t("auth:validation.emailRequired"))
    .max(254, t("auth:validation.emailInvalid"))
    .pipe(z.email({ error: t("auth:validation.emailInvalid") }))
    .transform((v) => v.toLowerCase());

const newPassword = (t: T) =>
  z
    .string({ error: t("auth:validation.passwordRequired") })
    .min(PASSWORD_MIN, t("auth:validation.passwordTooShort"))
    .max(PASSWORD_MAX, t("auth:validation.passwordTooLong"));

/** A new password typed twice; the second must equal the first. */
const passwordPair = (t: T) => ({ password: newPassword(t), confirmPassword: z.string({ error: t("auth:validation.passwordsDiffer") }) });
const samePassword = (t: T): [(v: { password: string; confirmPassword: string }) => boolean, { message: string; path: string[] }] => [
  (v) => v.password === v.confirmPassword,
  { message: t("auth:validation.passwordsDiffer"), path: ["confirmPassword"] },
];

export const loginSchema = (t: T) =>
  z.object({
    email: email(t),
    password: z.string({ error: t("auth:validation.passwordRequired") }).min(1, t("auth:validation.passwordRequired")),
    redirectTo: z.string().optional(),
    /** The unlock link's token, when the owner follows it (docs/decisions/011). */
    unlock: z.string().max(200).optional(),
  });

export const signupSchema = (t: T) =>
  z
    .object({
      organizationName: z
        .string({ error: t("auth:validation.organizationRequired") })
        .trim()
        .min(1, t("auth:validation.organizationRequired"))
        .max(200, t("auth:validation.organizationTooLong"))
        .refine(isSingleLine, t("common:errors.singleLine"))
        // A name has at least one letter or digit (not only invisible or control characters).
        .refine((name) => /[\p{L}\p{N}]/u.test(name), t("auth:validation.organizationRequired")),
      email: email(t),
      ...passwordPair(t),
    })
    .refine(...samePassword(t));

export const inviteSignupSchema = (t: T) => z.object({ token: z.string().min(1), ...passwordPair(t) }).refine(...samePassword(t));

export const forgotPasswordSchema = (t: T) => z.object({ email: email(t) });

export const resetPasswordSchema = (t: T) => z.object({ token: z.string().min(1), ...passwordPair(t) }).refine(...samePassword(t));

/** The mailed confirmation of a sign-up. */
export const signupConfirmSchema = z.object({ token: z.string().min(1).max(200) });

/**
 * /account/change-password (decision 040): the current password, and the new one typed twice — the
 * sign-up's length rule, and not the email, a common password or a trivial pattern (app/models/accounts/common-passwords.ts).
 */
export const changePasswordSchema = (t: T, email: string) =>
  z
    .object({
      currentPassword: z
        .string({ error: t("account:changePassword.errors.currentRequired") })
        .min(1, t("account:changePassword.errors.currentRequired"))
        .max(PASSWORD_MAX),
      ...passwordPair(t),
    })
    .refine(...samePassword(t))
    .superRefine((v, ctx) => {
      const weakness = passwordWeakness(v.password, email);
      if (weakness) ctx.addIssue({ code: "custom", path: ["password"], message: t(`account:changePassword.errors.${weakness}`) });
      else if (v.password === v.currentPassword) ctx.addIssue({ code: "custom", path: ["password"], message: t("account:changePassword.errors.same") });
    });
