import { describe, expect, it } from "vitest";
import {
  adminFlagProblem,
  deactivationProblem,
  likePattern,
  listPageHref,
  organizationDeactivationProblem,
  pageWindow,
  searchTerm,
  withoutStep,
} from "~/models/admin/admin";

describe("pageWindow", () => {
  it.each([
    [0, null, { page: 1, pageCount: 1, offset: 0 }],
    [25, 1, { page: 1, pageCount: 1, offset: 0 }],
    [26, 2, { page: 2, pageCount: 2, offset: 25 }],
    [26, 9, { page: 2, pageCount: 2, offset: 25 }],
    [100, 0, { page: 1, pageCount: 4, offset: 0 }],
  ])("%i rows, page %s", (total, page, expected) => expect(pageWindow(total, page)).toMatchObject(expected));
});

describe("the last administrator", () => {
  it("keeps the admin flag; any other administrator (themselves included, as a handover) may lose it", () => {
    expect(adminFlagProblem({ targetIsAdmin: true, otherActiveAdmins: 0 })).toBe("lastAdmin");
    expect(adminFlagProblem({ targetIsAdmin: true, otherActiveAdmins: 1 })).toBeNull();
    expect(adminFlagProblem({ targetIsAdmin: false, otherActiveAdmins: 0 })).toBeNull();
  });
  it("is never deactivated, and nobody deactivates themselves", () => {
    expect(deactivationProblem({ actorId: 1, targetId: 1, targetIsAdmin: true, otherActiveAdmins: 3 })).toBe("self");
    expect(deactivationProblem({ actorId: 1, targetId: 2, targetIsAdmin: true, otherActiveAdmins: 0 })).toBe("lastAdmin");
    expect(deactivationProblem({ actorId: 1, targetId: 2, targetIsAdmin: true, otherActiveAdmins: 1 })).toBeNull();
    expect(deactivationProblem({ actorId: 1, targetId: 2, targetIsAdmin: false, otherActiveAdmins: 0 })).toBeNull();
  });
  it("does not deactivate their own organisation", () => {
    expect(organizationDeactivationProblem({ actorOrganizationId: 4, organizationId: 4 })).toBe("self");
    expect(organizationDeactivationProblem({ actorOrganizationId: null, organizationId: 4 })).toBeNull();
  });
});

describe("search", () => {
  it("trims, caps and drops an empty term; LIKE wildcards match themselves", () => {
    expect(searchTerm("  a ")).toBe("a");
    expect(searchTerm("   ")).toBeNull();
    expect(searchTerm(null)).toBeNull();
    expect(searchTerm("x".repeat(500))).toHaveLength(200);
    expect(likePattern("50%_a\\b")).toBe("%50\\%\\_a\\\\b%");
  });
});

describe("a list's URLs", () => {
  it("pages keep the search, page 1 without the parameter", () => {
    expect(listPageHref("/admin/users", null, 1)).toBe("/admin/users");
    expect(listPageHref("/admin/users", "a&b@x.test", 1)).toBe("/admin/users?q=a%26b%40x.test");
    expect(listPageHref("/admin/organizations", "AS", 3)).toBe("/admin/organizations?q=AS&page=3");
  });
  it("the list without its confirmation step keeps the rest", () => {
    expect(withoutStep("/admin/users?q=a&deactivate=5&page=2")).toBe("/admin/users?q=a&page=2");
    expect(withoutStep("/admin/users?deactivate=5")).toBe("/admin/users");
  });
});
