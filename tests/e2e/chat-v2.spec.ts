import path from "node:path";
import Database from "better-sqlite3";
import { expect, test } from "./test";
import { createUser, expectAccessible, signIn, type TestUser } from "./helpers";
import { E2E_DATA_DIR } from "./env";

/**
 * /ai/chat-v2: the chat with its conversation list — open a conversation, rename it, delete it (the
 * confirmation step) — with JavaScript and without; axe with it; no sideways scroll at 360 px.
 */

function seed(user: TestUser, conversations: Array<{ title: string; updatedAt: string; messages: [string, boolean][] }>): number[] {
  const db = new Database(path.join(E2E_DATA_DIR, "app.db"));
  db.pragma("busy_timeout = 5000");
  try {
    return conversations.map(({ title, updatedAt, messages }) => {
      const { id } = db
        .prepare("insert into conversations (user_id, organization_id, title, created_at, updated_at) values (?, ?, ?, ?, ?) returning id")
        .get(user.id, user.organizationId, title, updatedAt, updatedAt) as { id: number };
      for (const [text, assistant] of messages)
        db.prepare("insert into conversation_messages (conversation_id, text, is_assistant, created_at) values (?, ?, ?, ?)").run(
          id,
          text,
          assistant ? 1 : 0,
          updatedAt,
        );
      return id;
    });
  } finally {
    db.close();
  }
}

test("opens, renames and deletes a conversation from the list", async ({ page, context, javaScriptEnabled }) => {
  const user = await createUser({ accessLevel: 2 });
  const [older, newer] = seed(user, [
    {
      title: "Older talk",
      updatedAt: "2026-01-01T10:00:00.000Z",
      messages: [
        ["What about risk?", false],
        ["**Low** risk overall.", true],
      ],
    },
    { title: "Newer talk", updatedAt: "2026-02-01T10:00:00.000Z", messages: [["Hello", false]] },
  ]);
  await signIn(context, user);
  await page.goto("/ai/chat-v2");
  const list = page.getByRole("navigation", { name: "Conversations" });
  // Newest updatedAt first.
  await expect(list.getByRole("listitem").first()).toContainText("Newer talk");
  await expect(list.getByRole("listitem").nth(1)).toContainText("Older talk");

  // Open a conversation: a link to ?c={id}.
  await list.getByRole("link", { name: "Older talk", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/ai/chat-v2\\?c=${older}$`));
  const log = page.getByRole("log", { name: "Messages" });
  await expect(log.getByText("You: What about risk?")).toBeVisible();
  await expect(log.getByTestId("assistant-message").locator("strong")).toHaveText("Low");
  if (javaScriptEnabled) await expectAccessible(page);

  // Rename: a blank title is refused with its message; a good one renames.
  const title = page.getByLabel("Conversation title");
  await title.fill("   ");
  // The browser's own check would stop a blank post; remove it to see the server's answer.
  await title.evaluate((input) => input.removeAttribute("required"));
  await page.getByRole("button", { name: "Rename" }).click();
  await expect(page.getByText("Give the conversation a title.")).toBeVisible();
  await page.getByLabel("Conversation title").fill("Risk questions");
  await page.getByRole("button", { name: "Rename" }).click();
  await expect(list.getByRole("link", { name: "Risk questions", exact: true })).toBeVisible();
  await expect(list.getByRole("link", { name: "Older talk", exact: true })).toHaveCount(0);

  // Delete: the confirmation step, cancel keeps it, confirm deletes it.
  await list.getByRole("link", { name: "Delete the conversation Newer talk" }).click();
  const step = page.getByRole("alertdialog", { name: "Delete conversation" });
  await expect(step).toBeVisible();
  await step.getByRole("link", { name: "Cancel" }).click();
  await expect(step).toHaveCount(0);
  await expect(list.getByRole("link", { name: "Newer talk", exact: true })).toBeVisible();
  await list.getByRole("link", { name: "Delete the conversation Newer talk" }).click();
  await page.getByRole("alertdialog", { name: "Delete conversation" }).getByRole("button", { name: "Delete" }).click();
  await expect(page.getByRole("alertdialog")).toHaveCount(0);
  await expect(list.getByRole("link", { name: "Newer talk", exact: true })).toHaveCount(0);
  await expect(list.getByRole("link", { name: "Risk questions", exact: true })).toBeVisible();
  // The open conversation stays open.
  await expect(page).toHaveURL(new RegExp(`/ai/chat-v2\\?c=${older}$`));
  expect(newer).toBeGreaterThan(0);
});

test("another user's conversation is not found", async ({ page, context }) => {
  const owner = await createUser({ accessLevel: 2 });
  const [id] = seed(owner, [{ title: "Private", updatedAt: "2026-01-01T10:00:00.000Z", messages: [] }]);
  const other = await createUser({ accessLevel: 2 });
  await signIn(context, other);
  expect((await page.goto(`/ai/chat-v2?c=${id}`))?.status()).toBe(404);
  expect((await page.goto(`/ai/chat-v2?delete=${id}`))?.status()).toBe(404);
});

test("at 360 px the list sits above the chat and nothing scrolls sideways", async ({ page, context }) => {
  await page.setViewportSize({ width: 360, height: 780 });
  const user = await createUser({ accessLevel: 2 });
  const [id] = seed(user, [
    {
      title: "A rather long conversation title that must not push the page sideways at all",
      updatedAt: "2026-01-01T10:00:00.000Z",
      messages: [["x".repeat(300), false]],
    },
  ]);
  await signIn(context, user);
  await page.goto(`/ai/chat-v2?c=${id}`);
  const listBox = (await page.getByRole("navigation", { name: "Conversations" }).boundingBox())!;
  const logBox = (await page.getByRole("log", { name: "Messages" }).boundingBox())!;
  expect(listBox.y).toBeLessThan(logBox.y);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
});
