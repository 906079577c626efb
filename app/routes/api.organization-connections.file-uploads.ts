import type { ActionFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { z } from "zod";
import { apiError, parseQuery } from "@server/http";
import { apiAnswer, attachFile, detachFile } from "~/models/connections.server";
import { requireApiUser, requireOrganization } from "~/models/session.server";

const positiveId = z.coerce.number({ error: "is required" }).int("must be a positive whole number").positive("must be a positive whole number");
const pair = z.object({ connectionId: positiveId, fileId: positiveId });
const jsonPair = z.object({
  connectionId: z.number({ error: "must be a number" }).int().positive("must be a positive whole number"),
  fileId: z.number({ error: "must be a number" }).int().positive("must be a positive whole number"),
});

/**
 * POST /api/organization-connections/file-uploads {connectionId, fileId}: attach;
 * DELETE /api/organization-connections/file-uploads?connectionId=&fileId=: detach.
 * Both the connection and the file must be the session organisation's (else 404).
 */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireApiUser(request);
  const organizationId = requireOrganization(user);
  if (request.method === "POST") {
    let body: unknown;
    try {
      body = await request.json();
    } catch {
      throw apiError(400, "The body must be a JSON object {connectionId, fileId}.");
    }
    const parsed = jsonPair.safeParse(body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw apiError(400, `${issue?.path.join(".") || "body"}: ${issue?.message ?? "invalid"}`);
    }
    const data = await apiAnswer(() => attachFile({ organizationId, userId: user.id, ...parsed.data }));
    return json({ data }, { status: 201 });
  }
  if (request.method === "DELETE") {
    const { connectionId, fileId } = parseQuery(request, pair);
    const data = await apiAnswer(() => detachFile({ organizationId, userId: user.id, connectionId, fileId }));
    return json({ data });
  }
  return json({ error: "Method Not Allowed", message: "Attach with POST, detach with DELETE." }, { status: 405, headers: { Allow: "POST, DELETE" } });
}
