import fs from "node:fs";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createApp } from "@server/app";
import { fakeServerBuild } from "../helpers/fake-build";

/**
 * A path that does not decode ("/%E0%A4%A") reached the static handlers and Express's router, which answered a bare 400
 * page with the stack trace in it; it now goes on to the app, which answers with its own document.
 */
const APP_PAGE = "<!DOCTYPE html><html><head><title>Page not found</title></head><body>The app's page</body></html>";
const build = fakeServerBuild((_request, status) => new Response(APP_PAGE, { status, headers: { "Content-Type": "text/html; charset=utf-8" } }));
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "malformed-path-"));
fs.mkdirSync(path.join(dir, "client/assets"), { recursive: true });
fs.writeFileSync(path.join(dir, "client/robots.txt"), "User-agent: *\nDisallow: /\n");
const server = createApp(build, { trustProxy: false, buildDir: dir }).listen(0, "127.0.0.1");
const base = () => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

afterAll(() => {
  server.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("a path that does not decode", () => {
  it.each(["/%E0%A4%A", "/assets/%E0%A4%A", "/%", "/supplier%ZZ"])("%s gets the app's page, not the static handler's bare 400", async (pathname) => {
    const response = await fetch(base() + pathname);
    const body = await response.text();
    expect(body).toBe(APP_PAGE);
    expect(response.status).toBe(404);
  });

  it("a file of the public folder is still served", async () => {
    const response = await fetch(base() + "/robots.txt");
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("Disallow: /");
  });
});
