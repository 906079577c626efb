import type { Page } from "@playwright/test";
import { expect, test } from "./test";
import { createUser, latestMailTo, queryDb, signIn, type TestUser } from "./helpers";

/**
 * Tasks and surveys end to end, across its screens: a customer sends its own scored survey to the three suppliers of a tag;
 * each supplier's contact answers by the mailed link without an account; the customer sees the campaign, reminds the
 * one still open, reads a submitted response with its score, returns it with a comment (mailed with a fresh link), the
 * supplier changes and submits again, the customer accepts it, and the survey explorer counts the answers and exports
 * them. With and without JavaScript (the respondent's pages have none either way).
 */

interface World {
  user: TestUser;
  tag: string;
  suppliers: Array<{ id: number; name: string; email: string }>;
  survey: { id: number; title: string };
}

const DEFINITION = {
  title: { en: "Journey check", no: "Reisekontroll" },
  sections: [
    {
      id: "s1",
      title: { en: "Policies", no: "Retningslinjer" },
      questions: [
        {
          id: "policy",
          type: "yes_no",
          text: { en: "Do you have a human rights policy?", no: "Har dere retningslinjer for menneskerettigheter?" },
          required: true,
          weight: 1,
        },
        { id: "owner", type: "short_text", text: { en: "Who owns the policy?", no: "Hvem eier retningslinjene?" }, required: false },
      ],
    },
  ],
};

async function world(project: string): Promise<World> {
  const user = await createUser({ accessLevel: 2 });
  const now = new Date().toISOString();
  const picked = queryDb<{ id: number; name: string }>(
    "select id, name from organizations where kind = 'supplier' and org_number is not null order by id limit 3 offset 3",
  );
  const tag = `Journey ${user.organizationId}`;
  const [{ id: tagId }] = queryDb<{ id: number }>(
    "insert into organization_tags (organization_id, title, created_at) values (?, ?, ?) returning id",
    user.organizationId,
    tag,
    now,
  );
  const suppliers = picked.map((s, i) => ({ ...s, email: `journey-${project}-${user.organizationId}-${i}@supplier.example` }));
  for (const s of suppliers) {
    const [{ id }] = queryDb<{ id: number }>(
      "insert into organization_connections (parent_organization_id, child_organization_id, is_deleted, contact_email, created_at, updated_at) values (?, ?, 0, ?, ?, ?) returning id",
      user.organizationId,
      s.id,
      s.email,
      now,
      now,
    );
    queryDb("insert into organization_connection_tags (connection_id, tag_id, created_at) values (?, ?, ?) returning connection_id", id, tagId, now);
  }
  const [survey] = queryDb<{ id: number; title: string }>(
    "insert into survey_templates (organization_id, title, title_no, created_at, updated_at) values (?, ?, ?, ?, ?) returning id, title",
    user.organizationId,
    `Journey check ${user.organizationId}`,
    `Reisekontroll ${user.organizationId}`,
    now,
    now,
  );
  queryDb(
    "insert into survey_template_versions (template_id, version, definition, created_at) values (?, 1, ?, ?) returning id",
    survey.id,
    JSON.stringify({ ...DEFINITION, title: { en: survey.title, no: `Reisekontroll ${user.organizationId}` } }),
    now,
  );
  return { user, tag, suppliers, survey };
}

/** The path and query of the link in the newest mail to the address (the outbox is the e2e server's). */
async function mailedLink(email: string, kind: RegExp): Promise<string> {
  await expect.poll(() => latestMailTo(email) ?? "", { timeout: 20_000 }).toMatch(kind);
  const mail = latestMailTo(email)!;
  const url = /https?:\/\/\S+\/tasks\/surveys\/\d+\/public\?token=[A-Za-z0-9_%-]+/.exec(mail);
  expect(url, mail).not.toBeNull();
  const parsed = new URL(url![0]);
  return parsed.pathname + parsed.search;
}

/** A supplier's contact answers by link, in a browser without a session. */
async function answerByLink(page: Page, link: string, answers: { policy: "Yes" | "No"; owner: string; name: string }) {
  await page.goto(link);
  await page.getByRole("radio", { name: answers.policy }).check();
  await page.getByLabel("Who owns the policy?").fill(answers.owner);
  await page.getByRole("button", { name: "Save and review" }).click();
  await page.getByLabel("Your name").fill(answers.name);
  await page.getByRole("button", { name: "Submit" }).click();
  await expect(page.getByRole("button", { name: "Submit" })).toHaveCount(0);
}

test("send by tag, answer by link, remind, read, return, answer again, accept, explore and export", async ({ page, context, browser }, testInfo) => {
  test.setTimeout(120_000);
  const w = await world(testInfo.project.name);
  await signIn(context, w.user);

  // Send the survey to the tag's three suppliers.
  await page.goto("/suppliers");
  await page.getByLabel("Tag", { exact: true }).selectOption({ label: w.tag });
  await page.getByRole("button", { name: "Filter" }).click();
  await page.getByRole("link", { name: "Send task or survey to all 3 suppliers in this filter" }).click();
  await page.getByLabel("Task or survey template").selectOption({ value: `survey:${w.survey.id}` });
  await page.getByRole("button", { name: "Send to 3 suppliers" }).click();
  await expect(page.getByText("Sent to 3, skipped 0.")).toBeVisible({ timeout: 20_000 });
  const campaignId = Number(/(\d+)$/.exec(new URL(page.url()).pathname)![1]);

  // Two contacts answer by the mailed link, without an account: one Yes, one No.
  const respondent = await browser.newContext({ javaScriptEnabled: false });
  const phone = await respondent.newPage();
  await answerByLink(phone, await mailedLink(w.suppliers[0].email, /asks you to answer/), { policy: "Yes", owner: "The CEO", name: "Kari Nordmann" });
  await answerByLink(phone, await mailedLink(w.suppliers[1].email, /asks you to answer/), { policy: "No", owner: "Nobody yet", name: "Ola Nordmann" });

  // The campaign's items: two submitted, one still open — remind that one.
  await page.goto(`/supplier_tasks?campaign=${campaignId}`);
  const table = page.getByRole("table", { name: "Sent tasks and surveys" });
  await expect(table.getByRole("row")).toHaveCount(4);
  const items = queryDb<{ id: number; supplier_organization_id: number; status: string; survey_response_id: number }>(
    "select id, supplier_organization_id, status, survey_response_id from supplier_tasks where campaign_id = ? order by id",
    campaignId,
  );
  const item = (i: number) => items.find((x) => x.supplier_organization_id === w.suppliers[i].id)!;
  expect([item(0).status, item(1).status, item(2).status]).toEqual(["submitted", "submitted", "sent"]);

  await page.goto(`/supplier_tasks/${item(2).id}`);
  await page.getByRole("button", { name: "Remind now" }).click();
  await expect.poll(() => latestMailTo(w.suppliers[2].email) ?? "", { timeout: 10_000 }).toMatch(/Reminder: .* is waiting for your answer/);

  // Read the first response with its score (Yes on the one weighted question: 100), then return it with a comment.
  await page.goto(`/supplier_tasks/${item(0).id}`);
  await expect(page.getByText(`Kari Nordmann (${w.suppliers[0].email})`, { exact: true })).toBeVisible();
  await page.getByRole("link", { name: "Read the response" }).click();
  await expect(page).toHaveURL(new RegExp(`/tasks/surveys/${item(0).survey_response_id}/read$`));
  await expect(page.getByText("The CEO")).toBeVisible();
  await expect(page.getByRole("definition").filter({ hasText: /^100 \/ 100$/ })).toBeVisible();
  expect(queryDb<{ score: number }>("select score from survey_responses where id = ?", item(0).survey_response_id)[0].score).toBe(100);

  await page.goto(`/supplier_tasks/${item(0).id}`);
  await page.getByLabel("Comment for the supplier").fill("Please name the person, not the role.");
  await page.getByRole("button", { name: "Return to the supplier" }).click();
  await expect(page.getByRole("button", { name: "Return to the supplier" })).toHaveCount(0);

  // The supplier gets the return by mail with a fresh link, sees the comment, changes the answer and submits again.
  const again = await mailedLink(w.suppliers[0].email, /returned your answer/);
  await phone.goto(again);
  await expect(phone.getByText("Please name the person, not the role.")).toBeVisible();
  await expect(phone.getByLabel("Who owns the policy?")).toHaveValue("The CEO");
  await answerByLink(phone, again, { policy: "Yes", owner: "Kari Nordmann, CEO", name: "Kari Nordmann" });
  await respondent.close();

  // Accept it.
  await page.goto(`/supplier_tasks/${item(0).id}`);
  await page.getByRole("button", { name: "Accept" }).click();
  await expect(page.getByRole("button", { name: "Accept" })).toHaveCount(0);
  expect(queryDb<{ status: string }>("select status from supplier_tasks where id = ?", item(0).id)[0].status).toBe("accepted");
  expect(queryDb<{ kind: string }>("select kind from supplier_task_events where supplier_task_id = ? order by id", item(0).id).map((e) => e.kind)).toEqual([
    "sent",
    "opened",
    "draft_saved",
    "submitted",
    "returned",
    "draft_saved",
    "submitted",
    "accepted",
  ]);

  // The explorer counts the answers of the two responses that are in (one Yes, one No) and exports them.
  await page.goto("/survey-explorer");
  await page.getByLabel("Survey", { exact: true }).selectOption({ label: w.survey.title });
  await page.getByRole("button", { name: "Show" }).click();
  const first = page.getByRole("region", { name: /^1\. / });
  await expect(first.getByRole("row", { name: /^Yes 1 / })).toBeVisible();
  await expect(first.getByRole("row", { name: /^No 1 / })).toBeVisible();
  const href = await page.getByRole("link", { name: "Export CSV" }).getAttribute("href");
  const csv = await (await page.request.get(href!)).text();
  expect(csv).toContain("Kari Nordmann, CEO");
  expect(csv).toContain("Nobody yet");
  expect(csv).toContain(w.suppliers[0].name);
});
