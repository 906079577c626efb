import { createHash, randomBytes } from "node:crypto";
import path from "node:path";
import Database from "better-sqlite3";
import type { CDPSession, Page } from "@playwright/test";
import { expect, test } from "./test";
import { demoUser, expectAccessible, expectWithinTimeBudget, queryDb, signIn } from "./helpers";
import { E2E_DATA_DIR } from "./env";

/**
 * The respondent pages (decision 033) as a supplier answers them: on a phone (360×740), JavaScript off, over an
 * emulated 400 kbit/s link with 400 ms latency — by a mailed link without an account, and as supplier@demo.test. Every
 * respondent page is weighed (no script element; document and style sheet together at most 60 000 bytes transferred) and
 * timed (loaded within 2 s on that link). Axe runs with JavaScript on, in its own test.
 */

const LINK = { offline: false, latency: 400, downloadThroughput: 50_000, uploadThroughput: 50_000 };
const BUDGET_BYTES = 60_000;
const BUDGET_MS = 2_000;
const PHONE = { width: 360, height: 740 };

const DEFINITION = {
  title: { en: "Responsible business", no: "Ansvarlig næringsliv" },
  sections: [
    {
      id: "policy",
      title: { en: "Policy", no: "Retningslinjer" },
      questions: [
        {
          id: "has_policy",
          type: "yes_no",
          text: { en: "Do you have a human rights policy?", no: "Har dere retningslinjer for menneskerettigheter?" },
          required: true,
          weight: 1,
        },
        {
          id: "policy_doc",
          type: "file",
          text: { en: "Upload the policy", no: "Last opp retningslinjene" },
          required: true,
          askExpiry: true,
          showIf: { question: "has_policy", equals: "yes" },
          weight: 1,
        },
        { id: "employees", type: "number", text: { en: "Number of employees", no: "Antall ansatte" }, required: true, min: 0 },
      ],
    },
    {
      id: "more",
      title: { en: "Supply chain", no: "Leverandørkjede" },
      questions: [{ id: "risks", type: "long_text", text: { en: "Describe your main risks", no: "Beskriv de viktigste risikoene" }, required: true }],
    },
  ],
};

function openDb() {
  const db = new Database(path.join(E2E_DATA_DIR, "app.db"));
  db.pragma("busy_timeout = 5000");
  return db;
}

/** A fresh survey (or task) from the demo customer to the demo supplier organisation, with a link; returns its id and token. */
function sendItem(kind: "task" | "survey"): { answerId: number; supplierTaskId: number; token: string } {
  const supplier = demoUser("supplier@demo.test").organizationId;
  const customer = demoUser("analyst@demo.test").organizationId;
  const now = new Date().toISOString();
  const title = `${kind === "task" ? "Sign the code of conduct" : "Responsible business"} ${randomBytes(2).toString("hex")}`;
  const token = randomBytes(32).toString("base64url");
  const db = openDb();
  try {
    let answerId: number;
    if (kind === "survey") {
      const template = db
        .prepare("insert into survey_templates (organization_id, title, created_at) values (?, ?, ?) returning id")
        .get(customer, title, now) as { id: number };
      const version = db
        .prepare("insert into survey_template_versions (template_id, version, definition, created_at) values (?, 1, ?, ?) returning id")
        .get(template.id, JSON.stringify(DEFINITION), now) as { id: number };
      answerId = (
        db
          .prepare(
            "insert into survey_responses (survey_template_id, template_version_id, organization_id, supplier_organization_id, status, answers, created_at, updated_at) values (?, ?, ?, ?, 'draft', '{}', ?, ?) returning id",
          )
          .get(template.id, version.id, customer, supplier, now, now) as { id: number }
      ).id;
    } else {
      const template = db
        .prepare("insert into compliance_task_templates (organization_id, title, description, description_no, created_at) values (?, ?, ?, ?, ?) returning id")
        .get(customer, title, "Read our **code of conduct** and sign it.", "Les **leverandørkravene** våre og signer dem.", now) as { id: number };
      answerId = (
        db
          .prepare(
            "insert into compliance_tasks (organization_id, supplier_organization_id, template_id, title, due_date, created_at, updated_at) values (?, ?, ?, ?, '2099-12-31', ?, ?) returning id",
          )
          .get(customer, supplier, template.id, title, now, now) as { id: number }
      ).id;
    }
    const st = db
      .prepare(
        `insert into supplier_tasks (organization_id, supplier_organization_id, kind, compliance_task_id, survey_response_id, title, message, due_date, status, sent_at, updated_at)
         values (?, ?, ?, ?, ?, ?, 'Please answer by the end of the month.', '2099-12-31', 'sent', ?, ?) returning id`,
      )
      .get(customer, supplier, kind, kind === "task" ? answerId : null, kind === "survey" ? answerId : null, title, now, now) as { id: number };
    db.prepare("insert into supplier_task_links (supplier_task_id, token_hash, email, expires_at, created_at) values (?, ?, ?, ?, ?)").run(
      st.id,
      createHash("sha256").update(token).digest("hex"),
      "kari@supplier.example",
      new Date(Date.now() + 86_400_000).toISOString(),
      now,
    );
    return { answerId, supplierTaskId: st.id, token };
  } finally {
    db.close();
  }
}

function status(supplierTaskId: number): { status: string; answered_by_name: string | null } {
  return queryDb<{ status: string; answered_by_name: string | null }>("select status, answered_by_name from supplier_tasks where id = ?", supplierTaskId)[0]!;
}

interface Weighed {
  bytes: number;
  ms: number;
}

/** The phone on the slow link: every answer's transferred bytes (CDP encodedDataLength), summed per navigation. */
class SlowPhone {
  bytes = 0;
  private cdp!: CDPSession;
  constructor(readonly page: Page) {}

  async start() {
    this.cdp = await this.page.context().newCDPSession(this.page);
    await this.cdp.send("Network.enable");
    await this.cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
    await this.cdp.send("Network.emulateNetworkConditions", LINK);
    this.cdp.on("Network.loadingFinished", (e: { encodedDataLength: number }) => (this.bytes += e.encodedDataLength));
  }

  /**
   * Does `navigate` (a goto, a click that submits) and weighs and times the page it lands on. `cold`: with an empty cache
   * (every page opened by address); otherwise the browser keeps the style sheet it already has (immutable, cached for a
   * year), as it does when a form of the page it shows is sent.
   */
  async weigh(navigate: () => Promise<unknown>, cold = true): Promise<Weighed> {
    await this.cdp.send("Network.setCacheDisabled", { cacheDisabled: cold });
    this.bytes = 0;
    const started = Date.now();
    await navigate();
    await this.page.waitForLoadState("load");
    const ms = Date.now() - started;
    return { bytes: this.bytes, ms };
  }
}

const figures: Array<{ page: string } & Weighed> = [];

/** The budget of every respondent page: no script element, bytes and time within the limits. */
async function expectLight(phone: SlowPhone, name: string, navigate: () => Promise<unknown>, cold = true) {
  const w = await phone.weigh(navigate, cold);
  figures.push({ page: `${name}${cold ? "" : " (style sheet cached)"}`, ...w });
  test.info().annotations.push({ type: "weight", description: `${name}: ${w.bytes} bytes, ${w.ms} ms` });
  expect(await phone.page.locator("script").count(), `${name}: no script element`).toBe(0);
  expect(w.bytes, `${name}: bytes transferred`).toBeLessThanOrEqual(BUDGET_BYTES);
  expectWithinTimeBudget(w.ms, BUDGET_MS, `${name}: load time on the slow link`);
  return w;
}

test.afterAll(() => {
  if (figures.length) console.log(figures.map((f) => `${f.page.padEnd(32)} ${String(f.bytes).padStart(6)} B ${String(f.ms).padStart(5)} ms`).join("\n"));
});

test.describe("respondent pages on a phone, slow link, JavaScript off", () => {
  test.use({ viewport: PHONE });
  test.beforeEach(({ javaScriptEnabled }) => {
    test.skip(javaScriptEnabled !== false, "the respondent pages are for JavaScript off (axe runs in its own test)");
  });

  test("by link, without an account: a survey saved page by page, a refused page keeps the answers, evidence uploaded, submitted", async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(90_000);
    const item = sendItem("survey");
    const url = `${baseURL}/tasks/surveys/${item.answerId}/public?token=${item.token}`;
    const phone = new SlowPhone(page);
    await phone.start();

    const opened = await expectLight(phone, "survey by link, section 1", () => page.goto(url));
    expect(opened.bytes).toBeGreaterThan(1000);
    await expect(page.getByRole("heading", { level: 1 })).toContainText("Responsible business");
    expect(status(item.supplierTaskId).status).toBe("opened");
    // The yes/no question decides whether the evidence question shows: the page says so.
    await expect(page.getByText("Your answer here decides which questions follow")).toBeVisible();
    await expect(page.getByText("Upload the policy")).toHaveCount(0);

    // The style sheet into the cache, as after any first page: a form sent from a page reuses it.
    await phone.weigh(() => page.reload(), false);
    await page.getByRole("radio", { name: "Yes" }).check();
    await page.getByLabel("Number of employees").fill("many");
    await expectLight(phone, "survey, refused section (400)", () => page.getByRole("button", { name: "Save and continue" }).click(), false);
    await expect(page.getByRole("alert").first()).toContainText("Some answers need a change");
    await expect(page.getByText("Write a number, for example 12 or 3,5.")).toBeVisible();
    await expect(page.getByLabel("Number of employees")).toHaveValue("many");
    await expect(page.getByRole("radio", { name: "Yes" })).toBeChecked();
    expect(queryDb<{ answers: string }>("select answers from survey_responses where id = ?", item.answerId)[0]!.answers).toBe("{}");

    await page.getByLabel("Number of employees").fill("1 250");
    await expectLight(phone, "survey, saved and on to section 2", () => page.getByRole("button", { name: "Save and continue" }).click(), false);
    await expect(page.getByText("Section 2 of 2")).toBeVisible();
    await page.getByLabel("Describe your main risks").fill("Raw materials from high-risk regions.");
    await expectLight(phone, "survey, saved and on to the summary", () => page.getByRole("button", { name: "Save and review" }).click(), false);
    await expect(page.getByText("1 required answer is missing")).toBeVisible();
    // Each page opened by its address, with an empty cache.
    await expectLight(phone, "survey by link, section 2", () => page.goto(`${url}&section=2`));
    await expect(page.getByLabel("Describe your main risks")).toHaveValue("Raw materials from high-risk regions.");
    await expectLight(phone, "survey by link, summary", () => page.goto(`${url}&section=summary`));
    await expect(page.getByText("1 required answer is missing")).toBeVisible();

    // The missing evidence: its link leads to its section, where it now shows (policy: yes was saved).
    await page.getByRole("link", { name: /Section 1: Upload the policy/ }).click();
    await expect(page.getByText("Upload the policy")).toBeVisible();
    await page.getByLabel("Valid until (optional)").fill("2027-06-30");
    await page.getByLabel("Add a file").setInputFiles({ name: "human-rights-policy.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4 policy") });
    await page.getByRole("button", { name: "Upload" }).click();
    await expect(page.getByText("The file is uploaded.")).toBeVisible();
    await expect(page.getByRole("link", { name: "human-rights-policy.pdf" })).toBeVisible();

    await page.getByRole("link", { name: "Summary" }).click();
    await expect(page.getByText("Every required question is answered")).toBeVisible();
    await page.getByRole("button", { name: "Submit" }).click();
    await expect(page.getByText("Write your name: the sender sees who answered.")).toBeVisible();
    expect(status(item.supplierTaskId).status).toBe("draft");
    await page.getByLabel("Your name").fill("Kari Nordmann");
    await page.getByRole("button", { name: "Submit" }).click();
    await expect(page.getByText("Thank you. Your answer has been submitted.")).toBeVisible();
    await expect(page.getByText(/Submitted on/)).toBeVisible();
    await expectLight(phone, "survey, read-only after submit", () => page.reload());
    await expect(page.getByRole("button", { name: "Submit" })).toHaveCount(0);
    expect(status(item.supplierTaskId)).toEqual({ status: "submitted", answered_by_name: "Kari Nordmann (kari@supplier.example)" });
    const score = queryDb<{ score: number }>("select score from survey_responses where id = ?", item.answerId)[0]!.score;
    expect(score).toBe(100);
  });

  test("by link, a refused link and a link used on another item's address are a page of their own", async ({ page, baseURL }) => {
    const a = sendItem("task");
    const b = sendItem("task");
    const phone = new SlowPhone(page);
    await phone.start();
    let answer = 0;
    page.on("response", (r) => {
      if (r.request().resourceType() === "document") answer = r.status();
    });
    await expectLight(phone, "refused link (404)", () => page.goto(`${baseURL}/tasks/${b.answerId}/public?token=${a.token}`));
    expect(answer).toBe(404);
    await expect(page.getByText("This link is not valid.")).toBeVisible();
    await expectLight(phone, "task by link", () => page.goto(`${baseURL}/tasks/${b.answerId}/public?token=${b.token}`));
    expect(answer).toBe(200);
    await expect(page.getByLabel("Your name")).toBeVisible();
    const db = openDb();
    db.prepare("update supplier_task_links set revoked_at = ? where supplier_task_id = ?").run(new Date().toISOString(), a.supplierTaskId);
    db.close();
    await page.goto(`${baseURL}/tasks/${a.answerId}/public?token=${a.token}`);
    expect(answer).toBe(410);
    await expect(page.getByText("This link has been withdrawn by the sender.")).toBeVisible();
  });

  test("as supplier@demo.test: the lists, a task saved as a draft with a file, then submitted", async ({ page, baseURL }) => {
    test.setTimeout(90_000);
    const item = sendItem("task");
    const survey = sendItem("survey");
    await signIn(page.context(), demoUser("supplier@demo.test"));
    const phone = new SlowPhone(page);
    await phone.start();

    await expectLight(phone, "overview (supplier)", () => page.goto(`${baseURL}/tasks/overview`));
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("My Compliance");
    await expectLight(phone, "my surveys", () => page.goto(`${baseURL}/tasks/surveys/my_surveys`));
    await expect(
      page.getByRole("link", { name: queryDb<{ title: string }>("select title from supplier_tasks where id = ?", survey.supplierTaskId)[0]!.title }),
    ).toBeVisible();
    await expectLight(phone, "my tasks", () => page.goto(`${baseURL}/tasks/my_tasks`));
    const title = queryDb<{ title: string }>("select title from supplier_tasks where id = ?", item.supplierTaskId)[0]!.title;
    await expectLight(phone, "task (signed in)", () => page.getByRole("link", { name: title }).click());
    expect(page.url()).toBe(`${baseURL}/tasks/${item.answerId}`);
    await expect(page.locator(".markdown strong")).toHaveText("code of conduct");

    await page.getByLabel("Comment").fill("Signed by our CEO.");
    await page.getByLabel("Add a file").setInputFiles({ name: "signed-code.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4 signed") });
    await page.getByRole("button", { name: "Save draft" }).click();
    await expect(page.getByText("Your draft is saved.")).toBeVisible();
    await expect(page.getByRole("link", { name: "signed-code.pdf" })).toBeVisible();
    await expect(page.getByLabel("Comment")).toHaveValue("Signed by our CEO.");
    expect(status(item.supplierTaskId).status).toBe("draft");

    await page.getByLabel("Comment").fill("Signed by our CEO. Final.");
    await page.getByRole("button", { name: "Submit" }).click();
    await expect(page.getByText("Thank you. Your answer has been submitted.")).toBeVisible();
    await expect(page.getByText(/Submitted on/)).toBeVisible();
    await expect(page.getByText("Signed by our CEO. Final.")).toBeVisible();
    await expectLight(phone, "task, read-only after submit", () => page.reload());
    await expect(page.getByRole("button", { name: "Submit" })).toHaveCount(0);
    expect(status(item.supplierTaskId)).toEqual({ status: "submitted", answered_by_name: "supplier@demo.test" });
  });

  test("Norwegian, chosen on the page by a link user", async ({ page, baseURL }) => {
    const item = sendItem("survey");
    await page.goto(`${baseURL}/tasks/surveys/${item.answerId}/public?token=${item.token}`);
    await page.getByRole("button", { name: "Norsk" }).click();
    await expect(page.getByText("Del 1 av 2")).toBeVisible();
    await expect(page.getByRole("heading", { name: "Retningslinjer" })).toBeVisible();
    await expect(page.getByText("Har dere retningslinjer for menneskerettigheter?")).toBeVisible();
    await expect(page.getByRole("button", { name: "Lagre og fortsett" })).toBeVisible();
    expect(new URL(page.url()).searchParams.get("token")).toBe(item.token);
  });
});

test.describe("respondent pages: accessibility", () => {
  test.beforeEach(({ javaScriptEnabled }) => {
    test.skip(javaScriptEnabled === false, "axe needs JavaScript in the page");
  });

  test("axe finds nothing serious on the lists, a task, a survey section, its summary, a refused link", async ({ page, baseURL }) => {
    test.setTimeout(60_000);
    const task = sendItem("task");
    const survey = sendItem("survey");
    for (const url of [
      `/tasks/${task.answerId}/public?token=${task.token}`,
      `/tasks/surveys/${survey.answerId}/public?token=${survey.token}`,
      `/tasks/surveys/${survey.answerId}/public?token=${survey.token}&section=summary`,
      `/tasks/${task.answerId}/public?token=${survey.token}`,
    ]) {
      await page.goto(baseURL + url);
      await expectAccessible(page);
    }
    await signIn(page.context(), demoUser("supplier@demo.test"));
    for (const url of ["/tasks/overview", "/tasks/my_tasks", "/tasks/surveys/my_surveys", `/tasks/${task.answerId}`]) {
      await page.goto(baseURL + url);
      await expectAccessible(page);
    }
  });

  test("a customer at level 2 sees its overview per supplier and per campaign", async ({ page, baseURL }) => {
    await signIn(page.context(), demoUser("analyst@demo.test"));
    // Reached from the shell by a client-side navigation: the page's texts load before it shows (no key on screen).
    await page.goto(`${baseURL}/overview`);
    await page
      .locator('a[href="/tasks/overview"]')
      .first()
      .evaluate((a) => (a as HTMLAnchorElement).click());
    await expect(page).toHaveURL(/\/tasks\/overview$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("My Compliance");
    await page.goto(`${baseURL}/tasks/overview`);
    await expect(page.getByRole("heading", { name: "Status per supplier" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Completion per campaign" })).toBeVisible();
    expect(await page.locator("script").count()).toBe(0);
    await expectAccessible(page);
  });
});
