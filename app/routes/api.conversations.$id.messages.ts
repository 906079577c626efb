import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { z } from "zod";
import { requireUser } from "~/http/auth.server";
import { parseId, readJson, requireId } from "~/http/parse.server";
import { errorResponse, methodNotAllowed } from "~/http/responses.server";
import { addMessage, listMessages, MESSAGE_LIMIT } from "~/models/assistant/conversations.server";
import { isOwnDocument } from "~/models/files/documents.server";

const NOT_FOUND = "No conversation with this id.";

/** GET /api/conversations/{id}/messages → `[{id, text, is_assistant, fileUpload}]` in order; another user's conversation is a 404. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, "assistantUse");
  const id = requireId(params.id);
  const messages = await listMessages({ userId: user.id, organizationId: user.organizationId }, id);
  if (!messages) throw errorResponse(404, NOT_FOUND);
  return json(messages);
}

const body = z.object({
  text: z.string({ error: "text must be a string" }).max(MESSAGE_LIMIT, { error: `a message has at most ${MESSAGE_LIMIT.toLocaleString("en-GB")} characters` }),
  is_assistant: z.boolean({ error: "is_assistant must be true or false" }).optional().default(false),
  fileUploadId: z.union([z.number(), z.string(), z.null()], { error: "fileUploadId must be a positive whole number" }).optional(),
});

/**
 * POST /api/conversations/{id}/messages `{text, is_assistant, fileUploadId?}` → the saved message (201). `fileUploadId`
 * attaches one of the user's own documents (/ai/documents): anyone else's file is a 404, a malformed id a 400.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") throw methodNotAllowed(["GET", "POST"]);
  const user = await requireUser(request, "assistantUse");
  const id = requireId(params.id);
  const input = await readJson(request, body);
  if (!input.is_assistant && !input.text.trim()) throw errorResponse(400, "text: a blank message is not saved.", { extra: { field: "text" } });
  const owner = { userId: user.id, organizationId: user.organizationId };
  let fileUploadId: number | null = null;
  if (input.fileUploadId != null && input.fileUploadId !== "") {
    fileUploadId = parseId(String(input.fileUploadId));
    if (fileUploadId === null) throw errorResponse(400, "fileUploadId must be a positive whole number", { extra: { field: "fileUploadId" } });
    if (!(await isOwnDocument(owner, fileUploadId))) throw errorResponse(404, "No document with this id.");
  }
  const saved = await addMessage(owner, id, { text: input.text, isAssistant: input.is_assistant, fileUploadId });
  if (!saved) throw errorResponse(404, NOT_FOUND);
  return json(saved, { status: 201 });
}
