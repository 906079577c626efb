import type { RouteHandle } from "~/i18n";
import NotYetAvailable, { ErrorBoundary, loader, meta } from "~/scaffolding/not-yet-available";

/**
 * SCAFFOLDING for the supplier respondents' screens of the route map (remix.config.js, `respondentScreens`):
 * the same placeholder as every scaffolded screen, marked as a respondent page, so the document ships no
 * script at all (the root leaves out `<Scripts/>` and `<ScrollRestoration/>`). Their real modules keep the handle.
 */
export const handle: RouteHandle = { scripts: false, i18n: ["nav"] };

export { ErrorBoundary, loader, meta };
export default NotYetAvailable;
