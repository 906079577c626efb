import type { LoaderFunctionArgs } from "@remix-run/node";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@server/db";
import { ensureStarterTemplates, STARTER_SURVEYS } from "@server/seed/starter-templates";
import { action as builderAction, loader as builderLoader } from "~/routes/_app.admin.surveys.$id/route";
import { action as listAction, loader as listLoader } from "~/routes/_app.admin.surveys.surveys";
import { action as taskAction, loader as taskLoader } from "~/routes/_app.admin.tasks.templates";
import { allQuestions, QUESTION_TYPES, type SurveyDefinition } from "~/models/tasks/survey-definition";
import { parseDefinition } from "~/models/tasks/survey-definition-schema";
import { makeOrg, signedIn } from "../helpers/fixtures";
import { BASE, call, get } from "../helpers/requests";
import { createSignedInUser } from "../helpers/factory";

/**
 * The template pages against a real SQLite file: access from the wrong side (level 2, a respondent, another
 * organisation, a visitor, a non-operator on a system-wide template), the builder's versioning rule (in place until
 * answered, then version n+1), stale forms, validation that keeps the input, conditions, and task templates.
 */

type Fn = (a: LoaderFunctionArgs) => unknown;
const w = {} as {
  orgA: number;
  orgB: number;
  supplier: number;
  admin: string;
  analyst: string;
  adminB: string;
  respondent: string;
  operator: string;
  userA: number;
};

function post(path: string, fields: Record<string, string>, token?: string): Request {
  return new Request(BASE + path, {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: BASE, ...(token ? { Cookie: `token=${token}` } : {}) },
  });
}
const run = (fn: Fn, request: Request, params: Record<string, string> = {}) => call(fn, { request, params, context: {} });
const page = (fn: Fn, path: string, token?: string, params: Record<string, string> = {}) =>
  run(fn, get(path, token ? { Cookie: `token=${token}` } : {}), params);
const builder = (id: number, fields: Record<string, string>, token: string) =>
  run(builderAction, post(`/admin/surveys/${id}`, fields, token), { id: String(id) });
const reply = async (res: Response) => ((await res.json()) as { result: { error?: Record<string, string[]>; initialValue?: Record<string, unknown> } }).result;

async function versions(templateId: number) {
  return db().selectFrom("survey_template_versions").selectAll().where("template_id", "=", templateId).orderBy("version").execute();
}
async function latest(templateId: number) {
  const all = await versions(templateId);
  return { ...all[all.length - 1], parsed: parseDefinition(all[all.length - 1].definition) };
}

/** Creates a template through the list page as the admin of organisation A; returns its id. */
async function createTemplate(title = "Supplier basics"): Promise<number> {
  const res = await run(listAction, post("/admin/surveys/surveys", { intent: "create", titleEn: title, titleNo: "Grunnleggende" }, w.admin));
  expect(res.status).toBe(302);
  return Number(res.headers.get("Location")!.match(/\/admin\/surveys\/(\d+)/)![1]);
}

beforeAll(async () => {
  await ensureStarterTemplates(db());
  w.orgA = await makeOrg("Template Customer A", "customer");
  w.orgB = await makeOrg("Template Customer B", "customer");
  w.supplier = await makeOrg("Template Supplier AS", "supplier", "912345670");
  w.admin = await signedIn("admin@templates.test", w.orgA, 3);
  w.userA = (await db().selectFrom("users").select("id").where("email", "=", "admin@templates.test").executeTakeFirstOrThrow()).id;
  w.analyst = await signedIn("analyst@templates.test", w.orgA, 2);
  w.adminB = await signedIn("admin-b@templates.test", w.orgB, 3);
  w.respondent = await signedIn("respondent@templates.test", w.supplier, 3);
  w.operator = (
    await createSignedInUser({ email: "operator@templates.test", organizationId: w.orgB, accessLevel: 3, isAdmin: true, createdAt: "2025-01-01T00:00:00.000Z" })
  ).token;
});

describe("who may open the template pages", () => {
  it("the organisation's administrator and the operator; level 2 and a respondent get 403, a visitor goes to /", async () => {
    for (const [fn, path] of [
      [listLoader, "/admin/surveys/surveys"],
      [taskLoader, "/admin/tasks/templates"],
    ] as const) {
      expect((await page(fn, path, w.admin)).status).toBe(200);
      expect((await page(fn, path, w.operator)).status).toBe(200);
      expect((await page(fn, path, w.analyst)).status).toBe(403);
      expect((await page(fn, path, w.respondent)).status).toBe(403);
      const visitor = await page(fn, path);
      expect([visitor.status, visitor.headers.get("Location")]).toEqual([302, "/"]);
    }
  });

  it("the list shows the organisation's own templates and the system-wide ones, never another organisation's", async () => {
    const mine = await createTemplate("Only for A");
    const listB = (await (await page(listLoader, "/admin/surveys/surveys", w.adminB)).json()) as {
      templates: { id: number; key: string | null; systemWide: boolean }[];
    };
    expect(listB.templates.map((t) => t.id)).not.toContain(mine);
    expect(listB.templates.filter((t) => t.systemWide).map((t) => t.key)).toEqual(expect.arrayContaining(STARTER_SURVEYS.map((s) => s.key)));
    const listA = (await (await page(listLoader, "/admin/surveys/surveys", w.admin)).json()) as {
      templates: { id: number; version: number; questions: number }[];
    };
    expect(listA.templates.find((t) => t.id === mine)).toMatchObject({ version: 1, questions: 1 });
  });

  it("another organisation's template is 404 to read and to change, and nothing changes", async () => {
    const id = await createTemplate("Private to A");
    const before = await versions(id);
    expect((await page(builderLoader, `/admin/surveys/${id}`, w.adminB, { id: String(id) })).status).toBe(404);
    expect((await builder(id, { intent: "add-section", versionId: String(before[0].id) }, w.adminB)).status).toBe(404);
    expect((await run(listAction, post("/admin/surveys/surveys", { intent: "archive", id: String(id) }, w.adminB))).status).toBe(404);
    expect((await page(builderLoader, "/admin/surveys/abc", w.admin, { id: "abc" })).status).toBe(404);
    expect(await versions(id)).toEqual(before);
  });

  it("a system-wide template: read and duplicate for an organisation, changed only by the operator", async () => {
    const starter = await db().selectFrom("survey_templates").select("id").where("key", "=", STARTER_SURVEYS[0].key).executeTakeFirstOrThrow();
    const v = await latest(starter.id);
    const view = await page(builderLoader, `/admin/surveys/${starter.id}`, w.admin, { id: String(starter.id) });
    expect(view.status).toBe(200);
    expect(((await view.json()) as { template: { editable: boolean } }).template.editable).toBe(false);
    expect((await builder(starter.id, { intent: "add-section", versionId: String(v.id) }, w.admin)).status).toBe(403);
    expect((await latest(starter.id)).definition).toBe(v.definition);

    const dup = await run(listAction, post("/admin/surveys/surveys", { intent: "duplicate", id: String(starter.id) }, w.admin));
    expect(dup.status).toBe(302);
    const copyId = Number(dup.headers.get("Location")!.split("/").pop());
    const copy = await db().selectFrom("survey_templates").selectAll().where("id", "=", copyId).executeTakeFirstOrThrow();
    expect(copy).toMatchObject({ organization_id: w.orgA, key: null, title: `${STARTER_SURVEYS[0].definition.title.en} (copy)` });
    expect(allQuestions((await latest(copyId)).parsed)).toEqual(allQuestions(STARTER_SURVEYS[0].definition));

    // The operator may change it (and it stays system-wide).
    const ok = await builder(
      starter.id,
      { intent: "save-template", versionId: String(v.id), titleEn: "Human rights (edited)", titleNo: "Menneskerettigheter" },
      w.operator,
    );
    expect(ok.status).toBe(302);
    expect((await latest(starter.id)).parsed.title.en).toBe("Human rights (edited)");
  });
});

describe("the builder", () => {
  it("adds a question of every type, sets a condition, and the definition stays valid", async () => {
    const id = await createTemplate("Every type");
    for (const type of QUESTION_TYPES) {
      const v = await latest(id);
      const res = await builder(id, { intent: "add-question", versionId: String(v.id), sectionId: "s1", type }, w.admin);
      expect(res.status, type).toBe(302);
    }
    let v = await latest(id);
    const types = allQuestions(v.parsed).map((q) => q.type);
    expect(types.slice(1)).toEqual([...QUESTION_TYPES]);
    const yesNo = allQuestions(v.parsed).find((q) => q.type === "yes_no")!;
    const file = allQuestions(v.parsed).find((q) => q.type === "file")!;
    const res = await builder(
      id,
      {
        intent: "save-question",
        versionId: String(v.id),
        questionId: file.id,
        textEn: "Upload the policy",
        textNo: "Last opp",
        required: "on",
        askExpiry: "on",
        weight: "2",
        showIf: `${yesNo.id}=yes`,
      },
      w.admin,
    );
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe(`/admin/surveys/${id}#q-${file.id}`);
    v = await latest(id);
    expect(allQuestions(v.parsed).find((q) => q.id === file.id)).toEqual({
      id: file.id,
      type: "file",
      text: { en: "Upload the policy", no: "Last opp" },
      required: true,
      askExpiry: true,
      weight: 2,
      showIf: { question: yesNo.id, equals: "yes" },
    });
    // The question a condition refers to cannot be deleted: 400, with the reason, nothing changed.
    const refused = await builder(id, { intent: "delete-question", versionId: String(v.id), questionId: yesNo.id }, w.admin);
    expect(refused.status).toBe(400);
    expect((await reply(refused)).error?.[""]?.join(" ")).toContain("The condition must refer to a question earlier in the survey");
    expect((await latest(id)).definition).toBe(v.definition);
  });

  it("saves choice options with points, numbers with bounds, and moves and deletes", async () => {
    const id = await createTemplate("Choices");
    let v = await latest(id);
    await builder(id, { intent: "add-question", versionId: String(v.id), sectionId: "s1", type: "single_choice" }, w.admin);
    v = await latest(id);
    const q = allQuestions(v.parsed)[1];
    const res = await builder(
      id,
      {
        intent: "save-question",
        versionId: String(v.id),
        questionId: q.id,
        textEn: "Certified?",
        textNo: "Sertifisert?",
        weight: "3",
        "options[0].value": "o1",
        "options[0].en": "ISO 27001",
        "options[0].no": "ISO 27001",
        "options[0].points": "100",
        "options[1].value": "o2",
        "options[1].en": "",
        "options[1].no": "",
        "options[2].value": "",
        "options[2].en": "None",
        "options[2].no": "Ingen",
        "options[2].points": "0",
      },
      w.admin,
    );
    expect(res.status).toBe(302);
    v = await latest(id);
    expect(allQuestions(v.parsed)[1].options).toEqual([
      { value: "o1", label: { en: "ISO 27001", no: "ISO 27001" }, points: 100 },
      // A removed option's value is not given to a new one.
      { value: "o3", label: { en: "None", no: "Ingen" }, points: 0 },
    ]);
    await builder(id, { intent: "move-question", versionId: String(v.id), questionId: q.id, direction: "up" }, w.admin);
    v = await latest(id);
    expect(allQuestions(v.parsed)[0].id).toBe(q.id);
    await builder(id, { intent: "delete-question", versionId: String(v.id), questionId: "q1" }, w.admin);
    expect(allQuestions((await latest(id)).parsed).map((x) => x.id)).toEqual([q.id]);
  });

  it("refuses a bad question with the message next to the field and keeps what the user typed", async () => {
    const id = await createTemplate("Validation");
    let v = await latest(id);
    await builder(id, { intent: "add-question", versionId: String(v.id), sectionId: "s1", type: "number" }, w.admin);
    v = await latest(id);
    const q = allQuestions(v.parsed)[1];
    const res = await builder(
      id,
      { intent: "save-question", versionId: String(v.id), questionId: q.id, textEn: "", textNo: "Antall ansatte", min: "10", max: "5" },
      w.admin,
    );
    expect(res.status).toBe(400);
    const r = await reply(res);
    expect(r.error?.textEn).toEqual(["Write the English text."]);
    expect(r.error?.min).toEqual(["The lowest number is above the highest."]);
    expect(r.initialValue).toMatchObject({ textNo: "Antall ansatte", min: "10", max: "5" });
    const notNumber = await builder(id, { intent: "save-question", versionId: String(v.id), questionId: q.id, textEn: "Employees", weight: "lots" }, w.admin);
    expect(notNumber.status).toBe(400);
    expect((await reply(notNumber)).error?.weight?.length).toBe(1);
    const unknown = await builder(id, { intent: "explode", versionId: String(v.id) }, w.admin);
    expect(unknown.status).toBe(400);
    expect((await latest(id)).definition).toBe(v.definition);
  });

  it("changes the latest version in place until someone answered it, then writes version n+1; old answers keep theirs", async () => {
    const id = await createTemplate("Versioned");
    const v1 = await latest(id);
    expect(
      (await builder(id, { intent: "save-section", versionId: String(v1.id), sectionId: "s1", titleEn: "About you", titleNo: "Om dere" }, w.admin)).status,
    ).toBe(302);
    expect((await versions(id)).length).toBe(1);
    const v1b = await latest(id);
    expect(v1b.id).toBe(v1.id);
    expect(v1b.parsed.sections[0].title.en).toBe("About you");

    const now = new Date().toISOString();
    await db()
      .insertInto("survey_responses")
      .values({
        survey_template_id: id,
        organization_id: w.orgA,
        supplier_organization_id: w.supplier,
        status: "submitted",
        answers: "{}",
        created_at: now,
        updated_at: now,
        submitted_at: now,
        template_version_id: v1.id,
      })
      .execute();
    const view = (await (await page(builderLoader, `/admin/surveys/${id}`, w.admin, { id: String(id) })).json()) as {
      template: { version: number; responses: number };
    };
    expect(view.template).toMatchObject({ version: 1, responses: 1 });

    const res = await builder(
      id,
      { intent: "save-section", versionId: String(v1.id), sectionId: "s1", titleEn: "About your company", titleNo: "Om selskapet" },
      w.admin,
    );
    expect(res.status).toBe(302);
    const all = await versions(id);
    expect(all.map((v) => v.version)).toEqual([1, 2]);
    expect(parseDefinition(all[0].definition).sections[0].title.en).toBe("About you");
    expect(parseDefinition(all[1].definition).sections[0].title.en).toBe("About your company");

    // A form made from version 1 is now stale: 409, nothing stored, what was typed comes back.
    const stale = await builder(id, { intent: "save-section", versionId: String(v1.id), sectionId: "s1", titleEn: "Late edit" }, w.admin);
    expect(stale.status).toBe(409);
    const r = await reply(stale);
    expect(r.error?.[""]?.[0]).toContain("Someone changed this survey");
    expect(r.initialValue).toMatchObject({ titleEn: "Late edit" });
    expect((await versions(id)).length).toBe(2);
    // The next change to version 2 (no responses) is in place again.
    await builder(id, { intent: "add-section", versionId: String(all[1].id) }, w.admin);
    expect((await versions(id)).length).toBe(2);
  });

  it("level 2 and a respondent cannot change a template", async () => {
    const id = await createTemplate("Guarded");
    const v = await latest(id);
    for (const token of [w.analyst, w.respondent]) expect((await builder(id, { intent: "add-section", versionId: String(v.id) }, token)).status).toBe(403);
    expect((await latest(id)).definition).toBe(v.definition);
  });

  it("archives and restores; an archived template is not offered for sending", async () => {
    const id = await createTemplate("To archive");
    expect((await run(listAction, post("/admin/surveys/surveys", { intent: "archive", id: String(id) }, w.admin))).status).toBe(302);
    expect((await db().selectFrom("survey_templates").select("archived_at").where("id", "=", id).executeTakeFirstOrThrow()).archived_at).not.toBeNull();
    expect((await run(listAction, post("/admin/surveys/surveys", { intent: "restore", id: String(id) }, w.admin))).status).toBe(302);
    expect((await db().selectFrom("survey_templates").select("archived_at").where("id", "=", id).executeTakeFirstOrThrow()).archived_at).toBeNull();
  });

  it("creating needs an English title, and keeps the Norwegian one", async () => {
    const res = await run(listAction, post("/admin/surveys/surveys", { intent: "create", titleEn: "  ", titleNo: "Bare norsk" }, w.admin));
    expect(res.status).toBe(400);
    const r = await reply(res);
    expect(r.error?.titleEn).toEqual(["Enter a title in English."]);
    expect(r.initialValue).toMatchObject({ titleNo: "Bare norsk" });
  });
});

describe("task templates", () => {
  const tasksOf = (org: number) => db().selectFrom("compliance_task_templates").selectAll().where("organization_id", "=", org).execute();

  it("creates, validates the due-in days and the file, edits and archives; another organisation's is 404", async () => {
    const bad = await run(
      taskAction,
      post("/admin/tasks/templates", { intent: "create", titleEn: "Sign the code", dueInDays: "400", descriptionEn: "Please **sign**" }, w.admin),
    );
    expect(bad.status).toBe(400);
    const r = await reply(bad);
    expect(r.error?.dueInDays).toEqual(["Write a whole number of days from 1 to 366, or leave it empty."]);
    expect(r.initialValue).toMatchObject({ titleEn: "Sign the code", descriptionEn: "Please **sign**" });

    const now = new Date().toISOString();
    const foreignFile = await db()
      .insertInto("file_uploads")
      .values({
        organization_id: w.orgB,
        user_id: null,
        file_name: "b.pdf",
        file_size: 3,
        mime_type: "application/pdf",
        storage_key: "x/b",
        created_at: now,
        content_kind: "pdf",
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const stolen = await run(
      taskAction,
      post("/admin/tasks/templates", { intent: "create", titleEn: "Sign the code", fileId: String(foreignFile.id) }, w.admin),
    );
    expect(stolen.status).toBe(400);
    expect((await reply(stolen)).error?.fileId?.length).toBe(1);

    const ownFile = await db()
      .insertInto("file_uploads")
      .values({
        organization_id: w.orgA,
        user_id: w.userA,
        file_name: "code.pdf",
        file_size: 3,
        mime_type: "application/pdf",
        storage_key: "x/a",
        created_at: now,
        content_kind: "pdf",
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const ok = await run(
      taskAction,
      post(
        "/admin/tasks/templates",
        { intent: "create", titleEn: "Sign the code", titleNo: "Signer", descriptionEn: "Please **sign**", dueInDays: "30", fileId: String(ownFile.id) },
        w.admin,
      ),
    );
    expect(ok.status).toBe(302);
    const [row] = (await tasksOf(w.orgA)).filter((t) => t.title === "Sign the code");
    expect(row).toMatchObject({ title_no: "Signer", description: "Please **sign**", due_in_days: 30, template_file_id: ownFile.id, archived_at: null });

    expect((await run(taskAction, post("/admin/tasks/templates", { intent: "update", id: String(row.id), titleEn: "Hijack" }, w.adminB))).status).toBe(404);
    expect((await run(taskAction, post("/admin/tasks/templates", { intent: "archive", id: String(row.id) }, w.adminB))).status).toBe(404);
    expect((await run(taskAction, post("/admin/tasks/templates", { intent: "create", titleEn: "Nope" }, w.analyst))).status).toBe(403);

    expect(
      (await run(taskAction, post("/admin/tasks/templates", { intent: "update", id: String(row.id), titleEn: "Sign our code", dueInDays: "" }, w.admin)))
        .status,
    ).toBe(302);
    expect((await run(taskAction, post("/admin/tasks/templates", { intent: "archive", id: String(row.id) }, w.admin))).status).toBe(302);
    const after = await db().selectFrom("compliance_task_templates").selectAll().where("id", "=", row.id).executeTakeFirstOrThrow();
    expect(after).toMatchObject({ title: "Sign our code", due_in_days: null, template_file_id: null });
    expect(after.archived_at).not.toBeNull();
  });

  it("the system-wide starter task is listed for every organisation and changed only by the operator", async () => {
    const starter = await db().selectFrom("compliance_task_templates").selectAll().where("key", "=", "starter-sign-code-of-conduct").executeTakeFirstOrThrow();
    const list = (await (await page(taskLoader, "/admin/tasks/templates", w.adminB)).json()) as { templates: { id: number; editable: boolean }[] };
    expect(list.templates.find((t) => t.id === starter.id)).toMatchObject({ editable: false });
    expect((await run(taskAction, post("/admin/tasks/templates", { intent: "update", id: String(starter.id), titleEn: "Changed" }, w.adminB))).status).toBe(
      404,
    );
    expect(
      (
        await run(
          taskAction,
          post(
            "/admin/tasks/templates",
            { intent: "update", id: String(starter.id), titleEn: starter.title, titleNo: starter.title_no ?? "", dueInDays: "14" },
            w.operator,
          ),
        )
      ).status,
    ).toBe(302);
    expect((await db().selectFrom("compliance_task_templates").select("due_in_days").where("id", "=", starter.id).executeTakeFirstOrThrow()).due_in_days).toBe(
      14,
    );
  });
});

export type { SurveyDefinition };
