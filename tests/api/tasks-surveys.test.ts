import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@server/db";
import { createSession } from "@server/auth/session";
import { seedDemoWorld } from "@server/seed/demo";
import { pickDemoSuppliers } from "@server/seed/demo-suppliers";
import { saveFile, type StoredFile } from "@server/storage";
import { loader as tasksLoader } from "~/routes/api.tasks.organization.$localOrgId";
import { loader as surveysLoader } from "~/routes/api.surveys.organization.$localOrgId";
import { loader as responseLoader } from "~/routes/api.tasks.responses.$id.customer";
import { loader as downloadLoader } from "~/routes/api.tasks.files.$fileId.download";
import { loader as subSuppliersLoader } from "~/routes/api.suppliers.$supplierOrgId.sub-suppliers";
import { loader as uploadDownloadLoader } from "~/routes/api.file-uploads.$id.download";
import { action as tasksAction } from "~/routes/api.tasks.organization.$localOrgId";
import { action as surveysAction } from "~/routes/api.surveys.organization.$localOrgId";
import { action as responseAction } from "~/routes/api.tasks.responses.$id.customer";
import { action as downloadAction } from "~/routes/api.tasks.files.$fileId.download";
import { BASE, call } from "../helpers/requests";
import { follow, makeOrg, request, signedIn } from "../helpers/fixtures";

async function task(values: {
  from: number;
  to: number;
  template: number | null;
  title: string;
  custom?: boolean;
  submitted: boolean;
  updatedAt: string;
}): Promise<number> {
  const row = await db()
    .insertInto("compliance_tasks")
    .values({
      organization_id: values.from,
      supplier_organization_id: values.to,
      template_id: values.template,
      title: values.title,
      is_custom: values.custom ? 1 : 0,
      is_submitted: values.submitted ? 1 : 0,
      due_date: null,
      created_at: "2025-01-01T00:00:00.000Z",
      updated_at: values.updatedAt,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

async function response(taskId: number, comment: string, files: StoredFile[], updatedAt: string): Promise<number> {
  const row = await db()
    .insertInto("compliance_task_responses")
    .values({ task_id: taskId, responder_user_id: null, comment, created_at: updatedAt, updated_at: updatedAt })
    .returning("id")
    .executeTakeFirstOrThrow();
  for (const f of files) await db().insertInto("compliance_task_response_files").values({ response_id: row.id, file_upload_id: f.id }).execute();
  return row.id;
}

async function survey(templateId: number, from: number, to: number, status: "draft" | "submitted", updatedAt: string): Promise<number> {
  const row = await db()
    .insertInto("survey_responses")
    .values({
      survey_template_id: templateId,
      organization_id: from,
      supplier_organization_id: to,
      status,
      created_at: updatedAt,
      updated_at: updatedAt,
      submitted_at: status === "submitted" ? updatedAt : null,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

const HOSTILE_NAME = 'Årsrapport "final"\r\nSet-Cookie: a=b; ø.pdf';

const w = {} as {
  customerA: number;
  customerB: number;
  supplierS: number;
  supplierT: number;
  tokenA: string;
  tokenB: string;
  tokenNoOrg: string;
  tokenViewerA: string;
  templateFile: StoredFile;
  responseFile: StoredFile;
  hostileFile: StoredFile;
  draftFile: StoredFile;
  otherCustomerFile: StoredFile;
  unrelatedFile: StoredFile;
  templateWithFile: number;
  templateWithoutFile: number;
  submittedTask: number;
  openTask: number;
  customTask: number;
  draftTask: number;
  taskOfB: number;
  responseOfA: number;
  responseOfB: number;
  draftResponse: number;
  surveys: { older: number; newer: number; draft: number; ofB: number };
};

const templateBytes = Buffer.from("%PDF-1.4\n% code of conduct template\n");
const answerBytes = Buffer.from("question,answer\nQ1,Yes\n");

beforeAll(async () => {
  w.customerA = await makeOrg("Customer A AS", "customer");
  w.customerB = await makeOrg("Customer B AS", "customer");
  w.supplierS = await makeOrg("Supplier S AS", "supplier", "900000001");
  w.supplierT = await makeOrg("Supplier T AS", "supplier", "900000002");
  w.tokenA = await signedIn("a@tasks.test", w.customerA, 2);
  w.tokenB = await signedIn("b@tasks.test", w.customerB, 2);
  w.tokenNoOrg = await signedIn("nobody@tasks.test", null, 3);
  w.tokenViewerA = await signedIn("viewer@tasks.test", w.customerA, 1);
  await follow(w.customerA, w.supplierS);
  await follow(w.customerB, w.supplierS);
  await follow(w.customerB, w.supplierT);

  w.templateFile = await saveFile(templateBytes, { fileName: "Code of conduct.pdf", mimeType: "application/pdf", organizationId: w.customerA, userId: null });
  w.responseFile = await saveFile(answerBytes, { fileName: "answers.csv", mimeType: "text/csv", organizationId: w.supplierS, userId: null });
  w.hostileFile = await saveFile(Buffer.from("hostile"), {
    fileName: "placeholder.pdf",
    mimeType: "application/pdf",
    organizationId: w.supplierS,
    userId: null,
  });
  // A name written before names were cleaned, or by another tool: the header must still be safe.
  await db().updateTable("file_uploads").set({ file_name: HOSTILE_NAME, mime_type: "text/html\r\nX-Evil: 1" }).where("id", "=", w.hostileFile.id).execute();
  w.draftFile = await saveFile(Buffer.from("draft"), { fileName: "draft.txt", mimeType: "text/plain", organizationId: w.supplierS, userId: null });
  w.otherCustomerFile = await saveFile(Buffer.from("for B"), { fileName: "for-b.txt", mimeType: "text/plain", organizationId: w.supplierS, userId: null });
  w.unrelatedFile = await saveFile(Buffer.from("own upload"), { fileName: "own.txt", mimeType: "text/plain", organizationId: w.customerA, userId: null });

  const tpl = async (title: string, description: string | null, fileId: number | null) =>
    (
      await db()
        .insertInto("compliance_task_templates")
        .values({ organization_id: w.customerA, title, description, template_file_id: fileId, created_at: "2025-01-01T00:00:00.000Z" })
        .returning("id")
        .executeTakeFirstOrThrow()
    ).id;
  w.templateWithFile = await tpl("Code of conduct acknowledgement", "Sign and upload.", w.templateFile.id);
  w.templateWithoutFile = await tpl("ISO 14001 certificate", null, null);

  w.submittedTask = await task({
    from: w.customerA,
    to: w.supplierS,
    template: w.templateWithFile,
    title: "Code of conduct acknowledgement",
    submitted: true,
    updatedAt: "2025-03-01T10:00:00.000Z",
  });
  w.openTask = await task({
    from: w.customerA,
    to: w.supplierS,
    template: w.templateWithoutFile,
    title: "ISO 14001 certificate",
    submitted: false,
    updatedAt: "2025-03-05T10:00:00.000Z",
  });
  w.customTask = await task({
    from: w.customerA,
    to: w.supplierS,
    template: null,
    title: "List your production sites",
    custom: true,
    submitted: false,
    updatedAt: "2025-02-01T10:00:00.000Z",
  });
  w.draftTask = await task({
    from: w.customerA,
    to: w.supplierS,
    template: w.templateWithFile,
    title: "Second acknowledgement",
    submitted: false,
    updatedAt: "2025-01-15T10:00:00.000Z",
  });
  w.taskOfB = await task({
    from: w.customerB,
    to: w.supplierS,
    template: null,
    title: "B's own task",
    custom: true,
    submitted: true,
    updatedAt: "2025-03-10T10:00:00.000Z",
  });
  w.responseOfA = await response(w.submittedTask, "Signed by the CEO.", [w.responseFile, w.hostileFile], "2025-03-01T10:00:00.000Z");
  w.draftResponse = await response(w.draftTask, "Not finished yet", [w.draftFile], "2025-01-15T10:00:00.000Z");
  w.responseOfB = await response(w.taskOfB, "For B only", [w.otherCustomerFile], "2025-03-10T10:00:00.000Z");

  const st = async (title: string) =>
    (
      await db()
        .insertInto("survey_templates")
        .values({ organization_id: w.customerA, title, created_at: "2025-01-01T00:00:00.000Z" })
        .returning("id")
        .executeTakeFirstOrThrow()
    ).id;
  const sustainability = await st("Sustainability self-assessment");
  const humanRights = await st("Human rights and decent work");
  w.surveys = {
    older: await survey(sustainability, w.customerA, w.supplierS, "submitted", "2025-02-01T12:00:00.000Z"),
    newer: await survey(humanRights, w.customerA, w.supplierS, "submitted", "2025-02-20T12:00:00.000Z"),
    draft: await survey(humanRights, w.customerA, w.supplierS, "draft", "2025-03-20T12:00:00.000Z"),
    ofB: await survey(sustainability, w.customerB, w.supplierS, "submitted", "2025-02-10T12:00:00.000Z"),
  };
});

const tasksOf = (supplier: number | string, token?: string) =>
  request(tasksLoader, `/api/tasks/organization/${supplier}`, { localOrgId: String(supplier) }, token);
const surveysOf = (supplier: number | string, token?: string) =>
  request(surveysLoader, `/api/surveys/organization/${supplier}`, { localOrgId: String(supplier) }, token);
const responseOf = (id: number | string, token?: string) => request(responseLoader, `/api/tasks/responses/${id}/customer`, { id: String(id) }, token);
const download = (id: number | string, token?: string) => request(downloadLoader, `/api/tasks/files/${id}/download`, { fileId: String(id) }, token);

describe("access level", () => {
  it("the supplier screen's task and survey endpoints refuse level 1 (403), like the screen", async () => {
    const [taskId] = (await db().selectFrom("compliance_task_responses").select("id").limit(1).execute()).map((r) => r.id);
    for (const res of [
      await tasksOf(w.supplierS, w.tokenViewerA),
      await surveysOf(w.supplierS, w.tokenViewerA),
      await responseOf(taskId, w.tokenViewerA),
      await download(w.responseFile.id, w.tokenViewerA),
    ]) {
      expect(res.status).toBe(403);
      expect(await res.json()).toMatchObject({ error: "Forbidden" });
    }
  });
});

describe("GET /api/tasks/organization/{localOrgId}", () => {
  it("lists the tasks the session's organisation sent to the supplier, most recently changed first", async () => {
    const res = await tasksOf(w.supplierS, w.tokenA);
    expect(res.status).toBe(200);
    const codeOfConduct = {
      id: w.templateWithFile,
      title: "Code of conduct acknowledgement",
      description: "Sign and upload.",
      templateFile: { id: w.templateFile.id, fileName: "Code of conduct.pdf", fileSize: templateBytes.length },
    };
    expect(await res.json()).toEqual([
      {
        id: w.openTask,
        is_submitted: false,
        is_custom: false,
        title: "ISO 14001 certificate",
        complianceTaskTemplate: { id: w.templateWithoutFile, title: "ISO 14001 certificate", description: null, templateFile: null },
        updatedAt: "2025-03-05T10:00:00.000Z",
        responseId: null,
      },
      {
        id: w.submittedTask,
        is_submitted: true,
        is_custom: false,
        title: "Code of conduct acknowledgement",
        complianceTaskTemplate: codeOfConduct,
        updatedAt: "2025-03-01T10:00:00.000Z",
        responseId: w.responseOfA,
      },
      {
        id: w.customTask,
        is_submitted: false,
        is_custom: true,
        title: "List your production sites",
        complianceTaskTemplate: null,
        updatedAt: "2025-02-01T10:00:00.000Z",
        responseId: null,
      },
      // A response the supplier has not submitted stays hidden.
      {
        id: w.draftTask,
        is_submitted: false,
        is_custom: false,
        title: "Second acknowledgement",
        complianceTaskTemplate: codeOfConduct,
        updatedAt: "2025-01-15T10:00:00.000Z",
        responseId: null,
      },
    ]);
  });

  it("shows another customer only its own tasks to the same supplier", async () => {
    const res = await tasksOf(w.supplierS, w.tokenB);
    expect(res.status).toBe(200);
    const body = (await res.json()) as Array<{ id: number }>;
    expect(body.map((t) => t.id)).toEqual([w.taskOfB]);
  });

  it("answers an empty list for a followed supplier without tasks", async () => {
    const res = await tasksOf(w.supplierT, w.tokenB);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual([]);
  });

  it("answers 404 for a supplier the organisation does not follow, or no organisation at all", async () => {
    for (const id of [w.supplierT, w.customerB, 987_654]) {
      const res = await tasksOf(id, w.tokenA);
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ error: "Not Found" });
    }
  });

  it("answers 400 for an id that is not a positive whole number", async () => {
    for (const id of ["abc", "0", "-3", "1.5", ""]) {
      const res = await tasksOf(id, w.tokenA);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ error: "Bad Request", message: "localOrgId must be a positive whole number" });
    }
  });

  it("answers 401 without a session and 403 for an account without an organisation", async () => {
    const anonymous = await tasksOf(w.supplierS);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ error: "Unauthorized" });
    expect((await tasksOf(w.supplierS, "not-a-token")).status).toBe(401);
    expect((await tasksOf(w.supplierS, w.tokenNoOrg)).status).toBe(403);
  });
});

describe("GET /api/surveys/organization/{localOrgId}", () => {
  it("lists submitted responses only, newest first", async () => {
    const res = await surveysOf(w.supplierS, w.tokenA);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual([
      { id: w.surveys.newer, surveyTemplate: { title: "Human rights and decent work" }, updatedAt: "2025-02-20T12:00:00.000Z" },
      { id: w.surveys.older, surveyTemplate: { title: "Sustainability self-assessment" }, updatedAt: "2025-02-01T12:00:00.000Z" },
    ]);
  });

  it("keeps each customer's responses to itself", async () => {
    const res = await surveysOf(w.supplierS, w.tokenB);
    expect(((await res.json()) as Array<{ id: number }>).map((s) => s.id)).toEqual([w.surveys.ofB]);
    expect((await surveysOf(w.supplierT, w.tokenA)).status).toBe(404);
    expect(await (await surveysOf(w.supplierT, w.tokenB)).json()).toEqual([]);
  });

  it("answers 400, 401 and 403 like the other calls", async () => {
    expect((await surveysOf("x", w.tokenA)).status).toBe(400);
    expect((await surveysOf(w.supplierS)).status).toBe(401);
    expect((await surveysOf(w.supplierS, w.tokenNoOrg)).status).toBe(403);
  });
});

describe("GET /api/tasks/responses/{id}/customer", () => {
  it("returns the submitted response with the supplier, the template and the files", async () => {
    const res = await responseOf(w.responseOfA, w.tokenA);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      id: w.responseOfA,
      comment: "Signed by the CEO.",
      updatedAt: "2025-03-01T10:00:00.000Z",
      organization: { organization_name: "Supplier S AS" },
      complianceTask: { id: w.submittedTask, title: "Code of conduct acknowledgement", is_custom: false },
      complianceTaskTemplate: {
        id: w.templateWithFile,
        title: "Code of conduct acknowledgement",
        description: "Sign and upload.",
        templateFile: { id: w.templateFile.id, fileName: "Code of conduct.pdf", fileSize: templateBytes.length },
      },
      complianceTaskResponseFiles: [
        { fileUpload: { id: w.responseFile.id, fileName: "answers.csv", fileSize: answerBytes.length } },
        { fileUpload: { id: w.hostileFile.id, fileName: HOSTILE_NAME, fileSize: 7 } },
      ],
    });
  });

  it("answers 404 for another organisation's response, an unsubmitted one, and a missing one", async () => {
    for (const [id, token] of [
      [w.responseOfA, w.tokenB],
      [w.responseOfB, w.tokenA],
      [w.draftResponse, w.tokenA],
      [999_999, w.tokenA],
    ] as const) {
      const res = await responseOf(id, token);
      expect(res.status).toBe(404);
      expect(JSON.stringify(await res.json())).not.toContain("For B only");
    }
    expect((await responseOf(w.responseOfB, w.tokenB)).status).toBe(200);
  });

  it("answers 400 and 401", async () => {
    expect((await responseOf("first", w.tokenA)).status).toBe(400);
    expect((await responseOf(w.responseOfA)).status).toBe(401);
  });
});

describe("GET /api/tasks/files/{fileId}/download", () => {
  it("streams a template file with its type, length and an attachment name", async () => {
    const res = await download(w.templateFile.id, w.tokenA);
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("application/pdf");
    expect(res.headers.get("Content-Length")).toBe(String(templateBytes.length));
    expect(res.headers.get("Content-Disposition")).toBe("attachment; filename=\"Code of conduct.pdf\"; filename*=UTF-8''Code%20of%20conduct.pdf");
    expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(res.headers.get("Cache-Control")).toBe("private, no-store");
    expect(Buffer.from(await res.arrayBuffer())).toEqual(templateBytes);
  });

  it("streams a submitted response's file", async () => {
    const res = await download(w.responseFile.id, w.tokenA);
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("text/csv");
    expect(Buffer.from(await res.arrayBuffer())).toEqual(answerBytes);
  });

  it("sanitizes a hostile file name and mime type", async () => {
    const res = await download(w.hostileFile.id, w.tokenA);
    expect(res.status).toBe(200);
    const disposition = res.headers.get("Content-Disposition")!;
    expect(disposition).not.toMatch(/[\r\n]/);
    const match = disposition.match(/^attachment; filename="([^"]*)"; filename\*=UTF-8''([A-Za-z0-9%!._~-]+)$/);
    expect(match).not.toBeNull();
    expect(match![1]).toMatch(/^[\x20-\x7e]+$/);
    expect(match![1]).not.toMatch(/[";\\]/);
    expect(decodeURIComponent(match![2])).toBe('Årsrapport "final"Set-Cookie: a=b; ø.pdf');
    expect(res.headers.get("Set-Cookie")).toBeNull();
    expect(res.headers.get("Content-Type")).toBe("application/octet-stream");
    expect(res.headers.get("X-Evil")).toBeNull();
    expect(await res.text()).toBe("hostile");
  });

  it("answers 404 for files that are not the organisation's task files", async () => {
    for (const [id, token] of [
      [w.templateFile.id, w.tokenB], // B sent no task with this template
      [w.responseFile.id, w.tokenB],
      [w.otherCustomerFile.id, w.tokenA], // B's response
      [w.draftFile.id, w.tokenA], // response not submitted
      [w.unrelatedFile.id, w.tokenA], // A's own upload, not a task file
      [999_999, w.tokenA],
    ] as const) {
      const res = await download(id, token);
      expect(res.status).toBe(404);
      expect(res.headers.get("Content-Disposition")).toBeNull();
    }
    expect((await download(w.otherCustomerFile.id, w.tokenB)).status).toBe(200);
  });

  it("answers 404 when the bytes are gone", async () => {
    const lost = await saveFile(Buffer.from("lost"), { fileName: "lost.csv", mimeType: "text/csv", organizationId: w.supplierS, userId: null });
    await db().insertInto("compliance_task_response_files").values({ response_id: w.responseOfA, file_upload_id: lost.id }).execute();
    fs.rmSync(path.join(process.env.DATA_DIR!, "uploads", lost.storageKey));
    expect((await download(lost.id, w.tokenA)).status).toBe(404);
  });

  it("answers 400 and 401", async () => {
    expect((await download("../app.db", w.tokenA)).status).toBe(400);
    for (const id of [` ${w.templateFile.id}`, `0${w.templateFile.id}`, "0x10"]) expect((await download(id, w.tokenA)).status).toBe(400);
    expect((await download(w.templateFile.id)).status).toBe(401);
  });
});

describe("the demo world's supplier work", () => {
  const today = new Date("2025-06-02T08:00:00.000Z");
  const tokens = {} as { admin: string; other: string };
  let first: number;
  let second: number;

  async function counts() {
    const n = async (
      t:
        | "organizations"
        | "organization_connections"
        | "file_uploads"
        | "compliance_tasks"
        | "compliance_task_responses"
        | "compliance_task_templates"
        | "survey_responses"
        | "survey_templates",
    ) =>
      Number(
        (
          await db()
            .selectFrom(t)
            .select((eb) => eb.fn.countAll<number>().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      );
    return {
      organizations: await n("organizations"),
      connections: await n("organization_connections"),
      files: await n("file_uploads"),
      templates: await n("compliance_task_templates"),
      tasks: await n("compliance_tasks"),
      responses: await n("compliance_task_responses"),
      surveyTemplates: await n("survey_templates"),
      surveys: await n("survey_responses"),
      filesOnDisk: fs.readdirSync(path.join(process.env.DATA_DIR!, "uploads")).length,
    };
  }

  beforeAll(async () => {
    await seedDemoWorld(db(), { today });
    const session = async (email: string) => {
      const user = await db().selectFrom("users").select("id").where("email", "=", email).executeTakeFirstOrThrow();
      return (await createSession(user.id, null)).token;
    };
    tokens.admin = await session("admin@demo.test");
    tokens.other = await session("other@demo.test");
    // How to find the first demo supplier's local id: its org number is the first of pickDemoSuppliers().
    const local = async (orgNumber: string) =>
      (await db().selectFrom("organizations").select("id").where("org_number", "=", orgNumber).where("kind", "=", "supplier").executeTakeFirstOrThrow()).id;
    const [a, b] = pickDemoSuppliers();
    first = await local(a.organisasjonsnummer);
    second = await local(b.organisasjonsnummer);
  });

  it("is re-runnable without duplicating rows or files", async () => {
    const before = await counts();
    await seedDemoWorld(db(), { today });
    expect(await counts()).toEqual(before);
    expect(before.templates).toBeGreaterThanOrEqual(4);
  });

  it("gives the first supplier tasks with submitted, downloadable responses and submitted surveys", async () => {
    const tasks = (await (await tasksOf(first, tokens.admin)).json()) as Array<{
      is_submitted: boolean;
      is_custom: boolean;
      responseId: number | null;
      complianceTaskTemplate: { title: string; templateFile: { id: number } | null } | null;
    }>;
    expect(tasks.length).toBeGreaterThanOrEqual(3);
    expect(tasks.some((t) => t.is_custom)).toBe(true);
    expect(tasks.some((t) => !t.is_submitted)).toBe(true);
    const submitted = tasks.filter((t) => t.is_submitted);
    expect(submitted.length).toBeGreaterThanOrEqual(2);
    for (const t of submitted) {
      const res = await responseOf(t.responseId!, tokens.admin);
      expect(res.status).toBe(200);
      const body = (await res.json()) as { comment: string; complianceTaskResponseFiles: Array<{ fileUpload: { id: number; fileSize: number } }> };
      expect(body.comment).toBeTruthy();
      expect(body.complianceTaskResponseFiles.length).toBeGreaterThanOrEqual(1);
      for (const { fileUpload } of body.complianceTaskResponseFiles) {
        const file = await download(fileUpload.id, tokens.admin);
        expect(file.status).toBe(200);
        expect((await file.arrayBuffer()).byteLength).toBe(fileUpload.fileSize);
      }
    }
    const codeOfConduct = tasks.find((t) => t.complianceTaskTemplate?.title === "Code of conduct acknowledgement")?.complianceTaskTemplate?.templateFile;
    const pdf = await download(codeOfConduct!.id, tokens.admin);
    expect(pdf.headers.get("Content-Type")).toBe("application/pdf");
    expect(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 8)
        .toString("latin1"),
    ).toBe("%PDF-1.4");

    const surveys = (await (await surveysOf(first, tokens.admin)).json()) as unknown[];
    expect(surveys.length).toBeGreaterThanOrEqual(2);
  });

  it("shares the first supplier's 12 sub-suppliers and hides the second's", async () => {
    const shared = await request(subSuppliersLoader, `/api/suppliers/${first}/sub-suppliers`, { supplierOrgId: String(first) }, tokens.admin);
    expect(shared.status).toBe(200);
    const { data } = (await shared.json()) as { data: Array<{ organizationId: string }> };
    expect(data).toHaveLength(12);
    expect(data.every((s) => /^\d{9}$/.test(s.organizationId))).toBe(true);
    const hidden = await request(subSuppliersLoader, `/api/suppliers/${second}/sub-suppliers`, { supplierOrgId: String(second) }, tokens.admin);
    expect(hidden.status).toBe(403);
  });

  it("keeps the first supplier's work from the second customer, which does not follow it", async () => {
    expect((await tasksOf(first, tokens.other)).status).toBe(404);
    expect((await surveysOf(first, tokens.other)).status).toBe(404);
    expect((await request(subSuppliersLoader, `/api/suppliers/${first}/sub-suppliers`, { supplierOrgId: String(first) }, tokens.other)).status).toBe(404);
    const ownTasks = (await (await tasksOf(second, tokens.other)).json()) as Array<{ title: string }>;
    expect(ownTasks.map((t) => t.title)).toEqual(["Confirm delivery capacity for next season"]);
  });
});

describe("GET /api/file-uploads/{id}/download of task files", () => {
  const viaUploads = (id: number, token?: string) => request(uploadDownloadLoader, `/api/file-uploads/${id}/download`, { id: String(id) }, token);

  it("serves the files of tasks the organisation sent to those who may see its task responses, and no one else", async () => {
    const ok = await viaUploads(w.responseFile.id, w.tokenA);
    expect(ok.status).toBe(200);
    expect(Buffer.from(await ok.arrayBuffer())).toEqual(answerBytes);
    expect((await viaUploads(w.templateFile.id, w.tokenA)).status).toBe(200);
    for (const [id, token] of [
      [w.responseFile.id, w.tokenViewerA], // level 1 sees no task responses
      [w.responseFile.id, w.tokenB],
      [w.draftFile.id, w.tokenA],
      [w.otherCustomerFile.id, w.tokenA],
      [w.unrelatedFile.id, w.tokenA], // uploaded in A without an owner: nobody's to read
    ] as const) {
      expect((await viaUploads(id, token)).status).toBe(404);
    }
  });
});

describe("other methods", () => {
  it("the GET-only endpoints answer 405 with Allow: GET", async () => {
    const post = (path: string) => new Request(BASE + path, { method: "POST", headers: { Authorization: `Bearer ${w.tokenA}` } });
    for (const fn of [tasksAction, surveysAction, responseAction, downloadAction]) {
      const res = await call(fn as Parameters<typeof call>[0], { request: post("/api/tasks/x"), params: {}, context: {} });
      expect(res.status).toBe(405);
      expect(res.headers.get("Allow")).toBe("GET");
    }
  });
});
