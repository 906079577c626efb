import { describe, expect, it } from "vitest";
import { hidesShell, navGroupsFor } from "~/components/shell/nav-items";
import { isPublicPath } from "~/models/accounts/permissions";
import { scaffoldKeyForPath } from "~/scaffolding/screens";
import { loader as appLoader } from "~/routes/_app";
import { args, call, get } from "./helpers/requests";

describe("side navigation by access level and admin flag (shared/spec/01-shell-chat-lei.md §2.3)", () => {
  const groups = (accessLevel: number, isAdmin: boolean) => navGroupsFor({ accessLevel, isAdmin }).map((g) => g.key);
  it.each([
    [0, false, ["myCompliance"]],
    [1, false, ["myCompliance"]],
    [1, true, ["myCompliance", "admin"]],
    [2, false, ["suppliers", "supplierTasks", "ai", "workflow", "compliance"]],
    [3, false, ["suppliers", "supplierTasks", "ai", "workflow", "compliance"]],
    [3, true, ["suppliers", "supplierTasks", "ai", "workflow", "compliance", "admin"]],
  ])("level %i, admin %s → %j", (level, admin, expected) => {
    expect(groups(level, admin)).toEqual(expected);
  });

  it("level 2 links exactly the thirteen items of the spec", () => {
    const links = navGroupsFor({ accessLevel: 2, isAdmin: false }).flatMap((g) => g.items.map((i) => i.to));
    expect(links.sort()).toEqual(
      [
        "/overview",
        "/suppliers",
        "/credit_reports",
        "/supplier_tasks",
        "/survey-explorer",
        "/ai/chat-v2",
        "/ai/reports",
        "/ai/documents",
        "/projects",
        "/casefiles",
        "/data-explorer",
        "/tasks/overview",
        "/reporting-portal",
      ].sort(),
    );
  });

  it("admin links exactly the five admin items", () => {
    const admin = navGroupsFor({ accessLevel: 1, isAdmin: true }).find((g) => g.key === "admin")!;
    expect(admin.items.map((i) => i.to)).toEqual([
      "/admin/organizations",
      "/admin/users",
      "/admin/surveys/surveys",
      "/admin/tasks/templates",
      "/admin/suppliers-overview",
    ]);
  });

  it("below level 2, My Compliance links /tasks/overview", () => {
    expect(navGroupsFor({ accessLevel: 1, isAdmin: false })[0].items.map((i) => i.to)).toEqual(["/tasks/overview"]);
  });
});

describe("access guard paths (shared/spec/01-shell-chat-lei.md §6)", () => {
  it.each([
    ["/", true],
    ["/login", true],
    ["/signup", true],
    ["/invite-signup", true],
    ["/forgot-password", true],
    ["/reset-password", true],
    ["/login/", true],
    ["/transparency-portal/public/abc", true],
    ["/reporting-portal/public/request/tok", true],
    ["/tasks/surveys/5/public", true],
    ["/overview", false],
    ["/suppliers", false],
    ["/api/users/me", false],
    ["/loginx", false],
    ["/admin/users", false],
  ])("%s public: %s", (path, expected) => {
    expect(isPublicPath(path)).toBe(expected);
  });

  it("a visitor on a path containing /public that no page claims gets a 404, not the redirect to the start page", async () => {
    const catchAll = await call(appLoader, args(get("/no/such/public/page")));
    expect(catchAll.status).toBe(404);
    const privatePath = await call(appLoader, args(get("/no/such/page")));
    expect([privatePath.status, privatePath.headers.get("Location")]).toEqual([302, "/"]);
  });
});

describe("shell rules", () => {
  it.each([
    ["/transparency-portal", true],
    ["/transparency-portal/public/k", true],
    ["/transparency_act", false],
    ["/overview", false],
  ])("%s hides the bars: %s", (path, expected) => expect(hidesShell(path)).toBe(expected));

  it.each([
    ["/projects/3/tasks", "project_tasks"],
    ["/reporting-portal/7", "reporting_portal_item"],
    ["/supplier_folders/shared/9", "shared_folder"],
    ["/supplier_folders/9", "supplier_folder"],
    ["/projects/3/task/8", "project_task"],
    ["/projects", "projects"],
  ])("%s is the scaffolded screen %s", (path, key) => expect(scaffoldKeyForPath(path)).toBe(key));
});
