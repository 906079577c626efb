import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import Papa from "papaparse";
import type { Db } from "../db";
import { saveFile } from "../storage";
import { surveyScore, type Answers, type SurveyDefinition, type SurveyQuestion } from "~/models/tasks/survey-definition";

export interface SeededOrganizations {
  /** The three customer organisations, by name. */
  customers: Map<string, number>;
  /** Supplier organisations (local), in the order they were created. */
  suppliers: Array<{ id: number; orgNumber: string; name: string }>;
}

const SEED_DATA = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../seed-data");

/** Sub-suppliers per demo supplier, by position in `orgs.suppliers`: [count, data sharing]. */
const SUB_SUPPLIER_PLAN: Array<[count: number, sharing: boolean]> = [
  [12, true],
  [5, false],
];

/**
 * Local state around suppliers: connections, sub-suppliers and data sharing,
 * uploaded files, compliance tasks with responses, and surveys. Runs after the
 * organisations and accounts exist.
 *
 * Re-runnable: every row has a stable key (organisation pair, pair + title,
 * template + supplier) and is looked up before it is written, so a second run
 * only brings flags and dates back to their seeded values. Files are written
 * only together with the row that owns them, so they are not duplicated either.
 */
export async function seedSupplierWork(database: Db, orgs: SeededOrganizations, opts: { log: (line: string) => void; today: Date }): Promise<void> {
  const { log, today } = opts;
  const daysAgo = (n: number, hour = 9) => new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() - n, hour)).toISOString();
  const customers = [...orgs.customers.values()];
  const suppliers = orgs.suppliers;
  if (customers.length < 3 || suppliers.length < 2) throw new Error("The supplier work needs three customers and at least two suppliers");

  /* ---- customers follow suppliers ---- */
  const follows: Array<[customer: number, supplierIndexes: number[]]> = [
    [customers[0], suppliers.map((_, i) => i)],
    // The second customer does not follow the first supplier: its users see
    // what isolation looks like on the demo's main supplier.
    [customers[1], [1, 2, 3, 4, 5, 6, 7, 8].filter((i) => i < suppliers.length)],
    [customers[2], [0, 3, 6, 9, 12].filter((i) => i < suppliers.length)],
  ];
  let connections = 0;
  for (const [customer, indexes] of follows) {
    for (const i of indexes) {
      const supplier = suppliers[i];
      await ensureConnection(database, customer, supplier.id, {
        is_priority: i % 4 === 0 ? 1 : 0,
        is_due_diligence: i % 5 === 2 ? 1 : 0,
        contact_email: i % 3 === 0 ? `compliance@${slug(supplier.name)}.example` : null,
        created_at: daysAgo(30 + i * 7),
      });
      connections++;
    }
  }
  log(`${connections} supplier connections for ${customers.length} customers`);

  /* ---- sub-suppliers ---- */
  const needed = SUB_SUPPLIER_PLAN.reduce((n, [count]) => n + count, 0);
  const candidates = await subSupplierCandidates(database, new Set(suppliers.map((s) => s.orgNumber)), needed);
  let next = 0;
  for (const [index, [count, sharing]] of SUB_SUPPLIER_PLAN.entries()) {
    const supplier = suppliers[index];
    if (!supplier) continue;
    await database
      .updateTable("organizations")
      .set({ data_sharing_enabled: sharing ? 1 : 0 })
      .where("id", "=", supplier.id)
      .execute();
    for (const [k, unit] of candidates.slice(next, next + count).entries()) {
      const localId = await ensureSupplierOrganization(database, unit, daysAgo(400));
      await ensureConnection(database, supplier.id, localId, { is_priority: 0, is_due_diligence: 0, contact_email: null, created_at: daysAgo(200 + k * 11) });
    }
    next += count;
  }
  log(`${next} sub-supplier connections (${SUB_SUPPLIER_PLAN.map(([c, s]) => `${c} ${s ? "shared" : "not shared"}`).join(", ")})`);

  /* ---- task templates ---- */
  const sender = customers[0];
  const senderUser = await firstUser(database, sender);
  const templates = new Map<string, number>();
  for (const t of TASK_TEMPLATES) {
    templates.set(t.title, await ensureTemplate(database, sender, senderUser, t, daysAgo(120)));
  }
  log(`${TASK_TEMPLATES.length} compliance task templates`);

  /* ---- tasks, some answered ---- */
  let tasks = 0;
  for (const plan of TASK_PLAN) {
    const supplier = suppliers[plan.supplier];
    if (!supplier) continue;
    const template = plan.template ? (templates.get(plan.template) ?? null) : null;
    const taskId = await ensureTask(database, {
      organization_id: plan.customer === 1 ? customers[1] : sender,
      supplier_organization_id: supplier.id,
      template_id: template,
      title: plan.title ?? plan.template ?? "Task",
      is_custom: plan.template ? 0 : 1,
      is_submitted: plan.response ? 1 : 0,
      due_date: daysAgo(-plan.dueInDays).slice(0, 10),
      created_at: daysAgo(plan.sentDaysAgo),
      updated_at: daysAgo(plan.response ? plan.response.daysAgo : plan.sentDaysAgo, 10 + (plan.supplier % 8)),
    });
    if (plan.response) await ensureResponse(database, taskId, supplier, plan.response, daysAgo(plan.response.daysAgo, 10 + (plan.supplier % 8)));
    await ensureSupplierTask(database, {
      organization_id: plan.customer === 1 ? customers[1] : sender,
      supplier_organization_id: supplier.id,
      kind: "task",
      compliance_task_id: taskId,
      survey_response_id: null,
      title: plan.title ?? plan.template ?? "Task",
      due_date: daysAgo(-plan.dueInDays).slice(0, 10),
      status: plan.response ? "submitted" : "sent",
      sent_at: daysAgo(plan.sentDaysAgo),
      submitted_at: plan.response ? daysAgo(plan.response.daysAgo, 10 + (plan.supplier % 8)) : null,
      updated_at: daysAgo(plan.response ? plan.response.daysAgo : plan.sentDaysAgo, 10 + (plan.supplier % 8)),
    });
    tasks++;
  }
  log(`${tasks} compliance tasks`);

  /* ---- surveys ---- */
  const surveyTemplates = new Map<string, { templateId: number; versionId: number; definition: SurveyDefinition }>();
  for (const s of SURVEY_TEMPLATES) surveyTemplates.set(s.title.en, { ...(await ensureSurveyTemplate(database, sender, s, daysAgo(150))), definition: s });
  let surveys = 0;
  for (const plan of SURVEY_PLAN) {
    const supplier = suppliers[plan.supplier];
    const template = surveyTemplates.get(plan.template);
    if (!supplier || !template) continue;
    const answers = plan.submitted ? (SURVEY_ANSWERS[plan.template] ?? {}) : {};
    const responseId = await ensureSurveyResponse(database, {
      survey_template_id: template.templateId,
      template_version_id: template.versionId,
      organization_id: sender,
      supplier_organization_id: supplier.id,
      status: plan.submitted ? "submitted" : "draft",
      answers: JSON.stringify(answers),
      score: plan.submitted ? surveyScore(template.definition, answers) : null,
      language: plan.submitted ? "en" : null,
      created_at: daysAgo(plan.daysAgo + 14),
      updated_at: daysAgo(plan.daysAgo, 14),
      submitted_at: plan.submitted ? daysAgo(plan.daysAgo, 14) : null,
    });
    await ensureSupplierTask(database, {
      organization_id: sender,
      supplier_organization_id: supplier.id,
      kind: "survey",
      compliance_task_id: null,
      survey_response_id: responseId,
      title: plan.template,
      due_date: daysAgo(plan.daysAgo - 14).slice(0, 10),
      status: plan.submitted ? "submitted" : "draft",
      sent_at: daysAgo(plan.daysAgo + 14),
      submitted_at: plan.submitted ? daysAgo(plan.daysAgo, 14) : null,
      updated_at: daysAgo(plan.daysAgo, 14),
    });
    surveys++;
  }
  log(`${SURVEY_TEMPLATES.length} survey templates and ${surveys} survey responses`);
}

/* ---------------- connections and organisations ---------------- */

async function ensureConnection(
  database: Db,
  parent: number,
  child: number,
  values: { is_priority: number; is_due_diligence: number; contact_email: string | null; created_at: string },
): Promise<void> {
  const existing = await database
    .selectFrom("organization_connections")
    .select("id")
    .where("parent_organization_id", "=", parent)
    .where("child_organization_id", "=", child)
    .where("is_deleted", "=", 0)
    .executeTakeFirst();
  if (existing) {
    await database.updateTable("organization_connections").set(values).where("id", "=", existing.id).execute();
    return;
  }
  await database
    .insertInto("organization_connections")
    .values({ ...values, parent_organization_id: parent, child_organization_id: child, updated_at: values.created_at })
    .execute();
}

interface Unit {
  orgNumber: string;
  name: string;
  countryCode: string;
}

/**
 * Real companies for the sub-suppliers: active limited companies in
 * organisation-number order, skipping the demo suppliers. They come from the
 * registry store; the Brønnøysund sample file tops them up when the store
 * has not been filled (a bare test database).
 */
async function subSupplierCandidates(database: Db, exclude: Set<string>, count: number): Promise<Unit[]> {
  const rows = await database
    .selectFrom("companies")
    .select(["org_number", "legal_name", "country_code"])
    .where("org_form", "=", "AS")
    .where("is_active", "=", 1)
    .orderBy("org_number")
    .limit(count + exclude.size)
    .execute();
  const units: Unit[] = rows
    .filter((r) => !exclude.has(r.org_number))
    .map((r) => ({ orgNumber: r.org_number, name: r.legal_name, countryCode: r.country_code }));
  if (units.length < count) {
    const csv = fs.readFileSync(path.join(SEED_DATA, "brreg/enheter-selection.csv"), "utf8");
    const { data } = Papa.parse<Record<string, string>>(csv, { header: true, skipEmptyLines: true });
    const taken = new Set([...exclude, ...units.map((u) => u.orgNumber)]);
    const extra = data
      .filter((u) => u["organisasjonsform.kode"] === "AS" && u.konkurs !== "true" && u.underAvvikling !== "true" && !taken.has(u.organisasjonsnummer))
      .sort((a, b) => a.organisasjonsnummer.localeCompare(b.organisasjonsnummer))
      .map((u) => ({ orgNumber: u.organisasjonsnummer, name: u.navn, countryCode: u["forretningsadresse.landkode"] || "NO" }));
    units.push(...extra);
  }
  return units.slice(0, count);
}

async function ensureSupplierOrganization(database: Db, unit: Unit, createdAt: string): Promise<number> {
  const existing = await database
    .selectFrom("organizations")
    .select("id")
    .where("org_number", "=", unit.orgNumber)
    .where("kind", "=", "supplier")
    .orderBy("id")
    .executeTakeFirst();
  if (existing) return existing.id;
  const row = await database
    .insertInto("organizations")
    .values({ name: unit.name, kind: "supplier", org_number: unit.orgNumber, country_code: unit.countryCode, created_at: createdAt })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

async function firstUser(database: Db, organizationId: number): Promise<number | null> {
  const row = await database.selectFrom("users").select("id").where("organization_id", "=", organizationId).orderBy("id").executeTakeFirst();
  return row?.id ?? null;
}

/* ---------------- tasks ---------------- */

interface TemplateSeed {
  title: string;
  description: string;
  file: { name: string; mimeType: string; content: () => Buffer } | null;
}

const TASK_TEMPLATES: TemplateSeed[] = [
  {
    title: "Code of conduct acknowledgement",
    description: "Read our supplier code of conduct, sign the acknowledgement and upload it.",
    file: {
      name: "Supplier code of conduct.pdf",
      mimeType: "application/pdf",
      content: () =>
        pdf([
          "Supplier code of conduct",
          "1. Comply with all applicable laws and regulations.",
          "2. Respect internationally recognised human rights and decent working conditions.",
          "3. Prevent corruption, bribery and conflicts of interest.",
          "4. Reduce environmental impact and report significant incidents.",
          "Signature: ____________________   Date: __________",
        ]),
    },
  },
  {
    title: "Transparency Act due diligence questionnaire",
    description: "Answer the questionnaire on human rights and working conditions in your supply chain (Norwegian Transparency Act, section 4).",
    file: {
      name: "Transparency Act questionnaire.csv",
      mimeType: "text/csv",
      content: () =>
        csv([
          ["question_id", "question", "answer"],
          ["Q1", "Do you have a policy for responsible business conduct?", ""],
          ["Q2", "Have you mapped salient human rights risks in your supply chain?", ""],
          ["Q3", "How many tier-1 suppliers do you have in high-risk countries?", ""],
          ["Q4", "Describe measures taken to cease, prevent or mitigate adverse impacts.", ""],
          ["Q5", "Who is responsible for due diligence in your organisation?", ""],
        ]),
    },
  },
  {
    title: "ISO 14001 certificate",
    description: "Upload a valid ISO 14001 environmental management certificate, or describe your plan to obtain one.",
    file: null,
  },
  {
    title: "Insurance certificate",
    description: "Upload a current certificate for product and general liability insurance, showing insured amounts and the period.",
    file: {
      name: "Insurance requirements.pdf",
      mimeType: "application/pdf",
      content: () =>
        pdf([
          "Insurance requirements for suppliers",
          "General liability: at least NOK 10 000 000 per event.",
          "Product liability: at least NOK 10 000 000 per event.",
          "The certificate must name the insurer, the insured amounts and the period.",
        ]),
    },
  },
];

async function ensureTemplate(database: Db, organizationId: number, userId: number | null, seed: TemplateSeed, createdAt: string): Promise<number> {
  const existing = await database
    .selectFrom("compliance_task_templates")
    .select("id")
    .where("organization_id", "=", organizationId)
    .where("title", "=", seed.title)
    .orderBy("id")
    .executeTakeFirst();
  if (existing) {
    await database.updateTable("compliance_task_templates").set({ description: seed.description }).where("id", "=", existing.id).execute();
    return existing.id;
  }
  const file = seed.file
    ? await saveFile(seed.file.content(), { fileName: seed.file.name, mimeType: seed.file.mimeType, organizationId, userId }, database)
    : null;
  const row = await database
    .insertInto("compliance_task_templates")
    .values({ organization_id: organizationId, title: seed.title, description: seed.description, template_file_id: file?.id ?? null, created_at: createdAt })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

interface ResponseSeed {
  daysAgo: number;
  comment: string;
  files: Array<"signed-code-of-conduct" | "questionnaire-answers" | "supplier-list" | "insurance-certificate">;
}

interface TaskSeed {
  /** Index into orgs.suppliers. */
  supplier: number;
  /** Index into the customers; the first one unless said otherwise. */
  customer?: 0 | 1;
  /** Template title; none for a custom task. */
  template?: string;
  title?: string;
  sentDaysAgo: number;
  dueInDays: number;
  response?: ResponseSeed;
}

const TASK_PLAN: TaskSeed[] = [
  {
    supplier: 0,
    template: "Code of conduct acknowledgement",
    sentDaysAgo: 60,
    dueInDays: -30,
    response: { daysAgo: 41, comment: "Signed by our CEO. The code has also been shared with our own key suppliers.", files: ["signed-code-of-conduct"] },
  },
  {
    supplier: 0,
    template: "Transparency Act due diligence questionnaire",
    sentDaysAgo: 45,
    dueInDays: -10,
    response: {
      daysAgo: 12,
      comment: "Questionnaire answered. Our supplier list with countries is attached as requested.",
      files: ["questionnaire-answers", "supplier-list"],
    },
  },
  { supplier: 0, template: "ISO 14001 certificate", sentDaysAgo: 20, dueInDays: 25 },
  { supplier: 0, title: "Provide an updated list of production sites", sentDaysAgo: 6, dueInDays: 30 },
  {
    supplier: 2,
    template: "Code of conduct acknowledgement",
    sentDaysAgo: 58,
    dueInDays: -28,
    response: { daysAgo: 50, comment: "Acknowledged.", files: ["signed-code-of-conduct"] },
  },
  { supplier: 2, template: "Insurance certificate", sentDaysAgo: 15, dueInDays: 15 },
  { supplier: 3, template: "Transparency Act due diligence questionnaire", sentDaysAgo: 30, dueInDays: 5 },
  {
    supplier: 4,
    template: "Insurance certificate",
    sentDaysAgo: 40,
    dueInDays: -5,
    response: { daysAgo: 22, comment: "Certificate from our insurer for the current period.", files: ["insurance-certificate"] },
  },
  // Past its due date and not answered: the demo's overdue item.
  { supplier: 5, template: "Code of conduct acknowledgement", sentDaysAgo: 40, dueInDays: -4 },
  // The second customer's own task: never visible to the first.
  { supplier: 1, customer: 1, title: "Confirm delivery capacity for next season", sentDaysAgo: 11, dueInDays: 20 },
];

async function ensureTask(database: Db, values: TaskValues): Promise<number> {
  const existing = await database
    .selectFrom("compliance_tasks")
    .select("id")
    .where("organization_id", "=", values.organization_id)
    .where("supplier_organization_id", "=", values.supplier_organization_id)
    .where("title", "=", values.title)
    .orderBy("id")
    .executeTakeFirst();
  if (existing) {
    await database.updateTable("compliance_tasks").set(values).where("id", "=", existing.id).execute();
    return existing.id;
  }
  const row = await database.insertInto("compliance_tasks").values(values).returning("id").executeTakeFirstOrThrow();
  return row.id;
}

interface TaskValues {
  organization_id: number;
  supplier_organization_id: number;
  template_id: number | null;
  title: string;
  is_custom: number;
  is_submitted: number;
  due_date: string;
  created_at: string;
  updated_at: string;
}

async function ensureResponse(
  database: Db,
  taskId: number,
  supplier: { id: number; orgNumber: string; name: string },
  seed: ResponseSeed,
  at: string,
): Promise<void> {
  const existing = await database.selectFrom("compliance_task_responses").select("id").where("task_id", "=", taskId).executeTakeFirst();
  if (existing) {
    await database
      .updateTable("compliance_task_responses")
      .set({ comment: seed.comment, created_at: at, updated_at: at })
      .where("id", "=", existing.id)
      .execute();
    return;
  }
  const responder = await firstUser(database, supplier.id);
  const row = await database
    .insertInto("compliance_task_responses")
    .values({ task_id: taskId, responder_user_id: responder, comment: seed.comment, created_at: at, updated_at: at })
    .returning("id")
    .executeTakeFirstOrThrow();
  for (const kind of seed.files) {
    const file = RESPONSE_FILES[kind](supplier.name);
    const stored = await saveFile(file.content, { fileName: file.name, mimeType: file.mimeType, organizationId: supplier.id, userId: responder }, database);
    await database.insertInto("compliance_task_response_files").values({ response_id: row.id, file_upload_id: stored.id }).execute();
  }
}

const RESPONSE_FILES: Record<ResponseSeed["files"][number], (supplierName: string) => { name: string; mimeType: string; content: Buffer }> = {
  "signed-code-of-conduct": (name) => ({
    name: "Signed code of conduct.pdf",
    mimeType: "application/pdf",
    content: pdf([
      "Supplier code of conduct - acknowledgement",
      `${name} has read and accepts the supplier code of conduct.`,
      "Signed: Chief Executive Officer",
    ]),
  }),
  "questionnaire-answers": (name) => ({
    name: "Transparency Act answers.csv",
    mimeType: "text/csv",
    content: csv([
      ["question_id", "question", "answer"],
      ["Q1", "Do you have a policy for responsible business conduct?", "Yes, adopted by the board"],
      ["Q2", "Have you mapped salient human rights risks in your supply chain?", "Yes, reviewed yearly"],
      ["Q3", "How many tier-1 suppliers do you have in high-risk countries?", "3"],
      ["Q4", "Describe measures taken to cease, prevent or mitigate adverse impacts.", "Supplier audits and contract clauses"],
      ["Q5", "Who is responsible for due diligence in your organisation?", `Head of procurement, ${name}`],
    ]),
  }),
  "supplier-list": () => ({
    name: "Our suppliers.csv",
    mimeType: "text/csv",
    content: csv([
      ["org_number", "name", "country"],
      ["SE5560000001", "Example Components AB", "SE"],
      ["DE123456789", "Beispiel Metallbau GmbH", "DE"],
      ["CN91310000", "Example Textiles Co., Ltd.", "CN"],
    ]),
  }),
  "insurance-certificate": (name) => ({
    name: "Insurance certificate.pdf",
    mimeType: "application/pdf",
    content: pdf([
      "Certificate of insurance",
      `Insured: ${name}`,
      "General liability: NOK 20 000 000 per event",
      "Product liability: NOK 10 000 000 per event",
    ]),
  }),
};

/* ---------------- surveys ---------------- */

const yesNo = (id: string, en: string, no: string, weight = 1): SurveyQuestion => ({ id, type: "yes_no", text: { en, no }, required: true, weight });

/** The demo customer's own earlier surveys (the shipped starter templates are seeded apart), one section each. */
const SURVEY_TEMPLATES: SurveyDefinition[] = [
  {
    title: { en: "Sustainability self-assessment", no: "Egenvurdering av bærekraft" },
    sections: [
      {
        id: "s1",
        title: { en: "Climate", no: "Klima" },
        questions: [
          yesNo("q1", "Do you measure your greenhouse gas emissions (scope 1 and 2)?", "Måler dere klimagassutslippene deres (scope 1 og 2)?"),
          yesNo("q2", "Do you have targets for reducing emissions?", "Har dere mål for å redusere utslippene?"),
          {
            id: "q3",
            type: "long_text",
            text: { en: "Describe your most important environmental measure last year.", no: "Beskriv det viktigste miljøtiltaket deres i fjor." },
            required: false,
          },
        ],
      },
    ],
  },
  {
    title: { en: "Human rights and decent work", no: "Menneskerettigheter og anstendig arbeid" },
    sections: [
      {
        id: "s1",
        title: { en: "Working conditions", no: "Arbeidsforhold" },
        questions: [
          yesNo("q1", "Do all employees have written contracts?", "Har alle ansatte skriftlige arbeidsavtaler?"),
          yesNo("q2", "Do you have a whistleblowing channel open to external parties?", "Har dere en varslingskanal som er åpen for eksterne?"),
          {
            id: "q3",
            type: "number",
            text: { en: "How many work-related injuries were reported last year?", no: "Hvor mange arbeidsrelaterte skader ble meldt i fjor?" },
            required: true,
            min: 0,
          },
        ],
      },
    ],
  },
  {
    title: { en: "Information security baseline", no: "Grunnleggende informasjonssikkerhet" },
    sections: [
      {
        id: "s1",
        title: { en: "Controls", no: "Tiltak" },
        questions: [
          yesNo("q1", "Do you require multi-factor authentication for all users?", "Krever dere tofaktorautentisering for alle brukere?"),
          yesNo("q2", "Are backups tested at least yearly?", "Testes sikkerhetskopier minst årlig?"),
        ],
      },
    ],
  },
];

const SURVEY_ANSWERS: Record<string, Answers> = {
  "Sustainability self-assessment": { q1: "yes", q2: "yes", q3: "Replaced the delivery fleet with electric vans." },
  "Human rights and decent work": { q1: "yes", q2: "yes", q3: "2" },
  "Information security baseline": { q1: "yes", q2: "no" },
};

const SURVEY_PLAN: Array<{ supplier: number; template: string; submitted: boolean; daysAgo: number }> = [
  { supplier: 0, template: "Sustainability self-assessment", submitted: true, daysAgo: 35 },
  { supplier: 0, template: "Human rights and decent work", submitted: true, daysAgo: 8 },
  { supplier: 0, template: "Information security baseline", submitted: false, daysAgo: 3 },
  { supplier: 2, template: "Sustainability self-assessment", submitted: true, daysAgo: 27 },
  { supplier: 3, template: "Human rights and decent work", submitted: false, daysAgo: 5 },
  { supplier: 4, template: "Information security baseline", submitted: true, daysAgo: 16 },
];

/** The template and its version 1 (the demo's templates never change, so a second run only rewrites version 1). */
async function ensureSurveyTemplate(
  database: Db,
  organizationId: number,
  definition: SurveyDefinition,
  createdAt: string,
): Promise<{ templateId: number; versionId: number }> {
  const title = definition.title.en;
  const existing = await database
    .selectFrom("survey_templates")
    .select("id")
    .where("organization_id", "=", organizationId)
    .where("title", "=", title)
    .orderBy("id")
    .executeTakeFirst();
  const templateId =
    existing?.id ??
    (
      await database
        .insertInto("survey_templates")
        .values({ organization_id: organizationId, title, title_no: definition.title.no, created_at: createdAt, updated_at: createdAt })
        .returning("id")
        .executeTakeFirstOrThrow()
    ).id;
  await database.updateTable("survey_templates").set({ title_no: definition.title.no, updated_at: createdAt }).where("id", "=", templateId).execute();
  const json = JSON.stringify(definition);
  const version = await database
    .selectFrom("survey_template_versions")
    .select("id")
    .where("template_id", "=", templateId)
    .where("version", "=", 1)
    .executeTakeFirst();
  if (version) {
    await database.updateTable("survey_template_versions").set({ definition: json }).where("id", "=", version.id).execute();
    return { templateId, versionId: version.id };
  }
  const row = await database
    .insertInto("survey_template_versions")
    .values({ template_id: templateId, version: 1, definition: json, created_at: createdAt })
    .returning("id")
    .executeTakeFirstOrThrow();
  return { templateId, versionId: row.id };
}

async function ensureSurveyResponse(
  database: Db,
  values: {
    survey_template_id: number;
    template_version_id: number;
    organization_id: number;
    supplier_organization_id: number;
    status: "draft" | "submitted";
    answers: string;
    score: number | null;
    language: string | null;
    created_at: string;
    updated_at: string;
    submitted_at: string | null;
  },
): Promise<number> {
  const existing = await database
    .selectFrom("survey_responses")
    .select("id")
    .where("survey_template_id", "=", values.survey_template_id)
    .where("organization_id", "=", values.organization_id)
    .where("supplier_organization_id", "=", values.supplier_organization_id)
    .orderBy("id")
    .executeTakeFirst();
  if (existing) {
    await database.updateTable("survey_responses").set(values).where("id", "=", existing.id).execute();
    return existing.id;
  }
  return (await database.insertInto("survey_responses").values(values).returning("id").executeTakeFirstOrThrow()).id;
}

/** The workflow row of a seeded task or survey (decision 031), found again by the answer row it belongs to. */
async function ensureSupplierTask(
  database: Db,
  values: {
    organization_id: number;
    supplier_organization_id: number;
    kind: "task" | "survey";
    compliance_task_id: number | null;
    survey_response_id: number | null;
    title: string;
    due_date: string | null;
    status: "sent" | "draft" | "submitted";
    sent_at: string;
    submitted_at: string | null;
    updated_at: string;
    recipient_email?: string | null;
  },
): Promise<void> {
  // The recipient is the connection's contact, as a campaign would have mailed it (reminders need an address).
  const contact = await database
    .selectFrom("organization_connections")
    .select("contact_email")
    .where("parent_organization_id", "=", values.organization_id)
    .where("child_organization_id", "=", values.supplier_organization_id)
    .where("is_deleted", "=", 0)
    .executeTakeFirst();
  values = { ...values, recipient_email: contact?.contact_email ?? null };
  const existing = await database
    .selectFrom("supplier_tasks")
    .select("id")
    .where((eb) =>
      values.compliance_task_id !== null ? eb("compliance_task_id", "=", values.compliance_task_id) : eb("survey_response_id", "=", values.survey_response_id),
    )
    .executeTakeFirst();
  if (existing) {
    await database.updateTable("supplier_tasks").set(values).where("id", "=", existing.id).execute();
    return;
  }
  const row = await database.insertInto("supplier_tasks").values(values).returning("id").executeTakeFirstOrThrow();
  await database
    .insertInto("supplier_task_events")
    .values([
      { supplier_task_id: row.id, kind: "sent", created_at: values.sent_at },
      ...(values.submitted_at ? [{ supplier_task_id: row.id, kind: "submitted" as const, created_at: values.submitted_at }] : []),
    ])
    .execute();
}

/* ---------------- generated documents ---------------- */

function slug(name: string): string {
  return (
    name
      .normalize("NFKD")
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 40) || "supplier"
  );
}

function csv(rows: string[][]): Buffer {
  return Buffer.from(Papa.unparse(rows, { newline: "\r\n" }) + "\r\n", "utf8");
}

/**
 * A one-page PDF with lines of Helvetica text, built by hand (the stack has
 * no PDF writer): objects, then a cross-reference table with exact offsets,
 * which is all a PDF reader needs. Text is limited to Latin-1.
 */
function pdf(lines: string[]): Buffer {
  const escape = (s: string) => s.replace(/[^\x20-\x7e\xa0-\xff]/g, "?").replace(/[\\()]/g, (c) => `\\${c}`);
  const text = lines.map((line, i) => `BT /F1 ${i === 0 ? 16 : 11} Tf 56 ${780 - i * 24} Td (${escape(line)}) Tj ET`).join("\n");
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>",
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
    `<< /Length ${Buffer.byteLength(text, "latin1")} >>\nstream\n${text}\nendstream`,
  ];
  let body = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(Buffer.byteLength(body, "latin1"));
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = Buffer.byteLength(body, "latin1");
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  body += offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("");
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, "latin1");
}
