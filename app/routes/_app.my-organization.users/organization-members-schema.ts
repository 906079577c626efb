import { z } from "zod";
import { parseId } from "~/http/ids";

/** The forms of /my-organization/users: what each intent posts, checked on the server (messages in the user's language). */

export const MEMBERS_PATH = "/my-organization/users";
export const LEVELS = ["1", "2", "3"] as const;

export const INTENT = {
  invite: "invite",
  level: "level",
  deactivate: "deactivate",
  reactivate: "reactivate",
  resend: "resend",
  revoke: "revoke",
} as const;

type Translate = (key: string, options?: Record<string, unknown>) => string;

const idField = (t: Translate) =>
  z.string({ error: t("organization:users.errors.notFound") }).transform((value, ctx) => {
    const id = parseId(value);
    if (id === null) ctx.addIssue({ code: "custom", message: t("organization:users.errors.notFound") });
    return id ?? 0;
  });
const levelField = (t: Translate) => z.enum(LEVELS, { error: t("organization:users.errors.level") }).transform((v) => Number(v) as 1 | 2 | 3);
const redirectTo = z.string().optional();

export const inviteSchema = (t: Translate) =>
  z.object({
    intent: z.literal(INTENT.invite),
    email: z
      .string({ error: t("organization:users.errors.emailRequired") })
      .trim()
      .min(1, t("organization:users.errors.emailRequired"))
      .max(254, t("organization:users.errors.emailInvalid"))
      .pipe(z.email({ error: t("organization:users.errors.emailInvalid") })),
    accessLevel: levelField(t),
    redirectTo,
  });
export const levelSchema = (t: Translate) => z.object({ intent: z.literal(INTENT.level), id: idField(t), accessLevel: levelField(t), redirectTo });
/** A change of one member or invitation that names only its id. */
export const rowSchema = (t: Translate) =>
  z.object({ intent: z.enum([INTENT.deactivate, INTENT.reactivate, INTENT.resend, INTENT.revoke]), id: idField(t), redirectTo });
