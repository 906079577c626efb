import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { parseWithZod } from "@conform-to/zod/v4";
import { flashNotice } from "@server/cookies";
import { EditConnectionSlideOver } from "~/components/connection/EditConnectionSlideOver";
import { ManageTagsDialog } from "~/components/connection/ManageTagsDialog";
import { SupplierOverviewCard } from "~/components/connection/SupplierOverviewCard";
import { safeRedirect } from "~/models/auth-schemas";
import { CONNECTION_INTENTS, ConnectionError, connectionIntentSchema, runConnectionIntent } from "~/models/connections.server";
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
import { hasAccessLevel, requireUser } from "~/models/session.server";
import { loadSupplierPage, type SupplierScreenData } from "~/models/supplier-page.server";
import { requireUser as requireKitUser } from "~/http/auth.server";
import { invariantResponse } from "~/http/responses.server";
import { parseId } from "~/http/parse.server";

export const meta = titleMeta;

/**
 * The supplier screen (spec 02 "Supplier detail"): /supplier?externalId={orgnr}[&localId={id}].
 * Registry data needs access level 2. Every dialog, tab, tree and page of it
 * is URL state (see components/supplier/screen-url.ts).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireKitUser(request, "registryRead");
  const url = new URL(request.url);
  const externalId = (url.searchParams.get("externalId") ?? "").replace(/\s/g, "");
  invariantResponse(externalId, 404, "No organisation number given.");
  const page = await loadSupplierPage({
    organizationId: user.organizationId,
    userId: user.id,
    externalId,
    trees: url.searchParams.getAll("tree"),
    subSearch: (url.searchParams.get("subSearch") ?? "").slice(0, 100),
    taskResponseId: parseId(url.searchParams.get("task")),
  });
  invariantResponse(page, 404, "No company with this organisation number.");
  const t = await i18nServer.getFixedT(request);
  const data: SupplierScreenData = { ...page, title: `${page.company.legal_name} · ${t("appName")}` };
  return json(data);
}

/**
 * The connection's forms (card, slide-over, tag dialog), one `intent` each.
 * A fetcher gets JSON; a plain post (it carries `redirectTo`) is redirected
 * back with the 'Saved!' notice. Refused changes are logged and answered
 * with their status; the form keeps what the user typed.
 */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  if (!hasAccessLevel(user) || user.organizationId == null) throw new Response("Forbidden", { status: 403 });
  const externalId = (new URL(request.url).searchParams.get("externalId") ?? "").replace(/\s/g, "");
  const formData = await request.formData();
  const intent = formData.get("intent");
  if (typeof intent !== "string" || !(CONNECTION_INTENTS as readonly string[]).includes(intent)) {
    return json({ ok: false as const, status: 400, message: "Unknown intent" }, { status: 400 });
  }
  const submission = parseWithZod(formData, { schema: connectionIntentSchema });
  if (submission.status !== "success") {
    console.warn("supplier screen: refused connection change", { intent, error: submission.error });
    return json(
      { ok: false as const, status: 400, message: Object.values(submission.error ?? {}).flat()[0] ?? "Invalid input", result: submission.reply() },
      { status: 400 },
    );
  }
  try {
    await runConnectionIntent({ organizationId: user.organizationId, user, orgNumber: externalId, intent: submission.value });
  } catch (error) {
    if (!(error instanceof ConnectionError)) throw error;
    console.warn("supplier screen: refused connection change", { intent, status: error.status, message: error.message });
    return json({ ok: false as const, status: error.status, message: error.message }, { status: error.status });
  }
  const redirectTo = formData.get("redirectTo");
  if (typeof redirectTo === "string" && redirectTo) {
    return redirect(safeRedirect(redirectTo, `/supplier?externalId=${encodeURIComponent(externalId)}`), {
      headers: { "Set-Cookie": await flashNotice(request, "common:saved") },
    });
  }
  return json({ ok: true as const });
}

/** URL state that only changes what is shown of data the page already has. */
const DISPLAY_ONLY_PARAMS = ["view", "chart", "announcements", "intelligence", "person", "personTab", "edit", "dialog", "confirm", "comment", "file", "tag"];

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
  const data: SupplierScreenData = useLoaderData<typeof loader>();
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
            <SupplierOverviewCard connection={data.connection} casefiles={data.casefiles} />
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
      {params.get("edit") === "connection" ? (
        <EditConnectionSlideOver connection={data.connection} tags={data.tags} myFiles={data.myFiles}>
          {params.get("dialog") === "tags" ? <ManageTagsDialog tags={data.tags} /> : null}
        </EditConnectionSlideOver>
      ) : params.get("dialog") === "tags" ? (
        <ManageTagsDialog tags={data.tags} />
      ) : null}
    </div>
  );
}
