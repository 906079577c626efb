import { beforeAll, describe, expect, it, vi } from "vitest";

// A small upload limit for this file, set before anything reads the environment.
vi.hoisted(() => {
  process.env.UPLOAD_MAX_BYTES = "2048";
});

import type { LoaderFunctionArgs } from "@remix-run/node";
import { db } from "@server/db";
import { flashStorage } from "@server/cookies";
import { saveFile } from "@server/storage";
import * as taskPage from "~/routes/tasks.$complianceTaskId._index";
import * as taskPublic from "~/routes/tasks.$complianceTaskId.public";
import * as taskFile from "~/routes/tasks.$complianceTaskId.files.$fileId";
import * as taskPublicFile from "~/routes/tasks.$complianceTaskId.public_.files.$fileId";
import * as surveyPage from "~/routes/tasks.surveys.$surveyResponseId._index";
import * as surveyPublic from "~/routes/tasks.surveys.$surveyResponseId.public";
import * as overview from "~/routes/tasks.overview";
import * as myTasks from "~/routes/tasks.my_tasks";
import * as mySurveys from "~/routes/tasks.surveys.my_surveys";
import { createLink, revokeLinks } from "~/models/tasks/task-workflow.server";
import { sortRespondentList } from "~/models/tasks/respondent.server";
import { sectionParam } from "~/http/respondent-pages.server";
import type { SurveyDefinition } from "~/models/tasks/survey-definition";
import { BASE, call } from "../helpers/requests";
import { makeOrg, sentSurvey, signedIn } from "../helpers/fixtures";

/** The respondent pages (decision 033): every route and action, from the right side and from the wrong one. */

const AT = "2026-11-01T09:00:00.000Z";

const DEFINITION: SurveyDefinition = {
  title: { en: "Self-assessment", no: "Egenvurdering" },
  sections: [
    {
      id: "s1",
      title: { en: "Policy", no: "Retningslinjer" },
      questions: [
        { id: "policy", type: "yes_no", text: { en: "Do you have a policy?", no: "Har dere retningslinjer?" }, required: true, weight: 1 },
        {
          id: "evidence",
          type: "file",
          text: { en: "Upload it", no: "Last den opp" },
          required: true,
          askExpiry: true,
          showIf: { question: "policy", equals: "yes" },
          weight: 1,
        },
        { id: "staff", type: "number", text: { en: "Employees", no: "Ansatte" }, required: true, min: 0, max: 100000 },
      ],
    },
    {
      id: "s2",
      title: { en: "More", no: "Mer" },
      questions: [
        { id: "story", type: "long_text", text: { en: "Tell us", no: "Fortell" }, required: true },
        {
          id: "certs",
          type: "multiple_choice",
          text: { en: "Certificates", no: "Sertifikater" },
          required: false,
          options: [
            { value: "iso9001", label: { en: "ISO 9001", no: "ISO 9001" } },
            { value: "iso14001", label: { en: "ISO 14001", no: "ISO 14001" } },
          ],
        },
      ],
    },
  ],
};

const w = {} as {
  customer: number;
  supplier: number;
  otherSupplier: number;
  customerAnalyst: string;
  customerViewer: string;
  supplierUser: string;
  otherSupplierUser: string;
  noOrgUser: string;
  templateFileId: number;
  surveyTemplate: number;
  surveyVersion: number;
};

interface Item {
  supplierTaskId: number;
  answerId: number;
  token: string;
}

async function makeTask(input: {
  supplier: number;
  title?: string;
  status?: "sent" | "submitted" | "cancelled";
  dueDate?: string | null;
  withTemplate?: boolean;
}): Promise<Item> {
  const template = input.withTemplate
    ? (
        await db()
          .insertInto("compliance_task_templates")
          .values({
            organization_id: w.customer,
            title: "Code of conduct",
            description: "Sign **this** <script>alert(1)</script>",
            description_no: "Signer **denne**",
            template_file_id: w.templateFileId,
            created_at: AT,
          })
          .returning("id")
          .executeTakeFirstOrThrow()
      ).id
    : null;
  const task = await db()
    .insertInto("compliance_tasks")
    .values({
      organization_id: w.customer,
      supplier_organization_id: input.supplier,
      template_id: template,
      title: input.title ?? "Sign the code",
      due_date: input.dueDate ?? null,
      is_submitted: input.status === "submitted" ? 1 : 0,
      created_at: AT,
      updated_at: AT,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const st = await db()
    .insertInto("supplier_tasks")
    .values({
      organization_id: w.customer,
      supplier_organization_id: input.supplier,
      kind: "task",
      compliance_task_id: task.id,
      survey_response_id: null,
      title: input.title ?? "Sign the code",
      recipient_email: "kari@supplier.example",
      message: "Please answer soon.",
      due_date: input.dueDate ?? null,
      status: input.status ?? "sent",
      sent_at: AT,
      submitted_at: input.status === "submitted" ? AT : null,
      updated_at: AT,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const token = await createLink({ supplierTaskId: st.id, email: "kari@supplier.example" });
  return { supplierTaskId: st.id, answerId: task.id, token };
}

async function makeSurvey(supplier: number, title = "Self-assessment"): Promise<Item> {
  const { supplierTaskId, responseId } = await sentSurvey({
    customer: w.customer,
    supplier,
    templateId: w.surveyTemplate,
    versionId: w.surveyVersion,
    title,
    at: AT,
  });
  const st = { id: supplierTaskId };
  const response = { id: responseId };
  const token = await createLink({ supplierTaskId: st.id, email: null });
  return { supplierTaskId: st.id, answerId: response.id, token };
}

type Fn = (a: LoaderFunctionArgs) => unknown;

const cookie = (session?: string) => ({ Origin: BASE, ...(session ? { Cookie: `token=${session}` } : {}) });

function get(fn: Fn, path: string, params: Record<string, string>, session?: string): Promise<Response> {
  return call(fn, { request: new Request(BASE + path, { headers: cookie(session) }), params, context: {} });
}

function post(fn: Fn, path: string, params: Record<string, string>, fields: Record<string, string | string[]>, session?: string): Promise<Response> {
  const body = new URLSearchParams();
  for (const [k, v] of Object.entries(fields)) for (const one of Array.isArray(v) ? v : [v]) body.append(k, one);
  return call(fn, {
    request: new Request(BASE + path, { method: "POST", body, headers: { ...cookie(session), "Content-Type": "application/x-www-form-urlencoded" } }),
    params,
    context: {},
  });
}

function multipart(fn: Fn, path: string, params: Record<string, string>, fields: Array<[string, string | File]>, session?: string): Promise<Response> {
  const body = new FormData();
  for (const [k, v] of fields) body.append(k, v);
  return call(fn, { request: new Request(BASE + path, { method: "POST", body, headers: cookie(session) }), params, context: {} });
}

/** An evidence upload of the survey page (its own small form: question, optional expiry date, file). */
function uploadEvidence(fn: Fn, path: string, params: Record<string, string>, file: File, extra: Array<[string, string]> = [], session?: string) {
  return multipart(fn, path, params, [["intent", "upload"], ["section", "1"], ["question", "evidence"], ...extra, ["file", file]], session);
}

async function notice(response: Response): Promise<string | undefined> {
  const set = response.headers.get("Set-Cookie");
  if (!set) return undefined;
  const session = await flashStorage.getSession(set.split(";")[0]);
  return session.get("notice");
}

const state = (id: number) => db().selectFrom("supplier_tasks").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
const events = (id: number) => db().selectFrom("supplier_task_events").select("kind").where("supplier_task_id", "=", id).orderBy("id").execute();

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Page = any;
const json = async (res: Response): Promise<Page> => res.json();

beforeAll(async () => {
  w.customer = await makeOrg("Respond Customer AS", "customer");
  w.supplier = await makeOrg("Respond Supplier AS", "supplier", "919300001");
  w.otherSupplier = await makeOrg("Other Supplier AS", "supplier", "919300002");
  w.customerAnalyst = await signedIn("analyst@respond.test", w.customer, 2);
  w.customerViewer = await signedIn("viewer@respond.test", w.customer, 1);
  w.supplierUser = await signedIn("kari@respond.test", w.supplier, 1);
  w.otherSupplierUser = await signedIn("ola@respond.test", w.otherSupplier, 1);
  w.noOrgUser = await signedIn("nobody@respond.test", null, 1);
  w.templateFileId = (
    await saveFile(Buffer.from("template bytes"), { fileName: "code.pdf", mimeType: "application/pdf", organizationId: w.customer, userId: null })
  ).id;
  w.surveyTemplate = (
    await db()
      .insertInto("survey_templates")
      .values({ organization_id: w.customer, title: "Self-assessment", created_at: AT })
      .returning("id")
      .executeTakeFirstOrThrow()
  ).id;
  w.surveyVersion = (
    await db()
      .insertInto("survey_template_versions")
      .values({ template_id: w.surveyTemplate, version: 1, definition: JSON.stringify(DEFINITION), created_at: AT })
      .returning("id")
      .executeTakeFirstOrThrow()
  ).id;
});

describe("who may open a task page", () => {
  it("a visitor is sent to the start page; a user without an organisation gets 403", async () => {
    const item = await makeTask({ supplier: w.supplier });
    const visitor = await get(taskPage.loader, `/tasks/${item.answerId}`, { complianceTaskId: String(item.answerId) });
    expect(visitor.status).toBe(302);
    expect(visitor.headers.get("Location")).toBe("/");
    expect((await get(taskPage.loader, `/tasks/${item.answerId}`, { complianceTaskId: String(item.answerId) }, w.noOrgUser)).status).toBe(403);
    expect((await state(item.supplierTaskId)).status).toBe("sent");
  });

  it("another supplier's user, and the customer's own users who sent it, get 404 and nothing changes", async () => {
    const item = await makeTask({ supplier: w.supplier });
    const params = { complianceTaskId: String(item.answerId) };
    for (const session of [w.otherSupplierUser, w.customerAnalyst, w.customerViewer]) {
      expect((await get(taskPage.loader, `/tasks/${item.answerId}`, params, session)).status).toBe(404);
      expect((await post(taskPage.action, `/tasks/${item.answerId}`, params, { intent: "save", comment: "hijack" }, session)).status).toBe(404);
    }
    expect((await state(item.supplierTaskId)).status).toBe("sent");
    expect(await db().selectFrom("compliance_task_responses").select("id").where("task_id", "=", item.answerId).execute()).toEqual([]);
  });

  it("ids that are not ids, or of a survey, are 404, never 500", async () => {
    const survey = await makeSurvey(w.supplier);
    for (const id of ["abc", "0", "-1", "1e3", String(survey.answerId + 100000)]) {
      expect((await get(taskPage.loader, `/tasks/${id}`, { complianceTaskId: id }, w.supplierUser)).status).toBe(404);
    }
  });

  it("the supplier's user opens it: 'opened' once, the customer's message and the template shown, no customer-only data", async () => {
    const item = await makeTask({ supplier: w.supplier, withTemplate: true });
    const params = { complianceTaskId: String(item.answerId) };
    const res = await get(taskPage.loader, `/tasks/${item.answerId}`, params, w.supplierUser);
    expect(res.status).toBe(200);
    expect(res.headers.get("Referrer-Policy")).toBe("same-origin");
    const page = await json(res);
    expect(page.page).toBe("task");
    expect(page.header).toMatchObject({
      title: "Sign the code",
      customerName: "Respond Customer AS",
      message: "Please answer soon.",
      status: "opened",
      editable: true,
    });
    expect(page.answer.descriptionHtml).toContain("<strong>this</strong>");
    expect(page.answer.descriptionHtml).not.toContain("<script");
    expect(page.answer.templateFile).toMatchObject({ id: w.templateFileId, fileName: "code.pdf" });
    // Exactly these fields: never the recipient address, the customer's comments, tags, other suppliers or risk data.
    expect(Object.keys(page).sort()).toEqual([
      "answer",
      "base",
      "errors",
      "formError",
      "header",
      "limit",
      "linkEmail",
      "mode",
      "organization",
      "page",
      "signedInAs",
      "title",
      "values",
    ]);
    expect(Object.keys(page.answer).sort()).toEqual(["comment", "descriptionHtml", "files", "templateFile"]);
    await get(taskPage.loader, `/tasks/${item.answerId}`, params, w.supplierUser);
    expect((await events(item.supplierTaskId)).map((e) => e.kind)).toEqual(["opened"]);
    expect((await state(item.supplierTaskId)).opened_at).not.toBeNull();
  });
});

describe("links", () => {
  it("an unknown token is 404; a link for another item (or kind) is refused as unknown", async () => {
    const a = await makeTask({ supplier: w.supplier });
    const b = await makeTask({ supplier: w.supplier });
    const survey = await makeSurvey(w.supplier);
    const unknown = await get(taskPublic.loader, `/tasks/${a.answerId}/public?token=${"x".repeat(43)}`, { complianceTaskId: String(a.answerId) });
    expect(unknown.status).toBe(404);
    expect(await json(unknown)).toMatchObject({ page: "refused", refusal: "unknown" });
    const crossed = await get(taskPublic.loader, `/tasks/${b.answerId}/public?token=${a.token}`, { complianceTaskId: String(b.answerId) });
    expect(crossed.status).toBe(404);
    const crossedPost = await post(
      taskPublic.action,
      `/tasks/${b.answerId}/public?token=${a.token}`,
      { complianceTaskId: String(b.answerId) },
      { intent: "save", comment: "x" },
    );
    expect(crossedPost.status).toBe(404);
    const kind = await get(surveyPublic.loader, `/tasks/surveys/${survey.answerId}/public?token=${a.token}`, { surveyResponseId: String(survey.answerId) });
    expect(kind.status).toBe(404);
    expect((await state(b.supplierTaskId)).status).toBe("sent");
    expect((await state(a.supplierTaskId)).status).toBe("sent");
  });

  it("expired, revoked and cancelled links get 410 with their own explanation", async () => {
    const expired = await makeTask({ supplier: w.supplier });
    await db()
      .updateTable("supplier_task_links")
      .set({ expires_at: "2020-01-01T00:00:00.000Z" })
      .where("supplier_task_id", "=", expired.supplierTaskId)
      .execute();
    const revoked = await makeTask({ supplier: w.supplier });
    await revokeLinks({ supplierTaskId: revoked.supplierTaskId });
    const cancelled = await makeTask({ supplier: w.supplier, status: "cancelled" });
    for (const [item, refusal] of [
      [expired, "expired"],
      [revoked, "revoked"],
      [cancelled, "cancelled"],
    ] as const) {
      const params = { complianceTaskId: String(item.answerId) };
      const res = await get(taskPublic.loader, `/tasks/${item.answerId}/public?token=${item.token}`, params);
      expect(res.status).toBe(410);
      expect(await json(res)).toMatchObject({ page: "refused", refusal });
      const write = await post(taskPublic.action, `/tasks/${item.answerId}/public?token=${item.token}`, params, { intent: "save", comment: "late" });
      expect(write.status).toBe(410);
    }
    expect(
      await db()
        .selectFrom("compliance_task_responses")
        .select("id")
        .where("task_id", "in", [expired.answerId, revoked.answerId, cancelled.answerId])
        .execute(),
    ).toEqual([]);
  });

  it("a cancelled item says so to the signed-in respondent too (410), and takes no answer", async () => {
    const cancelled = await makeTask({ supplier: w.supplier, status: "cancelled" });
    const params = { complianceTaskId: String(cancelled.answerId) };
    const res = await get(taskPage.loader, `/tasks/${cancelled.answerId}`, params, w.supplierUser);
    expect(res.status).toBe(410);
    expect(await json(res)).toMatchObject({ page: "refused", refusal: "cancelled" });
    expect((await post(taskPage.action, `/tasks/${cancelled.answerId}`, params, { intent: "save", comment: "x" }, w.supplierUser)).status).toBe(410);
    expect((await get(taskPage.loader, `/tasks/${cancelled.answerId}`, params, w.otherSupplierUser)).status).toBe(404);
    expect(await db().selectFrom("compliance_task_responses").select("id").where("task_id", "=", cancelled.answerId).execute()).toEqual([]);
  });
});

describe("answering a task by link", () => {
  it("saves a draft, keeps the comment when the name is missing, submits with the name, then refuses every change with 409", async () => {
    const item = await makeTask({ supplier: w.supplier });
    const path = `/tasks/${item.answerId}/public?token=${item.token}`;
    const params = { complianceTaskId: String(item.answerId) };
    const saved = await multipart(taskPublic.action, path, params, [
      ["comment", "Signed copy attached"],
      ["file", new File(["signed pdf"], "signed.pdf", { type: "application/pdf" })],
      ["intent", "save"],
    ]);
    expect(saved.status).toBe(302);
    expect(saved.headers.get("Location")).toBe(path.replace(item.token, encodeURIComponent(item.token)));
    expect(await notice(saved)).toBe("respond:notice.saved");
    expect((await state(item.supplierTaskId)).status).toBe("draft");
    const file = await db()
      .selectFrom("compliance_task_response_files as rf")
      .innerJoin("compliance_task_responses as r", "r.id", "rf.response_id")
      .innerJoin("file_uploads as f", "f.id", "rf.file_upload_id")
      .select(["f.id", "f.organization_id", "f.file_name", "r.comment"])
      .where("r.task_id", "=", item.answerId)
      .executeTakeFirstOrThrow();
    // The evidence belongs to the supplier organisation, not to the customer that asked.
    expect(file).toMatchObject({ organization_id: w.supplier, file_name: "signed.pdf", comment: "Signed copy attached" });

    const noName = await multipart(taskPublic.action, path, params, [
      ["comment", "Final words"],
      ["name", ""],
      ["intent", "submit"],
    ]);
    expect(noName.status).toBe(400);
    const page = await json(noName);
    expect(page.values.comment).toBe("Final words");
    expect(page.errors.name).toEqual(["Write your name: the sender sees who answered."]);
    expect((await state(item.supplierTaskId)).status).toBe("draft");

    const submitted = await multipart(taskPublic.action, path, params, [
      ["comment", "Final words"],
      ["name", "Kari Nordmann"],
      ["email", "kari@supplier.example"],
      ["intent", "submit"],
    ]);
    expect(submitted.status).toBe(302);
    expect(await notice(submitted)).toBe("respond:notice.submitted");
    const after = await state(item.supplierTaskId);
    expect(after).toMatchObject({ status: "submitted", answered_by_name: "Kari Nordmann (kari@supplier.example)", answered_by_user_id: null });
    expect((await db().selectFrom("compliance_tasks").select("is_submitted").where("id", "=", item.answerId).executeTakeFirstOrThrow()).is_submitted).toBe(1);

    const view = await json(await get(taskPublic.loader, path, params));
    expect(view.header).toMatchObject({ editable: false, status: "submitted", answeredByName: "Kari Nordmann (kari@supplier.example)" });
    expect(view.answer.comment).toBe("Final words");

    for (const fields of [
      [
        ["comment", "changed"],
        ["intent", "save"],
      ],
      [
        ["intent", "remove"],
        ["fileId", String(file.id)],
      ],
    ] as Array<Array<[string, string]>>) {
      const refused = await multipart(taskPublic.action, path, params, fields);
      expect(refused.status).toBe(409);
      expect((await json(refused)).formError).toMatch(/already been submitted/);
    }
    const urlencoded = await post(taskPublic.action, path, params, { intent: "submit", name: "Someone" });
    expect(urlencoded.status).toBe(409);
    expect(await state(item.supplierTaskId)).toEqual(after);
    expect((await db().selectFrom("compliance_task_responses").select("comment").where("task_id", "=", item.answerId).executeTakeFirstOrThrow()).comment).toBe(
      "Final words",
    );
  });

  it("a file above the limit is refused with 413 and a clear message; the comment typed stays in the form", async () => {
    const item = await makeTask({ supplier: w.supplier });
    const path = `/tasks/${item.answerId}/public?token=${item.token}`;
    const before = (await db().selectFrom("file_uploads").select("id").execute()).length;
    const res = await multipart(taskPublic.action, path, { complianceTaskId: String(item.answerId) }, [
      ["comment", "With a big file"],
      ["file", new File(["x".repeat(5000)], "big.pdf")],
      ["intent", "save"],
    ]);
    expect(res.status).toBe(413);
    const page = await json(res);
    expect(page.formError).toBe("The file is too large: at most 2 KB. Nothing was uploaded.");
    expect(page.values.comment).toBe("With a big file");
    expect((await db().selectFrom("file_uploads").select("id").execute()).length).toBe(before);
  });

  it("an unknown intent is 400; removing a file of another item is 404", async () => {
    const item = await makeTask({ supplier: w.supplier });
    const other = await makeTask({ supplier: w.supplier });
    const params = { complianceTaskId: String(item.answerId) };
    expect((await post(taskPage.action, `/tasks/${item.answerId}`, params, { intent: "accept" }, w.supplierUser)).status).toBe(400);
    await multipart(
      taskPage.action,
      `/tasks/${other.answerId}`,
      { complianceTaskId: String(other.answerId) },
      [
        ["file", new File(["abc"], "other.txt")],
        ["intent", "save"],
      ],
      w.supplierUser,
    );
    const otherFile = await db()
      .selectFrom("compliance_task_response_files as rf")
      .innerJoin("compliance_task_responses as r", "r.id", "rf.response_id")
      .select("rf.file_upload_id")
      .where("r.task_id", "=", other.answerId)
      .executeTakeFirstOrThrow();
    const res = await post(taskPage.action, `/tasks/${item.answerId}`, params, { intent: "remove", fileId: String(otherFile.file_upload_id) }, w.supplierUser);
    expect(res.status).toBe(404);
    expect(await db().selectFrom("file_uploads").select("id").where("id", "=", otherFile.file_upload_id).executeTakeFirst()).toBeDefined();
  });
});

describe("files", () => {
  it("the template file downloads on its task's page (signed in and by link); on another item it is 404", async () => {
    const item = await makeTask({ supplier: w.supplier, withTemplate: true });
    const plain = await makeTask({ supplier: w.supplier });
    const user = await get(
      taskFile.loader,
      `/tasks/${item.answerId}/files/${w.templateFileId}`,
      { complianceTaskId: String(item.answerId), fileId: String(w.templateFileId) },
      w.supplierUser,
    );
    expect(user.status).toBe(200);
    expect(await user.text()).toBe("template bytes");
    const link = await get(taskPublicFile.loader, `/tasks/${item.answerId}/public/files/${w.templateFileId}?token=${item.token}`, {
      complianceTaskId: String(item.answerId),
      fileId: String(w.templateFileId),
    });
    expect(link.status).toBe(200);
    expect(link.headers.get("Content-Disposition")).toContain("code.pdf");
    const wrong = await get(
      taskFile.loader,
      `/tasks/${plain.answerId}/files/${w.templateFileId}`,
      { complianceTaskId: String(plain.answerId), fileId: String(w.templateFileId) },
      w.supplierUser,
    );
    expect(wrong.status).toBe(404);
    const otherOrg = await get(
      taskFile.loader,
      `/tasks/${item.answerId}/files/${w.templateFileId}`,
      { complianceTaskId: String(item.answerId), fileId: String(w.templateFileId) },
      w.otherSupplierUser,
    );
    expect(otherOrg.status).toBe(404);
    const badToken = await get(taskPublicFile.loader, `/tasks/${item.answerId}/public/files/${w.templateFileId}?token=${plain.token}`, {
      complianceTaskId: String(item.answerId),
      fileId: String(w.templateFileId),
    });
    expect(badToken.status).toBe(404);
  });
});

describe("answering a survey", () => {
  it("one section per page: a bad number keeps every answer and saves nothing; a good page is merged and goes on", async () => {
    const item = await makeSurvey(w.supplier);
    const params = { surveyResponseId: String(item.answerId) };
    const path = `/tasks/surveys/${item.answerId}`;
    const first = await json(await get(surveyPage.loader, path, params, w.supplierUser));
    expect(first).toMatchObject({ page: "survey", section: 1 });
    const bad = await post(surveyPage.action, path, params, { intent: "save", section: "1", go: "2", "a.policy": "yes", "a.staff": "many" }, w.supplierUser);
    expect(bad.status).toBe(400);
    const badPage = await json(bad);
    expect(badPage.values).toMatchObject({ policy: "yes", staff: "many" });
    expect(badPage.problems).toEqual({ staff: { kind: "notANumber" } });
    expect(badPage.section).toBe(1);
    expect((await db().selectFrom("survey_responses").select("answers").where("id", "=", item.answerId).executeTakeFirstOrThrow()).answers).toBe("{}");

    const good = await post(surveyPage.action, path, params, { intent: "save", section: "1", go: "2", "a.policy": "yes", "a.staff": "1 234" }, w.supplierUser);
    expect(good.status).toBe(302);
    expect(good.headers.get("Location")).toBe(`${path}?section=2`);
    const saved = JSON.parse((await db().selectFrom("survey_responses").select("answers").where("id", "=", item.answerId).executeTakeFirstOrThrow()).answers);
    expect(saved).toEqual({ policy: "yes", staff: "1234" });
    expect((await state(item.supplierTaskId)).status).toBe("draft");

    const second = await post(
      surveyPage.action,
      path,
      params,
      { intent: "save", section: "2", go: "summary", "a.story": "We do well", "a.certs": ["iso14001", "iso9001"] },
      w.supplierUser,
    );
    expect(second.headers.get("Location")).toBe(`${path}?section=summary`);
    const merged = JSON.parse((await db().selectFrom("survey_responses").select("answers").where("id", "=", item.answerId).executeTakeFirstOrThrow()).answers);
    expect(merged).toEqual({ policy: "yes", staff: "1234", story: "We do well", certs: ["iso9001", "iso14001"] });

    // The evidence question shows because 'policy' is yes: submitting without it lists it with its section.
    const missing = await post(surveyPage.action, path, params, { intent: "submit" }, w.supplierUser);
    expect(missing.status).toBe(400);
    expect((await json(missing)).summaryProblems).toEqual([
      { questionId: "evidence", section: 1, text: DEFINITION.sections[0]!.questions[1]!.text, problem: { kind: "required" } },
    ]);
    expect((await state(item.supplierTaskId)).status).toBe("draft");

    const big = await multipart(
      surveyPage.action,
      path,
      params,
      [
        ["intent", "upload"],
        ["section", "1"],
        ["question", "evidence"],
        ["file", new File(["x".repeat(5000)], "big.pdf")],
      ],
      w.supplierUser,
    );
    expect(big.status).toBe(413);
    const badDate = await uploadEvidence(surveyPage.action, path, params, new File(["policy"], "policy.pdf"), [["expiresOn", "31.12.2027"]], w.supplierUser);
    expect(badDate.status).toBe(400);
    expect((await json(badDate)).nameValues.expiresOn).toBe("31.12.2027");
    expect(await db().selectFrom("survey_response_files").select("file_upload_id").where("response_id", "=", item.answerId).execute()).toEqual([]);

    const upload = await uploadEvidence(surveyPage.action, path, params, new File(["policy"], "policy.pdf"), [["expiresOn", "2027-12-31"]], w.supplierUser);
    expect(upload.status).toBe(302);
    expect(upload.headers.get("Location")).toBe(`${path}?section=1`);
    const evidence = await db().selectFrom("survey_response_files").selectAll().where("response_id", "=", item.answerId).executeTakeFirstOrThrow();
    expect(evidence).toMatchObject({ question_id: "evidence", expires_on: "2027-12-31" });

    // A second file, removed again: its row and its bytes go.
    await uploadEvidence(surveyPage.action, path, params, new File(["old"], "old.pdf"), [], w.supplierUser);
    const old = await db()
      .selectFrom("file_uploads")
      .select("id")
      .where("file_name", "=", "old.pdf")
      .where("organization_id", "=", w.supplier)
      .executeTakeFirstOrThrow();
    const removed = await post(surveyPage.action, path, params, { intent: "remove", section: "1", fileId: String(old.id) }, w.supplierUser);
    expect(removed.status).toBe(302);
    expect(await notice(removed)).toBe("respond:notice.fileRemoved");
    expect(await db().selectFrom("file_uploads").select("id").where("id", "=", old.id).executeTakeFirst()).toBeUndefined();
    expect((await db().selectFrom("survey_response_files").select("file_upload_id").where("response_id", "=", item.answerId).execute()).length).toBe(1);

    const done = await post(surveyPage.action, path, params, { intent: "submit" }, w.supplierUser);
    expect(done.status).toBe(302);
    const response = await db()
      .selectFrom("survey_responses")
      .select(["status", "score", "language"])
      .where("id", "=", item.answerId)
      .executeTakeFirstOrThrow();
    // policy yes (100) and evidence attached (100), equal weights.
    expect(response).toEqual({ status: "submitted", score: 100, language: "en" });
    expect(await state(item.supplierTaskId)).toMatchObject({ status: "submitted", answered_by_name: "kari@respond.test" });

    const again = await post(surveyPage.action, path, params, { intent: "save", section: "2", go: "stay", "a.story": "changed" }, w.supplierUser);
    expect(again.status).toBe(409);
    const removeAgain = await post(
      surveyPage.action,
      path,
      params,
      { intent: "remove", section: "1", fileId: String(evidence.file_upload_id) },
      w.supplierUser,
    );
    expect(removeAgain.status).toBe(409);
    expect(
      JSON.parse((await db().selectFrom("survey_responses").select("answers").where("id", "=", item.answerId).executeTakeFirstOrThrow()).answers).story,
    ).toBe("We do well");
  });

  it("by link: the name is asked before submitting; a hidden file question takes no upload; another supplier's user cannot open it", async () => {
    const item = await makeSurvey(w.supplier);
    const params = { surveyResponseId: String(item.answerId) };
    const path = `/tasks/surveys/${item.answerId}/public?token=${item.token}`;
    expect((await get(surveyPage.loader, `/tasks/surveys/${item.answerId}`, params, w.otherSupplierUser)).status).toBe(404);
    expect((await get(surveyPage.loader, `/tasks/surveys/${item.answerId}`, params, w.customerAnalyst)).status).toBe(404);
    await post(surveyPublic.action, path, params, { intent: "save", section: "1", go: "2", "a.policy": "no", "a.staff": "12" });
    await post(surveyPublic.action, path, params, { intent: "save", section: "2", go: "summary", "a.story": "Fine" });
    await uploadEvidence(surveyPublic.action, path, params, new File(["x"], "x.pdf"));
    // Hidden (policy is no): no upload to a question that is not shown.
    expect(await db().selectFrom("survey_response_files").select("file_upload_id").where("response_id", "=", item.answerId).execute()).toEqual([]);
    const noName = await post(surveyPublic.action, path, params, { intent: "submit", name: "" });
    expect(noName.status).toBe(400);
    expect((await json(noName)).errors.name).toBeTruthy();
    const ok = await post(surveyPublic.action, path, params, { intent: "submit", name: "Per Hansen" });
    expect(ok.status).toBe(302);
    const response = await db().selectFrom("survey_responses").select(["status", "score"]).where("id", "=", item.answerId).executeTakeFirstOrThrow();
    // policy no (0 of weight 1); evidence hidden, so not scored.
    expect(response).toEqual({ status: "submitted", score: 0 });
    expect((await state(item.supplierTaskId)).answered_by_name).toBe("Per Hansen");
  });

  it("answer fields named like Object's own properties are ordinary unknown fields: saved around, never a 500", async () => {
    const item = await makeSurvey(w.supplier);
    const params = { surveyResponseId: String(item.answerId) };
    const path = `/tasks/surveys/${item.answerId}/public?token=${item.token}`;
    for (const name of ["__proto__", "constructor", "toString", "valueOf", "hasOwnProperty", "prototype"]) {
      const saved = await post(surveyPublic.action, path, params, {
        intent: "save",
        section: "1",
        go: "2",
        "a.policy": "yes",
        "a.staff": "7",
        [`a.${name}`]: "x",
      });
      expect(saved.status, `a.${name}`).toBe(302);
    }
    const answers = JSON.parse((await db().selectFrom("survey_responses").select("answers").where("id", "=", item.answerId).executeTakeFirstOrThrow()).answers);
    expect(answers).toEqual({ policy: "yes", staff: "7" });
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  it("a returned survey shows the return comment and can be changed and submitted again", async () => {
    const item = await makeSurvey(w.supplier);
    await db()
      .updateTable("supplier_tasks")
      .set({ status: "returned", return_comment: "Please add the number of staff" })
      .where("id", "=", item.supplierTaskId)
      .execute();
    const params = { surveyResponseId: String(item.answerId) };
    const page = await json(await get(surveyPage.loader, `/tasks/surveys/${item.answerId}?section=2`, params, w.supplierUser));
    expect(page.header).toMatchObject({ status: "returned", returnComment: "Please add the number of staff", editable: true });
    expect(page.section).toBe(2);
    const saved = await post(
      surveyPage.action,
      `/tasks/surveys/${item.answerId}`,
      params,
      { intent: "save", section: "1", go: "stay", "a.policy": "no", "a.staff": "3" },
      w.supplierUser,
    );
    expect(saved.status).toBe(302);
    expect((await state(item.supplierTaskId)).status).toBe("draft");
  });
});

describe("lists", () => {
  it("the supplier's lists: only its own items, open first (overdue, then by due date), cancelled gone", async () => {
    const org = await makeOrg("List Supplier AS", "supplier", "919300009");
    const session = await signedIn("list@respond.test", org, 1);
    const late = await makeTask({ supplier: org, title: "Late one", dueDate: "2020-01-01" });
    const soon = await makeTask({ supplier: org, title: "Soon", dueDate: "2099-01-01" });
    const done = await makeTask({ supplier: org, title: "Done one", status: "submitted" });
    await makeTask({ supplier: org, title: "Cancelled one", status: "cancelled" });
    await makeTask({ supplier: w.otherSupplier, title: "Not ours" });
    const survey = await makeSurvey(org, "Our survey");
    const tasks = await json(await get(myTasks.loader, "/tasks/my_tasks", {}, session));
    expect(tasks.items.map((i: { title: string }) => i.title)).toEqual(["Late one", "Soon", "Done one"]);
    expect(tasks.items[0]).toMatchObject({ displayStatus: "overdue", customerName: "Respond Customer AS", href: `/tasks/${late.answerId}` });
    expect(tasks.items[1].href).toBe(`/tasks/${soon.answerId}`);
    expect(tasks.items[2].href).toBe(`/tasks/${done.answerId}`);
    const surveys = await json(await get(mySurveys.loader, "/tasks/surveys/my_surveys", {}, session));
    expect(surveys.items.map((i: { href: string }) => i.href)).toEqual([`/tasks/surveys/${survey.answerId}`]);
    const all = await json(await get(overview.loader, "/tasks/overview", {}, session));
    expect(all.customer).toBeNull();
    expect(all.items).toHaveLength(4);
    expect((await get(myTasks.loader, "/tasks/my_tasks", {})).status).toBe(302);
    expect((await get(overview.loader, "/tasks/overview", {}, w.noOrgUser)).status).toBe(403);
  });

  it("a customer at level 2 sees the state per supplier and the completion per campaign, of its own organisation only", async () => {
    const customer = await makeOrg("Overview Customer AS", "customer");
    const other = await makeOrg("Overview Other AS", "customer");
    const session = await signedIn("ov@respond.test", customer, 2);
    const viewer = await signedIn("ov1@respond.test", customer, 1);
    const campaign = await db()
      .insertInto("task_campaigns")
      .values({ organization_id: customer, kind: "task", title: "Code 2026", created_at: AT, sent_at: AT })
      .returning("id")
      .executeTakeFirstOrThrow();
    // Each supplier task has its answer row (a CHECK of migration 0016).
    const mkTask = async (org: number, supplier: number, status: "sent" | "submitted" | "accepted", due: string | null, campaignId: number | null) => {
      const t = await db()
        .insertInto("compliance_tasks")
        .values({ organization_id: org, supplier_organization_id: supplier, title: "T", created_at: AT, updated_at: AT })
        .returning("id")
        .executeTakeFirstOrThrow();
      await db()
        .insertInto("supplier_tasks")
        .values({
          organization_id: org,
          supplier_organization_id: supplier,
          kind: "task",
          compliance_task_id: t.id,
          survey_response_id: null,
          title: "T",
          status,
          due_date: due,
          sent_at: AT,
          updated_at: AT,
          campaign_id: campaignId,
        })
        .execute();
    };
    await mkTask(customer, w.supplier, "sent", "2020-01-01", campaign.id);
    await mkTask(customer, w.supplier, "submitted", null, campaign.id);
    await mkTask(customer, w.otherSupplier, "accepted", null, campaign.id);
    await mkTask(customer, w.otherSupplier, "sent", "2099-01-01", campaign.id);
    await mkTask(other, w.supplier, "sent", "2020-01-01", null);
    const page = await json(await get(overview.loader, "/tasks/overview", {}, session));
    expect(page.customer.suppliers).toEqual([
      { supplierOrganizationId: w.supplier, name: "Respond Supplier AS", orgNumber: "919300001", counts: { overdue: 1, submitted: 1 }, total: 2 },
      { supplierOrganizationId: w.otherSupplier, name: "Other Supplier AS", orgNumber: "919300002", counts: { accepted: 1, sent: 1 }, total: 2 },
    ]);
    expect(page.customer.campaigns).toEqual([{ id: campaign.id, kind: "task", title: "Code 2026", dueDate: null, sentAt: AT, sent: 4, done: 2, rate: 50 }]);
    const low = await json(await get(overview.loader, "/tasks/overview", {}, viewer));
    expect(low.customer).toBeNull();
  });
});

describe("language", () => {
  it("?lang= is remembered in the cookie and the page comes back without it; a GET never writes the account", async () => {
    const item = await makeSurvey(w.supplier);
    const params = { surveyResponseId: String(item.answerId) };
    const link = await get(surveyPublic.loader, `/tasks/surveys/${item.answerId}/public?token=${item.token}&lang=no`, params);
    expect(link.status).toBe(302);
    expect(link.headers.get("Location")).toBe(`/tasks/surveys/${item.answerId}/public?token=${item.token}`);
    expect(link.headers.get("Set-Cookie")).toMatch(/^lng=/);
    expect(link.headers.get("Referrer-Policy")).toBe("same-origin");
    const lister = await signedIn("lang@respond.test", w.supplier, 1);
    const list = await get(myTasks.loader, "/tasks/my_tasks?lang=no", {}, lister);
    expect(list.headers.get("Location")).toBe("/tasks/my_tasks");
    // A link anyone can make a browser follow (an image, a redirect) changes no account: the language switch posts.
    expect((await db().selectFrom("users").select("language").where("email", "=", "lang@respond.test").executeTakeFirstOrThrow()).language).toBe("en");
    const bad = await get(myTasks.loader, "/tasks/my_tasks?lang=xx", {}, lister);
    expect(bad.headers.get("Location")).toBe("/tasks/my_tasks");
    expect(bad.headers.get("Set-Cookie")).toBeNull();
  });
});

describe("the survey's title", () => {
  it("is the survey's own title in the respondent's language; a send the customer named otherwise keeps its name", async () => {
    const item = await makeSurvey(w.supplier);
    const params = { surveyResponseId: String(item.answerId) };
    const path = `/tasks/surveys/${item.answerId}/public?token=${item.token}`;
    const switched = await get(surveyPublic.loader, `${path}&lang=no`, params);
    const cookie = switched.headers.get("Set-Cookie")!.split(";")[0];
    const page = (headers: Record<string, string>) =>
      call(surveyPublic.loader, { request: new Request(BASE + path, { headers: { Origin: BASE, ...headers } }), params, context: {} });
    const norwegian = await (await page({ Cookie: cookie })).json();
    expect(norwegian.header.title).toBe("Egenvurdering");
    expect(norwegian.title).toMatch(/^Egenvurdering · /);
    const english = await (await page({ "Accept-Language": "en" })).json();
    expect(english.header.title).toBe("Self-assessment");
    const named = await makeSurvey(w.supplier, "Leverandørsjekk 2026");
    const namedPage = await call(surveyPublic.loader, {
      request: new Request(`${BASE}/tasks/surveys/${named.answerId}/public?token=${named.token}`, { headers: { Origin: BASE, Cookie: cookie } }),
      params: { surveyResponseId: String(named.answerId) },
      context: {},
    });
    expect((await namedPage.json()).header.title).toBe("Leverandørsjekk 2026");
  });
});

describe("pure helpers", () => {
  it("sectionParam reads 1…n or summary, anything else is the first section", () => {
    expect(sectionParam("2", 3)).toBe(2);
    expect(sectionParam("summary", 3)).toBe("summary");
    for (const raw of [null, "0", "4", "-1", "x", "1e2", "99999"]) expect(sectionParam(raw, 3)).toBe(1);
  });

  it("sortRespondentList: overdue, then due date (undated last), then submitted latest first", () => {
    const base = { submittedAt: null as string | null };
    const items = [
      { id: 1, status: "submitted" as const, displayStatus: "submitted" as const, dueDate: null, submittedAt: "2026-01-01" },
      { id: 2, status: "sent" as const, displayStatus: "sent" as const, dueDate: null, ...base },
      { id: 3, status: "draft" as const, displayStatus: "draft" as const, dueDate: "2026-12-01", ...base },
      { id: 4, status: "opened" as const, displayStatus: "overdue" as const, dueDate: "2026-01-01", ...base },
      { id: 5, status: "accepted" as const, displayStatus: "accepted" as const, dueDate: null, submittedAt: "2026-02-01" },
    ];
    expect(sortRespondentList(items).map((i) => i.id)).toEqual([4, 3, 2, 5, 1]);
  });
});
