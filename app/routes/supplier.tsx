import type { LoaderFunctionArgs, SerializeFrom } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData, useSearchParams, type ShouldRevalidateFunction } from "@remix-run/react";
import { AnnouncementsSection } from "~/components/supplier/AnnouncementsSection";
import { BoardRelations } from "~/components/supplier/BoardRelations";
import { BoardSection } from "~/components/supplier/BoardSection";
import { CompanyOverview } from "~/components/supplier/CompanyOverview";
import { CreditReportsSection } from "~/components/supplier/CreditReportsSection";
import { CreditRiskScore } from "~/components/supplier/CreditRiskScore";
import { FinancialStatementsPage } from "~/components/supplier/FinancialStatementsPage";
import { FinancialSummary } from "~/components/supplier/FinancialSummary";
import { GeographySection } from "~/components/supplier/GeographySection";
import { IntelligenceSection } from "~/components/supplier/IntelligenceSection";
import { OwnershipSection } from "~/components/supplier/OwnershipSection";
import { RiskOverview } from "~/components/supplier/RiskOverview";
import { SubSuppliersSection } from "~/components/supplier/SubSuppliersSection";
import { SupplierHeader } from "~/components/supplier/SupplierHeader";
import { SurveyResponsesSection } from "~/components/supplier/SurveyResponsesSection";
import { TaskResponseModal } from "~/components/supplier/TaskResponseModal";
import { TasksSection } from "~/components/supplier/TasksSection";
import { titleMeta } from "~/components/ui/meta";
import i18nServer from "~/i18n.server";
import { supplierCreditReports } from "~/models/credit-reports.server";
import { hasAccessLevel, requireUser } from "~/models/session.server";
import { loadSupplierScreen } from "~/models/supplier-screen.server";
import { followedSupplierId, loadSupplierWork } from "~/models/supplier-work.server";

export const meta = titleMeta;

/**
 * The supplier screen (spec 02 "Supplier detail"): /supplier?externalId={orgnr}[&localId={id}].
 * Registry data needs access level 2. Every dialog, tab, tree and page of it
 * is URL state (see components/supplier/screen-url.ts).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  if (!hasAccessLevel(user)) throw new Response("Forbidden", { status: 403 });
  const url = new URL(request.url);
  const externalId = (url.searchParams.get("externalId") ?? "").replace(/\s/g, "");
  if (!externalId) throw new Response("Not Found", { status: 404 });
  const screen = await loadSupplierScreen({ externalId, trees: url.searchParams.getAll("tree") });
  if (!screen) throw new Response("Not Found", { status: 404 });
  // The local supplier is the one this organisation follows under that number;
  // a localId in the URL is only a hint and never widens what the user may see.
  const localId = user.organizationId == null ? null : await followedSupplierId(user.organizationId, screen.company.organization_id);
  const taskParam = Number(url.searchParams.get("task"));
  const work = await loadSupplierWork({
    organizationId: user.organizationId,
    supplierOrganizationId: localId,
    subSearch: (url.searchParams.get("subSearch") ?? "").slice(0, 100),
    taskResponseId: Number.isInteger(taskParam) && taskParam > 0 ? taskParam : null,
  });
  // The organisation's own reports on this company (24 months); a failure leaves the empty state (spec 02 §8).
  const creditReports =
    user.organizationId == null
      ? []
      : await supplierCreditReports({ organizationId: user.organizationId, regNo: screen.company.organization_id, country: screen.company.country_code }).catch((error: unknown) => {
          console.error("supplier screen: credit reports failed", { externalId, error: String(error) });
          return [];
        });
  const t = await i18nServer.getFixedT(request);
  return json({ ...screen, ...work, localId, creditReports, title: `${screen.company.legal_name} · ${t("appName")}` });
}

export type SupplierScreenData = SerializeFrom<typeof loader>;

/** URL state that only changes what is shown of data the page already has. */
const DISPLAY_ONLY_PARAMS = ["view", "chart", "announcements", "intelligence", "person", "personTab"];

/**
 * Opening a chart, the statements page or a person (the root loads persons),
 * or expanding a list, needs no new supplier data: skip this loader then.
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({ currentUrl, nextUrl, formMethod, defaultShouldRevalidate }) => {
  if ((formMethod && formMethod !== "GET") || currentUrl.pathname !== nextUrl.pathname) return defaultShouldRevalidate;
  const dataParams = (url: URL) => {
    const params = new URLSearchParams(url.search);
    for (const key of DISPLAY_ONLY_PARAMS) params.delete(key);
    params.sort();
    return params.toString();
  };
  return dataParams(currentUrl) === dataParams(nextUrl) ? false : defaultShouldRevalidate;
};

export default function SupplierScreen() {
  const data = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const statementsPage = params.get("view") === "statements";
  return (
    <div className="mx-auto max-w-7xl">
      <SupplierHeader data={data} />
      {statementsPage ? (
        <FinancialStatementsPage data={data} />
      ) : (
        <div className="mt-4 grid gap-4 lg:grid-cols-2">
          <div className="flex min-w-0 flex-col gap-4">
            <CreditReportsSection data={data} />
            <CompanyOverview data={data} />
            <TasksSection data={data} />
            <SurveyResponsesSection data={data} />
            <FinancialSummary data={data} />
            <OwnershipSection data={data} extra="shareholders" />
            <OwnershipSection data={data} extra="shares" />
            <BoardSection data={data} extra="current" />
            <BoardSection data={data} extra="former" />
            <BoardRelations data={data} />
          </div>
          <div className="flex min-w-0 flex-col gap-4">
            <RiskOverview data={data} />
            <CreditRiskScore data={data} />
            <GeographySection data={data} />
            <IntelligenceSection data={data} />
            <SubSuppliersSection data={data} />
            <AnnouncementsSection data={data} />
          </div>
        </div>
      )}
      <TaskResponseModal data={data} />
    </div>
  );
}
