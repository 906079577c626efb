import { expect, test } from "./test";
import { createUser, expectAccessible, latestMailTo, queryDb, signIn, uniqueEmail } from "./helpers";

/**
 * The installation's administrator and the mail (decision 044), JavaScript on and off: /admin/send-old shows a
 * failed mail (a failed row of the mail log, as SMTP cannot fail on the shared e2e server) with its error, sends it
 * again into the outbox; /admin/organization/{orgId}/priority-suppliers/invite previews a customer's priority
 * suppliers' contacts and invites them, the invitation read in the outbox; Norwegian, a phone's width, axe. Each test
 * makes its own rows, and sends only its own mail again (never "all": other tests share the server).
 */

const now = () => new Date().toISOString();

function failedMail(to: string, body: string): number {
  return queryDb<{ id: number }>(
    "insert into mail_log (to_address, subject, kind, body, headers, status, error, attempts, created_at, last_attempt_at, sent_at) values (?, ?, 'test', ?, null, 'failed', ?, 1, ?, ?, null) returning id",
    to,
    `Your report for ${to}`,
    body,
    "connect ECONNREFUSED 127.0.0.1:25",
    now(),
    now(),
  )[0].id;
}

test.describe("admin mail", () => {
  test("see a failed mail with its error and send it again: the outbox gets it", async ({ page, context, javaScriptEnabled }) => {
    const admin = await createUser({ accessLevel: 3, isAdmin: true });
    await signIn(context, admin);
    const to = uniqueEmail("failed");
    const id = failedMail(to, `The body of the mail to ${to}`);
    await page.goto("/admin/send-old");
    await expect(page.getByRole("heading", { level: 1, name: "Mail that failed" })).toBeVisible();
    const row = page.getByRole("row").filter({ hasText: to });
    await expect(row).toContainText("connect ECONNREFUSED 127.0.0.1:25");
    if (javaScriptEnabled) await expectAccessible(page);
    await row.getByRole("button", { name: `Send the mail to ${to} again` }).click();
    await expect(page.getByRole("status").filter({ hasText: "The mail was sent." })).toBeVisible();
    await expect(page.getByRole("row").filter({ hasText: to })).toHaveCount(0);
    expect(latestMailTo(to)).toContain(`The body of the mail to ${to}`);
    expect(queryDb<{ status: string; attempts: number }>("select status, attempts from mail_log where id = ?", id)).toEqual([{ status: "sent", attempts: 2 }]);
  });

  test("'send all' asks first, and cancelling sends nothing", async ({ page, context }) => {
    const admin = await createUser({ accessLevel: 3, isAdmin: true });
    await signIn(context, admin);
    const to = uniqueEmail("confirm");
    const id = failedMail(to, "x");
    await page.goto("/admin/send-old");
    await page.getByRole("link", { name: "Send all again" }).click();
    const dialog = page.getByRole("alertdialog", { name: "Send all failed mails again?" });
    await expect(dialog).toBeVisible();
    await dialog.getByRole("link", { name: "Cancel" }).click();
    await expect(dialog).toHaveCount(0);
    expect(queryDb<{ status: string }>("select status from mail_log where id = ?", id)).toEqual([{ status: "failed" }]);
    queryDb("delete from mail_log where id = ? returning id", id);
  });

  test("invite a customer's priority suppliers' contacts and read the invitation in the outbox", async ({ page, context, javaScriptEnabled }) => {
    const admin = await createUser({ accessLevel: 3, isAdmin: true });
    await signIn(context, admin);
    const tag = uniqueEmail("c").split("@")[0];
    const customer = queryDb<{ id: number }>(
      "insert into organizations (name, kind, country_code, created_at) values (?, 'customer', 'NO', ?) returning id",
      `Kunde ${tag}`,
      now(),
    )[0].id;
    const supplier = queryDb<{ id: number }>(
      "insert into organizations (name, kind, country_code, created_at) values (?, 'supplier', 'NO', ?) returning id",
      `Leverandør ${tag}`,
      now(),
    )[0].id;
    const contact = uniqueEmail("contact");
    queryDb(
      "insert into organization_connections (parent_organization_id, child_organization_id, contact_email, is_priority, is_deleted, created_at, updated_at) values (?, ?, ?, 1, 0, ?, ?) returning id",
      customer,
      supplier,
      contact,
      now(),
      now(),
    );
    // Reached from the organisation's row on /admin/organizations.
    await page.goto(`/admin/organizations?q=${encodeURIComponent(`Kunde ${tag}`)}`);
    await page.getByRole("link", { name: `Invite the priority suppliers of Kunde ${tag}` }).click();
    await expect(page).toHaveURL(new RegExp(`/admin/organization/${customer}/priority-suppliers/invite$`));
    await expect(page.getByRole("heading", { level: 1, name: "Invite priority suppliers' contacts" })).toBeVisible();
    await expect(page.getByRole("row").filter({ hasText: contact })).toContainText("Will be invited");
    if (javaScriptEnabled) await expectAccessible(page);
    await page.getByRole("button", { name: "Invite 1 contact" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Invited: 1. Skipped: 0. Failed: 0." })).toBeVisible();
    await expect(page.getByRole("row").filter({ hasText: contact })).toContainText("Invited before");
    const mail = latestMailTo(contact);
    expect(mail).toContain(`Kunde ${tag}`);
    const link = /https?:\/\/\S+\/invite-signup\?token=\S+/.exec(mail ?? "")?.[0];
    expect(link).toBeTruthy();
    await context.clearCookies();
    await page.goto(new URL(link!).pathname + new URL(link!).search);
    await expect(page.getByText(`Leverandør ${tag}`).first()).toBeVisible();
    expect(
      queryDb<{ n: number }>("select count(*) as n from invitations where email = ? and organization_id = ? and access_level = 1", contact, supplier),
    ).toEqual([{ n: 1 }]);
  });

  test("in Norwegian on a phone's width", async ({ page, context, javaScriptEnabled }) => {
    const admin = await createUser({ accessLevel: 3, isAdmin: true, language: "no" });
    await signIn(context, admin);
    await page.setViewportSize({ width: 360, height: 740 });
    const to = uniqueEmail("phone");
    const id = failedMail(to, "x");
    await page.goto("/admin/send-old");
    await expect(page.getByRole("heading", { level: 1, name: "E-post som feilet" })).toBeVisible();
    await expect(page.getByRole("button", { name: `Send e-posten til ${to} på nytt` })).toBeVisible();
    if (javaScriptEnabled) {
      expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
      await expectAccessible(page);
    }
    queryDb("delete from mail_log where id = ? returning id", id);
    const customer = queryDb<{ id: number }>(
      "insert into organizations (name, kind, country_code, created_at) values (?, 'customer', 'NO', ?) returning id",
      "Tom kunde",
      now(),
    )[0].id;
    await page.goto(`/admin/organization/${customer}/priority-suppliers/invite`);
    await expect(page.getByRole("heading", { name: "Ingen prioriterte leverandører" })).toBeVisible();
    if (javaScriptEnabled) await expectAccessible(page);
  });

  test("a non-admin gets 403 on both pages", async ({ page, context }) => {
    const user = await createUser({ accessLevel: 3 });
    await signIn(context, user);
    expect((await page.goto("/admin/send-old"))?.status()).toBe(403);
    expect((await page.goto(`/admin/organization/${user.organizationId}/priority-suppliers/invite`))?.status()).toBe(403);
  });
});
