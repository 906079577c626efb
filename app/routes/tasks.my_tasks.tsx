import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { respondentHandle, respondentHeaders, respondentMeta } from "~/components/respondent/ItemPage";
import { RESPONDENT_NAMESPACES, RespondentFrame } from "~/components/respondent/RespondentFrame";
import { RespondentList } from "~/components/respondent/RespondentList";
import { GeneralErrorBoundary } from "~/components/ui/GeneralErrorBoundary";
import { requireUser } from "~/http/auth.server";
import { switchLanguage } from "~/respondent/pages.server";
import { pageTitle } from "~/models/page-title.server";
import { respondentList } from "~/models/respondent.server";
import { useTranslation } from "~/translations";

/** The tasks the user's organisation must answer, from every customer that asked (decision 033). No script. */
export const handle = respondentHandle;
export const meta = respondentMeta;
export const headers = respondentHeaders;

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request, "respondentWork");
  const switched = await switchLanguage(request);
  if (switched) throw switched;
  const items = await respondentList({ supplierOrganizationId: user.organizationId, kind: "task" });
  return json({ items, organization: user.organizationName, title: await pageTitle(request, "respond:myTasks.title") });
}

export default function MyTasks() {
  const { items, organization } = useLoaderData<typeof loader>();
  const { t } = useTranslation(RESPONDENT_NAMESPACES);
  return (
    <RespondentFrame organization={organization}>
      <h1 className="mb-4 text-2xl font-semibold">{t("respond:myTasks.title")}</h1>
      <RespondentList items={items} headingId="open-tasks" title={t("respond:list.toAnswer")} showKind={false} />
    </RespondentFrame>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
