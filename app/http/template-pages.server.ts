import type { TemplateScope } from "~/models/tasks/survey-templates.server";
import { requireUser, type SessionUser } from "./auth.server";
import { can } from "~/models/accounts/permissions";

/**
 * The template pages' gate (/admin/surveys/…, /admin/tasks/templates): the organisation's administrator, or the
 * installation's operator; others get 403. Gives the plain scope the template models take.
 */
export async function requireTemplateScope(request: Request): Promise<{ user: SessionUser; scope: TemplateScope }> {
  const signedIn = await requireUser(request);
  const user = signedIn.isAdmin ? signedIn : await requireUser(request, "taskTemplatesManage");
  return {
    user,
    scope: { organizationId: user.organizationId, userId: user.id, manageOwn: can(user, "taskTemplatesManage"), manageSystem: user.isAdmin },
  };
}
