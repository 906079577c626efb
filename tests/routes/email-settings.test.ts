import type { LoaderFunctionArgs } from "@remix-run/node";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@server/db";
import { action, loader } from "~/routes/_app.account.email-settings";
import { makeOrg, signedIn } from "../helpers/fixtures";
import { BASE, call, get } from "../helpers/requests";

/**
 * /account/email-settings (decision 025): the signed-in user's own notification mails. Saved values are
 * shown back, bad values are a 400 with the field's message and change nothing, a visitor is sent to the start page,
 * a viewer without notification access is told the mails do not apply (and cannot post), and a post only ever
 * changes the session's own user's settings.
 */

type Fn = (a: LoaderFunctionArgs) => unknown;
const w = {} as { analyst: string; analystId: number; other: string; otherId: number; viewer: string; norwegian: string; noOrg: string };

function post(fields: Record<string, string>, token?: string): Request {
  return new Request(BASE + "/account/email-settings", {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: BASE, ...(token ? { Cookie: `token=${token}` } : {}) },
  });
}
const run = (fn: Fn, request: Request) => call(fn, { request, params: {}, context: {} });
const page = async (token: string) => {
  const res = await run(loader, get("/account/email-settings", { Cookie: `token=${token}` }));
  expect(res.status).toBe(200);
  return (await res.json()) as { applies: boolean; settings: { digest: string; immediate: boolean; saved: boolean } | null; email: string };
};
const userId = async (email: string) => (await db().selectFrom("users").select("id").where("email", "=", email).executeTakeFirstOrThrow()).id;
const settingsRows = () => db().selectFrom("notification_settings").select(["user_id", "digest", "immediate"]).orderBy("user_id").execute();

beforeAll(async () => {
  const org = await makeOrg("Settings Customer", "customer");
  w.analyst = await signedIn("analyst@settings.test", org, 2);
  w.other = await signedIn("colleague@settings.test", org, 2);
  w.viewer = await signedIn("viewer@settings.test", org, 1);
  w.norwegian = await signedIn("norsk@settings.test", org, 2);
  w.noOrg = await signedIn("alone@settings.test", null, 0);
  await db().updateTable("users").set({ language: "no" }).where("email", "=", "norsk@settings.test").execute();
  w.analystId = await userId("analyst@settings.test");
  w.otherId = await userId("colleague@settings.test");
});

describe("/account/email-settings", () => {
  it("sends a visitor to the start page, for the page and the form alike", async () => {
    for (const res of [await run(loader, get("/account/email-settings")), await run(action, post({ intent: "save", digest: "off" }))]) {
      expect(res.status).toBe(302);
      expect(res.headers.get("Location")).toBe("/");
    }
  });

  it("shows the defaults (weekly, immediate on) before anything is saved", async () => {
    expect(await page(w.analyst)).toMatchObject({
      applies: true,
      settings: { digest: "weekly", immediate: true, saved: false },
      email: "analyst@settings.test",
    });
  });

  it("saves the user's own choice, redirects with a notice and shows the saved values", async () => {
    const res = await run(action, post({ intent: "save", digest: "daily" }, w.analyst));
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/account/email-settings");
    expect(res.headers.get("Set-Cookie")).toContain("__flash=");
    expect((await page(w.analyst)).settings).toMatchObject({ digest: "daily", immediate: false, saved: true });
    await run(action, post({ intent: "save", digest: "off", immediate: "on" }, w.analyst));
    expect((await page(w.analyst)).settings).toMatchObject({ digest: "off", immediate: true, saved: true });
  });

  it("never touches another user's settings, whatever the form names", async () => {
    await run(action, post({ intent: "save", digest: "weekly", immediate: "on" }, w.other));
    const before = await settingsRows();
    const res = await run(action, post({ intent: "save", digest: "daily", userId: String(w.otherId), user_id: String(w.otherId) }, w.analyst));
    expect(res.status).toBe(302);
    const after = await settingsRows();
    expect(after.find((r) => r.user_id === w.otherId)).toEqual(before.find((r) => r.user_id === w.otherId));
    expect(after.find((r) => r.user_id === w.analystId)).toMatchObject({ digest: "daily", immediate: 0 });
  });

  it.each([
    [{ digest: "monthly" }, "digest", "Choose off, daily or weekly."],
    [{}, "digest", "Choose off, daily or weekly."],
    [{ digest: "daily", immediate: "yes" }, "immediate", "Tick the box, or leave it empty."],
  ])("answers %j with 400 and the field's message, saving nothing", async (fields, field, message) => {
    const before = await settingsRows();
    const res = await run(action, post({ intent: "save", ...fields }, w.analyst));
    expect(res.status).toBe(400);
    const body = (await res.json()) as { result: { error: Record<string, string[]> } };
    expect(body.result.error[field]).toEqual([message]);
    expect(await settingsRows()).toEqual(before);
  });

  it("writes the message in the user's language", async () => {
    const res = await run(action, post({ intent: "save", digest: "sometimes" }, w.norwegian));
    expect(res.status).toBe(400);
    const body = (await res.json()) as { result: { error: Record<string, string[]> } };
    expect(body.result.error.digest).toEqual(["Velg av, daglig eller ukentlig."]);
  });

  it("refuses an unknown intent", async () => {
    expect((await run(action, post({ intent: "delete", digest: "off" }, w.analyst))).status).toBe(400);
  });

  it("tells a user without notification access that the notification mails do not apply; they set only reminders and language", async () => {
    for (const token of [w.viewer, w.noOrg]) {
      expect(await page(token)).toMatchObject({ applies: false, settings: { taskReminders: true, surveyReminders: true, mailLanguage: "en", saved: false } });
      const res = await run(action, post({ intent: "save", digest: "daily", immediate: "on", surveyReminders: "on", mailLanguage: "no" }, token));
      expect(res.status).toBe(302);
      // The notification fields are not read for them: the digest stays the default.
      expect((await page(token)).settings).toEqual({
        digest: "weekly",
        immediate: true,
        taskReminders: false,
        surveyReminders: true,
        mailLanguage: "no",
        saved: true,
      });
    }
  });

  it("saves reminders and the language of mails, which defaults to the account's language", async () => {
    expect((await page(w.norwegian)).settings).toMatchObject({ mailLanguage: "no", taskReminders: true, surveyReminders: true });
    await run(action, post({ intent: "save", digest: "weekly", taskReminders: "on", mailLanguage: "en" }, w.norwegian));
    expect((await page(w.norwegian)).settings).toMatchObject({ mailLanguage: "en", taskReminders: true, surveyReminders: false });
    const bad = await run(action, post({ intent: "save", digest: "weekly", mailLanguage: "de" }, w.norwegian));
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { result: { error: Record<string, string[]> } }).result.error.mailLanguage).toEqual(["Velg engelsk eller norsk."]);
  });
});
