import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { parseWithZod } from "@conform-to/zod/v4";
import { z } from "zod";
import { sameSupplierData } from "~/components/supplier/screen-url";
import { EditConnectionSlideOver } from "~/components/connection/EditConnectionSlideOver";
import { ManageTagsDialog } from "~/components/connection/ManageTagsDialog";
import { SupplierOverviewCard } from "~/components/connection/SupplierOverviewCard";
import {
  addSupplier,
  attachFile,
  CONNECTION_REFUSALS,
  connectionIdForCompany,
  deleteComment,
  detachFile,
  saveConnectionSettings,
  updateConnection,
  type ConnectionChange,
  type ConnectionRefusal,
} from "~/models/suppliers/connections.server";
import { isRefusalOf } from "~/models/shared/refusal";
import { acceptForm, refuseForm } from "~/http/forms.server";
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
import { requireUser, type OrgUser } from "~/http/auth.server";
import { redirectWithNotice } from "~/http/notice.server";
import { parseId, readForm } from "~/http/parse.server";
import { ID_PATTERN } from "~/http/ids";
import { can } from "~/models/accounts/permissions";
import { safeRedirect } from "~/http/redirect.server";
import { invariantResponse, REFUSAL_STATUS } from "~/http/responses.server";
import { useRootData } from "~/root";
import { isSingleLine } from "~/models/shared/single-line";

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
        .max(100, t("errors.tagTitleTooLong"))
        .refine(isSingleLine, t("common:errors.singleLine")),
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

/** The user's words for a refused change, by what it was about (the model's refusal code). */
const REFUSAL_MESSAGE: Record<ConnectionRefusal, string> = {
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
 * The connection's forms (card, slide-over, tag dialog), one `intent` each. The action's `switch` checks its cases
 * against this list (a misspelt case does not compile), and the cases stay plain words the fuzz tests read.
 */
const CONNECTION_INTENTS = [
  "add-supplier",
  "save",
  "remove-tag",
  "add-tag",
  "create-tag",
  "add-comment",
  "delete-comment",
  "attach-file",
  "detach-file",
  "delete-connection",
  "delete-tag",
] as const;
type ConnectionIntent = (typeof CONNECTION_INTENTS)[number];

const isConnectionIntent = (intent: unknown): intent is ConnectionIntent => (CONNECTION_INTENTS as readonly unknown[]).includes(intent);

/** What every intent's change needs: who acts, on which supplier, the form as sent, and how to answer. */
interface ConnectionForm {
  request: Request;
  user: OrgUser;
  /** Who acts: every change is the session's organisation's, recorded under the user. */
  actor: { organizationId: number; userId: number };
  externalId: string;
  formData: FormData;
  intent: ConnectionIntent;
  t: T;
  schemas: ReturnType<typeof connectionFormSchemas>;
  /** Where a plain post goes back to (it carries `redirectTo`); null for a fetcher. */
  back: string | null;
}

/**
 * Checks the form against its schema, makes the change and answers: a refused change answers `{intent, result}`
 * through the route kit with 400 (bad input), 403 or 404 (not the organisation's, or not the author's), in the user's
 * language, so the form shows it where the user acted and keeps their input. An accepted one answers a fetcher with
 * JSON ('Saved!' with JavaScript) and redirects a plain post back with the 'Saved!' notice.
 */
async function answer<S extends z.ZodType>(
  form: ConnectionForm,
  schema: S,
  change: (value: z.output<S>) => Promise<unknown>,
  options: { resetForm?: boolean } = {},
) {
  const { request, formData, intent, t, back } = form;
  const submission = parseWithZod(formData, { schema, error: () => t("errors.invalid") });
  if (submission.status !== "success") return refuseForm(submission, { intent });
  try {
    await change(submission.value);
  } catch (error) {
    if (!isRefusalOf(error, CONNECTION_REFUSALS)) throw error;
    // A refusal is the form's own message, whichever field the model named.
    return refuseForm(submission, { intent, status: REFUSAL_STATUS[error.reason], formErrors: [t(REFUSAL_MESSAGE[error.code])] });
  }
  if (back) return redirectWithNotice(request, back, "common:saved");
  return acceptForm(submission, { intent, resetForm: options.resetForm ?? false });
}

const connectionId = (form: ConnectionForm) => connectionIdForCompany({ organizationId: form.user.organizationId, orgNumber: form.externalId });

async function changeConnection(form: ConnectionForm, change: ConnectionChange) {
  return updateConnection({ ...form.actor, id: await connectionId(form), change });
}

function addSupplierToList(form: ConnectionForm) {
  return answer(form, form.schemas.none, () => addSupplier({ ...form.actor, orgNumber: form.externalId }));
}

function saveSettings(form: ConnectionForm) {
  return answer(form, form.schemas.save, async (v) =>
    saveConnectionSettings({
      ...form.actor,
      id: await connectionId(form),
      isPriority: v.is_priority === true,
      isDueDiligence: v.is_due_diligence === true,
      contactEmail: v.contact_email ?? null,
    }),
  );
}

function removeTag(form: ConnectionForm) {
  return answer(form, form.schemas.tag, (v) => changeConnection(form, { removeTagIds: [v.tagId] }));
}

function addTag(form: ConnectionForm) {
  return answer(form, form.schemas.tag, (v) => changeConnection(form, { addTagIds: [v.tagId] }));
}

function createTag(form: ConnectionForm) {
  return answer(form, form.schemas.createTag, (v) => changeConnection(form, { newTags: [v.title] }), { resetForm: true });
}

function addComment(form: ConnectionForm) {
  return answer(form, form.schemas.comment, (v) => changeConnection(form, { newComment: v.text }), { resetForm: true });
}

function removeComment(form: ConnectionForm) {
  return answer(form, form.schemas.commentId, (v) => deleteComment({ organizationId: form.user.organizationId, user: form.user, commentId: v.commentId }));
}

function attachConnectionFile(form: ConnectionForm) {
  return answer(form, form.schemas.file, async (v) => attachFile({ ...form.actor, connectionId: await connectionId(form), fileId: v.fileId }));
}

function detachConnectionFile(form: ConnectionForm) {
  return answer(form, form.schemas.file, async (v) => detachFile({ ...form.actor, connectionId: await connectionId(form), fileId: v.fileId }));
}

function deleteConnection(form: ConnectionForm) {
  return answer(form, form.schemas.none, () => changeConnection(form, { is_deleted: true }));
}

function removeOrganizationTag(form: ConnectionForm) {
  return answer(form, form.schemas.tag, (v) => deleteTag({ ...form.actor, tagId: v.tagId }));
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request, "suppliersWrite");
  const externalId = (new URL(request.url).searchParams.get("externalId") ?? "").replace(/\s/g, "");
  const formData = await readForm(request);
  const t = await i18nServer.getFixedT(request, "connections");
  const intent = formData.get("intent");
  const redirectTo = formData.get("redirectTo");
  // Where a plain post goes back to, decided before anything changes: only a path of this site.
  const back = typeof redirectTo === "string" && redirectTo ? safeRedirect(redirectTo, `/supplier?externalId=${encodeURIComponent(externalId)}`) : null;
  if (!isConnectionIntent(intent)) return refuseForm(formData, { intent: null, formErrors: [t("errors.invalid")] });
  const form: ConnectionForm = {
    request,
    user,
    actor: { organizationId: user.organizationId, userId: user.id },
    externalId,
    formData,
    intent,
    t,
    schemas: connectionFormSchemas(t),
    back,
  };

  switch (intent) {
    case "add-supplier":
      return addSupplierToList(form);
    case "save":
      return saveSettings(form);
    case "remove-tag":
      return removeTag(form);
    case "add-tag":
      return addTag(form);
    case "create-tag":
      return createTag(form);
    case "add-comment":
      return addComment(form);
    case "delete-comment":
      return removeComment(form);
    case "attach-file":
      return attachConnectionFile(form);
    case "detach-file":
      return detachConnectionFile(form);
    case "delete-connection":
      return deleteConnection(form);
    case "delete-tag":
      return removeOrganizationTag(form);
  }
}

/**
 * Opening a chart, the statements page or a person (the root loads persons),
 * or expanding a list, needs no new supplier data: skip this loader then.
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({ currentUrl, nextUrl, formMethod, defaultShouldRevalidate }) => {
  if ((formMethod && formMethod !== "GET") || currentUrl.pathname !== nextUrl.pathname) return defaultShouldRevalidate;
  return sameSupplierData(currentUrl.search, nextUrl.search) ? false : defaultShouldRevalidate;
};

export default function SupplierScreen() {
  const data: SupplierScreenData = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const statementsPage = params.get("view") === "statements";
  // The root's one-time notice ('Saved!' after a plain post), read by id: a route never imports the root module.
  const root = useRootData();
  const notice = root?.notice?.key ?? null;
  const viewer = { email: root?.user?.email ?? "", isAdmin: root?.user?.isAdmin ?? false };
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
        <EditConnectionSlideOver
          connection={data.connection}
          tags={data.tags}
          myFiles={data.myFiles}
          now={data.now}
          viewer={viewer}
          savedNotice={notice === "common:saved"}
        >
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
