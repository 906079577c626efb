import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { parseWithZod } from "@conform-to/zod/v4";
import { z } from "zod";
import { LEI_DIALOG_PARAMS } from "~/components/lei/links";
import { NOTIFICATIONS_PANEL_PARAMS } from "~/models/notifications/notifications";
import { EditConnectionSlideOver } from "~/components/connection/EditConnectionSlideOver";
import { ManageTagsDialog } from "~/components/connection/ManageTagsDialog";
import { SupplierOverviewCard } from "~/components/connection/SupplierOverviewCard";
import {
  addSupplier,
  attachFile,
  ConnectionError,
  connectionIdForCompany,
  deleteComment,
  detachFile,
  saveConnectionSettings,
  updateConnection,
  type ConnectionChange,
} from "~/models/suppliers/connections.server";
import { deleteTag } from "~/models/suppliers/tags.server";
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
import { TaskResponseModal, TaskStateModal } from "~/components/supplier/TaskResponseModal";
import { TasksSection } from "~/components/supplier/TasksSection";
import { titleMeta } from "~/components/ui/meta";
import i18nServer from "~/i18n.server";
import { loadSupplierPage, type SupplierScreenData } from "~/models/suppliers/supplier-screen.server";
import { requireUser } from "~/http/auth.server";
import { redirectWithNotice } from "~/http/notice.server";
import { parseId, readForm } from "~/http/parse.server";
import { ID_PATTERN } from "~/http/ids";
import { can } from "~/http/permissions";
import { safeRedirect } from "~/http/redirect.server";
import { badRequest, invariantResponse, REFUSAL_STATUS } from "~/http/responses.server";
import { useRootData } from "~/root";

export const meta = titleMeta;

/** The translation namespaces this screen renders besides the root's (the browser loads only these). */
export const handle = {
  i18n: ["campaigns", "connections", "credit", "creditReports", "financials", "people", "supplier", "supplierTasks", "supplierWork", "taskStates"],
};

/**
 * The supplier screen (shared/spec/02-supplier-credit-connections.md "Supplier detail"): /supplier?externalId={orgnr}[&localId={id}].
 * Registry data needs access level 2. Every dialog, tab, tree and page of it
 * is URL state (see components/supplier/screen-url.ts).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request, "registryRead");
  const url = new URL(request.url);
  const externalId = (url.searchParams.get("externalId") ?? "").replace(/\s/g, "");
  invariantResponse(externalId, 404, "No organization number given.");
  const page = await loadSupplierPage({
    organizationId: user.organizationId,
    userId: user.id,
    language: user.language,
    externalId,
    trees: url.searchParams.getAll("tree"),
    subSearch: (url.searchParams.get("subSearch") ?? "").slice(0, 100),
    taskResponseId: parseId(url.searchParams.get("task")),
  });
  invariantResponse(page, 404, "No company with this organization number.");
  const t = await i18nServer.getFixedT(request);
  const data: SupplierScreenData = {
    ...page,
    title: `${page.company.legal_name} · ${t("appName")}`,
    now: new Date().toISOString(),
    canManageTasks: can(user, "supplierTasksManage"),
  };
  return json(data);
}

type T = (key: string) => string;

/**
 * The connection forms' schemas, one per intent, with the user's language's
 * messages. Ids are positive whole numbers written plainly (" 5" or "0x10"
 * is refused, never read as 5 or 16).
 */
function connectionFormSchemas(t: T) {
  const id = (message: string) => z.string({ error: message }).regex(ID_PATTERN, message).transform(Number);
  return {
    none: z.object({}),
    save: z.object({
      is_priority: z.boolean({ error: t("errors.invalid") }).optional(),
      is_due_diligence: z.boolean({ error: t("errors.invalid") }).optional(),
      contact_email: z
        .email({ error: t("errors.emailInvalid") })
        .max(254, t("errors.emailTooLong"))
        .optional(),
    }),
    tag: z.object({ tagId: id(t("errors.chooseTag")) }),
    createTag: z.object({
      title: z
        .string({ error: t("errors.tagTitleRequired") })
        .trim()
        .min(1, t("errors.tagTitleRequired"))
        .max(100, t("errors.tagTitleTooLong")),
    }),
    comment: z.object({
      text: z
        .string({ error: t("errors.commentRequired") })
        .trim()
        .min(1, t("errors.commentRequired"))
        .max(5000, t("errors.commentTooLong")),
    }),
    commentId: z.object({ commentId: id(t("errors.chooseComment")) }),
    file: z.object({ fileId: id(t("errors.chooseFile")) }),
  };
}

/** How a refused change is answered, and in the user's words. */
const REFUSAL_MESSAGE: Record<ConnectionError["subject"], string> = {
  connection: "errors.connectionNotFound",
  company: "errors.companyNotFound",
  tag: "errors.tagNotFound",
  comment: "errors.commentNotFound",
  file: "errors.fileNotFound",
  attachment: "errors.attachmentNotFound",
  "own-organization": "errors.ownOrganization",
  author: "errors.authorOnly",
};

/**
 * The connection's forms (card, slide-over, tag dialog), one `intent` each.
 * A refused change answers `{intent, result: submission.reply()}` with 400
 * (bad input), 403 or 404 (not the organisation's, or not the author's), in
 * the user's language, so the form shows it where the user acted and keeps
 * their input. An accepted one answers a fetcher with JSON ('Saved!' with
 * JavaScript) and redirects a plain post (it carries `redirectTo`) back with
 * the 'Saved!' notice.
 */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request, "suppliersWrite");
  const { organizationId } = user;
  const userId = user.id;
  const externalId = (new URL(request.url).searchParams.get("externalId") ?? "").replace(/\s/g, "");
  const formData = await readForm(request);
  const t = await i18nServer.getFixedT(request, "connections");
  const schemas = connectionFormSchemas(t);
  const intent = formData.get("intent");
  const redirectTo = formData.get("redirectTo");
  // Where a plain post goes back to, decided before anything changes: only a path of this site.
  const back = typeof redirectTo === "string" && redirectTo ? safeRedirect(redirectTo, `/supplier?externalId=${encodeURIComponent(externalId)}`) : null;

  async function answer<S extends z.ZodType>(schema: S, change: (value: z.output<S>) => Promise<unknown>, options: { resetForm?: boolean } = {}) {
    const submission = parseWithZod(formData, { schema, error: () => t("errors.invalid") });
    if (submission.status !== "success") return json({ intent, result: submission.reply() }, { status: 400 });
    try {
      await change(submission.value);
    } catch (error) {
      if (!(error instanceof ConnectionError)) throw error;
      return json({ intent, result: submission.reply({ formErrors: [t(REFUSAL_MESSAGE[error.subject])] }) }, { status: REFUSAL_STATUS[error.reason] });
    }
    if (back) return redirectWithNotice(request, back, "common:saved");
    return json({ intent, result: submission.reply({ resetForm: options.resetForm }) });
  }
  const connectionId = () => connectionIdForCompany({ organizationId, orgNumber: externalId });
  const change = async (c: ConnectionChange) => updateConnection({ organizationId, userId, id: await connectionId(), change: c });

  switch (intent) {
    case "add-supplier":
      return answer(schemas.none, () => addSupplier({ organizationId, userId, orgNumber: externalId }));
    case "save":
      return answer(schemas.save, async (v) =>
        saveConnectionSettings({
          organizationId,
          userId,
          id: await connectionId(),
          isPriority: v.is_priority === true,
          isDueDiligence: v.is_due_diligence === true,
          contactEmail: v.contact_email ?? null,
        }),
      );
    case "remove-tag":
      return answer(schemas.tag, (v) => change({ removeTagIds: [v.tagId] }));
    case "add-tag":
      return answer(schemas.tag, (v) => change({ addTagIds: [v.tagId] }));
    case "create-tag":
      return answer(schemas.createTag, (v) => change({ newTags: [v.title] }), { resetForm: true });
    case "add-comment":
      return answer(schemas.comment, (v) => change({ newComment: v.text }), { resetForm: true });
    case "delete-comment":
      return answer(schemas.commentId, (v) => deleteComment({ organizationId, user, commentId: v.commentId }));
    case "attach-file":
      return answer(schemas.file, async (v) => attachFile({ organizationId, userId, connectionId: await connectionId(), fileId: v.fileId }));
    case "detach-file":
      return answer(schemas.file, async (v) => detachFile({ organizationId, userId, connectionId: await connectionId(), fileId: v.fileId }));
    case "delete-connection":
      return answer(schemas.none, () => change({ is_deleted: true }));
    case "delete-tag":
      return answer(schemas.tag, async (v) => {
        if (!(await deleteTag({ organizationId, userId, tagId: v.tagId }))) throw new ConnectionError({ reason: "not-found", subject: "tag" }, "Tag not found");
      });
    default:
      throw badRequest("Unknown intent");
  }
}

/** URL state that only changes what is shown of data the page already has. */
const DISPLAY_ONLY_PARAMS = [
  "view",
  "chart",
  "announcements",
  "intelligence",
  "person",
  "personTab",
  "edit",
  "dialog",
  "confirm",
  "comment",
  "file",
  "tag",
  // A task's state dialog shows what the page already has (taskItems).
  "item",
  // The shell's panels and the LEI dialog: the layout's loader answers them.
  ...NOTIFICATIONS_PANEL_PARAMS,
  ...LEI_DIALOG_PARAMS,
];

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
  // The root's one-time notice ('Saved!' after a plain post), read by id: a route never imports the root module.
  const notice = useRootData()?.notice?.key ?? null;
  return (
    <div className="mx-auto max-w-7xl">
      <SupplierHeader data={data} />
      {statementsPage ? (
        <FinancialStatementsPage data={data} />
      ) : (
        // Two columns from lg up (shared/spec/02-supplier-credit-connections.md). Below lg the columns dissolve (display: contents) into one, and CSS order puts the risk
        // overview and the overview card first, then the left column's sections, then the right's; the DOM keeps the spec's column order.
        <div className="mt-4 flex flex-col gap-4 lg:grid lg:grid-cols-2">
          <div className="contents lg:flex lg:min-w-0 lg:flex-col lg:gap-4">
            <PhoneOrder order="order-2">
              <SupplierOverviewCard connection={data.connection} casefiles={data.casefiles} />
            </PhoneOrder>
            <PhoneOrder order="order-3">
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
            </PhoneOrder>
          </div>
          <div className="contents lg:flex lg:min-w-0 lg:flex-col lg:gap-4">
            <PhoneOrder order="order-1">
              <RiskOverview data={data} />
            </PhoneOrder>
            <PhoneOrder order="order-4">
              <CreditRiskScore data={data} />
              <GeographySection data={data} />
              <IntelligenceSection data={data} />
              <SubSuppliersSection data={data} />
              <AnnouncementsSection data={data} />
            </PhoneOrder>
          </div>
        </div>
      )}
      <TaskResponseModal data={data} />
      <TaskStateModal data={data} />
      {params.get("edit") === "connection" ? (
        <EditConnectionSlideOver connection={data.connection} tags={data.tags} myFiles={data.myFiles} now={data.now} savedNotice={notice === "common:saved"}>
          {params.get("dialog") === "tags" ? <ManageTagsDialog tags={data.tags} layer={2} /> : null}
        </EditConnectionSlideOver>
      ) : params.get("dialog") === "tags" ? (
        <ManageTagsDialog tags={data.tags} />
      ) : null}
    </div>
  );
}

/**
 * Sections that take one place in the phone order (below lg: an order-* class; from lg up it dissolves
 * into its column). Empty when its sections render nothing, then hidden so it adds no gap.
 */
function PhoneOrder({ order, children }: { order: "order-1" | "order-2" | "order-3" | "order-4"; children: React.ReactNode }) {
  return <div className={`${order} flex min-w-0 flex-col gap-4 empty:hidden lg:contents`}>{children}</div>;
}
