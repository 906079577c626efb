import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { requireUser } from "~/http/auth.server";
import { currentUserResponse } from "~/http/session.server";

/** GET /api/users/me — the signed-in user (shared/spec/01-shell-chat-lei.md §3, §7). */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return json(currentUserResponse(user, request));
}
