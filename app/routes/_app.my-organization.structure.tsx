import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { CompanyGroupView, EXPLORER_PATH } from "~/components/organization/CompanyGroupView";
import { GeneralErrorBoundary } from "~/components/ui/GeneralErrorBoundary";
import { titleMeta } from "~/components/ui/meta";
import { requireUser } from "~/http/auth.server";
import { companyGroup, ownOrgNumber } from "~/models/registry/org-structure.server";
import { orgNumberParam } from "~/models/registry/registry-params";
import { pageTitle } from "~/models/shared/page-title.server";
import { useTranslation } from "~/translations";

export const meta = titleMeta;

/** The translation namespaces this screen renders besides the root's (the browser loads only these). */
export const handle = { i18n: ["organization", "people"] };

/**
 * /my-organization/structure (decision 041): the user's own organisation's group from the registry
 * (registryRead): its owners, its holdings with their ownership trees (`tree=`), its sub-units, and which companies
 * of the group use this app.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request, "registryRead");
  const orgNumber = await ownOrgNumber(user.organizationId);
  const trees = new URL(request.url).searchParams.getAll("tree").flatMap((v) => orgNumberParam(v) ?? []);
  const group = orgNumber ? await companyGroup(orgNumber, trees) : null;
  return json({
    orgNumber,
    organizationName: user.organizationName,
    group,
    title: await pageTitle(request, "organization:structure.title"),
  });
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

export default function MyOrganizationStructure() {
  const { orgNumber, organizationName, group } = useLoaderData<typeof loader>();
  const { t } = useTranslation("organization");
  return (
    <section aria-labelledby="org-structure-title" className="mx-auto max-w-4xl">
      <h1 id="org-structure-title" className="text-2xl font-semibold">
        {t("structure.title")}
      </h1>
      <p className="mt-1 max-w-prose text-sm text-base-content/70">
        {t("structure.intro", { organization: organizationName })}{" "}
        <Link to={EXPLORER_PATH} className="link">
          {t("structure.exploreOthers")}
        </Link>
      </p>
      {group ? (
        <CompanyGroupView group={group} showSupplierLink />
      ) : (
        <p role="status" className="alert mt-6 text-sm">
          {orgNumber ? t("structure.notInRegistry", { orgNumber }) : t("structure.noOrgNumber")}
        </p>
      )}
    </section>
  );
}
