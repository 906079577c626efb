import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { z } from "zod";
import { requireUser } from "~/http/auth.server";
import { readJson } from "~/http/parse.server";
import { methodNotAllowed } from "~/http/responses.server";
import { createConversation, listConversations } from "~/models/assistant/conversations.server";

/** GET /api/conversations → `[{id, title, createdAt, updatedAt}]`: the user's own, newest `updatedAt` first (shared/spec/01-shell-chat-lei.md §7). */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request, "assistantUse");
  return json(await listConversations({ userId: user.id, organizationId: user.organizationId }));
}

// The spec's body is empty JSON; nothing in it is read.
const body = z.object({}).passthrough();

/** POST /api/conversations `{}` → the new conversation `{id, title, createdAt, updatedAt}`. */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") throw methodNotAllowed(["GET", "POST"]);
  const user = await requireUser(request, "assistantUse");
  await readJson(request, body);
  return json(await createConversation({ userId: user.id, organizationId: user.organizationId }), { status: 201 });
}
