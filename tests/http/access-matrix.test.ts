import path from "node:path";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@server/db";
import { createSession } from "@server/auth/session";
import { can, type Permission, type Subject } from "~/models/accounts/permissions";
import { scaffoldPermission } from "~/scaffolding/screens";
import { respondentScreens, scaffoldedScreens } from "../../remix.config.js";
import { makeOrg, signedIn } from "../helpers/fixtures";
import { BASE } from "../helpers/requests";
import { routeModuleFiles, routePattern } from "../fuzz/surface";

/**
 * Who may open every route of the app, walked against every role: the one permission table
 * (app/models/accounts/permissions.ts) decides; this file says which permission each route module's GET (its loader) and POST (its
 * action) ask for, and every scaffolded screen of the route map asks `scaffoldPermission`. For each role — a visitor, a
 * supplier respondent, a customer member at level 1, 2 and 3, and the installation's administrator — a refused request
 * must answer 401 or 403 (a page: a redirect to sign in for a visitor) and an allowed one must not. A route module
 * without an entry here fails the test: a new screen or endpoint is added with its access decided.
 */

/** What a method asks: a permission of the table; anyone ("public"); the template screens' rule (their organisation's
 * administrator, or the installation's administrator for the system-wide templates). */
type Access = Permission | "public" | "templates";
type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
/** Per method (GET is the loader, the others the action): who may. */
type Entry = Partial<Record<Method, Access>>;

const ACCESS: Record<string, Entry> = {
  // Signed-in shell and screens.
  "_app.tsx": { GET: "signedIn" },
  "_app.$.tsx": { GET: "public" },
  "_app.overview.tsx": { GET: "signedIn" },
  "_app.dashboard/route.tsx": { GET: "suppliersRead" },
  "_app.account.email-settings.tsx": { GET: "signedIn", POST: "signedIn" },
  "_app.account.change-password.tsx": { GET: "signedIn", POST: "signedIn" },
  "_app.my-organization.users/route.tsx": { GET: "organizationRead", POST: "organizationManage" },
  "_app.my-organization.overview.tsx": { GET: "organizationRead" },
  "_app.my-organization.structure.tsx": { GET: "registryRead" },
  "_app.org-structure-explorer.tsx": { GET: "registryRead" },
  "_app.admin.credit-reports.tsx": { GET: "admin" },
  "_app.admin.organizations.tsx": { GET: "admin", POST: "admin" },
  "_app.admin.suppliers-overview.tsx": { GET: "admin" },
  "_app.admin.users.tsx": { GET: "admin", POST: "admin" },
  "_app.admin.surveys.$id/route.tsx": { GET: "templates", POST: "templates" },
  "_app.admin.surveys.surveys.tsx": { GET: "templates", POST: "templates" },
  "_app.admin.tasks.templates.tsx": { GET: "templates", POST: "templates" },
  "_app.admin.integrations.tsx": { GET: "admin" },
  "_app.admin.integrations_.$code.tsx": { GET: "admin", POST: "admin" },
  "_app.admin.send-old.tsx": { GET: "admin", POST: "admin" },
  "_app.admin.notifications.tsx": { GET: "admin", POST: "admin" },
  "_app.admin.organization.$orgId.priority-suppliers.invite.tsx": { GET: "admin", POST: "admin" },
  "_app.ai.chat-v2.tsx": { GET: "assistantUse", POST: "assistantUse" },
  "_app.ai.chat.tsx": { GET: "assistantUse", POST: "assistantUse" },
  "_app.ai.documents.tsx": { GET: "assistantUse", POST: "assistantUse" },
  "_app.ai.documents_.$fileId.tsx": { GET: "assistantUse" },
  "_app.ai.reports.tsx": { GET: "assistantUse", POST: "assistantUse" },
  "_app.ai.reports_.$id.tsx": { GET: "assistantUse" },
  "_app.casefiles.$caseFileId.tsx": { GET: "suppliersRead", POST: "suppliersWrite" },
  "_app.casefiles.tsx": { GET: "suppliersRead", POST: "suppliersWrite" },
  "_app.credit_reports.tsx": { GET: "suppliersRead" },
  "_app.files.tsx": { GET: "ownFiles", POST: "ownFiles" },
  "_app.files_.$fileId.analyze.tsx": { GET: "ownFiles", POST: "suppliersWrite" },
  "_app.files_.$fileId.preview.tsx": { GET: "ownFiles" },
  "_app.notifications/route.tsx": { GET: "notificationsRead", POST: "notificationsRead" },
  "_app.notifications_.feeds/route.tsx": { GET: "newsFeedsManage", POST: "newsFeedsManage" },
  "_app.search.tsx": { GET: "registryRead" },
  "_app.supplier.tsx": { GET: "registryRead", POST: "suppliersWrite" },
  "_app.supplier_tasks.tsx": { GET: "supplierTasksRead" },
  "_app.supplier_tasks_.$id/route.tsx": { GET: "supplierTasksRead", POST: "supplierTasksManage" },
  "_app.supplier_tasks_.campaigns.$id.tsx": { GET: "supplierTasksManage" },
  "_app.supplier_tasks_.reminders.tsx": { GET: "supplierTasksManage", POST: "supplierTasksManage" },
  "_app.supplier_tasks_.send/route.tsx": { GET: "supplierTasksManage", POST: "supplierTasksManage" },
  "_app.suppliers.tsx": { GET: "suppliersRead" },
  "_app.suppliers_.imports.$importId.tsx": { GET: "suppliersWrite", POST: "suppliersWrite" },
  "_app.survey-explorer.tsx": { GET: "supplierTasksRead" },
  "_app.tasks_.surveys_.$surveyResponseId_.read.tsx": { GET: "respondentWork" },
  // Files and downloads outside the shell.
  "admin.credit-reports[.]csv.ts": { GET: "admin" },
  "ai.reports.$id.pdf.ts": { GET: "assistantUse" },
  "credit.order.ts": { POST: "creditOrder" },
  "credit_reports[.]csv.ts": { GET: "suppliersRead" },
  "dashboard[.]csv.ts": { GET: "suppliersRead" },
  "files.$fileId.inline.ts": { GET: "ownFiles" },
  // Answers a visitor (or a member without files) the panel's sign-in prompt, nothing of anyone's files.
  "files.panel.ts": { GET: "public" },
  "notifications[.]csv.ts": { GET: "notificationsRead" },
  "supplier_tasks[.]csv.ts": { GET: "supplierTasksRead" },
  "suppliers[.]csv.ts": { GET: "suppliersRead" },
  "survey-explorer[.]csv.ts": { GET: "supplierTasksRead" },
  "preferences.nav.ts": { POST: "signedIn" },
  "preferences.language.ts": { POST: "public" },
  "demo-feeds.$file.ts": { GET: "public" },
  // A mail's one-click unsubscribe: the signed token in the link names the account and the one setting.
  "account.unsubscribe.tsx": { GET: "public", POST: "public" },
  // Visitors' pages (a signed-in user is sent on to the overview).
  "_index.tsx": { GET: "public" },
  "login.tsx": { GET: "public", POST: "public" },
  "logout.tsx": { POST: "public" },
  "signup.tsx": { GET: "public", POST: "public" },
  "forgot-password.tsx": { GET: "public", POST: "public" },
  "reset-password.tsx": { GET: "public", POST: "public" },
  "invite-signup.tsx": { GET: "public", POST: "public" },
  // What an organisation must answer: members signed in, or anyone with an item's mailed link (checked per item).
  "tasks.overview.tsx": { GET: "respondentWork" },
  "tasks.my_tasks.tsx": { GET: "respondentWork" },
  "tasks.surveys.my_surveys.tsx": { GET: "respondentWork" },
  "tasks.$complianceTaskId._index.tsx": { GET: "respondentWork", POST: "respondentWork" },
  "tasks.$complianceTaskId.files.$fileId.ts": { GET: "respondentWork" },
  "tasks.surveys.$surveyResponseId._index.tsx": { GET: "respondentWork", POST: "respondentWork" },
  "tasks.surveys.$surveyResponseId.files.$fileId.ts": { GET: "respondentWork" },
  "tasks.$complianceTaskId.public.tsx": { GET: "public", POST: "public" },
  "tasks.$complianceTaskId.public_.files.$fileId.ts": { GET: "public" },
  "tasks.surveys.$surveyResponseId.public.tsx": { GET: "public", POST: "public" },
  "tasks.surveys.$surveyResponseId.public_.files.$fileId.ts": { GET: "public" },
  // The API (shared/spec/01-shell-chat-lei.md §3, shared/spec/02-supplier-credit-connections.md).
  "api.$.ts": { GET: "signedIn" },
  "api.users.me.ts": { GET: "signedIn" },
  "api.users.language.ts": { PUT: "signedIn" },
  "api.ai-reports.supplier-intelligence.ts": { GET: "registryRead" },
  "api.business-api.board.ts": { GET: "registryRead" },
  "api.business-api.board_former.ts": { GET: "registryRead" },
  "api.business-api.financial_statements.ts": { GET: "registryRead" },
  "api.business-api.get_ownership_tree.ts": { GET: "registryRead" },
  "api.business-api.person.ts": { GET: "registryRead" },
  "api.business-api.search_organizations.ts": { GET: "registryRead" },
  "api.business-api.search_people.ts": { GET: "registryRead" },
  "api.casefiles.by-supplier.$childId.ts": { GET: "suppliersRead" },
  "api.clients.$provider.ts": { POST: "assistantUse" },
  "api.conversations.$id.messages.ts": { GET: "assistantUse", POST: "assistantUse" },
  "api.conversations.ts": { GET: "assistantUse", POST: "assistantUse" },
  "api.credit-safe.$id.download.ts": { GET: "suppliersRead" },
  "api.credit-safe.order.ts": { POST: "creditOrder" },
  "api.credit-safe.report-languages.ts": { GET: "registryRead" },
  "api.credit-safe.search.ts": { GET: "registryRead" },
  "api.credit-safe.supplier-reports.ts": { GET: "suppliersRead" },
  "api.file-uploads.$id.download.ts": { GET: "ownFiles" },
  "api.file-uploads.$id.ts": { DELETE: "ownFiles" },
  "api.file-uploads.ts": { GET: "ownFiles", POST: "ownFiles" },
  "api.lei-api.autocomplete.ts": { GET: "registryRead" },
  "api.lei-api.direct_children.ts": { GET: "registryRead" },
  "api.lei-api.record.ts": { GET: "registryRead" },
  "api.lei-api.relationship.ts": { GET: "registryRead" },
  "api.lei-api.ultimate_parent.ts": { GET: "registryRead" },
  "api.notifications._index.ts": { GET: "notificationsRead" },
  "api.notifications.byOrg.search.ts": { GET: "suppliersRead" },
  "api.organization-connections.$id.ts": { GET: "suppliersRead", PATCH: "suppliersWrite" },
  "api.organization-connections.comments.$id.ts": { DELETE: "suppliersWrite" },
  "api.organization-connections.file-uploads.ts": { POST: "suppliersWrite" },
  "api.organization-tags.$id.ts": { DELETE: "suppliersWrite" },
  "api.organization-tags.ts": { GET: "suppliersRead" },
  "api.organization-tags.with-counts.ts": { GET: "suppliersRead" },
  "api.organization.country.ts": { GET: "registryRead" },
  "api.supplier_upload.analyzeFile.ts": { POST: "suppliersWrite" },
  "api.supplier_upload.parseFile.ts": { GET: "ownFiles" },
  "api.suppliers.$supplierOrgId.sub-suppliers.ts": { GET: "registryRead" },
  "api.surveys.organization.$localOrgId.ts": { GET: "registryRead" },
  "api.tasks.files.$fileId.download.ts": { GET: "registryRead" },
  "api.tasks.organization.$localOrgId.ts": { GET: "registryRead" },
  "api.tasks.responses.$id.customer.ts": { GET: "registryRead" },
};

const ROUTES_DIR = path.resolve("app/routes");
const routeFiles = routeModuleFiles(ROUTES_DIR);

interface Role {
  name: string;
  subject: Subject | null;
  token: string | null;
  userId: number | null;
}
const roles: Role[] = [];

beforeAll(async () => {
  const customer = await makeOrg("Access Matrix Customer AS", "customer");
  const supplier = await makeOrg("Access Matrix Supplier AS", "supplier", "999100001");
  roles.push({ name: "visitor", subject: null, token: null, userId: null });
  const member = async (name: string, email: string, organizationId: number, kind: "customer" | "supplier", level: number, isAdmin = false) => {
    const token = await signedIn(email, organizationId, level);
    if (isAdmin) await db().updateTable("users").set({ is_admin: 1 }).where("email", "=", email).execute();
    const userId = (await db().selectFrom("users").select("id").where("email", "=", email).executeTakeFirstOrThrow()).id;
    roles.push({ name, token, userId, subject: { accessLevel: level, isAdmin, organizationId, organizationKind: kind } });
  };
  await member("supplier respondent", "respondent@access.test", supplier, "supplier", 3);
  await member("level 1", "level1@access.test", customer, "customer", 1);
  await member("level 2", "level2@access.test", customer, "customer", 2);
  await member("level 3", "level3@access.test", customer, "customer", 3);
  await member("is_admin", "admin@access.test", customer, "customer", 3, true);
});

function allowed(access: Access, subject: Subject | null): boolean {
  if (access === "public") return true;
  if (access === "templates") return Boolean(subject && (subject.isAdmin || can(subject, "taskTemplatesManage")));
  return can(subject, access);
}

/** A URL for a route pattern: every param a plausible value (ids that exist nowhere: an allowed role gets 404 or 400). */
function urlOf(pattern: string): { url: string; params: Record<string, string> } {
  const params: Record<string, string> = {};
  const url = pattern.replace(/:([A-Za-z]+)|\*/g, (match, name: string | undefined) => {
    const value = name === "provider" ? "local" : name === "file" ? "feed.xml" : match === "*" ? "unknown/path" : "987654";
    params[name ?? "*"] = value;
    return value;
  });
  return { url, params };
}

type Fn = (args: LoaderFunctionArgs & ActionFunctionArgs) => unknown;

async function answer(fn: Fn, method: Method, url: string, params: Record<string, string>, role: Role, isApi: boolean, ownSession = false) {
  const headers: Record<string, string> = {};
  // Signing out ends the session it is sent with: such a call gets a session of its own.
  const token = ownSession && role.userId != null ? (await createSession(role.userId, "access-matrix")).token : role.token;
  if (token) headers[isApi ? "Authorization" : "Cookie"] = isApi ? `Bearer ${token}` : `token=${token}`;
  if (method !== "GET") headers["Content-Type"] = "application/x-www-form-urlencoded";
  // A change answers with a redirect back where a form says; never to "/", which is where a visitor is sent to sign in.
  const request = new Request(BASE + url, { method, headers, body: method === "GET" ? undefined : "redirectTo=%2Foverview" });
  try {
    const result = await fn({ request, params, context: { clientAddress: "127.0.0.1" } });
    return result instanceof Response ? result : new Response(null, { status: 200 });
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    // An error that is not a Response would be a 500: report it as such.
    return new Response(String(thrown), { status: 500 });
  }
}

/** Refused: 401 or 403, or a page's redirect to sign in ("/") — for a signed-in role that would mean its session was not seen. */
function refused(res: Response): boolean {
  if (res.status === 401 || res.status === 403) return true;
  return res.status >= 300 && res.status < 400 && (res.headers.get("Location") ?? "") === "/";
}

describe("the access matrix", () => {
  it("has an entry for every route module, and none for a module that is gone", () => {
    expect(routeFiles.filter((f) => !(f in ACCESS))).toEqual([]);
    expect(Object.keys(ACCESS).filter((f) => !routeFiles.includes(f))).toEqual([]);
  });

  it("every route module's GET and POST answer each role as the permission table says", async () => {
    const wrong: string[] = [];
    for (const file of routeFiles) {
      const entry = ACCESS[file];
      if (!entry) continue;
      const mod = (await import(path.join(ROUTES_DIR, file))) as { loader?: Fn; action?: Fn };
      const { pattern } = routePattern(file);
      const { url, params } = urlOf(pattern);
      const isApi = pattern.startsWith("/api/");
      for (const [method, access] of Object.entries(entry) as Array<[Method, Access]>) {
        const fn = method === "GET" ? mod.loader : mod.action;
        if (!fn) {
          wrong.push(`${file} ${method}: has no ${method === "GET" ? "loader" : "action"}`);
          continue;
        }
        for (const role of roles) {
          const res = await answer(fn, method, url, params, role, isApi, file === "logout.tsx");
          const expectAllowed = allowed(access, role.subject);
          if (res.status >= 500) wrong.push(`${file} ${method} as ${role.name}: ${res.status}`);
          else if (expectAllowed && refused(res)) wrong.push(`${file} ${method} as ${role.name}: refused (${res.status}) though ${access} allows`);
          else if (!expectAllowed && !refused(res))
            wrong.push(`${file} ${method} as ${role.name}: answered ${res.status} ${res.headers.get("Location") ?? ""} though ${access} refuses`);
        }
      }
    }
    expect(wrong).toEqual([]);
  }, 120_000);

  it("every scaffolded screen of the route map answers each role as scaffoldPermission says", async () => {
    const page = (await import("~/scaffolding/not-yet-available")) as { loader: Fn };
    const wrong: string[] = [];
    for (const [id, pattern] of scaffoldedScreens) {
      if (respondentScreens.has(id)) continue;
      const { url, params } = urlOf(`/${pattern}`);
      const permission = scaffoldPermission(id);
      for (const role of roles) {
        const res = await answer(page.loader, "GET", url, params, role, false);
        const expectAllowed = can(role.subject, permission);
        if (expectAllowed === refused(res)) wrong.push(`/${pattern} as ${role.name}: ${res.status} ${res.headers.get("Location") ?? ""} (${permission})`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
