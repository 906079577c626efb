import Database from "better-sqlite3";
import { Kysely, Migrator, SqliteDialect } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@server/db";
import type { DB } from "@server/db-types";
import { hashToken } from "@server/auth/tokens";
import { migrations } from "../../migrations/index";
import { applyAction, createLink, customerTask, linkTask, respondentTask, taskEvents, type TaskRow } from "~/models/tasks/task-workflow.server";
import { parseDefinition } from "~/models/tasks/survey-definition-schema";
import { makeOrg } from "../helpers/fixtures";
import { createOrganization } from "../helpers/factory";

const AT = "2026-11-01T09:00:00.000Z";
const w = {} as {
  customer: number;
  other: number;
  supplier: number;
  otherSupplier: number;
  taskItem: number;
  surveyItem: number;
  complianceTask: number;
  response: number;
};

async function item(kind: "task" | "survey"): Promise<number> {
  let complianceTaskId: number | null = null;
  let surveyResponseId: number | null = null;
  if (kind === "task") {
    complianceTaskId = (
      await db()
        .insertInto("compliance_tasks")
        .values({
          organization_id: w.customer,
          supplier_organization_id: w.supplier,
          title: "Sign the code",
          due_date: "2026-12-01",
          created_at: AT,
          updated_at: AT,
        })
        .returning("id")
        .executeTakeFirstOrThrow()
    ).id;
    w.complianceTask = complianceTaskId;
  } else {
    const template = (
      await db()
        .insertInto("survey_templates")
        .values({ organization_id: w.customer, title: "Security", created_at: AT })
        .returning("id")
        .executeTakeFirstOrThrow()
    ).id;
    surveyResponseId = (
      await db()
        .insertInto("survey_responses")
        .values({ survey_template_id: template, organization_id: w.customer, supplier_organization_id: w.supplier, created_at: AT, updated_at: AT })
        .returning("id")
        .executeTakeFirstOrThrow()
    ).id;
    w.response = surveyResponseId;
  }
  return (
    await db()
      .insertInto("supplier_tasks")
      .values({
        organization_id: w.customer,
        supplier_organization_id: w.supplier,
        kind,
        compliance_task_id: complianceTaskId,
        survey_response_id: surveyResponseId,
        title: kind === "task" ? "Sign the code" : "Security",
        due_date: "2026-12-01",
        sent_at: AT,
        updated_at: AT,
      })
      .returning("id")
      .executeTakeFirstOrThrow()
  ).id;
}

beforeAll(async () => {
  w.customer = await makeOrg("Workflow Customer AS", "customer");
  w.other = await makeOrg("Workflow Other Customer AS", "customer");
  w.supplier = await makeOrg("Workflow Supplier AS", "supplier", "919100001");
  w.otherSupplier = await makeOrg("Workflow Other Supplier AS", "supplier", "919100002");
  w.taskItem = await item("task");
  w.surveyItem = await item("survey");
});

const respondent = { actor: "respondent" as const, userId: null, name: "kari@supplier.example" };
const customer = { actor: "customer" as const, userId: null, name: "buyer@customer.example" };

describe("finding an item", () => {
  it("the customer finds only what its own organisation sent", async () => {
    expect((await customerTask({ organizationId: w.customer, id: w.taskItem }))?.title).toBe("Sign the code");
    expect(await customerTask({ organizationId: w.other, id: w.taskItem })).toBeUndefined();
    expect(await customerTask({ organizationId: w.supplier, id: w.taskItem })).toBeUndefined();
  });

  it("the supplier finds only what was sent to its own organisation", async () => {
    expect((await respondentTask({ supplierOrganizationId: w.supplier, id: w.surveyItem }))?.kind).toBe("survey");
    expect(await respondentTask({ supplierOrganizationId: w.otherSupplier, id: w.surveyItem })).toBeUndefined();
    expect(await respondentTask({ supplierOrganizationId: w.customer, id: w.surveyItem })).toBeUndefined();
  });
});

describe("links", () => {
  it("a link opens its one item and stores only the token's hash", async () => {
    const token = await createLink({ supplierTaskId: w.taskItem, email: "kari@supplier.example" });
    const stored = await db().selectFrom("supplier_task_links").select(["token_hash"]).where("supplier_task_id", "=", w.taskItem).execute();
    expect(stored.map((s) => s.token_hash)).toContain(hashToken(token));
    expect(JSON.stringify(stored)).not.toContain(token);
    const opened = await linkTask(token);
    expect("task" in opened && opened.task.id).toBe(w.taskItem);
  });

  it("refuses unknown, malformed, expired and revoked links", async () => {
    expect(await linkTask("x".repeat(43))).toEqual({ refused: "unknown" });
    expect(await linkTask("not a token; drop table")).toEqual({ refused: "unknown" });
    const old = await createLink({ supplierTaskId: w.taskItem, email: null, at: new Date("2026-01-01T00:00:00Z"), ttlDays: 30 });
    expect(await linkTask(old, new Date("2026-01-30T23:59:59Z"))).toMatchObject({ task: { id: w.taskItem } });
    expect(await linkTask(old, new Date("2026-01-31T00:00:00Z"))).toEqual({ refused: "expired" });
    const revoked = await createLink({ supplierTaskId: w.taskItem, email: null });
    await db().updateTable("supplier_task_links").set({ revoked_at: AT }).where("token_hash", "=", hashToken(revoked)).execute();
    expect(await linkTask(revoked)).toEqual({ refused: "revoked" });
  });
});

describe("transitions", () => {
  const find = async (id: number) => (await customerTask({ organizationId: w.customer, id })) as TaskRow;

  it("open → submit → return → submit → accept keeps the answer rows in step and records each step", async () => {
    await applyAction(db(), await find(w.taskItem), "open", respondent);
    expect((await find(w.taskItem)).openedAt).not.toBeNull();
    await applyAction(db(), await find(w.taskItem), "submit", respondent);
    let row = await find(w.taskItem);
    expect(row.status).toBe("submitted");
    expect(row.answeredByName).toBe("kari@supplier.example");
    expect((await db().selectFrom("compliance_tasks").select("is_submitted").where("id", "=", w.complianceTask).executeTakeFirstOrThrow()).is_submitted).toBe(
      1,
    );

    await applyAction(db(), row, "return", customer, { comment: "Please sign page 2 as well." });
    row = await find(w.taskItem);
    expect(row).toMatchObject({ status: "returned", returnComment: "Please sign page 2 as well." });
    expect((await db().selectFrom("compliance_tasks").select("is_submitted").where("id", "=", w.complianceTask).executeTakeFirstOrThrow()).is_submitted).toBe(
      0,
    );

    await applyAction(db(), row, "submit", respondent);
    await applyAction(db(), await find(w.taskItem), "accept", customer);
    expect((await find(w.taskItem)).status).toBe("accepted");
    expect((await taskEvents(w.taskItem)).map((e) => e.kind)).toEqual(["opened", "submitted", "returned", "submitted", "accepted"]);
    expect((await taskEvents(w.taskItem))[2]).toMatchObject({ actor: "buyer@customer.example", detail: "Please sign page 2 as well." });
  });

  it("refuses what the state or the party does not allow, and changes nothing", async () => {
    const accepted = await find(w.taskItem);
    await expect(applyAction(db(), accepted, "submit", respondent)).rejects.toMatchObject({ name: "Refusal", code: "transition-refused" });
    await expect(applyAction(db(), accepted, "return", customer)).rejects.toMatchObject({ name: "Refusal", code: "transition-refused" });
    const survey = await find(w.surveyItem);
    await expect(applyAction(db(), survey, "accept", customer)).rejects.toMatchObject({ name: "Refusal", code: "transition-refused" });
    await expect(applyAction(db(), survey, "submit", customer)).rejects.toMatchObject({ name: "Refusal", code: "transition-refused" });
    expect((await find(w.surveyItem)).status).toBe("sent");
  });

  it("a stale copy loses to a change made meanwhile", async () => {
    const stale = await find(w.surveyItem);
    await applyAction(db(), stale, "open", respondent);
    await expect(applyAction(db(), stale, "open", respondent)).rejects.toMatchObject({ name: "Refusal", code: "transition-refused" });
  });

  it("a survey's saves are one draft; a return makes the response a draft again; cancelling revokes the links", async () => {
    await applyAction(db(), await find(w.surveyItem), "save", respondent);
    await applyAction(db(), await find(w.surveyItem), "save", respondent);
    await applyAction(db(), await find(w.surveyItem), "submit", respondent);
    expect((await db().selectFrom("survey_responses").select("status").where("id", "=", w.response).executeTakeFirstOrThrow()).status).toBe("submitted");
    await applyAction(db(), await find(w.surveyItem), "return", customer, { comment: "Answer question 3." });
    expect((await db().selectFrom("survey_responses").select("status").where("id", "=", w.response).executeTakeFirstOrThrow()).status).toBe("draft");
    const token = await createLink({ supplierTaskId: w.surveyItem, email: null });
    await applyAction(db(), await find(w.surveyItem), "cancel", customer);
    expect(await linkTask(token)).toEqual({ refused: "revoked" });
    expect((await taskEvents(w.surveyItem)).map((e) => e.kind)).toEqual(["opened", "draft_saved", "submitted", "returned", "cancelled"]);
  });
});

describe("migration 0016 on a database with earlier tasks and surveys", () => {
  it("gives every task and survey response its workflow row and turns the flat questions into version 1", async () => {
    const database = new Kysely<DB>({ dialect: new SqliteDialect({ database: new Database(":memory:") }) });
    const migrator = new Migrator({ db: database, provider: { getMigrations: async () => migrations } });
    expect((await migrator.migrateTo("0013_assistant")).error).toBeUndefined();
    const org = (n: string, kind: "customer" | "supplier") => createOrganization({ name: n, kind, createdAt: AT }, database);
    const c = await org("C", "customer");
    const s = await org("S", "supplier");
    await database
      .insertInto("compliance_tasks")
      .values({ organization_id: c, supplier_organization_id: s, title: "T", is_submitted: 1, due_date: "2026-01-01", created_at: AT, updated_at: AT })
      .execute();
    const tpl = await database
      .insertInto("survey_templates")
      .values({
        organization_id: c,
        title: "Old",
        questions: JSON.stringify([
          { id: "q1", type: "boolean", text: "Yes?" },
          { id: "q2", type: "number", text: "How many?" },
        ]),
        created_at: AT,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await database
      .insertInto("survey_responses")
      .values({
        survey_template_id: tpl.id,
        organization_id: c,
        supplier_organization_id: s,
        status: "submitted",
        answers: JSON.stringify({ q1: true, q2: 3 }),
        created_at: AT,
        updated_at: AT,
        submitted_at: AT,
      })
      .execute();

    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    const rows = await database
      .selectFrom("supplier_tasks")
      .select(["kind", "status", "title", "organization_id", "supplier_organization_id"])
      .orderBy("id")
      .execute();
    expect(rows).toEqual([
      { kind: "task", status: "submitted", title: "T", organization_id: c, supplier_organization_id: s },
      { kind: "survey", status: "submitted", title: "Old", organization_id: c, supplier_organization_id: s },
    ]);
    const version = await database.selectFrom("survey_template_versions").select(["id", "definition"]).executeTakeFirstOrThrow();
    const definition = parseDefinition(version.definition);
    expect(definition.sections[0].questions.map((q) => q.type)).toEqual(["yes_no", "number"]);
    const response = await database.selectFrom("survey_responses").select(["answers", "template_version_id"]).executeTakeFirstOrThrow();
    expect(JSON.parse(response.answers)).toEqual({ q1: "yes", q2: "3" });
    expect(response.template_version_id).toBe(version.id);
    await database.destroy();
  });
});
