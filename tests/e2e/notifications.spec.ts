import { expect, test, type Page } from "./test";
import { createUser, expectAccessible, notificationsFor, queryDb, signIn, type TestUser } from "./helpers";

/**
 * Notifications (shared/spec/01-shell-chat-lei.md §2.4, §4, §9): the bell's panel — filters with the spec's defaults, Apply, Show more
 * following the offset rule, a supplier opened from a notification — and /notifications: mark read, dismiss with a
 * reason, export. With JavaScript the panel opens in place over GET /api/notifications; without it, it is URL state.
 */

async function setUp(context: Parameters<typeof signIn>[0]): Promise<{ user: TestUser; supplier: { orgNumber: string; name: string; id: number } }> {
  const user = await createUser({ accessLevel: 2 });
  const { suppliers } = notificationsFor(user.organizationId, 30);
  await signIn(context, user);
  return { user, supplier: suppliers[0] };
}

function panel(page: Page) {
  return page.getByRole("dialog", { name: "Notifications" });
}

test.describe("the notifications panel", () => {
  test("opens with the spec's defaults, applies filters, shows more, and opens a supplier", async ({ page, context, javaScriptEnabled }) => {
    const { supplier } = await setUp(context);
    const calls: string[] = [];
    page.on("request", (request) => {
      const url = new URL(request.url());
      if (url.pathname === "/api/notifications") calls.push(url.search);
    });
    await page.goto("/credit_reports");
    // The bell says how many are unread.
    const bell = page.getByRole("link", { name: "Notifications, 30 unread" });
    await expect(bell).toBeVisible();
    await bell.click();
    const dialog = panel(page);
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel("Minimum risk score")).toHaveValue("50");
    await expect(dialog.getByLabel("Lookback days")).toHaveValue("30");
    await expect(dialog.getByLabel("Type")).toHaveValue("all");
    const items = dialog.getByRole("list", { name: "Notifications" }).getByRole("listitem");
    await expect(items).toHaveCount(25);
    if (javaScriptEnabled) {
      // Opening resets and loads the first page through the API (shared/spec/01-shell-chat-lei.md §4, §7).
      expect(calls).toEqual(["?minRiskScore=50&lookbackDays=30&type=all&limit=25&offset=0"]);
      await expect(page).not.toHaveURL(/panel=/);
    } else {
      await expect(page).toHaveURL(/panel=notifications/);
    }
    // The risk score in its colour band, the relevance in percent, the date.
    await expect(items.first().getByText(/^\d+ % relevant$/)).toBeVisible();

    // Show more appends the next page: the offset advanced by 25.
    await dialog.getByRole("link", { name: "Show more" }).click();
    await expect(items).toHaveCount(30);
    if (javaScriptEnabled) expect(calls.at(-1)).toBe("?minRiskScore=50&lookbackDays=30&type=all&limit=25&offset=25");
    // The offset rule keeps the button while the loaded count is at least the offset.
    await expect(dialog.getByRole("link", { name: "Show more" })).toBeVisible();

    // Apply resets and reloads with the filters.
    await dialog.getByLabel("Minimum risk score").fill("90");
    await dialog.getByLabel("Type").selectOption("search");
    await dialog.getByRole("button", { name: "Apply" }).click();
    await expect(items.first()).toBeVisible();
    const scores = await items.locator(".badge").allInnerTexts();
    expect(scores.length).toBeGreaterThan(0);
    for (const score of scores) expect(Number(score.replace(/\D/g, ""))).toBeGreaterThanOrEqual(90);
    await expect(items.getByText("Announcement")).toHaveCount(0);
    if (javaScriptEnabled) expect(calls.at(-1)).toBe("?minRiskScore=90&lookbackDays=30&type=search&limit=25&offset=0");
    if (javaScriptEnabled) await expectAccessible(page);

    // A notification's organisation opens the supplier screen with externalId and localId.
    await items.first().getByRole("link", { name: supplier.name }).click();
    await expect(page).toHaveURL(new RegExp(`/supplier\\?externalId=${supplier.orgNumber}&localId=${supplier.id}`));
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  });

  test("closes with its close button, and a bad number is said next to its field", async ({ page, context, javaScriptEnabled }) => {
    await setUp(context);
    await page.goto("/credit_reports");
    await page.getByRole("link", { name: /^Notifications/ }).click();
    await expect(panel(page)).toBeVisible();
    await panel(page).getByRole("link", { name: "Close" }).click();
    await expect(panel(page)).toHaveCount(0);
    if (!javaScriptEnabled) {
      await page.goto("/credit_reports?panel=notifications&nMin=999");
      await expect(panel(page).getByText("Enter a whole number from 0 to 100.")).toBeVisible();
    }
  });
});

test.describe("/notifications", () => {
  test("mark read, dismiss with a reason, restore, export", async ({ page, context, javaScriptEnabled }) => {
    const { user } = await setUp(context);
    await page.goto("/notifications");
    await expect(page.getByRole("heading", { name: "Notifications", level: 1 })).toBeVisible();
    await expect(page.getByRole("status").filter({ hasText: "30 notifications" })).toBeVisible();
    const list = page.getByRole("list", { name: "Notifications" });
    await expect(list.getByRole("listitem")).toHaveCount(25);
    await expect(page.getByRole("navigation", { name: "Pages" })).toContainText("Page 1 of 2");

    // Mark read (per user): the bell's count goes down.
    const first = list.getByRole("listitem").first();
    const firstTitle = (await first.locator("article p").first().innerText()).replace(/^Unread\s*/, "").trim();
    await first.getByRole("button", { name: "Mark as read" }).click();
    await expect(first.getByRole("button", { name: "Mark as unread" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Notifications, 29 unread" })).toBeVisible();

    // Dismiss: a reason is required.
    await first.getByRole("link", { name: "Dismiss" }).click();
    const dismissDialog = page.getByRole("dialog", { name: "Dismiss notification" });
    await expect(dismissDialog).toBeVisible();
    if (!javaScriptEnabled) {
      // Without JavaScript the browser's own check would stop an empty post; a blank reason is refused by the server too.
      await dismissDialog.getByLabel("Reason").fill("   ");
      await dismissDialog.getByRole("button", { name: "Dismiss" }).click();
      await expect(dismissDialog.getByText("Write a reason for dismissing this notification.")).toBeVisible();
    }
    await dismissDialog.getByLabel("Reason").fill("Already handled with the supplier");
    await dismissDialog.getByRole("button", { name: "Dismiss" }).click();
    await expect(dismissDialog).toHaveCount(0);
    await expect(page.getByRole("status").filter({ hasText: "29 notifications" })).toBeVisible();
    const dismissed = queryDb<{ reason: string }>("select reason from notification_dismissals where organization_id = ?", user.organizationId);
    expect(dismissed).toEqual([{ reason: "Already handled with the supplier" }]);

    // Among the dismissed, with its reason; restored.
    await page.getByLabel("Status").selectOption("dismissed");
    await page.getByRole("button", { name: "Filter" }).click();
    await expect(list.getByRole("listitem")).toHaveCount(1);
    await expect(list.getByText(firstTitle)).toBeVisible();
    await expect(list.getByText("Dismissed: Already handled with the supplier")).toBeVisible();
    await list.getByRole("button", { name: "Restore" }).click();
    await expect(page.getByText("No notifications match these filters.")).toBeVisible();

    // Export: the CSV with the list's filters.
    await page.goto("/notifications?minRiskScore=90");
    const download = page.waitForEvent("download");
    await page.getByRole("link", { name: "Export CSV" }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^notifications-\d{4}-\d{2}-\d{2}\.csv$/);
    const text = (await (await file.createReadStream()).toArray()).join("");
    const lines = text.trim().split("\r\n");
    expect(lines[0]).toContain("Date,Supplier,Organization number");
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines.slice(1)) expect(line).toContain("E2E event");
    if (javaScriptEnabled) await expectAccessible(page);
  });

  test("a viewer is refused the page; the panel says why", async ({ page, context }) => {
    const viewer = await createUser({ accessLevel: 1 });
    await signIn(context, viewer);
    const response = await page.goto("/notifications");
    expect(response?.status()).toBe(403);
    await page.goto("/files?panel=notifications");
    await expect(panel(page).getByText(/which your access does not include/)).toBeVisible();
  });
});
