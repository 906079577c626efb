import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/ui/GeneralErrorBoundary";
import { titleMeta } from "~/components/ui/meta";
import { requireUser } from "~/http/auth.server";
import { formatDateTime } from "~/models/shared/format";
import { listIntegrations } from "~/models/admin/integrations.server";
import { pageTitle } from "~/models/shared/page-title.server";
import { useTranslation } from "~/translations";

export const meta = titleMeta;
export const handle = { i18n: ["integrations"] };

/**
 * /admin/integrations (decision 043): the outside services — which provider each uses, its settings with the
 * secrets masked, the last success and the last error. The installation's administrator only.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request, "admin");
  return json({ integrations: await listIntegrations(), title: await pageTitle(request, "integrations:title") });
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

export default function IntegrationsScreen() {
  const { integrations } = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation("integrations");
  const when = (at: string | null) => (at ? formatDateTime(at, i18n.language) : t("never"));
  return (
    <section aria-labelledby="integrations-title" className="mx-auto max-w-5xl">
      <h1 id="integrations-title" className="text-2xl font-semibold">
        {t("title")}
      </h1>
      <p className="mt-1 text-sm text-base-content/70">{t("intro")}</p>
      <ul className="mt-6 grid gap-4 md:grid-cols-2">
        {integrations.map((item) => (
          <li key={item.code} className="rounded-box border border-base-300 bg-base-100 p-4">
            <h2 className="text-lg font-semibold">
              <Link to={`/admin/integrations/${item.code}`} className="link link-hover">
                {t(`services.${item.code}`)}
              </Link>
            </h2>
            <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
              <dt className="text-base-content/70">{t("provider")}</dt>
              <dd>{t(`providers.${item.provider}`)}</dd>
              <dt className="text-base-content/70">{t("lastSuccess")}</dt>
              <dd>{when(item.lastSuccessAt)}</dd>
              <dt className="text-base-content/70">{t("lastError")}</dt>
              <dd className="break-words">
                {when(item.lastErrorAt)}
                {item.lastError ? <span className="block text-error">{item.lastError}</span> : null}
              </dd>
            </dl>
            <Link to={`/admin/integrations/${item.code}`} className="btn btn-sm btn-outline mt-3">
              {t("details")}
              <span className="sr-only">: {t(`services.${item.code}`)}</span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
