import { isRouteErrorResponse, Link, useLocation, useRouteError } from "@remix-run/react";
import { PageHydrated } from "./PageHydrated";
import { useTranslation } from "~/translations";

/**
 * The error page of one screen (exported as `ErrorBoundary` by every route
 * that can fail on its own): the shell, navigation and dialogs around it stay,
 * only the failed part is replaced. 404 and 403 explain themselves in the
 * user's language; anything else is logged and shown as a server error.
 */
export function GeneralErrorBoundary({ compact = false }: { compact?: boolean }) {
  const error = useRouteError();
  const { t } = useTranslation();
  const location = useLocation();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  // Any 4xx is the client's: explained, not logged. Only a server failure is logged.
  const clientError = status >= 400 && status < 500;
  if (!clientError) console.error(error);
  const title =
    status === 404
      ? t("errors.notFoundTitle")
      : status === 403
        ? t("errors.forbiddenTitle")
        : clientError
          ? t("errors.badRequestTitle")
          : t("errors.serverErrorTitle");
  const description =
    status === 404
      ? t("errors.notFound", { path: location.pathname })
      : status === 403
        ? t("errors.forbidden")
        : clientError
          ? t("errors.badRequest")
          : t("errors.serverError");
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
