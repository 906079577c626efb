// Remix options. In Vite mode Remix reads them from its Vite plugin, so
// vite.config.ts imports this file and hands it over: one place for them.

/**
 * Screens of the route map whose content comes with later issues.
 * Each one is routed to the same scaffolding module, which renders the
 * screen's title inside the shell and says that it is not available yet.
 * When a screen is built, its real module goes into app/routes and its
 * line leaves this list.
 * @type {Array<[id: string, path: string]>}
 */
export const scaffoldedScreens = [
  ["projects", "projects"],
  ["project", "projects/:id"],
  ["project_tasks", "projects/:id/tasks"],
  ["project_task", "projects/:id/task/:taskId"],
  ["project_suppliers", "projects/:id/suppliers"],
  ["data_explorer", "data-explorer"],
  ["transparency_act", "transparency_act"],
  ["transparency_portal", "transparency-portal"],
  ["transparency_portal_public", "transparency-portal/public/:key"],
  ["reporting_portal", "reporting-portal"],
  ["reporting_portal_item", "reporting-portal/:id"],
  ["reporting_portal_public", "reporting-portal/public/:publicKey"],
  ["reporting_portal_public_request", "reporting-portal/public/request/:token"],
  ["supplier_folders", "supplier_folders"],
  ["supplier_folder", "supplier_folders/:folderId"],
  ["shared_folder", "supplier_folders/shared/:folderId"],
];

/**
 * The respondent screens of the route map (supplier respondents, often on slow links): routed to a second
 * scaffolding module that is marked as a respondent page (`handle.scripts === false`), so the document
 * ships no script at all.
 */
export const respondentScreens = new Set(["transparency_portal_public", "reporting_portal_public", "reporting_portal_public_request"]);

/** The route id of the signed-in layout (app/routes/_app.tsx). */
const SIGNED_IN_LAYOUT = "routes/_app";

/** @type {import('@remix-run/dev').VitePluginConfig} */
export default {
  // BUILD_DIR lets parallel builds (several engineers, CI) keep apart; the server reads the same variable.
  buildDirectory: process.env.BUILD_DIR ?? "build",
  ignoredRouteFiles: ["**/.*", "**/*.test.{ts,tsx}"],
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    v3_lazyRouteDiscovery: true,
    v3_singleFetch: false,
    unstable_optimizeDeps: true,
  },
  routes(defineRoutes) {
    const routes = defineRoutes((route) => {
      for (const [id, path] of scaffoldedScreens) {
        const file = respondentScreens.has(id) ? "scaffolding/respondent-page.tsx" : "scaffolding/not-yet-available.tsx";
        route(path, file, { id: `scaffold/${id}` });
      }
    });
    // The signed-in screens sit in the pathless layout app/routes/_app.tsx (the shell; decision 015), as the file
    // routes named `_app.*` do; the respondent pages stay outside it (no shell, no script).
    for (const [id] of scaffoldedScreens) if (!respondentScreens.has(id)) routes[`scaffold/${id}`].parentId = SIGNED_IN_LAYOUT;
    return routes;
  },
};
