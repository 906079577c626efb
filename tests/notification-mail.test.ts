import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { db } from "@server/db";
import type { JobContext } from "@server/jobs/types";
import { outbox } from "@server/mail";
import { validateSchedule } from "@server/jobs/schedule";
import { notificationImmediate, notificationMailSchedules } from "~/models/notifications/notification-mail-jobs.server";
import {
  IMMEDIATE_CURSOR_KEY,
  readImmediateCursor,
  saveNotificationMailSettings,
  sendDigests,
  sendImmediateMails,
} from "~/models/notifications/notification-mail.server";
import { digestPeriod, digestSince, isoWeek, osloDay } from "~/models/notifications/notification-settings";
import { readUnsubscribeToken } from "~/models/accounts/unsubscribe.server";
import { company, follow, makeOrg } from "./helpers/fixtures";
import { createUser } from "./helpers/factory";

/**
 * The notification mails (decision 025) against a real SQLite file and the mail outbox: the digest (daily,
 * weekly, off; once per period; nothing new, no mail; the user's language; only what the user's organisation sees,
 * never dismissed or read ones) and the immediate mail (risk 80 or more only; once per notification and user; off,
 * none; the cursor moves with the job's "done").
 */

vi.hoisted(() => {
  process.env.APP_URL = "https://risk.example.test";
});

const APP = "https://risk.example.test";
// Monday 23 November 2026, 07:00 in Oslo (06:00 UTC): the digest's scheduled time.
const MONDAY = new Date("2026-11-23T06:00:00.000Z");
const TUESDAY = new Date("2026-11-24T06:00:00.000Z");
const AT = "2025-01-01T00:00:00.000Z";

const w = {} as {
  orgA: number;
  orgB: number;
  orgQuiet: number;
  orgMany: number;
  c1: number;
  c2: number;
  c3: number;
  users: Record<string, number>;
  n: Record<string, number>;
};

async function user(email: string, organizationId: number, accessLevel: number, language: "en" | "no" = "en"): Promise<number> {
  return createUser({ email, organizationId, accessLevel, language, createdAt: AT });
}

async function notification(input: {
  companyId: number;
  title: string;
  risk: number;
  createdAt: string;
  date?: string;
  organizationId?: number | null;
  titleNo?: string;
  type?: "announcement" | "search";
}): Promise<number> {
  const row = await db()
    .insertInto("risk_notifications")
    .values({
      company_id: input.companyId,
      type: input.type ?? "announcement",
      date: input.date ?? input.createdAt.slice(0, 10),
      created_at: input.createdAt,
      risk_score: input.risk,
      relevance_score: 90,
      title: input.title,
      title_no: input.titleNo ?? null,
      source: "Brønnøysundregistrene",
      url: "https://data.brreg.no/enhetsregisteret/oppslag/enheter/911111111",
      description: `${input.title}: details`,
      organization_id: input.organizationId ?? null,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The outbox's mails to one address, as {subject, text}. */
function mailsTo(email: string): Array<{ subject: string; text: string }> {
  return outbox()
    .filter((m) => m.includes(`\r\nTo: ${email}\r\n`))
    .map((m) => {
      const [head, ...body] = m.split("\r\n\r\n");
      return { subject: /\r\nSubject: (.*)\r\n/.exec(`\r\n${head}\r\n`)![1], text: body.join("\r\n\r\n") };
    });
}

async function mailRows(userId: number) {
  return db().selectFrom("notification_mails").select(["kind", "period_key", "notification_count"]).where("user_id", "=", userId).orderBy("id").execute();
}

beforeAll(async () => {
  w.orgA = await makeOrg("Mail Customer A", "customer");
  w.orgB = await makeOrg("Mail Customer B", "customer");
  w.orgQuiet = await makeOrg("Quiet Customer", "customer");
  w.orgMany = await makeOrg("Busy Customer", "customer");
  const s1 = await makeOrg("Nordic Steel AS", "supplier", "911111111");
  const s2 = await makeOrg("Fjord Freight AS", "supplier", "922222222");
  const s3 = await makeOrg("Many Events AS", "supplier", "933333333");
  w.c1 = await company("911111111", "Nordic Steel AS");
  w.c2 = await company("922222222", "Fjord Freight AS");
  w.c3 = await company("933333333", "Many Events AS");
  await follow(w.orgA, s1);
  await follow(w.orgA, s2);
  await follow(w.orgB, s1);
  await follow(w.orgMany, s3);

  w.users = {
    daily: await user("daily@a.test", w.orgA, 2),
    weeklyNo: await user("ukentlig@a.test", w.orgA, 2, "no"),
    off: await user("off@a.test", w.orgA, 3),
    viewer: await user("viewer@a.test", w.orgA, 1),
    b: await user("daily@b.test", w.orgB, 2),
    quiet: await user("quiet@q.test", w.orgQuiet, 2),
    many: await user("many@m.test", w.orgMany, 2),
    // English pages, Norwegian mails (decision 040).
    mailNo: await user("mail-no@a.test", w.orgA, 2),
  };
  await saveNotificationMailSettings(w.users.mailNo, { digest: "daily", immediate: true, mailLanguage: "no" });
  await saveNotificationMailSettings(w.users.daily, { digest: "daily", immediate: true });
  // weeklyNo keeps the defaults (weekly, immediate on) by having no row at all.
  await saveNotificationMailSettings(w.users.off, { digest: "off", immediate: false });
  await saveNotificationMailSettings(w.users.viewer, { digest: "daily", immediate: true });
  await saveNotificationMailSettings(w.users.b, { digest: "daily", immediate: true });
  await saveNotificationMailSettings(w.users.quiet, { digest: "daily", immediate: true });
  await saveNotificationMailSettings(w.users.many, { digest: "daily", immediate: false });

  // Created in the day before Monday's run (and so in the week before it too), unless said otherwise.
  const recent = "2026-11-22T12:00:00.000Z";
  w.n = {
    bankrupt: await notification({ companyId: w.c1, title: "Bankruptcy opened", titleNo: "Konkurs åpnet", risk: 95, createdAt: recent }),
    address: await notification({
      companyId: w.c2,
      title: "New business address",
      titleNo: "Ny forretningsadresse",
      risk: 55,
      createdAt: "2026-11-22T15:00:00.000Z",
    }),
    low: await notification({ companyId: w.c1, title: "Low risk change", risk: 30, createdAt: recent }),
    // Three days old: in the weekly digest, not in the daily one.
    older: await notification({ companyId: w.c2, title: "New CEO", titleNo: "Ny daglig leder", risk: 65, createdAt: "2026-11-20T09:00:00.000Z" }),
    newsOfB: await notification({ companyId: w.c1, title: "B's feed: fraud probe", risk: 90, createdAt: recent, organizationId: w.orgB, type: "search" }),
    newsOfA: await notification({ companyId: w.c1, title: "A's feed: sanctions listing", risk: 75, createdAt: recent, organizationId: w.orgA, type: "search" }),
    dismissed: await notification({ companyId: w.c2, title: "Dismissed board change", risk: 70, createdAt: recent }),
    readByDaily: await notification({ companyId: w.c2, title: "Already read chair change", risk: 60, createdAt: recent }),
  };
  for (let i = 0; i < 23; i++)
    await notification({ companyId: w.c3, title: `Event ${i + 1}`, risk: 50 + i, createdAt: `2026-11-22T10:${String(i).padStart(2, "0")}:00.000Z` });
  await db()
    .insertInto("notification_dismissals")
    .values({ organization_id: w.orgA, notification_id: w.n.dismissed, dismissed_by: w.users.daily, reason: "Known", dismissed_at: recent })
    .execute();
  await db().insertInto("notification_reads").values({ user_id: w.users.daily, notification_id: w.n.readByDaily, read_at: recent }).execute();
});

describe("the digest's calendar", () => {
  it("schedules the digest daily at 07:00 (Oslo) and the immediate mail every five minutes", () => {
    notificationMailSchedules.forEach(validateSchedule);
    expect(notificationMailSchedules.map((s) => [s.type, s.dailyAt ?? null, s.every ?? null])).toEqual([
      ["notifications.digest", "07:00", null],
      ["notifications.immediate", null, 5],
    ]);
  });

  it("keys a daily digest by Oslo's date and a weekly one by ISO week, on Mondays only", () => {
    expect(osloDay(new Date("2026-11-22T23:30:00Z"))).toEqual({ date: "2026-11-23", weekday: 1 });
    expect(digestPeriod("daily", MONDAY)).toBe("2026-11-23");
    expect(digestPeriod("weekly", MONDAY)).toBe("2026-W48");
    expect(digestPeriod("weekly", TUESDAY)).toBeNull();
    expect(digestPeriod("off", MONDAY)).toBeNull();
    expect([isoWeek("2026-01-01"), isoWeek("2027-01-01"), isoWeek("2026-12-28")]).toEqual(["2026-W01", "2026-W53", "2026-W53"]);
  });

  it("starts at the previous digest, at most two periods back, else one period back", () => {
    expect(digestSince("daily", MONDAY, null)).toBe("2026-11-22T06:00:00.000Z");
    expect(digestSince("daily", MONDAY, "2026-11-22T06:00:05.000Z")).toBe("2026-11-22T06:00:05.000Z");
    expect(digestSince("weekly", MONDAY, "2026-08-01T06:00:00.000Z")).toBe("2026-11-09T06:00:00.000Z");
  });
});

describe("the digest", () => {
  beforeAll(async () => {
    await sendDigests({ at: MONDAY });
  });

  it("sends a daily user what their organisation sees and is new: grouped by supplier, newest first, with links back", async () => {
    const mails = mailsTo("daily@a.test");
    expect(mails).toHaveLength(1);
    const { subject, text } = mails[0];
    expect(subject).toBe("3 new risk notifications about your suppliers");
    expect(text).toContain("Nordic Steel AS");
    expect(text).toContain("Bankruptcy opened");
    expect(text).toContain("A's feed: sanctions listing");
    expect(text).toContain("New business address");
    // One heading per supplier, its notifications under it, in the list's order (date, then the order they were written).
    const headings = text.split("\n").filter((line) => line === "Nordic Steel AS" || line === "Fjord Freight AS");
    expect(headings).toEqual(["Nordic Steel AS", "Fjord Freight AS"]);
    const nordic = text.slice(text.indexOf("Nordic Steel AS\n"), text.indexOf("Fjord Freight AS\n"));
    expect(nordic.indexOf("A's feed: sanctions listing")).toBeLessThan(nordic.indexOf("Bankruptcy opened"));
    expect(nordic).toContain("22 Nov 2026 · risk score 95 · Bankruptcy opened");
    expect(text).toContain(`${APP}/supplier?externalId=911111111&localId=`);
    expect(text).toContain(`${APP}/notifications`);
    expect(text).toContain(`${APP}/account/email-settings`);
    expect(text).toContain("You get this digest every morning");
    // The one-click unsubscribe of exactly the digest (decision 040): in the text and as List-Unsubscribe.
    const link = /Stop this digest with one click: (https:\/\/risk\.example\.test\/account\/unsubscribe\?token=\S+)/.exec(text)?.[1];
    expect(link).toBeDefined();
    expect(readUnsubscribeToken(decodeURIComponent(new URL(link!).searchParams.get("token")!))).toEqual({ ok: true, userId: w.users.daily, setting: "digest" });
    const raw = outbox().find((m) => m.includes("\r\nTo: daily@a.test\r\n"))!;
    expect(raw).toContain(`\r\nList-Unsubscribe: <${link}>\r\n`);
  });

  it("leaves out low scores, older ones, dismissed ones, ones the user has read and another organisation's news hits", () => {
    const { text } = mailsTo("daily@a.test")[0];
    for (const title of ["Low risk change", "New CEO", "Dismissed board change", "Already read chair change", "B's feed: fraud probe"]) {
      expect(text).not.toContain(title);
    }
  });

  it("writes the digest in the language chosen for mails, not the account's", () => {
    const mails = mailsTo("mail-no@a.test");
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toMatch(/^\d+ nye risikovarsler om leverandørene dine$/);
    expect(mails[0].text).toContain("Stopp dette sammendraget med ett klikk: https://risk.example.test/account/unsubscribe?token=");
  });

  it("writes a weekly user's digest on Monday in their language, covering the week", () => {
    const mails = mailsTo("ukentlig@a.test");
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toBe("5 nye risikovarsler om leverandørene dine");
    expect(mails[0].text).toContain("Konkurs åpnet");
    expect(mails[0].text).toContain("Ny daglig leder");
    // Read by a colleague is not read by this user.
    expect(mails[0].text).toContain("Already read chair change");
    expect(mails[0].text).toContain("hver mandag morgen");
  });

  it("gives another organisation only its own view: the shared supplier and its own news, never A's", () => {
    const mails = mailsTo("daily@b.test");
    expect(mails).toHaveLength(1);
    expect(mails[0].text).toContain("Bankruptcy opened");
    expect(mails[0].text).toContain("B's feed: fraud probe");
    expect(mails[0].text).not.toContain("A's feed");
    expect(mails[0].text).not.toContain("Fjord Freight");
  });

  it("sends nothing with the digest off, to a viewer without notification access, or with nothing new", async () => {
    expect(mailsTo("off@a.test")).toEqual([]);
    expect(mailsTo("viewer@a.test")).toEqual([]);
    expect(mailsTo("quiet@q.test")).toEqual([]);
    expect(await mailRows(w.users.quiet)).toEqual([]);
  });

  it("caps the list and says how many more there are", () => {
    const { subject, text } = mailsTo("many@m.test")[0];
    expect(subject).toBe("23 new risk notifications about your suppliers");
    expect(text).toContain("Event 23");
    expect(text).not.toContain("Event 3\n");
    expect(text).toContain("…and 3 more notifications.");
  });

  it("sends one digest per period however often the job runs", async () => {
    const again = await sendDigests({ at: new Date(MONDAY.getTime() + 60_000) });
    expect(again.sent).toBe(0);
    expect(again.already).toBe(5); // daily@a, ukentlig@a, mail-no@a, daily@b, many@m
    expect(mailsTo("daily@a.test")).toHaveLength(1);
    expect(await mailRows(w.users.daily)).toEqual([{ kind: "digest", period_key: "2026-11-23", notification_count: 3 }]);
    expect(await mailRows(w.users.weeklyNo)).toEqual([{ kind: "digest", period_key: "2026-W48", notification_count: 5 }]);
  });

  it("next day: only what is new since the previous digest, and no weekly digest on a Tuesday", async () => {
    await notification({ companyId: w.c1, title: "Compulsory dissolution", risk: 85, createdAt: "2026-11-23T20:00:00.000Z" });
    const result = await sendDigests({ at: TUESDAY });
    const mails = mailsTo("daily@a.test");
    expect(mails).toHaveLength(2);
    expect(mails[1].subject).toBe("1 new risk notification about your suppliers");
    expect(mails[1].text).toContain("Compulsory dissolution");
    expect(mails[1].text).not.toContain("Bankruptcy opened");
    expect(mailsTo("ukentlig@a.test")).toHaveLength(1);
    expect(result.sent).toBe(3); // daily@a, mail-no@a and daily@b
  });

  it("without APP_URL sends the mail without links and warns once", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const orgX = await makeOrg("No Link Customer", "customer");
    const sx = await makeOrg("Linkless AS", "supplier", "944444444");
    const cx = await company("944444444", "Linkless AS");
    await follow(orgX, sx);
    await user("nolink@x.test", orgX, 2, "en").then((id) => saveNotificationMailSettings(id, { digest: "daily", immediate: false }));
    await notification({ companyId: cx, title: "Deleted from the register", risk: 80, createdAt: "2026-11-25T01:00:00.000Z" });
    await sendDigests({ at: new Date("2026-11-25T06:00:00.000Z"), appUrl: null });
    const { text } = mailsTo("nolink@x.test")[0];
    expect(text).toContain("Deleted from the register");
    expect(text).not.toMatch(/https?:\/\//);
    expect(text).toContain("Email settings in the user menu");
    expect(warn.mock.calls.filter((c) => String(c[0]).includes("APP_URL"))).toHaveLength(1);
    warn.mockRestore();
  });
});

describe("the immediate mail", () => {
  const finished: unknown[] = [];
  const ctx = (attempt = 1): JobContext =>
    ({
      job: { id: 1, type: "notifications.immediate", organizationId: null, userId: null, payload: null, attempt },
      progress: async () => {},
      signal: new AbortController().signal,
      finish: async (write) => {
        const result = await db().transaction().execute(write);
        finished.push(result);
        return result;
      },
    }) as JobContext;
  const immediateTo = (email: string) => mailsTo(email).filter((m) => m.subject.startsWith("High risk") || m.subject.startsWith("Høy risiko"));

  beforeEach(() => {
    finished.length = 0;
  });

  it("places the cursor at the newest notification on its first run and mails none of the history", async () => {
    const before = outbox().length;
    await notificationImmediate(ctx());
    const newest = await db()
      .selectFrom("risk_notifications")
      .select((eb) => eb.fn.max("id").as("id"))
      .executeTakeFirstOrThrow();
    expect(await readImmediateCursor()).toBe(newest.id);
    expect(outbox().length).toBe(before);
  });

  it("mails each new notification of risk 80 or more to every user with it on who can see it, once", async () => {
    const at = "2026-11-25T09:00:00.000Z";
    const high = await notification({
      companyId: w.c1,
      title: "Chair replaced after fraud charge",
      titleNo: "Styreleder byttet etter bedrageritiltale",
      risk: 88,
      createdAt: at,
    });
    const medium = await notification({ companyId: w.c2, title: "Medium risk change", risk: 79, createdAt: at });
    const newsB = await notification({ companyId: w.c1, title: "B only: bribery case", risk: 92, createdAt: at, organizationId: w.orgB, type: "search" });
    const dismissedByA = await notification({ companyId: w.c2, title: "Dismissed at once", risk: 99, createdAt: at });
    await db()
      .insertInto("notification_dismissals")
      .values({ organization_id: w.orgA, notification_id: dismissedByA, dismissed_by: w.users.daily, reason: "Known", dismissed_at: at })
      .execute();

    await notificationImmediate(ctx());
    expect(await readImmediateCursor()).toBe(dismissedByA);
    expect(finished).toHaveLength(1);

    const daily = immediateTo("daily@a.test");
    expect(daily.map((m) => m.subject)).toEqual(["High risk: Nordic Steel AS – Chair replaced after fraud charge"]);
    expect(daily[0].text).toContain("risk score 88");
    expect(daily[0].text).toContain(`${APP}/supplier?externalId=911111111&localId=`);
    expect(daily[0].text).toContain(`${APP}/account/email-settings`);
    const link = /Stop these immediate mails with one click: (\S+)/.exec(daily[0].text)?.[1];
    expect(readUnsubscribeToken(new URL(link!).searchParams.get("token"))).toEqual({ ok: true, userId: w.users.daily, setting: "immediate" });
    expect(immediateTo("mail-no@a.test").map((m) => m.subject)).toEqual(["Høy risiko: Nordic Steel AS – Styreleder byttet etter bedrageritiltale"]);
    // Immediate on by default, in the user's language.
    expect(immediateTo("ukentlig@a.test").map((m) => m.subject)).toEqual(["Høy risiko: Nordic Steel AS – Styreleder byttet etter bedrageritiltale"]);
    expect(immediateTo("daily@b.test").map((m) => m.subject)).toEqual([
      "High risk: Nordic Steel AS – Chair replaced after fraud charge",
      "High risk: Nordic Steel AS – B only: bribery case",
    ]);
    // Off, a viewer, and a user who follows none of them: nothing.
    expect(immediateTo("off@a.test")).toEqual([]);
    expect(immediateTo("viewer@a.test")).toEqual([]);
    expect(immediateTo("many@m.test")).toEqual([]);
    for (const m of outbox()) expect(m).not.toContain("Medium risk change");
    expect(await mailRows(w.users.daily)).toContainEqual({ kind: "immediate", period_key: `n${high}`, notification_count: 1 });
    expect(medium).toBeLessThan(newsB);
  });

  it("sends nothing again: the cursor has moved, and a re-run from an old cursor finds the mails claimed", async () => {
    const count = outbox().length;
    await notificationImmediate(ctx());
    expect(outbox().length).toBe(count);
    // A run that died before its "done" (the cursor not written) is redone: its claims keep each mail single.
    const cursor = (await readImmediateCursor())!;
    await db()
      .updateTable("monitor_state")
      .set({ value: String(cursor - 4) })
      .where("key", "=", IMMEDIATE_CURSOR_KEY)
      .execute();
    const rerun = await sendImmediateMails({ at: new Date("2026-11-25T09:05:00.000Z") });
    expect(rerun.sent).toBe(0);
    expect(rerun.already).toBe(5); // daily@a, ukentlig@a, mail-no@a one each, daily@b two
    expect(outbox().length).toBe(count);
  });
});
