import { getFormProps, getInputProps, getSelectProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useOutlet } from "@remix-run/react";
import { useTranslation } from "~/translations";
import { PriorityBadge, StatusBadge, SupplierName } from "~/components/casefiles/CasefileBadges";
import { GeneralErrorBoundary } from "~/components/ui/GeneralErrorBoundary";
import { FieldErrors } from "~/components/ui/form";
import { titleMeta } from "~/components/ui/meta";
import { requireUser, type OrgUser } from "~/http/auth.server";
import { refuseForm } from "~/http/forms.server";
import { redirectWithNotice } from "~/http/notice.server";
import { parseId, readForm } from "~/http/parse.server";
import i18nServer from "~/i18n.server";
import { newCasefileSchema } from "~/models/files/casefile-schemas";
import { createCasefile, followedSuppliers, listCasefiles } from "~/models/files/casefiles.server";
import { formatDate } from "~/models/shared/format";
import { pageTitle } from "~/models/shared/page-title.server";
import { TableScroll } from "~/components/ui/TableScroll";

export const meta = titleMeta;

/** The translation namespaces this screen renders besides the root's (the browser loads only these). */
export const handle = { i18n: ["casefiles"] };

/**
 * /casefiles: the organisation's case files and a 'New case file' form.
 * /casefiles/{id} renders in this route's outlet (flat routes nest it), so
 * the list is only read when no case file is open.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { organizationId } = await requireUser(request, "suppliersRead");
  if (params.caseFileId) return json({ casefiles: [], suppliers: [], title: "" });
  const [casefiles, suppliers] = await Promise.all([listCasefiles({ organizationId }), followedSuppliers({ organizationId })]);
  return json({ casefiles, suppliers, title: await pageTitle(request, "casefiles:title") });
}

/** 'New case file': POST with intent=create, then to the new case file with 'Case file created.'. */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request, "suppliersWrite");
  const formData = await readForm(request);
  const t = await i18nServer.getFixedT(request);
  switch (formData.get("intent")) {
    case "create":
      return createCase(request, user, formData, t);
    default:
      return refuseForm(formData, { intent: null, formErrors: [t("common:errors.badRequest")] });
  }
}

async function createCase(request: Request, user: OrgUser, formData: FormData, t: (key: string) => string) {
  const submission = parseWithZod(formData, { schema: newCasefileSchema(t) });
  if (submission.status !== "success") return refuseForm(submission, { intent: "create" });
  const unknownSupplier = () => refuseForm(submission, { intent: "create", fieldErrors: { supplierId: [t("casefiles:errors.supplierUnknown")] } });
  // The browser's coercion reads " 5" or "0x10" as a number; an id is only ever written plainly.
  if (parseId(formData.get("supplierId")) !== submission.value.supplierId) return unknownSupplier();
  const id = await createCasefile({
    organizationId: user.organizationId,
    userId: user.id,
    supplierOrganizationId: submission.value.supplierId,
    title: submission.value.title,
    priority: submission.value.priority,
  });
  if (id === undefined) return unknownSupplier();
  return redirectWithNotice(request, `/casefiles/${id}`, "casefiles:created");
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

export default function CasefilesScreen() {
  const outlet = useOutlet();
  if (outlet) return outlet;
  return <CasefileList />;
}

function CasefileList() {
  const { casefiles } = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation("casefiles");
  return (
    <section aria-labelledby="casefiles-title" className="mx-auto max-w-6xl">
      <h1 id="casefiles-title" className="text-2xl font-semibold">
        {t("title")}
      </h1>
      <p className="mt-1 text-sm text-base-content/70">{t("intro")}</p>

      {casefiles.length === 0 ? (
        <div className="mt-6 rounded-box border border-dashed border-base-300 bg-base-100 p-8">
          <p className="font-medium">{t("empty")}</p>
          <p className="mt-2 text-sm text-base-content/70">{t("emptyHint")}</p>
        </div>
      ) : (
        <TableScroll className="mt-6 rounded-box border border-base-300 bg-base-100">
          <table className="table table-sm" aria-label={t("listLabel")}>
            <thead>
              <tr>
                <th scope="col">{t("columns.title")}</th>
                <th scope="col">{t("columns.supplier")}</th>
                <th scope="col">{t("columns.status")}</th>
                <th scope="col">{t("columns.priority")}</th>
                <th scope="col">{t("columns.created")}</th>
                <th scope="col" className="text-right">
                  {t("columns.comments")}
                </th>
                <th scope="col" className="text-right">
                  {t("columns.events")}
                </th>
              </tr>
            </thead>
            <tbody>
              {casefiles.map((c) => (
                <tr key={c.id} className="hover:bg-base-200">
                  <th scope="row" className="font-medium">
                    <Link to={`/casefiles/${c.id}`} className="link link-hover link-primary">
                      {c.title}
                    </Link>
                  </th>
                  <td>{c.supplier ? <SupplierName supplier={c.supplier} /> : <span className="text-base-content/60">{t("noSupplier")}</span>}</td>
                  <td>
                    <StatusBadge status={c.status} />
                  </td>
                  <td>
                    <PriorityBadge priority={c.priority} />
                  </td>
                  <td className="whitespace-nowrap">{formatDate(c.createdAt, i18n.language)}</td>
                  <td className="text-right tabular-nums">{c.comments.length}</td>
                  <td className="text-right tabular-nums">{c.events.length}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      <NewCasefileForm />
    </section>
  );
}

function NewCasefileForm() {
  const { suppliers } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === "create";
  const { t } = useTranslation("casefiles");
  const { t: tAll } = useTranslation();
  const [form, fields] = useForm({
    id: "new-casefile",
    lastResult: actionData?.result ?? undefined,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: newCasefileSchema((k) => tAll(k)) }),
  });
  return (
    <section aria-labelledby="new-casefile-heading" className="mt-8 max-w-2xl rounded-box border border-base-300 bg-base-100 p-5">
      <h2 id="new-casefile-heading" className="text-lg font-semibold">
        {t("new.heading")}
      </h2>
      {suppliers.length === 0 ? (
        <p className="mt-2 text-sm text-base-content/70">{t("new.noSuppliers")}</p>
      ) : (
        <Form method="post" {...getFormProps(form)} className="mt-4 grid gap-4 sm:grid-cols-[1fr_10rem]">
          <input type="hidden" name="intent" value="create" />
          <div className="sm:col-span-2">
            <label htmlFor={fields.title.id} className="mb-1 block text-sm font-medium">
              {t("new.titleLabel")}
            </label>
            <input
              {...getInputProps(fields.title, { type: "text" })}
              key={fields.title.key}
              className={`input w-full ${fields.title.errors ? "input-error" : ""}`}
            />
            <FieldErrors id={fields.title.errorId} errors={fields.title.errors} />
          </div>
          <div>
            <label htmlFor={fields.supplierId.id} className="mb-1 block text-sm font-medium">
              {t("new.supplierLabel")}
            </label>
            <select
              {...getSelectProps(fields.supplierId)}
              key={fields.supplierId.key}
              className={`select w-full ${fields.supplierId.errors ? "select-error" : ""}`}
            >
              <option value="">{t("new.chooseSupplier")}</option>
              {suppliers.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name}
                </option>
              ))}
            </select>
            <FieldErrors id={fields.supplierId.errorId} errors={fields.supplierId.errors} />
          </div>
          <div>
            <label htmlFor={fields.priority.id} className="mb-1 block text-sm font-medium">
              {t("new.priorityLabel")}
            </label>
            <select {...getSelectProps(fields.priority)} key={fields.priority.key} className="select w-full" aria-describedby="new-casefile-priority-hint">
              <option value="">{t("noPriority")}</option>
              {[1, 2, 3, 4, 5].map((p) => (
                <option key={p} value={p}>
                  {p}
                </option>
              ))}
            </select>
            <p id="new-casefile-priority-hint" className="mt-1 text-xs text-base-content/70">
              {t("new.priorityHint")}
            </p>
            <FieldErrors id={fields.priority.errorId} errors={fields.priority.errors} />
          </div>
          <div className="sm:col-span-2 sm:text-right">
            <button type="submit" className="btn btn-primary w-full whitespace-nowrap sm:w-auto" disabled={busy}>
              {busy ? t("new.submitting") : t("new.submit")}
            </button>
          </div>
        </Form>
      )}
    </section>
  );
}
