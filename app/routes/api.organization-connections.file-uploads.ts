import type { ActionFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { z } from "zod";
import { requireUser } from "~/http/auth.server";
import { readJson, readQuery, requireId } from "~/http/parse.server";
import { errorResponse, methodNotAllowed, refusalResponse } from "~/http/responses.server";
import { attachFile, CONNECTION_REFUSALS, detachFile } from "~/models/suppliers/connections.server";
import { isRefusalOf } from "~/models/shared/refusal";
import { ownFile } from "~/models/files/files.server";

const positiveId = z.number({ error: "must be a number" }).int("must be a positive whole number").positive("must be a positive whole number");
const attachBody = z.object({ connectionId: positiveId, fileId: positiveId });
const detachQuery = z.object({ connectionId: z.string({ error: "is required" }), fileId: z.string({ error: "is required" }) });

/**
 * POST /api/organization-connections/file-uploads {connectionId, fileId}: attach;
 * DELETE /api/organization-connections/file-uploads?connectionId=&fileId=: detach.
 * Changing a connection needs suppliersWrite (level 1 is refused). The
 * connection must be the session organisation's, and only a file's owner
 * may attach it: anyone else's file is a 404 like a missing one, so a
 * colleague's private upload cannot be shared by guessing its id. Any file
 * attached to the connection may be detached by whoever may change it.
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST" && request.method !== "DELETE") throw methodNotAllowed(["POST", "DELETE"]);
  const user = await requireUser(request, "suppliersWrite");
  const { organizationId } = user;
  if (request.method === "POST") {
    const { connectionId, fileId } = await readJson(request, attachBody);
    if (!(await ownFile({ organizationId, userId: user.id, id: fileId }))) throw errorResponse(404, "File not found");
    const data = await refused(() => attachFile({ organizationId, userId: user.id, connectionId, fileId }));
    return json({ data }, { status: 201 });
  }
  const query = readQuery(request, detachQuery);
  const connectionId = requireId(query.connectionId, "connectionId");
  const fileId = requireId(query.fileId, "fileId");
  const data = await refused(() => detachFile({ organizationId, userId: user.id, connectionId, fileId }));
  return json({ data });
}

/** A connection's refusal as its error answer. */
async function refused<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isRefusalOf(error, CONNECTION_REFUSALS)) throw refusalResponse(error);
    throw error;
  }
}

export async function loader() {
  throw methodNotAllowed(["POST", "DELETE"]);
}
