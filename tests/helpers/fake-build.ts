import type { ServerBuild } from "@remix-run/node";

type Render = (request: Request, status: number, headers: Headers, context: unknown, loadContext: { cspNonce?: string }) => Response | Promise<Response>;

/**
 * A tiny Remix server build for the express app's tests (server/app.ts): the document answer `render` and the
 * routes besides the root. What the app adds (headers, CSP nonce, cross-origin check, static files) is the same
 * whatever build it serves.
 */
export function fakeServerBuild(render: Render, routes: Record<string, { path: string; module: Record<string, unknown> }> = {}): ServerBuild {
  return {
    mode: "production",
    basename: undefined,
    publicPath: "/",
    assetsBuildDirectory: "",
    isSpaMode: false,
    future: {},
    assets: { version: "build-1", url: "", entry: { module: "", imports: [] }, routes: {} },
    // Remix reports unmatched paths through handleError; the tests have nothing to report.
    entry: { module: { handleError: () => undefined, default: render } },
    routes: {
      root: { id: "root", path: "", module: { default: () => null } },
      ...Object.fromEntries(Object.entries(routes).map(([id, route]) => [id, { id, parentId: "root", ...route }])),
    },
  } as unknown as ServerBuild;
}
