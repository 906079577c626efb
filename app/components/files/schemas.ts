import type { SubmissionResult } from "@conform-to/react";
import { z } from "zod";

/**
 * The files forms (upload and delete, posted to /files), built with a
 * translate function so the browser and the server show the same words.
 */
type T = (key: string) => string;

export const FILE_INTENTS = ["upload", "delete"] as const;
export type FileIntent = (typeof FILE_INTENTS)[number];

/** The intent alone: anything else is a 400 with 'This request could not be understood.'. */
export const intentSchema = (t: T) => z.object({ intent: z.enum(FILE_INTENTS, { error: t("files:invalidRequest") }) });

/** The upload form as the browser checks it before posting: a file must be chosen. */
export const uploadFormSchema = (t: T) =>
  z.object({
    intent: z.literal("upload"),
    file: z.custom<File>((value) => typeof File !== "undefined" && value instanceof File && value.name !== "", { error: t("files:selectFirst") }),
  });

/** What /files answers a fetcher (a plain post is redirected instead): Conform's reply, the intent it answers, and what was done. */
export interface FilesActionData {
  /** The intent answered; a refused post answers through the route kit, whose reply names it as text. */
  intent: string | null;
  result: SubmissionResult<string[]>;
  done?: FileIntent;
}
