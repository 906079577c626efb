import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/translations";
import { titleMeta } from "~/components/ui/meta";
import { scaffoldKeyForPath } from "~/scaffolding/screens";
import { pageTitle } from "~/models/shared/page-title.server";
import { GeneralErrorBoundary } from "~/components/ui/GeneralErrorBoundary";
import { requireUser } from "~/http/auth.server";
import { isPublicPath } from "~/models/accounts/permissions";
import { scaffoldPermission } from "~/scaffolding/screens";

/**
 * SCAFFOLDING, not a feature. Every screen of the route map whose content
 * comes with a later issue is routed here (remix.config.js,
 * `scaffoldedScreens`): it is guarded, renders inside the shell with its
 * title, and says plainly that it is not available yet.
 */
export const meta = titleMeta;

/** Screen titles are in the navigation's namespace. */
export const handle = { i18n: ["nav"] };

export async function loader({ request }: LoaderFunctionArgs) {
  const { pathname } = new URL(request.url);
  const key = scaffoldKeyForPath(pathname);
  if (!isPublicPath(pathname)) await requireUser(request, scaffoldPermission(key));
  return json({ key, title: await pageTitle(request, `nav:screens.${key}`) });
}

export default function NotYetAvailable() {
  const { key } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  return (
    <section aria-labelledby="screen-title" className="mx-auto max-w-3xl">
      <h1 id="screen-title" className="text-2xl font-semibold">
        {t(`nav:screens.${key}`)}
      </h1>
      <div className="mt-6 rounded-box border border-dashed border-base-300 bg-base-100 p-8">
        <p className="font-medium">{t("scaffold.notAvailable")}</p>
        <p className="mt-2 text-sm text-base-content/70">{t("scaffold.explanation")}</p>
      </div>
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
