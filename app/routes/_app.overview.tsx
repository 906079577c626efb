import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { CustomerOverviewView, OVERVIEW_NAMESPACES, RespondentOverviewView, NoOrganization } from "~/components/overview/OverviewScreen";
import { GeneralErrorBoundary } from "~/components/ui/GeneralErrorBoundary";
import { titleMeta } from "~/components/ui/meta";
import { requireUser } from "~/http/auth.server";
import { can } from "~/models/accounts/permissions";
import { customerOverview, respondentOverview } from "~/models/overview/overview.server";
import { pageTitle } from "~/models/shared/page-title.server";

/**
 * /overview (decision 037): where every user lands after signing in. Customers at level 2 and up see what
 * needs their attention across the suppliers they follow; level 1 members and supplier respondents see what their
 * organisation has been asked to answer. One loader, indexed reads; plain links, so it works without JavaScript.
 */
export const meta = titleMeta;
export const handle = { i18n: OVERVIEW_NAMESPACES };

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const title = await pageTitle(request, "overview:title");
  const now = new Date();
  if (can(user, "suppliersRead")) {
    const data = await customerOverview({ organizationId: user.organizationId!, userId: user.id, language: user.language, now });
    return json({ title, now: now.toISOString(), data, organization: null as string | null });
  }
  if (can(user, "respondentWork")) {
    const data = await respondentOverview({ organizationId: user.organizationId!, now });
    return json({ title, now: now.toISOString(), data, organization: user.organizationName });
  }
  return json({ title, now: now.toISOString(), data: null, organization: null });
}

export default function Overview() {
  const { data, now, organization } = useLoaderData<typeof loader>();
  if (!data) return <NoOrganization />;
  return data.kind === "customer" ? <CustomerOverviewView data={data} now={now} /> : <RespondentOverviewView data={data} organization={organization ?? ""} />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
