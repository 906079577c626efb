import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@server/db";
import { outbox } from "@server/mail";
import { hashToken } from "@server/auth/tokens";
import { action as itemAction, loader as itemLoader } from "~/routes/_app.supplier_tasks_.$id/route";
import { loader as listLoader } from "~/routes/_app.supplier_tasks";
import { loader as csvLoader } from "~/routes/supplier_tasks[.]csv";
import { loader as readLoader } from "~/routes/_app.tasks_.surveys_.$surveyResponseId_.read";
import { loader as downloadLoader } from "~/routes/api.file-uploads.$id.download";
import { loader as supplierLoader } from "~/routes/_app.supplier";
import { createLink } from "~/models/tasks/task-workflow.server";
import { osloDate } from "~/models/tasks/task-states";
import type { SupplierScreenData } from "~/models/suppliers/supplier-screen.server";
import { company, follow, makeOrg, signedIn, type Loader } from "../helpers/fixtures";
import { BASE, call, get } from "../helpers/requests";

/**
 * The customer's side of sent tasks and surveys (decision 034): the list with its filters and CSV, one item
 * with its actions and their state rules, the survey read view for both sides, the evidence download, and the supplier
 * screen's task states — each tried from the wrong side (a visitor, level 1, a supplier respondent, another organisation).
 */

const AT = "2026-11-01T09:00:00.000Z";
const today = osloDate(new Date());
const past = "2020-01-15";
const future = "2099-12-31";

const w = {} as {
  org: number;
  other: number;
  supplier: number;
  supplier2: number;
  analyst: string;
  analystEmail: string;
  viewer: string;
  otherAnalyst: string;
  respondent: string;
  otherRespondent: string;
  tag: number;
  /** Items by name. */
  items: Record<string, number>;
  responseId: number;
  draftResponseId: number;
  evidenceFile: number;
  otherItem: number;
};

let seq = 0;
async function item(values: {
  supplier?: number;
  organizationId?: number;
  kind?: "task" | "survey";
  title: string;
  status?: "sent" | "opened" | "draft" | "submitted" | "accepted" | "returned" | "cancelled";
  due?: string | null;
  recipient?: string | null;
  sentAt?: string;
  responseId?: number | null;
  comment?: string;
}): Promise<number> {
  const organizationId = values.organizationId ?? w.org;
  const supplier = values.supplier ?? w.supplier;
  const kind = values.kind ?? "task";
  const status = values.status ?? "sent";
  const answered = status === "submitted" || status === "accepted";
  let complianceTaskId: number | null = null;
  if (kind === "task") {
    complianceTaskId = (
      await db()
        .insertInto("compliance_tasks")
        .values({
          organization_id: organizationId,
          supplier_organization_id: supplier,
          title: values.title,
          is_submitted: answered ? 1 : 0,
          due_date: values.due ?? null,
          created_at: AT,
          updated_at: AT,
        })
        .returning("id")
        .executeTakeFirstOrThrow()
    ).id;
    if (answered)
      await db()
        .insertInto("compliance_task_responses")
        .values({ task_id: complianceTaskId, comment: values.comment ?? "Here it is.", created_at: AT, updated_at: AT })
        .execute();
  }
  seq++;
  return (
    await db()
      .insertInto("supplier_tasks")
      .values({
        organization_id: organizationId,
        supplier_organization_id: supplier,
        kind,
        compliance_task_id: complianceTaskId,
        survey_response_id: kind === "survey" ? (values.responseId ?? null) : null,
        title: values.title,
        status,
        due_date: values.due === undefined ? future : values.due,
        recipient_email: values.recipient === undefined ? "kari@supplier.test" : values.recipient,
        sent_at: values.sentAt ?? new Date(Date.parse(AT) + seq * 60_000).toISOString(),
        submitted_at: answered ? AT : null,
        answered_by_name: answered ? "Kari Nordmann" : null,
        updated_at: AT,
      })
      .returning("id")
      .executeTakeFirstOrThrow()
  ).id;
}

async function surveyResponse(status: "draft" | "submitted", score: number | null, answers: object): Promise<number> {
  const template = (
    await db()
      .insertInto("survey_templates")
      .values({ organization_id: w.org, title: "Security baseline", title_no: "Sikkerhetsgrunnlag", created_at: AT })
      .returning("id")
      .executeTakeFirstOrThrow()
  ).id;
  const definition = {
    title: { en: "Security baseline", no: "Sikkerhetsgrunnlag" },
    sections: [
      {
        id: "s1",
        title: { en: "Policies", no: "Retningslinjer" },
        questions: [
          { id: "policy", type: "yes_no", text: { en: "Do you have a security policy?", no: "Har dere en sikkerhetspolicy?" }, required: true, weight: 1 },
          {
            id: "reviewed",
            type: "single_choice",
            text: { en: "How often is it reviewed?", no: "Hvor ofte gjennomgås den?" },
            required: false,
            options: [
              { value: "yearly", label: { en: "Every year", no: "Hvert år" }, points: 100 },
              { value: "never", label: { en: "Never", no: "Aldri" }, points: 0 },
            ],
            showIf: { question: "policy", equals: "yes" },
          },
          { id: "why", type: "long_text", text: { en: "Why not?", no: "Hvorfor ikke?" }, required: false, showIf: { question: "policy", equals: "no" } },
          { id: "cert", type: "file", text: { en: "Upload your certificate", no: "Last opp sertifikatet" }, required: false, askExpiry: true },
        ],
      },
    ],
  };
  const version = (
    await db()
      .insertInto("survey_template_versions")
      .values({ template_id: template, version: 3, definition: JSON.stringify(definition), created_at: AT })
      .returning("id")
      .executeTakeFirstOrThrow()
  ).id;
  return (
    await db()
      .insertInto("survey_responses")
      .values({
        survey_template_id: template,
        template_version_id: version,
        organization_id: w.org,
        supplier_organization_id: w.supplier,
        status,
        answers: JSON.stringify(answers),
        score,
        created_at: AT,
        updated_at: AT,
        submitted_at: status === "submitted" ? AT : null,
      })
      .returning("id")
      .executeTakeFirstOrThrow()
  ).id;
}

const cookie = (token: string) => ({ Cookie: `token=${token}` });

async function open(loader: Loader, path: string, token: string | null, params: Record<string, string> = {}) {
  const response = await call(loader, { request: get(path, token ? cookie(token) : {}), params, context: {} });
  const type = response.headers.get("Content-Type") ?? "";
  return { response, status: response.status, body: type.includes("json") ? await response.json() : null };
}

async function act(id: number | string, fields: Record<string, string>, token: string | null) {
  const request = new Request(`${BASE}/supplier_tasks/${id}`, {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: BASE, ...(token ? cookie(token) : {}) },
  });
  const response = await call(itemAction, { request, params: { id: String(id) }, context: {} });
  const body = response.headers.get("Content-Type")?.includes("json") ? await response.json() : null;
  return { status: response.status, location: response.headers.get("Location"), body };
}

const status = async (id: number) => (await db().selectFrom("supplier_tasks").select("status").where("id", "=", id).executeTakeFirstOrThrow()).status;

beforeAll(async () => {
  w.org = await makeOrg("Tasks Customer AS", "customer");
  w.other = await makeOrg("Tasks Other Customer AS", "customer");
  w.supplier = await makeOrg("Alfa Leverandør AS", "supplier", "971000001");
  w.supplier2 = await makeOrg("Beta Supplies AS", "supplier", "971000002");
  await company("971000001", "Alfa Leverandør AS");
  await follow(w.org, w.supplier);
  await follow(w.org, w.supplier2);
  await follow(w.other, w.supplier);
  w.analystEmail = "analyst@tasks.test";
  w.analyst = await signedIn(w.analystEmail, w.org, 2);
  w.viewer = await signedIn("viewer@tasks.test", w.org, 1);
  w.otherAnalyst = await signedIn("analyst@other-tasks.test", w.other, 2);
  w.respondent = await signedIn("kari@supplier.test", w.supplier, 1);
  w.otherRespondent = await signedIn("ola@beta.test", w.supplier2, 1);
  // A tag on the connection to the second supplier only.
  w.tag = (
    await db().insertInto("organization_tags").values({ organization_id: w.org, title: "Critical", created_at: AT }).returning("id").executeTakeFirstOrThrow()
  ).id;
  const connection = await db()
    .selectFrom("organization_connections")
    .select("id")
    .where("parent_organization_id", "=", w.org)
    .where("child_organization_id", "=", w.supplier2)
    .executeTakeFirstOrThrow();
  await db().insertInto("organization_connection_tags").values({ connection_id: connection.id, tag_id: w.tag, created_at: AT }).execute();

  w.responseId = await surveyResponse("submitted", 70, { policy: "yes", reviewed: "yearly", why: "hidden answer", cert: "2027-06-30" });
  w.draftResponseId = await surveyResponse("draft", null, {});
  w.evidenceFile = (
    await db()
      .insertInto("file_uploads")
      .values({
        organization_id: w.supplier,
        user_id: null,
        file_name: "iso27001.pdf",
        file_size: 3,
        mime_type: "application/pdf",
        storage_key: "missing-key",
        created_at: AT,
      })
      .returning("id")
      .executeTakeFirstOrThrow()
  ).id;
  await db()
    .insertInto("survey_response_files")
    .values({ response_id: w.responseId, question_id: "cert", file_upload_id: w.evidenceFile, expires_on: "2027-06-30", created_at: AT })
    .execute();

  w.items = {
    open: await item({ title: "Insurance certificate", due: future }),
    overdue: await item({ title: "Code of conduct", due: past }),
    submitted: await item({ title: "Transparency questionnaire", status: "submitted", comment: "Answered, see the file." }),
    toAccept: await item({ title: "Quality certificate", status: "submitted" }),
    noRecipient: await item({ title: "Production sites", recipient: null }),
    beta: await item({ title: "Beta capacity", supplier: w.supplier2 }),
    survey: await item({ title: "Security baseline", kind: "survey", status: "submitted", responseId: w.responseId }),
    draftSurvey: await item({ title: "Security baseline draft", kind: "survey", status: "draft", responseId: w.draftResponseId }),
    toCancel: await item({ title: "Cancel me", due: future }),
    accepted: await item({ title: "Already accepted", status: "accepted" }),
  };
  w.otherItem = await item({ title: "Other org's task", organizationId: w.other });
});

describe("/supplier_tasks from the wrong side", () => {
  it("a visitor goes to the start page; level 1 and a supplier respondent are refused", async () => {
    const visitor = await open(listLoader, "/supplier_tasks", null);
    expect([visitor.status, visitor.response.headers.get("Location")]).toEqual([302, "/"]);
    const csvVisitor = await open(csvLoader, "/supplier_tasks.csv", null);
    expect([csvVisitor.status, csvVisitor.response.headers.get("Location")]).toEqual([302, "/"]);
    expect((await open(listLoader, "/supplier_tasks", w.viewer)).status).toBe(403);
    expect((await open(listLoader, "/supplier_tasks", w.respondent)).status).toBe(403);
    expect((await open(csvLoader, "/supplier_tasks.csv", w.viewer)).status).toBe(403);
    expect((await open(csvLoader, "/supplier_tasks.csv", w.respondent)).status).toBe(403);
  });

  it("another organisation sees only its own items", async () => {
    const { body } = await open(listLoader, "/supplier_tasks", w.otherAnalyst);
    expect(body.items.map((i: { title: string }) => i.title)).toEqual(["Other org's task"]);
  });
});

describe("/supplier_tasks", () => {
  const titles = (body: { items: Array<{ title: string }> }) => body.items.map((i) => i.title).sort();

  it("lists everything the organisation sent, newest first, with supplier, status shown and recipient", async () => {
    const { status: code, body } = await open(listLoader, "/supplier_tasks", w.analyst);
    expect(code).toBe(200);
    expect(body.total).toBe(Object.keys(w.items).length);
    expect(body.items[0].title).toBe("Already accepted");
    const overdue = body.items.find((i: { id: number }) => i.id === w.items.overdue);
    expect(overdue).toMatchObject({ status: "sent", shownStatus: "overdue", supplier: { name: "Alfa Leverandør AS", orgNumber: "971000001" } });
    expect(body.items.find((i: { id: number }) => i.id === w.items.noRecipient).recipientEmail).toBeNull();
  });

  it("filters by status (overdue is derived and leaves 'sent'), kind, supplier name, tag and campaign", async () => {
    expect(titles((await open(listLoader, "/supplier_tasks?status=overdue", w.analyst)).body)).toEqual(["Code of conduct"]);
    const sent = titles((await open(listLoader, "/supplier_tasks?status=sent", w.analyst)).body);
    expect(sent).toContain("Insurance certificate");
    expect(sent).not.toContain("Code of conduct");
    expect(titles((await open(listLoader, "/supplier_tasks?kind=survey", w.analyst)).body)).toEqual(["Security baseline", "Security baseline draft"]);
    expect(titles((await open(listLoader, "/supplier_tasks?q=beta", w.analyst)).body)).toEqual(["Beta capacity"]);
    expect(titles((await open(listLoader, "/supplier_tasks?q=%25", w.analyst)).body)).toEqual([]);
    expect(titles((await open(listLoader, `/supplier_tasks?tag=${w.tag}`, w.analyst)).body)).toEqual(["Beta capacity"]);
    expect((await open(listLoader, "/supplier_tasks?campaign=999999", w.analyst)).body.total).toBe(0);
  });

  it("sorts by due date, status and supplier", async () => {
    const due = (await open(listLoader, "/supplier_tasks?sort=due", w.analyst)).body;
    expect(due.items[0].title).toBe("Code of conduct");
    const byStatus = (await open(listLoader, "/supplier_tasks?sort=status", w.analyst)).body.items.map((i: { shownStatus: string }) => i.shownStatus);
    expect(byStatus.slice(0, 3)).toEqual(["submitted", "submitted", "submitted"]);
    expect(byStatus.at(-1)).toBe("accepted");
    const bySupplier = (await open(listLoader, "/supplier_tasks?sort=supplier", w.analyst)).body.items.map(
      (i: { supplier: { name: string } }) => i.supplier.name,
    );
    expect(bySupplier.at(-1)).toBe("Beta Supplies AS");
  });

  it("a wrong filter is a 400 naming the field, keeping what was typed", async () => {
    const { status: code, body } = await open(listLoader, "/supplier_tasks?status=lost&q=abc", w.analyst);
    expect(code).toBe(400);
    expect(body.error).toBe("status");
    expect(body.raw).toMatchObject({ status: "lost", q: "abc" });
    expect((await open(listLoader, "/supplier_tasks?sort=random", w.analyst)).status).toBe(400);
    expect((await open(listLoader, "/supplier_tasks?tag=-1", w.analyst)).status).toBe(400);
    expect((await open(listLoader, `/supplier_tasks?q=${"x".repeat(101)}`, w.analyst)).status).toBe(400);
    expect((await open(csvLoader, "/supplier_tasks.csv?kind=file", w.analyst)).status).toBe(400);
  });

  it("exports the current filter as CSV, formulas escaped", async () => {
    await item({ title: '=HYPERLINK("http://evil")', supplier: w.supplier2 });
    const { response, status: code } = await open(csvLoader, "/supplier_tasks.csv?q=beta&sort=due", w.analyst);
    expect(code).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    const text = await response.text();
    const lines = text
      .replace(/^\uFEFF/, "")
      .trim()
      .split("\r\n");
    expect(lines[0]).toBe("Supplier,Organization number,Type,Title,Status,Due date,Sent,Submitted,Recipient,Answered by,Link");
    expect(lines).toHaveLength(3);
    expect(text).toContain("Beta capacity");
    expect(text).toContain("'=HYPERLINK");
    expect(text).not.toContain("Insurance certificate");
    expect(text).toContain(`${BASE}/supplier_tasks/${w.items.beta}`);
  });
});

describe("/supplier_tasks/{id}", () => {
  it("shows the item with its answer and history to the organisation that sent it", async () => {
    await db()
      .insertInto("supplier_task_events")
      .values({ supplier_task_id: w.items.submitted, kind: "submitted", actor: "Kari Nordmann", created_at: AT })
      .execute();
    const { status: code, body } = await open(itemLoader, `/supplier_tasks/${w.items.submitted}`, w.analyst, { id: String(w.items.submitted) });
    expect(code).toBe(200);
    expect(body.task).toMatchObject({ title: "Transparency questionnaire", status: "submitted", answeredByName: "Kari Nordmann" });
    expect(body.taskResponse.comment).toBe("Answered, see the file.");
    expect(body.events.map((e: { kind: string }) => e.kind)).toEqual(["submitted"]);
    expect(body.canManage).toBe(true);
    const survey = await open(itemLoader, `/supplier_tasks/${w.items.survey}`, w.analyst, { id: String(w.items.survey) });
    expect(survey.body.survey).toEqual({ responseId: w.responseId, title: "Security baseline", score: 70, submitted: true });
  });

  it("is a 404 for another organisation, a 403 below level 2 and for a respondent, a redirect for a visitor", async () => {
    const id = String(w.items.submitted);
    expect((await open(itemLoader, `/supplier_tasks/${id}`, w.otherAnalyst, { id })).status).toBe(404);
    expect((await open(itemLoader, `/supplier_tasks/${w.otherItem}`, w.analyst, { id: String(w.otherItem) })).status).toBe(404);
    expect((await open(itemLoader, "/supplier_tasks/abc", w.analyst, { id: "abc" })).status).toBe(404);
    expect((await open(itemLoader, `/supplier_tasks/${id}`, w.viewer, { id })).status).toBe(403);
    expect((await open(itemLoader, `/supplier_tasks/${id}`, w.respondent, { id })).status).toBe(403);
    expect((await open(itemLoader, `/supplier_tasks/${id}`, null, { id })).status).toBe(302);
  });

  it("refuses actions from the wrong side without changing anything", async () => {
    const id = w.items.toAccept;
    expect((await act(id, { intent: "accept" }, w.otherAnalyst)).status).toBe(404);
    expect((await act(id, { intent: "accept" }, w.viewer)).status).toBe(403);
    expect((await act(id, { intent: "accept" }, w.respondent)).status).toBe(403);
    expect((await act(id, { intent: "accept" }, null)).status).toBe(302);
    expect((await act("0x10", { intent: "accept" }, w.analyst)).status).toBe(404);
    expect((await act(id, { intent: "explode" }, w.analyst)).status).toBe(400);
    expect(await status(id)).toBe("submitted");
  });

  it("accepts a submitted item, then refuses to accept or return it again with a 409", async () => {
    const id = w.items.toAccept;
    const done = await act(id, { intent: "accept", redirectTo: `/supplier_tasks/${id}` }, w.analyst);
    expect([done.status, done.location]).toEqual([302, `/supplier_tasks/${id}`]);
    expect(await status(id)).toBe("accepted");
    const again = await act(id, { intent: "accept" }, w.analyst);
    expect(again.status).toBe(409);
    expect(again.body.result.error[""][0]).toMatch(/accepted/);
    expect((await act(id, { intent: "return", comment: "More please" }, w.analyst)).status).toBe(409);
    expect((await act(w.items.open, { intent: "accept" }, w.analyst)).status).toBe(409);
  });

  it("returns with a required comment, mails it with a fresh link, and shows it in the history", async () => {
    const id = w.items.submitted;
    const empty = await act(id, { intent: "return", comment: "   " }, w.analyst);
    expect(empty.status).toBe(400);
    expect(empty.body.result.error.comment[0]).toMatch(/comment/i);
    expect(empty.body.result.initialValue.comment).toBe("   ");
    expect(await status(id)).toBe("submitted");
    const long = await act(id, { intent: "return", comment: "x".repeat(2001) }, w.analyst);
    expect(long.status).toBe(400);
    const before = outbox().length;
    const links = await db().selectFrom("supplier_task_links").select("id").where("supplier_task_id", "=", id).execute();
    const done = await act(id, { intent: "return", comment: "Please attach the signed copy.", redirectTo: `/supplier_tasks/${id}` }, w.analyst);
    expect(done.status).toBe(302);
    expect(await status(id)).toBe("returned");
    const row = await db().selectFrom("supplier_tasks").select(["return_comment"]).where("id", "=", id).executeTakeFirstOrThrow();
    expect(row.return_comment).toBe("Please attach the signed copy.");
    const mails = outbox().slice(before);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toContain("To: kari@supplier.test");
    expect(mails[0]).toContain("Please attach the signed copy.");
    const token = /token=([A-Za-z0-9_-]+)/.exec(mails[0])?.[1] ?? "";
    const newLinks = await db().selectFrom("supplier_task_links").select(["token_hash"]).where("supplier_task_id", "=", id).execute();
    expect(newLinks).toHaveLength(links.length + 1);
    expect(newLinks.map((l) => l.token_hash)).toContain(hashToken(token));
    const { body } = await open(itemLoader, `/supplier_tasks/${id}`, w.analyst, { id: String(id) });
    expect(body.events.at(-1)).toMatchObject({ kind: "returned", detail: "Please attach the signed copy.", actor: w.analystEmail });
  });

  it("a returned item goes back to the supplier's user who answered it, not to the address it was first sent to", async () => {
    const id = await item({ title: "Answered by the supplier's user", status: "submitted" });
    await signedIn("answerer@supplier.test", w.supplier, 1);
    const answerer = await db().selectFrom("users").select("id").where("email", "=", "answerer@supplier.test").executeTakeFirstOrThrow();
    await db().updateTable("supplier_tasks").set({ answered_by_user_id: answerer.id }).where("id", "=", id).execute();
    const before = outbox().length;
    expect((await act(id, { intent: "return", comment: "Please sign it.", redirectTo: `/supplier_tasks/${id}` }, w.analyst)).status).toBe(302);
    const mails = outbox().slice(before);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toContain("To: answerer@supplier.test");
    expect(mails[0]).not.toContain("To: kari@supplier.test");
  });

  it("reminds an open item by mail, refuses politely without a recipient, and refuses a closed one", async () => {
    const before = outbox().length;
    const done = await act(w.items.overdue, { intent: "remind", redirectTo: "/supplier?externalId=971000001" }, w.analyst);
    expect([done.status, done.location]).toEqual([302, "/supplier?externalId=971000001"]);
    expect(outbox().slice(before)).toHaveLength(1);
    expect(await status(w.items.overdue)).toBe("sent");
    const none = await act(w.items.noRecipient, { intent: "remind" }, w.analyst);
    expect(none.status).toBe(409);
    expect(none.body.result.error[""][0]).toMatch(/no recipient address/);
    expect((await act(w.items.accepted, { intent: "remind" }, w.analyst)).status).toBe(409);
    expect(outbox().slice(before)).toHaveLength(1);
    // An outside address as redirectTo is not followed.
    const outside = await act(w.items.overdue, { intent: "remind", redirectTo: "https://evil.example/" }, w.analyst);
    expect(outside.location?.startsWith("/")).toBe(true);
  });

  it("revokes live links, then says there are none", async () => {
    const id = w.items.open;
    await createLink({ supplierTaskId: id, email: "kari@supplier.test" });
    const done = await act(id, { intent: "revoke" }, w.analyst);
    expect(done.status).toBe(200);
    const live = await db().selectFrom("supplier_task_links").select("id").where("supplier_task_id", "=", id).where("revoked_at", "is", null).execute();
    expect(live).toHaveLength(0);
    expect((await act(id, { intent: "revoke" }, w.analyst)).status).toBe(409);
  });

  it("cancels an open item, revoking its links, and refuses to cancel an accepted one", async () => {
    const id = w.items.toCancel;
    await createLink({ supplierTaskId: id, email: "kari@supplier.test" });
    const done = await act(id, { intent: "cancel", redirectTo: `/supplier_tasks/${id}` }, w.analyst);
    expect(done.status).toBe(302);
    expect(await status(id)).toBe("cancelled");
    const live = await db().selectFrom("supplier_task_links").select("id").where("supplier_task_id", "=", id).where("revoked_at", "is", null).execute();
    expect(live).toHaveLength(0);
    expect((await act(w.items.accepted, { intent: "cancel" }, w.analyst)).status).toBe(409);
    expect(await status(w.items.accepted)).toBe("accepted");
  });
});

describe("/tasks/surveys/{id}/read", () => {
  const path = () => `/tasks/surveys/${w.responseId}/read`;
  const params = () => ({ surveyResponseId: String(w.responseId) });

  it("shows the customer that sent it the answers against their own version, the score, the evidence and who answered", async () => {
    const { status: code, body } = await open(readLoader, path(), w.analyst, params());
    expect(code).toBe(200);
    expect(body.reading).toMatchObject({ side: "customer", score: 70, version: 3, answeredByName: "Kari Nordmann", supplierName: "Alfa Leverandør AS" });
    expect(body.reading.answers).toMatchObject({ policy: "yes", reviewed: "yearly" });
    expect(body.reading.evidence.cert).toEqual([{ fileId: w.evidenceFile, fileName: "iso27001.pdf", fileSize: 3, expiresOn: "2027-06-30" }]);
  });

  it("shows the supplier organisation its own response, and nobody else", async () => {
    const mine = await open(readLoader, path(), w.respondent, params());
    expect(mine.status).toBe(200);
    expect(mine.body.reading.side).toBe("respondent");
    expect((await open(readLoader, path(), w.otherRespondent, params())).status).toBe(404);
    expect((await open(readLoader, path(), w.otherAnalyst, params())).status).toBe(404);
    expect((await open(readLoader, path(), w.viewer, params())).status).toBe(403);
    expect((await open(readLoader, path(), null, params())).status).toBe(302);
    expect((await open(readLoader, "/tasks/surveys/x/read", w.analyst, { surveyResponseId: "x" })).status).toBe(404);
  });

  it("does not show a draft", async () => {
    const draft = `/tasks/surveys/${w.draftResponseId}/read`;
    expect((await open(readLoader, draft, w.analyst, { surveyResponseId: String(w.draftResponseId) })).status).toBe(404);
    expect((await open(readLoader, draft, w.respondent, { surveyResponseId: String(w.draftResponseId) })).status).toBe(404);
  });

  it("the evidence download is authorised for the customer and the supplier only (404 for others, never the file's existence)", async () => {
    const download = (token: string) => open(downloadLoader, `/api/file-uploads/${w.evidenceFile}/download`, token, { id: String(w.evidenceFile) });
    // The stored bytes are absent in this test: an authorised reader reaches the storage (404 "No file"), so compare with a stranger's refusal.
    const { readableFile } = await import("~/models/files/files.server");
    const sees = { connections: true, tasks: true };
    expect(await readableFile({ organizationId: w.org, userId: 0, id: w.evidenceFile, sees })).toMatchObject({ fileName: "iso27001.pdf" });
    expect(await readableFile({ organizationId: w.supplier, userId: 0, id: w.evidenceFile, sees: { connections: false, tasks: false } })).toMatchObject({
      fileName: "iso27001.pdf",
    });
    expect(await readableFile({ organizationId: w.other, userId: 0, id: w.evidenceFile, sees })).toBeUndefined();
    expect(await readableFile({ organizationId: w.supplier2, userId: 0, id: w.evidenceFile, sees })).toBeUndefined();
    expect((await download(w.otherAnalyst)).status).toBe(404);
  });
});

describe("the supplier screen's tasks", () => {
  it("carries each item's state, due date and score, and the self-assessment from the latest submitted survey", async () => {
    const response = await call(supplierLoader, { request: get("/supplier?externalId=971000001", cookie(w.analyst)), params: {}, context: {} });
    expect(response.status).toBe(200);
    const data = (await response.json()) as SupplierScreenData;
    expect(data.canManageTasks).toBe(true);
    const overdue = data.taskItems.find((i) => i.id === w.items.overdue);
    expect(overdue).toMatchObject({ status: "sent", dueDate: past, kind: "task" });
    expect(data.taskItems.find((i) => i.id === w.items.survey)?.score).toBe(70);
    expect(data.taskItems.find((i) => i.id === w.items.draftSurvey)?.score).toBeNull();
    // Another organisation's item to the same supplier is not among them.
    expect(data.taskItems.some((i) => i.id === w.otherItem)).toBe(false);
    expect(today).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });
});
