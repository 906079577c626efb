import { expect, test } from "./test";
import path from "node:path";
import Database from "better-sqlite3";
import { E2E_DATA_DIR } from "./env";
import { createInvitation, createUser, DEMO_PASSWORD, expectAccessible, latestMailTo, signInWithForm, uniqueEmail } from "./helpers";

/** Failed sign-ins on an account from many addresses (the e2e browser has only one). */
function addAccountFailures(email: string, count: number) {
  const db = new Database(path.join(E2E_DATA_DIR, "app.db"));
  try {
    const at = new Date().toISOString();
    const insert = db.prepare("insert into login_failures (key, at) values (?, ?)");
    for (let i = 0; i < count; i++) insert.run(`account:${email}`, at);
  } finally {
    db.close();
  }
}

test.describe("sign-up, sign-in and sign-out", () => {
  test("a visitor signs up, confirms through the mailed link and lands in their new organisation", async ({ page }) => {
    const email = uniqueEmail("signup");
    await page.goto("/signup");
    await page.getByLabel("Organization name").fill("Testfjord Demo AS");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password", { exact: true }).fill("Long-enough-1");
    await page.getByLabel("Repeat password").fill("Long-enough-1");
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page.getByRole("status")).toContainText(`Check your inbox: we have sent a mail to ${email}.`);
    await expect.poll(() => latestMailTo(email)).toContain("Confirm your new account");
    const link = latestMailTo(email)!.match(/https?:\/\/\S+\/signup\?token=\S+/)![0];
    await page.goto(link);
    await expect(page.getByText(`Create the organization Testfjord Demo AS with you, ${email}, as its first user.`)).toBeVisible();
    await page.getByRole("button", { name: "Create Testfjord Demo AS" }).click();
    await expect(page).toHaveURL(/\/overview$/);
    await expect(page.getByRole("link", { name: "Testfjord Demo AS" })).toBeVisible();
    await page.getByLabel("User menu").click();
    await expect(page.getByTestId("user-menu-email")).toHaveText(email);
    // The link works once.
    await page.context().clearCookies();
    await page.goto(link);
    await expect(page.getByText("This link is not valid any more.")).toBeVisible();
  });

  test("sign-up with different passwords keeps the input and says what is wrong", async ({ page }) => {
    await page.goto("/signup");
    await page.getByLabel("Organization name").fill("Kept Name AS");
    await page.getByLabel("Email").fill(uniqueEmail("mismatch"));
    await page.getByLabel("Password", { exact: true }).fill("Long-enough-1");
    await page.getByLabel("Repeat password").fill("Different-1");
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page.getByText("The two passwords are not the same.")).toBeVisible();
    await expect(page.getByLabel("Organization name")).toHaveValue("Kept Name AS");
    await expect(page).toHaveURL(/\/signup$/);
  });

  test("sign-up with an existing email answers the same and mails the owner instead", async ({ page }) => {
    const owner = await createUser();
    await page.goto("/signup");
    await page.getByLabel("Organization name").fill("Duplicate AS");
    await page.getByLabel("Email").fill(owner.email);
    await page.getByLabel("Password", { exact: true }).fill("Long-enough-1");
    await page.getByLabel("Repeat password").fill("Long-enough-1");
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page.getByRole("status")).toContainText(`Check your inbox: we have sent a mail to ${owner.email}.`);
    await expect.poll(() => latestMailTo(owner.email)).toContain("You already have an account");
    expect(latestMailTo(owner.email)).not.toContain("/signup?token=");
  });

  test("a demo user signs in and signs out", async ({ page }) => {
    await signInWithForm(page, "analyst@demo.test", DEMO_PASSWORD);
    await expect(page).toHaveURL(/\/overview$/);
    await expect(page.getByRole("link", { name: "Nordvik Demo Industrier AS" })).toBeVisible();
    await page.getByLabel("User menu").click();
    await page.getByRole("button", { name: "Sign Out" }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByText("You are signed out.")).toBeVisible();
    // The session is gone on the server, not just in the browser.
    await page.goto("/overview");
    await expect(page).toHaveURL(/\/$/);
  });

  test("a wrong password is refused with a clear message", async ({ page }) => {
    await signInWithForm(page, "viewer@demo.test", "not-the-password");
    await expect(page.getByRole("alert")).toContainText("The email or password is not correct.");
    await expect(page.locator("main form").getByLabel("Email")).toHaveValue("viewer@demo.test");
  });

  test("five failed sign-ins from one address make that address wait, even with the right password", async ({ page }) => {
    const user = await createUser();
    for (let i = 0; i < 5; i++) {
      await signInWithForm(page, user.email, "wrong-password");
      await expect(page.getByRole("alert")).toContainText("The email or password is not correct.");
    }
    await signInWithForm(page, user.email, user.password);
    await expect(page.getByRole("alert")).toContainText("Too many failed sign-in attempts. Wait 1 minute and try again");
    await expect(page).toHaveURL(/\/login$/);
  });

  test("an account protected by failures from many addresses lets its owner in with the mailed unlock link", async ({ page }) => {
    const user = await createUser();
    addAccountFailures(user.email, 25);
    await signInWithForm(page, user.email, user.password);
    await expect(page.getByRole("alert")).toContainText("This account is protected after many failed sign-in attempts.");
    await expect.poll(() => latestMailTo(user.email)).toContain("Unlock your account");
    const link = latestMailTo(user.email)!.match(/https?:\/\/\S+\/login\?unlock=\S+/)![0];
    await page.goto(link);
    await expect(page.getByText("Sign in with your password to unlock your account in this browser.")).toBeVisible();
    const form = page.locator("main form");
    await form.getByLabel("Email").fill(user.email);
    await form.getByLabel("Password").fill(user.password);
    await form.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(/\/overview$/);
  });

  test("a forgotten password is reset through the mailed link", async ({ page }) => {
    const user = await createUser();
    await page.goto("/forgot-password");
    await page.getByLabel("Email").fill(user.email);
    await page.getByRole("button", { name: "Send reset link" }).click();
    await expect(page.getByText(`If an account exists for ${user.email}`)).toBeVisible();
    // The mail is a job the server's worker runs within a second or so.
    await expect.poll(() => latestMailTo(user.email), { timeout: 10_000 }).not.toBeNull();
    const mail = latestMailTo(user.email);
    const link = mail!.match(/https?:\/\/\S+\/reset-password\?token=\S+/)?.[0];
    expect(link).toBeTruthy();
    await page.goto(link!);
    await page.getByLabel("New password").fill("Brand-new-pass-2");
    await page.getByLabel("Repeat password").fill("Brand-new-pass-2");
    await page.getByRole("button", { name: "Save new password" }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByText("Your password has been changed.")).toBeVisible();
    await signInWithForm(page, user.email, "Brand-new-pass-2");
    await expect(page).toHaveURL(/\/overview$/);
    // The link works once.
    await page.context().clearCookies();
    await page.goto(link!);
    await expect(page.getByText("This reset link is not valid any more.")).toBeVisible();
  });

  test("an invited person joins the inviting organisation", async ({ page }) => {
    const inviter = await createUser({ accessLevel: 3 });
    const email = uniqueEmail("invited");
    const token = createInvitation(inviter.organizationId, email, 2);
    await page.goto(`/invite-signup?token=${token}`);
    await expect(page.getByText(`You have been invited to join ${inviter.organizationName} as ${email}`)).toBeVisible();
    await page.getByLabel("Password", { exact: true }).fill("Invited-pass-1");
    await page.getByLabel("Repeat password").fill("Invited-pass-1");
    await page.getByRole("button", { name: `Join ${inviter.organizationName}` }).click();
    await expect(page).toHaveURL(/\/overview$/);
    await expect(page.getByRole("link", { name: inviter.organizationName })).toBeVisible();
    await page.goto(`/invite-signup?token=${token}`);
    // Signed in now: the page sends the user on.
    await expect(page).toHaveURL(/\/overview$/);
  });

  test("the sign-in and sign-up pages are accessible", async ({ page, javaScriptEnabled }) => {
    test.skip(!javaScriptEnabled, "axe-core runs inside the page; the markup is the same with JavaScript off");
    await page.goto("/login");
    await expectAccessible(page);
    await page.goto("/signup");
    await expectAccessible(page);
  });
});
