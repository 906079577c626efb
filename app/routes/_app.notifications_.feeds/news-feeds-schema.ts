import { z } from "zod";
import { parseId } from "~/http/ids";
import { isSingleLine } from "~/models/shared/single-line";

/** The news-feed screen's address, the intents of its forms and their schemas, shared by its route and its parts. */

export const PATH = "/notifications/feeds";

/** The forms of this screen, by the `intent` each posts. */
export const FEEDS_INTENT = { add: "add", enable: "enable", disable: "disable", remove: "remove", check: "check" } as const;
export const ROW_INTENTS = [FEEDS_INTENT.enable, FEEDS_INTENT.disable, FEEDS_INTENT.remove, FEEDS_INTENT.check] as const;

export type Translate = (key: string, options?: Record<string, unknown>) => string;

/** Add a feed: the URL (checked further by the model: scheme, credentials, private addresses) and an optional name. */
export const addSchema = (t: Translate) =>
  z.object({
    intent: z.literal(FEEDS_INTENT.add),
    url: z
      .string({ error: t("newsFeeds:errors.required") })
      .trim()
      .min(1, t("newsFeeds:errors.required"))
      .max(2000, t("newsFeeds:errors.too_long")),
    title: z.string().trim().max(200, t("newsFeeds:errors.titleTooLong")).refine(isSingleLine, t("common:errors.singleLine")).optional(),
  });

/** The row actions: a feed of the organisation, by id. */
export const feedSchema = (t: Translate) =>
  z.object({
    intent: z.enum(ROW_INTENTS),
    id: z.string({ error: t("newsFeeds:errors.notFound") }).transform((value, ctx) => {
      const id = parseId(value);
      if (id === null) ctx.addIssue({ code: "custom", message: t("newsFeeds:errors.notFound") });
      return id ?? 0;
    }),
  });
