import type { LoaderFunctionArgs } from "@remix-run/node";
import Papa from "papaparse";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@server/db";
import { loader } from "~/routes/_app.survey-explorer";
import { loader as csvLoader } from "~/routes/survey-explorer[.]csv";
import type { SurveyDefinition } from "~/models/tasks/survey-definition";
import type { QuestionFigures } from "~/models/tasks/survey-explorer";
import { makeOrg, signedIn } from "../helpers/fixtures";
import { call, get } from "../helpers/requests";
import { createConnection } from "../helpers/factory";

/**
 * /survey-explorer and its CSV against a real SQLite file: who may see it, only the organisation's own submitted
 * responses (never another organisation's, never drafts, also for a system-wide template), counts equal to counts taken
 * from the database, the tag and country filters, the CSV's rows and columns; and the loader's time with 2 000 responses.
 */

type Fn = (a: LoaderFunctionArgs) => unknown;
const AT = "2025-03-01T10:00:00.000Z";
const w = {} as {
  orgA: number;
  orgB: number;
  suppliers: number[];
  analyst: string;
  viewer: string;
  respondent: string;
  analystB: string;
  templateId: number;
  versionId: number;
  systemTemplateId: number;
  systemVersionId: number;
  tagId: number;
  tagB: number;
};

const DEFINITION: SurveyDefinition = {
  title: { en: "Explorer survey", no: "Utforskerundersøkelse" },
  sections: [
    {
      id: "s1",
      title: { en: "All", no: "Alt" },
      questions: [
        { id: "policy", type: "yes_no", text: { en: "Policy?", no: "Retningslinjer?" }, required: true, weight: 1 },
        { id: "policy_file", type: "file", text: { en: "Upload it", no: "Last opp" }, required: false, showIf: { question: "policy", equals: "yes" } },
        {
          id: "cert",
          type: "multiple_choice",
          text: { en: "Certificates", no: "Sertifikater" },
          required: false,
          options: [
            { value: "iso", label: { en: "ISO 27001", no: "ISO 27001" } },
            { value: "soc", label: { en: "SOC 2", no: "SOC 2" } },
          ],
        },
        { id: "staff", type: "number", text: { en: "Employees", no: "Ansatte" }, required: false, unit: { en: "people", no: "personer" } },
        { id: "note", type: "long_text", text: { en: "Notes", no: "Notater" }, required: false },
      ],
    },
  ],
};

const page = (token: string | undefined, query = "") =>
  call(loader as Fn, { request: get(`/survey-explorer${query}`, token ? { Cookie: `token=${token}` } : {}), params: {}, context: {} });
const csv = (token: string | undefined, query = "") =>
  call(csvLoader as Fn, { request: get(`/survey-explorer.csv${query}`, token ? { Cookie: `token=${token}` } : {}), params: {}, context: {} });
type Data = { count: number; figures: { questionId: string; figures: QuestionFigures }[]; templates: { id: number }[]; unknown: boolean; countries: string[] };

async function template(organizationId: number | null, definition: SurveyDefinition): Promise<{ templateId: number; versionId: number }> {
  const t = await db()
    .insertInto("survey_templates")
    .values({ organization_id: organizationId, title: definition.title.en, title_no: definition.title.no, created_at: AT, updated_at: AT })
    .returning("id")
    .executeTakeFirstOrThrow();
  const v = await db()
    .insertInto("survey_template_versions")
    .values({ template_id: t.id, version: 1, definition: JSON.stringify(definition), created_at: AT })
    .returning("id")
    .executeTakeFirstOrThrow();
  return { templateId: t.id, versionId: v.id };
}

async function respond(input: {
  org: number;
  supplier: number;
  templateId: number;
  versionId: number;
  status?: "draft" | "submitted";
  answers: Record<string, string | string[]>;
}) {
  const status = input.status ?? "submitted";
  return (
    await db()
      .insertInto("survey_responses")
      .values({
        survey_template_id: input.templateId,
        template_version_id: input.versionId,
        organization_id: input.org,
        supplier_organization_id: input.supplier,
        status,
        answers: JSON.stringify(input.answers),
        created_at: AT,
        updated_at: AT,
        submitted_at: status === "submitted" ? AT : null,
        score: null,
      })
      .returning("id")
      .executeTakeFirstOrThrow()
  ).id;
}

beforeAll(async () => {
  w.orgA = await makeOrg("Explorer Customer A", "customer");
  w.orgB = await makeOrg("Explorer Customer B", "customer");
  w.suppliers = [
    await makeOrg("Alfa Leverandør AS", "supplier", "911111111", "NO"),
    await makeOrg("Beta Supply AB", "supplier", "922222222", "SE"),
    await makeOrg("Gamma =Formula AS", "supplier", "933333333", "NO"),
  ];
  w.analyst = await signedIn("analyst@explorer.test", w.orgA, 2);
  w.viewer = await signedIn("viewer@explorer.test", w.orgA, 1);
  w.respondent = await signedIn("respondent@explorer.test", w.suppliers[0], 3);
  w.analystB = await signedIn("analyst-b@explorer.test", w.orgB, 2);
  ({ templateId: w.templateId, versionId: w.versionId } = await template(w.orgA, DEFINITION));
  ({ templateId: w.systemTemplateId, versionId: w.systemVersionId } = await template(null, { ...DEFINITION, title: { en: "System explorer", no: "System" } }));
  const [alfa, beta, gamma] = w.suppliers;
  const r1 = await respond({
    org: w.orgA,
    supplier: alfa,
    templateId: w.templateId,
    versionId: w.versionId,
    answers: { policy: "yes", policy_file: "2027-01-31", cert: ["iso", "soc"], staff: "12", note: "We audit yearly." },
  });
  await respond({
    org: w.orgA,
    supplier: beta,
    templateId: w.templateId,
    versionId: w.versionId,
    answers: { policy: "no", policy_file: "stale", cert: ["soc"], staff: "40", note: "" },
  });
  await respond({
    org: w.orgA,
    supplier: gamma,
    templateId: w.templateId,
    versionId: w.versionId,
    answers: { policy: "yes", cert: [], staff: "7", note: '=HYPERLINK("x")' },
  });
  // Not counted: a draft, and another organisation's response to the same (system-wide) template.
  await respond({ org: w.orgA, supplier: gamma, templateId: w.templateId, versionId: w.versionId, status: "draft", answers: { policy: "no" } });
  await respond({ org: w.orgA, supplier: alfa, templateId: w.systemTemplateId, versionId: w.systemVersionId, answers: { policy: "yes" } });
  await respond({ org: w.orgB, supplier: beta, templateId: w.systemTemplateId, versionId: w.systemVersionId, answers: { policy: "no" } });
  await respond({ org: w.orgB, supplier: gamma, templateId: w.systemTemplateId, versionId: w.systemVersionId, answers: { policy: "no" } });
  const file = await db()
    .insertInto("file_uploads")
    .values({
      organization_id: alfa,
      user_id: null,
      file_name: "policy.pdf",
      file_size: 3,
      mime_type: "application/pdf",
      storage_key: "k/p",
      created_at: AT,
      content_kind: "pdf",
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  await db()
    .insertInto("survey_response_files")
    .values({ response_id: r1, question_id: "policy_file", file_upload_id: file.id, expires_on: "2027-01-31", created_at: AT })
    .execute();
  // Organisation A tags Alfa "Critical"; organisation B has a tag of its own.
  const conn = { id: await createConnection({ parent: w.orgA, child: alfa, createdAt: AT }) };
  w.tagId = (
    await db().insertInto("organization_tags").values({ organization_id: w.orgA, title: "Critical", created_at: AT }).returning("id").executeTakeFirstOrThrow()
  ).id;
  w.tagB = (
    await db().insertInto("organization_tags").values({ organization_id: w.orgB, title: "B only", created_at: AT }).returning("id").executeTakeFirstOrThrow()
  ).id;
  await db().insertInto("organization_connection_tags").values({ connection_id: conn.id, tag_id: w.tagId, created_at: AT }).execute();
});

const figuresOf = (data: Data, id: string) => data.figures.find((f) => f.questionId === id)!.figures;

describe("who may explore", () => {
  it("level 2 customers; level 1 and a respondent get 403; a visitor goes to /", async () => {
    expect((await page(w.analyst)).status).toBe(200);
    expect((await page(w.viewer)).status).toBe(403);
    expect((await page(w.respondent)).status).toBe(403);
    const visitor = await page(undefined);
    expect([visitor.status, visitor.headers.get("Location")]).toEqual([302, "/"]);
    expect((await csv(w.viewer, `?template=${w.templateId}`)).status).toBe(403);
  });

  it("another organisation's template never appears, and asking for it shows nothing of it", async () => {
    const data = (await (await page(w.analystB, `?template=${w.templateId}`)).json()) as Data & { version: unknown };
    expect(data.templates.map((t) => t.id)).not.toContain(w.templateId);
    expect(data.unknown).toBe(true);
    expect(data.version).toBeNull();
    expect(data.count).toBe(0);
    expect((await csv(w.analystB, `?template=${w.templateId}`)).status).toBe(404);
  });
});

describe("the figures", () => {
  it("equal the counts in the database: submitted responses of the organisation only", async () => {
    const data = (await (await page(w.analyst, `?template=${w.templateId}&version=${w.versionId}`)).json()) as Data;
    const submitted = await db()
      .selectFrom("survey_responses")
      .select(["answers"])
      .where("template_version_id", "=", w.versionId)
      .where("organization_id", "=", w.orgA)
      .where("status", "=", "submitted")
      .execute();
    expect(data.count).toBe(submitted.length);
    const answers = submitted.map((r) => JSON.parse(r.answers) as Record<string, string | string[]>);
    expect(figuresOf(data, "policy")).toEqual({
      kind: "counts",
      answered: 3,
      shown: 3,
      counts: [
        { value: "yes", count: answers.filter((a) => a.policy === "yes").length },
        { value: "no", count: answers.filter((a) => a.policy === "no").length },
      ],
    });
    expect(figuresOf(data, "cert")).toMatchObject({
      answered: 2,
      counts: [
        { value: "iso", count: 1 },
        { value: "soc", count: 2 },
      ],
    });
    expect(figuresOf(data, "staff")).toMatchObject({ kind: "numbers", answered: 3, min: 7, median: 12, max: 40 });
    // The file question is shown only where the policy is "yes" (2 responses); one attached a file.
    expect(figuresOf(data, "policy_file")).toEqual({ kind: "files", answered: 1, shown: 2 });
    const note = figuresOf(data, "note");
    expect(note.kind === "texts" && note.texts.map((x) => [x.supplierName, x.text])).toEqual([
      ["Alfa Leverandør AS", "We audit yearly."],
      ["Gamma =Formula AS", '=HYPERLINK("x")'],
    ]);
  });

  it("a system-wide template shows only this organisation's responses to it", async () => {
    const a = (await (await page(w.analyst, `?template=${w.systemTemplateId}`)).json()) as Data;
    const b = (await (await page(w.analystB, `?template=${w.systemTemplateId}`)).json()) as Data;
    expect([a.count, b.count]).toEqual([1, 2]);
    expect(figuresOf(a, "policy")).toMatchObject({
      counts: [
        { value: "yes", count: 1 },
        { value: "no", count: 0 },
      ],
    });
    expect(figuresOf(b, "policy")).toMatchObject({
      counts: [
        { value: "yes", count: 0 },
        { value: "no", count: 2 },
      ],
    });
  });

  it("filters by the organisation's tag and by country; another organisation's tag is ignored", async () => {
    const tagged = (await (await page(w.analyst, `?template=${w.templateId}&tag=${w.tagId}`)).json()) as Data;
    expect(tagged.count).toBe(1);
    const sweden = (await (await page(w.analyst, `?template=${w.templateId}&country=se`)).json()) as Data;
    expect(sweden.count).toBe(1);
    expect(figuresOf(sweden, "policy")).toMatchObject({
      counts: [
        { value: "yes", count: 0 },
        { value: "no", count: 1 },
      ],
    });
    const foreignTag = (await (await page(w.analyst, `?template=${w.templateId}&tag=${w.tagB}`)).json()) as Data;
    expect(foreignTag.count).toBe(3);
    for (const q of ["?template=x", "?template=99999999999999999999", "?template=1&version=-1&tag=%00&country=%3Cscript%3E"])
      expect((await page(w.analyst, q)).status).toBe(200);
  });
});

describe("the CSV", () => {
  it("has one row per submitted response and one column per question, in words, with formulas escaped", async () => {
    const res = await csv(w.analyst, `?template=${w.templateId}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const parsed = Papa.parse<string[]>(new TextDecoder().decode(bytes).trim(), { skipEmptyLines: true }).data;
    expect(parsed[0]).toEqual([
      "Supplier",
      "Organization number",
      "Country",
      "Submitted",
      "Score",
      "Policy?",
      "Upload it",
      "Certificates",
      "Employees",
      "Notes",
    ]);
    expect(parsed.slice(1)).toEqual([
      ["Alfa Leverandør AS", "911111111", "NO", "2025-03-01", "", "Yes", "policy.pdf; 2027-01-31", "ISO 27001; SOC 2", "12 people", "We audit yearly."],
      ["Beta Supply AB", "922222222", "SE", "2025-03-01", "", "No", "", "SOC 2", "40 people", ""],
      ["Gamma =Formula AS", "933333333", "NO", "2025-03-01", "", "Yes", "", "", "7 people", `'=HYPERLINK("x")`],
    ]);
  });
});

describe("with 2 000 responses", () => {
  it("the loader answers quickly (the figure is in decision 032)", async () => {
    const { templateId, versionId } = await template(w.orgA, { ...DEFINITION, title: { en: "Bench", no: "Bench" } });
    const rows = Array.from({ length: 2000 }, (_, i) => ({
      survey_template_id: templateId,
      template_version_id: versionId,
      organization_id: w.orgA,
      supplier_organization_id: w.suppliers[i % 3],
      status: "submitted" as const,
      answers: JSON.stringify({ policy: i % 3 ? "yes" : "no", cert: i % 2 ? ["iso"] : ["soc"], staff: String(i % 500), note: `Note ${i}` }),
      created_at: AT,
      updated_at: AT,
      submitted_at: AT,
    }));
    for (let i = 0; i < rows.length; i += 200)
      await db()
        .insertInto("survey_responses")
        .values(rows.slice(i, i + 200))
        .execute();
    await page(w.analyst, `?template=${templateId}`);
    const times: number[] = [];
    let data: Data | undefined;
    for (let i = 0; i < 5; i++) {
      const start = performance.now();
      const res = await page(w.analyst, `?template=${templateId}`);
      data = (await res.json()) as Data;
      times.push(performance.now() - start);
    }
    const startCsv = performance.now();
    await (await csv(w.analyst, `?template=${templateId}`)).text();
    const csvMs = performance.now() - startCsv;
    times.sort((a, b) => a - b);
    console.info(
      `explorer loader, 2000 responses: median ${times[2].toFixed(0)} ms (min ${times[0].toFixed(0)}, max ${times[4].toFixed(0)}); CSV ${csvMs.toFixed(0)} ms`,
    );
    expect(data!.count).toBe(2000);
    expect(figuresOf(data!, "policy")).toMatchObject({
      counts: [
        { value: "yes", count: 1333 },
        { value: "no", count: 667 },
      ],
    });
    expect(times[2]).toBeLessThan(2000);
  });
});
