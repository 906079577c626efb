import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@server/db";
import { keyedDigest } from "@server/auth/tokens";
import { action, loader } from "~/routes/account.unsubscribe";
import { getNotificationMailSettings, saveNotificationMailSettings } from "~/models/notifications/notification-mail.server";
import { readUnsubscribeToken, unsubscribeToken, UNSUBSCRIBE_DAYS } from "~/models/accounts/unsubscribe.server";
import { makeOrg, signedIn } from "../helpers/fixtures";
import { BASE, call, get } from "../helpers/requests";

/**
 * /account/unsubscribe (decision 040): a signed, expiring token names one user and exactly one setting. GET
 * only asks (mail scanners follow links), POST turns off that one setting, without a session. A tampered, expired or
 * foreign token is a clear page (400/410), never a 500, and changes nothing.
 */

let userId: number;
let otherId: number;
const open = (token: string) => call(loader, { request: get(`/account/unsubscribe?token=${encodeURIComponent(token)}`), params: {}, context: {} });
const confirm = (token: string) =>
  call(action, {
    request: new Request(BASE + "/account/unsubscribe", {
      method: "POST",
      body: new URLSearchParams({ token }),
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: BASE },
    }),
    params: {},
    context: {},
  });

beforeAll(async () => {
  const org = await makeOrg("Unsubscribe Org", "customer");
  await signedIn("unsub@settings.test", org, 2);
  await signedIn("unsub-other@settings.test", org, 2);
  userId = (await db().selectFrom("users").select("id").where("email", "=", "unsub@settings.test").executeTakeFirstOrThrow()).id;
  otherId = (await db().selectFrom("users").select("id").where("email", "=", "unsub-other@settings.test").executeTakeFirstOrThrow()).id;
});

describe("/account/unsubscribe", () => {
  it("GET only asks: it names the setting and the account and changes nothing", async () => {
    const token = unsubscribeToken(userId, "digest");
    const res = await open(token);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ state: "confirm", setting: "digest", email: "unsub@settings.test" });
    expect(await getNotificationMailSettings(userId)).toMatchObject({ digest: "weekly", saved: false });
  });

  it.each([
    ["digest", { digest: "off", immediate: true, taskReminders: true, surveyReminders: true }],
    ["immediate", { digest: "daily", immediate: false, taskReminders: true, surveyReminders: true }],
    ["taskReminders", { digest: "daily", immediate: true, taskReminders: false, surveyReminders: true }],
    ["surveyReminders", { digest: "daily", immediate: true, taskReminders: true, surveyReminders: false }],
  ] as const)("POST turns off exactly %s, without a session, and shows it is done", async (setting, expected) => {
    await saveNotificationMailSettings(userId, { digest: "daily", immediate: true, taskReminders: true, surveyReminders: true, mailLanguage: "no" });
    await saveNotificationMailSettings(otherId, { digest: "daily", immediate: true, taskReminders: true, surveyReminders: true });
    const res = await confirm(unsubscribeToken(userId, setting));
    expect([res.status, res.headers.get("Location")]).toEqual([302, `/account/unsubscribe?done=${setting}`]);
    expect(await getNotificationMailSettings(userId)).toMatchObject({ ...expected, mailLanguage: "no" });
    expect(await getNotificationMailSettings(otherId)).toMatchObject({ digest: "daily", immediate: true, taskReminders: true, surveyReminders: true });
    const done = await call(loader, { request: get(`/account/unsubscribe?done=${setting}`), params: {}, context: {} });
    expect(await done.json()).toMatchObject({ state: "done", setting });
  });

  it("refuses tampered tokens: another user, another setting, a changed date or signature, a foreign setting, garbage", async () => {
    await saveNotificationMailSettings(otherId, { digest: "daily", immediate: true, taskReminders: true, surveyReminders: true });
    const good = unsubscribeToken(userId, "digest");
    const [id, setting, expires, sig] = good.split(".");
    const forged = `${otherId}.${setting}.${expires}`;
    const foreign = `${userId}.password.${expires}`;
    const tampered = [
      `${otherId}.${setting}.${expires}.${sig}`,
      `${id}.immediate.${expires}.${sig}`,
      `${id}.${setting}.${Number(expires) + 1000}.${sig}`,
      `${id}.${setting}.${expires}.${sig!.slice(0, -1)}${sig!.endsWith("A") ? "B" : "A"}`,
      // Signed with another purpose's key (a session handle's): not an unsubscribe signature.
      `${forged}.${keyedDigest("session-handle", forged).slice(0, 32)}`,
      // Rightly signed, but no setting a link may turn off.
      `${foreign}.${keyedDigest("unsubscribe", foreign).slice(0, 32)}`,
      "",
      "garbage",
      "1.digest.1.x",
      "x".repeat(1000),
    ];
    for (const token of tampered) {
      const page = await open(token);
      expect([token, page.status]).toEqual([token, 400]);
      expect(await page.json()).toMatchObject({ state: "invalid" });
      expect((await confirm(token)).status).toBe(400);
    }
    expect(await getNotificationMailSettings(otherId)).toMatchObject({ digest: "daily", immediate: true });
  });

  it("an expired token is a clear page (410) and changes nothing", async () => {
    await saveNotificationMailSettings(userId, { digest: "daily" });
    const old = unsubscribeToken(userId, "digest", new Date(Date.now() - (UNSUBSCRIBE_DAYS + 1) * 86_400_000));
    expect(readUnsubscribeToken(old)).toEqual({ ok: false, reason: "expired" });
    const page = await open(old);
    expect(page.status).toBe(410);
    expect(await page.json()).toMatchObject({ state: "expired" });
    expect((await confirm(old)).status).toBe(410);
    expect(await getNotificationMailSettings(userId)).toMatchObject({ digest: "daily" });
  });

  it("a token of a user that no longer exists is invalid", async () => {
    const res = await open(unsubscribeToken(999_999, "digest"));
    expect(res.status).toBe(400);
  });
});
