import { isRouteErrorResponse, Link, useLocation, useRouteError } from "@remix-run/react";
import { errorKind } from "./meta";
import { PageHydrated } from "./PageHydrated";
import { useTranslation } from "~/translations";

/**
 * The error page of one screen (exported as `ErrorBoundary` by every route
 * that can fail on its own): the shell, navigation and dialogs around it stay,
 * only the failed part is replaced. 404 and 403 explain themselves in the
 * user's language; anything else is logged and shown as a server error.
 */
const ERROR_TEXTS = {
  notFound: { title: "errors.notFoundTitle", text: "errors.notFound" },
  forbidden: { title: "errors.forbiddenTitle", text: "errors.forbidden" },
  badRequest: { title: "errors.badRequestTitle", text: "errors.badRequest" },
  server: { title: "errors.serverErrorTitle", text: "errors.serverError" },
} as const;

export function GeneralErrorBoundary({ compact = false }: { compact?: boolean }) {
  const error = useRouteError();
  const { t } = useTranslation();
  const location = useLocation();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const kind = errorKind(status);
  // Any 4xx is the client's: explained, not logged. Only a server failure is logged.
  if (kind === "server") console.error(error);
  const title = t(ERROR_TEXTS[kind].title);
  const description = t(ERROR_TEXTS[kind].text, { path: location.pathname });
  return (
    <section className={compact ? "rounded-box border border-base-300 bg-base-100 p-6" : "mx-auto max-w-xl py-16 text-center"} aria-labelledby="error-title">
      <PageHydrated />
      <p className={compact ? "text-sm font-semibold text-error" : "text-6xl font-bold text-primary"}>{status}</p>
      <h1 id="error-title" className={compact ? "mt-1 text-lg font-semibold" : "mt-4 text-2xl font-semibold"}>
        {title}
      </h1>
      <p className="mt-2 text-base-content/70">{description}</p>
      {compact ? null : (
        <Link to="/" className="btn btn-primary mt-8">
          {t("errors.backHome")}
        </Link>
      )}
    </section>
  );
}
