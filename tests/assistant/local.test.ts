import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@server/db";
import { createLocalAssistant } from "@server/providers/llm/local";
import type { AssistantViewer } from "@server/providers/llm/types";
import { assistantData } from "~/models/assistant/assistant-data.server";
import { formatThousands } from "~/models/shared/format";
import { listNotifications } from "~/models/notifications/notification-list.server";
import en from "../../locales/en/assistant.json";
import no from "../../locales/no/assistant.json";
import { connectionsOf, DEMO_CUSTOMERS, linkedLocalIds, seedWorld, TODAY, viewerOf } from "./world";

/**
 * The local assistant against the demo world: questions in English and Norwegian and the facts each answer
 * must contain, read from the database here; questions it declines; another organisation's suppliers never appear.
 */

const assistant = createLocalAssistant(assistantData, { now: () => TODAY });
const VINMONOPOLET = "817209882";

async function ask(viewer: AssistantViewer, question: string, signal = new AbortController().signal) {
  const chunks: string[] = [];
  const started = performance.now();
  let first = 0;
  for await (const chunk of assistant.stream({ messages: [{ role: "user", content: question }], viewer, signal })) {
    if (!chunks.length) first = performance.now() - started;
    chunks.push(chunk);
  }
  return { text: chunks.join(""), chunks, first, total: performance.now() - started };
}

let nordvik: AssistantViewer;
let kystlys: AssistantViewer;
const text = { en, no };

beforeAll(async () => {
  await seedWorld();
  nordvik = await viewerOf(DEMO_CUSTOMERS[0]);
  kystlys = await viewerOf(DEMO_CUSTOMERS[2]);
}, 120_000);

const inLanguage = (viewer: AssistantViewer, language: "en" | "no"): AssistantViewer => ({ ...viewer, language });

/** What the organisation writes and reads about Vinmonopolet, straight from the tables. */
async function vinmonopoletFacts(organizationId: number) {
  const company = await db().selectFrom("companies").selectAll().where("org_number", "=", VINMONOPOLET).executeTakeFirstOrThrow();
  const supplier = await db()
    .selectFrom("organizations")
    .select("id")
    .where("org_number", "=", VINMONOPOLET)
    .where("kind", "=", "supplier")
    .executeTakeFirstOrThrow();
  const connection = await db()
    .selectFrom("organization_connections")
    .select("id")
    .where("parent_organization_id", "=", organizationId)
    .where("child_organization_id", "=", supplier.id)
    .where("is_deleted", "=", 0)
    .executeTakeFirstOrThrow();
  const ceo = await db()
    .selectFrom("roles")
    .innerJoin("persons", "persons.id", "roles.person_id")
    .select("persons.name")
    .where("roles.company_id", "=", company.id)
    .where("roles.active_to", "is", null)
    .where((eb) => eb.or([eb("roles.position", "like", "%CEO%"), eb("roles.position", "like", "%daglig leder%")]))
    .executeTakeFirst();
  const newest = await db()
    .selectFrom("financial_statements")
    .select(["financial_year", "operating_income"])
    .where("company_id", "=", company.id)
    .orderBy("financial_year", "desc")
    .executeTakeFirstOrThrow();
  const tags = await db()
    .selectFrom("organization_connection_tags as ct")
    .innerJoin("organization_tags as t", "t.id", "ct.tag_id")
    .select("t.title")
    .where("ct.connection_id", "=", connection.id)
    .execute();
  const comments = await db().selectFrom("organization_connection_comments").select("text").where("connection_id", "=", connection.id).execute();
  const announcement = await db().selectFrom("announcements").select(["type"]).where("company_id", "=", company.id).orderBy("date", "desc").executeTakeFirst();
  const announcementCount = await db()
    .selectFrom("announcements")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("company_id", "=", company.id)
    .executeTakeFirstOrThrow();
  return { company, supplierId: supplier.id, ceo: ceo?.name ?? null, newest, tags, comments, announcement, announcementCount: Number(announcementCount.n) };
}

describe("questions it answers, in English and Norwegian", () => {
  describe.each(["en", "no"] as const)("%s", (language) => {
    const t = text[language];

    it("highest risk: the organisation's own suppliers, highest score first, with links", async () => {
      const q = language === "en" ? "Which of my suppliers have the highest risk?" : "Hvilke av leverandørene mine har høyest risiko?";
      const viewer = inLanguage(nordvik, language);
      const { text: answer } = await ask(viewer, q);
      expect(answer).toContain(t.risk.title);
      const own = new Map((await connectionsOf(nordvik.organizationId)).map((c) => [c.id, c]));
      const linked = linkedLocalIds(answer);
      expect(linked).toHaveLength(5);
      for (const id of linked) expect(own.has(id)).toBe(true);
      for (const id of linked) expect(answer).toContain(own.get(id)!.name);
      // Ranked by the stored overall risk: the bold scores at the start of the rows are the organisation's five highest
      // stored values, in that order, each row with the supplier it belongs to and its level.
      const scores = [...answer.matchAll(/^\d+\. \*\*(\d+)\*\*/gm)].map((m) => Number(m[1]));
      const stored = await db()
        .selectFrom("organization_connections")
        .select(["child_organization_id", "overall_risk", "overall_risk_band"])
        .where("parent_organization_id", "=", nordvik.organizationId)
        .where("is_deleted", "=", 0)
        .where("overall_risk", "is not", null)
        .orderBy("overall_risk", "desc")
        .execute();
      expect(stored.length).toBeGreaterThan(5);
      expect(scores).toEqual(stored.slice(0, 5).map((r) => r.overall_risk));
      const byId = new Map(stored.map((r) => [r.child_organization_id, r]));
      const rows = answer.split("\n").filter((l) => /^\d+\. \*\*/.test(l));
      linked.forEach((id, i) => {
        const row = byId.get(id)!;
        expect(rows[i]).toContain(`**${row.overall_risk}**`);
        expect(rows[i]).toContain(`— ${t.risk.levels[row.overall_risk_band!]}`);
      });
      expect(answer).toContain(language === "en" ? `of ${own.size} suppliers` : `av ${own.size} leverandører`);
    });

    it("one supplier: registry facts, flags, risk, figures with change, board and CEO, announcements, tasks, tags and comments", async () => {
      const q = language === "en" ? "Tell me about vinmonopolet" : "Fortell om vinmonopolet";
      const facts = await vinmonopoletFacts(nordvik.organizationId);
      const { text: answer } = await ask(inLanguage(nordvik, language), q);
      expect(answer).toContain(facts.company.legal_name);
      expect(answer).toContain(`/supplier?externalId=${VINMONOPOLET}&localId=${facts.supplierId}`);
      expect(answer).toContain(VINMONOPOLET);
      expect(answer).toContain(formatThousands(facts.company.number_of_employees, language));
      expect(answer).toContain(t.supplier.compliance);
      expect(answer).toContain(t.supplier.transparencyAct);
      expect(answer).toContain(t.supplier.riskOverview);
      expect(answer).toContain(t.supplier.financials.replace("{{year}}", String(facts.newest.financial_year)));
      expect(answer).toContain(formatThousands(facts.newest.operating_income, language));
      expect(answer).toContain(
        t.supplier.change
          .replace("{{change}}", "")
          .replace("{{previousYear}}", String(facts.newest.financial_year - 1))
          .trim(),
      );
      expect(facts.ceo).not.toBeNull();
      expect(answer).toContain(`${t.supplier.ceo}: ${facts.ceo}`);
      expect(answer).toContain(facts.announcement!.type);
      expect(answer).toContain(t.supplier.openTasks);
      expect(facts.tags.length).toBeGreaterThan(0);
      for (const tag of facts.tags) expect(answer).toContain(tag.title);
      expect(facts.comments.length).toBeGreaterThan(0);
      for (const comment of facts.comments) expect(answer).toContain(comment.text.replace(/[*_[\]<>|~`\\]/g, (c) => `\\${c}`));
    });

    it("suppliers under due diligence", async () => {
      const q = language === "en" ? "Which suppliers are under due diligence?" : "Hvilke leverandører er under aktsomhetsvurdering?";
      const expected = (await connectionsOf(nordvik.organizationId)).filter((c) => c.is_due_diligence === 1);
      const { text: answer } = await ask(inLanguage(nordvik, language), q);
      expect(answer).toContain(t.list.dueDiligence);
      expect(expected.length).toBeGreaterThan(0);
      expect(expected.length).toBeLessThanOrEqual(20);
      expect(linkedLocalIds(answer).sort()).toEqual(expected.map((c) => c.id).sort());
    });

    it("priority suppliers", async () => {
      const q = language === "en" ? "Which suppliers are priority suppliers?" : "Hvilke leverandører er prioriterte?";
      const expected = (await connectionsOf(kystlys.organizationId)).filter((c) => c.is_priority === 1);
      const { text: answer } = await ask(inLanguage(kystlys, language), q);
      expect(answer).toContain(t.list.priority);
      expect(expected.length).toBeGreaterThan(0);
      expect(linkedLocalIds(answer).sort()).toEqual(expected.map((c) => c.id).sort());
    });

    it("suppliers with a tag", async () => {
      const tag = await db()
        .selectFrom("organization_tags")
        .select(["id", "title"])
        .where("organization_id", "=", nordvik.organizationId)
        .where("title", "=", "Tier 1")
        .executeTakeFirstOrThrow();
      const tagged = await db()
        .selectFrom("organization_connection_tags as ct")
        .innerJoin("organization_connections as c", "c.id", "ct.connection_id")
        .select("c.child_organization_id as id")
        .where("ct.tag_id", "=", tag.id)
        .where("c.is_deleted", "=", 0)
        .execute();
      const q = language === "en" ? `Which suppliers are tagged ${tag.title}?` : `Hvilke leverandører har etiketten ${tag.title}?`;
      const { text: answer } = await ask(inLanguage(nordvik, language), q);
      expect(answer).toContain(t.list.tag.replace("{{tag}}", tag.title));
      expect(tagged.length).toBeGreaterThan(0);
      expect(linkedLocalIds(answer).sort()).toEqual(tagged.map((c) => c.id).sort());
    });

    it("suppliers in a country", async () => {
      const country = await db().selectFrom("countries").select(["name_en", "name_no"]).where("iso2", "=", "NO").executeTakeFirstOrThrow();
      const q = language === "en" ? `Which suppliers are in ${country.name_en}?` : `Hvilke leverandører er i ${country.name_no}?`;
      const expected = (await connectionsOf(kystlys.organizationId)).filter((c) => c.country_code.toUpperCase() === "NO");
      const { text: answer } = await ask(inLanguage(kystlys, language), q);
      expect(answer).toContain(t.list.country.replace("{{country}}", language === "en" ? country.name_en : country.name_no));
      expect(answer).toContain(t.list.count_other.replace("{{count}}", String(expected.length)));
      // At most 20 listed, then a link to the whole list.
      const ids = new Set(expected.map((c) => c.id));
      const linked = linkedLocalIds(answer);
      expect(linked).toHaveLength(Math.min(20, expected.length));
      for (const id of linked) expect(ids.has(id)).toBe(true);
      if (expected.length > 20) expect(answer).toContain(t.list.more.replace("{{count}}", String(expected.length - 20)));
    });

    it("what changed this week: the organisation's notifications of the last 7 days (or, when none, of the last 30)", async () => {
      const q = language === "en" ? "What changed this week?" : "Hva er endret denne uken?";
      const viewer = inLanguage(nordvik, language);
      const week = await listNotifications(viewer, { lookbackDays: 7, minRiskScore: 20, type: "all" }, { limit: 10 }, TODAY);
      const month = await listNotifications(viewer, { lookbackDays: 30, minRiskScore: 20, type: "all" }, { limit: 10 }, TODAY);
      const { text: answer } = await ask(viewer, q);
      expect(answer).toContain(t.changes.title.replace("{{days}}", "7"));
      const shown = week.length ? week : month;
      expect(shown.length).toBeGreaterThan(0);
      for (const n of shown) expect(answer).toContain(n.organization.organization_name);
      if (!week.length) expect(answer).toContain(t.changes.none.replace("{{days}}", "7"));
    });
  });
});

describe("other wordings", () => {
  it.each([
    ["en", "Which suppliers are risky?"],
    ["en", "Show my high-risk suppliers"],
    ["no", "Hvilke leverandører er høyrisiko?"],
    ["no", "Hvilke leverandører er mest risikable?"],
  ] as const)("%s: %s ranks by risk", async (language, question) => {
    const { text: answer } = await ask(inLanguage(nordvik, language), question);
    expect(answer).toContain(text[language].risk.title);
    expect(linkedLocalIds(answer)).toHaveLength(5);
  });

  it("the highest risk among priority suppliers ranks priority suppliers only", async () => {
    const priority = new Set((await connectionsOf(nordvik.organizationId)).filter((c) => c.is_priority === 1).map((c) => c.id));
    const { text: answer } = await ask(nordvik, "Which of my priority suppliers have the highest risk?");
    const linked = linkedLocalIds(answer);
    expect(linked.length).toBeGreaterThan(0);
    for (const id of linked) expect(priority.has(id)).toBe(true);
  });

  it("a supplier named by its organization number, and a question naming a followed supplier", async () => {
    const { text: byNumber } = await ask(nordvik, `Tell me about ${VINMONOPOLET}`);
    expect(byNumber).toContain("Aktieselskapet Vinmonopolet");
    const { text: ceo } = await ask(inLanguage(nordvik, "no"), "Hvem er daglig leder i Vinmonopolet?");
    const facts = await vinmonopoletFacts(nordvik.organizationId);
    expect(ceo).toContain(`${no.supplier.ceo}: ${facts.ceo}`);
  });
});

describe("questions it declines", () => {
  it.each([
    ["en", "Write me a poem about spring"],
    ["en", "What is the weather in Oslo tomorrow?"],
    ["en", "Should I invest in bitcoin?"],
    ["en", "What is the capital of France?"],
    ["no", "Skriv et dikt om våren"],
    ["no", "Hva er hovedstaden i Frankrike?"],
    ["no", "Hvordan blir været i Bergen i morgen?"],
  ] as const)("%s: %s", async (language, question) => {
    const { text: answer } = await ask(inLanguage(nordvik, language), question);
    const t = text[language];
    expect(answer).toContain(t.decline);
    // Honest about what it is, and says what it can do instead.
    expect(answer).toContain(t.about);
    expect(answer).toContain(t.capabilities.highestRisk);
    expect(answer).toContain(t.capabilities.changes);
    expect(linkedLocalIds(answer)).toEqual([]);
  });

  it("a company the registry does not know is named as not found, in the user's language", async () => {
    const { text: answer } = await ask(inLanguage(nordvik, "no"), "Fortell om Zyxwvut Qqq");
    expect(answer).toContain(no.supplier.notFound.replace("{{term}}", "zyxwvut qqq"));
  });
});

describe("another organisation's suppliers never appear", () => {
  it("lists and rankings link only the viewer organisation's suppliers", async () => {
    const own = new Set((await connectionsOf(kystlys.organizationId)).map((c) => c.id));
    for (const q of [
      "Which of my suppliers have the highest risk?",
      "Which suppliers are under due diligence?",
      "Which suppliers are priority suppliers?",
      "Which suppliers are in Norway?",
      "What changed this week?",
    ]) {
      const { text: answer } = await ask(kystlys, q);
      for (const id of linkedLocalIds(answer)) expect(own.has(id), `${q}: localId ${id}`).toBe(true);
    }
  });

  it("a supplier another organisation follows: registry facts only, none of that organisation's tags or comments", async () => {
    const kystlysIds = new Set((await connectionsOf(kystlys.organizationId)).map((c) => c.id));
    const target = (await connectionsOf(nordvik.organizationId)).find((c) => c.name === "SECURITAS AS")!;
    expect(target).toBeDefined();
    expect(kystlysIds.has(target.id)).toBe(false);
    const comments = await db().selectFrom("organization_connection_comments").select("text").where("connection_id", "=", target.connectionId).execute();
    const { text: answer } = await ask(kystlys, "Tell me about Securitas");
    expect(answer).toContain(target.name);
    expect(answer).toContain(en.supplier.notFollowed);
    expect(answer).not.toContain("localId=");
    expect(answer).not.toContain(en.supplier.compliance);
    expect(answer).not.toContain(en.supplier.comments);
    for (const c of comments) expect(answer).not.toContain(c.text);
  });

  it("a tag of another organisation is not recognised as the viewer's", async () => {
    const { text: answer } = await ask(kystlys, "Which suppliers are tagged Tier 1?");
    const kystlysTier1 = await db()
      .selectFrom("organization_tags")
      .select("id")
      .where("organization_id", "=", kystlys.organizationId)
      .where("title", "=", "Tier 1")
      .executeTakeFirstOrThrow();
    const tagged = await db()
      .selectFrom("organization_connection_tags as ct")
      .innerJoin("organization_connections as c", "c.id", "ct.connection_id")
      .select("c.child_organization_id as id")
      .where("ct.tag_id", "=", kystlysTier1.id)
      .where("c.is_deleted", "=", 0)
      .execute();
    expect(linkedLocalIds(answer).sort()).toEqual(tagged.map((r) => r.id).sort());
  });
});

describe("streaming and the level of detail of a large supplier", () => {
  it("Vinmonopolet: every section, bounded lists, streamed word by word, measured", async () => {
    const facts = await vinmonopoletFacts(nordvik.organizationId);
    await ask(nordvik, "Tell me about Vinmonopolet"); // warm the statement cache
    const { text: answer, chunks, first, total } = await ask(nordvik, "Tell me about Vinmonopolet");
    for (const heading of [
      en.supplier.registry,
      en.supplier.compliance,
      en.supplier.riskOverview,
      en.supplier.board,
      en.supplier.announcements,
      en.supplier.openTasks,
      en.supplier.tags,
      en.supplier.comments,
    ])
      expect(answer).toContain(`#### ${heading}`);
    // The newest five announcements, and how many there are in all.
    expect(facts.announcementCount).toBeGreaterThan(5);
    expect(answer).toContain(en.supplier.announcementsMore.replace("{{shown}}", "5").replace("{{total}}", String(facts.announcementCount)));
    expect(answer.length).toBeLessThan(6000);
    expect(chunks.length).toBeGreaterThan(100);
    for (const chunk of chunks) expect(chunk.trim()).not.toMatch(/\s/);
    console.log(
      `local assistant, Vinmonopolet: first chunk ${first.toFixed(1)} ms, full answer ${total.toFixed(1)} ms, ${chunks.length} chunks, ${answer.length} characters`,
    );
    expect(first).toBeLessThan(150);
  });

  it("highest risk over the whole list: first chunk measured", async () => {
    const { first, total, chunks } = await ask(nordvik, "Which of my suppliers have the highest risk?");
    console.log(
      `local assistant, highest risk of ${(await connectionsOf(nordvik.organizationId)).length} suppliers: first chunk ${first.toFixed(1)} ms, full answer ${total.toFixed(1)} ms, ${chunks.length} chunks`,
    );
    expect(first).toBeLessThan(150);
  });

  it("stops when the request is aborted", async () => {
    const controller = new AbortController();
    const chunks: string[] = [];
    for await (const chunk of assistant.stream({
      messages: [{ role: "user", content: "Tell me about Vinmonopolet" }],
      viewer: nordvik,
      signal: controller.signal,
    })) {
      chunks.push(chunk);
      if (chunks.length === 3) controller.abort();
    }
    expect(chunks).toHaveLength(3);
  });

  it("answers the newest user message of the conversation", async () => {
    const { text: answer } = await (async () => {
      const out: string[] = [];
      for await (const c of assistant.stream({
        messages: [
          { role: "user", content: "Write me a poem" },
          { role: "assistant", content: "I cannot answer that question." },
          { role: "user", content: "Which suppliers are under due diligence?" },
        ],
        viewer: nordvik,
        signal: new AbortController().signal,
      }))
        out.push(c);
      return { text: out.join("") };
    })();
    expect(answer).toContain(en.list.dueDiligence);
  });
});

describe("data text cannot inject markup", () => {
  it("a comment with a script, an image handler and a javascript: link comes out as escaped text", async () => {
    const facts = await vinmonopoletFacts(nordvik.organizationId);
    const connection = await db()
      .selectFrom("organization_connections")
      .select("id")
      .where("parent_organization_id", "=", nordvik.organizationId)
      .where("child_organization_id", "=", facts.supplierId)
      .executeTakeFirstOrThrow();
    await db()
      .insertInto("organization_connection_comments")
      .values({
        connection_id: connection.id,
        user_id: nordvik.userId,
        text: `<script>alert(1)</script> <img src=x onerror=alert(2)> [click](javascript:alert(3))\n# heading`,
        created_at: new Date(TODAY.getTime() + 1000).toISOString(),
      })
      .execute();
    const { text: answer } = await ask(nordvik, "Tell me about Vinmonopolet");
    expect(answer).toContain("\\<script\\>alert(1)\\</script\\>");
    expect(answer).not.toMatch(/(?<!\\)<script/);
    expect(answer).not.toMatch(/(?<!\\)<img/);
    // The brackets are escaped, so the javascript: "link" is plain text.
    expect(answer).toContain("\\[click\\](javascript:");
    expect(answer).not.toMatch(/(?<!\\)\]\(javascript:/);
    expect(answer).not.toMatch(/^# heading/m);
  });
});
