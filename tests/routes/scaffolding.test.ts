import { describe, expect, it } from "vitest";
import { loader } from "~/scaffolding/not-yet-available";
import { scaffoldPermission } from "~/scaffolding/screens";
import { makeOrg, signedIn } from "../helpers/fixtures";
import { call, get } from "../helpers/requests";

async function open(path: string, token?: string) {
  return call(loader, { request: get(path, token ? { Cookie: `token=${token}` } : {}), params: {}, context: {} });
}

describe("scaffolded screens follow the permission table", () => {
  it("a scaffolded admin page would be is_admin's only", () => {
    // Every admin page of the route map is built; the rule stays for the next one added to the map.
    expect(scaffoldPermission("admin_example")).toBe("admin");
    expect(scaffoldPermission("projects")).toBe("registryRead");
    expect(scaffoldPermission("account_change_password")).toBe("signedIn");
  });

  it("level-1 users open their account and organization screens, not the level-2 screens", async () => {
    const org = await makeOrg("Scaffold Org 2", "customer");
    const viewer = await signedIn("scaffold-viewer@example.test", org, 1);
    expect((await open("/account/change-password", viewer)).status).toBe(200);
    expect((await open("/projects", viewer)).status).toBe(403);
  });

  it("a visitor is sent to the start page", async () => {
    const response = await open("/projects");
    expect([response.status, response.headers.get("Location")]).toEqual([302, "/"]);
  });
});
