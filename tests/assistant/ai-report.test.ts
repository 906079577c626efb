import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@server/db";
import { composeReport, writeLocalReport } from "@server/providers/llm/local-report";
import type { AssistantViewer } from "@server/providers/llm/types";
import { gatherReportData } from "~/models/assistant/ai-reports.server";
import { formatThousands } from "~/models/shared/format";
import { renderMarkdown } from "~/models/shared/markdown";
import en from "../../locales/en/aiReports.json";
import no from "../../locales/no/aiReports.json";
import enAssistant from "../../locales/en/assistant.json";
import noAssistant from "../../locales/no/assistant.json";
import { connectionsOf, DEMO_CUSTOMERS, seedWorld, TODAY, viewerOf } from "./world";
import { createConnection, createOrganization } from "../helpers/factory";

/**
 * The supplier report's data and the local provider's composition (/ai/reports) against the demo world: the
 * facts read from the tables here appear in the report in both languages, another organisation's comments, tags and
 * notifications never do, empty sections say so, and text from the data cannot become markup.
 */

const VINMONOPOLET = "817209882";
const texts = { en, no };
const assistantTexts = { en: enAssistant, no: noAssistant };
let nordvik: AssistantViewer;
let kystlys: AssistantViewer;

async function report(viewer: AssistantViewer, orgNumber = VINMONOPOLET): Promise<string> {
  const data = await gatherReportData({ viewer, orgNumber, now: TODAY });
  expect(data).not.toBeNull();
  let out = "";
  for await (const chunk of writeLocalReport({ data: data!, viewer, signal: new AbortController().signal })) out += chunk;
  return out;
}

const escaped = (text: string) =>
  text
    .replace(/[\r\n\t ]+/g, " ")
    .trim()
    .replace(/[\\`*_[\]<>|~]/g, (c) => `\\${c}`);

async function supplierOrgOf(orgNumber: string) {
  return db().selectFrom("organizations").select("id").where("org_number", "=", orgNumber).where("kind", "=", "supplier").executeTakeFirstOrThrow();
}

async function connectionOf(organizationId: number, orgNumber: string) {
  const supplier = await supplierOrgOf(orgNumber);
  const existing = await db()
    .selectFrom("organization_connections")
    .select("id")
    .where("parent_organization_id", "=", organizationId)
    .where("child_organization_id", "=", supplier.id)
    .executeTakeFirst();
  if (existing) {
    await db().updateTable("organization_connections").set({ is_deleted: 0 }).where("id", "=", existing.id).execute();
    return existing.id;
  }
  return createConnection({ parent: organizationId, child: supplier.id, deleted: 0, createdAt: TODAY.toISOString() });
}

beforeAll(async () => {
  await seedWorld();
  nordvik = await viewerOf(DEMO_CUSTOMERS[0]);
  kystlys = await viewerOf(DEMO_CUSTOMERS[2]);
  // Another organisation's own words about the same supplier: a comment, a tag and a news hit of its feed.
  const other = await connectionOf(kystlys.organizationId, VINMONOPOLET);
  await db()
    .insertInto("organization_connection_comments")
    .values({ connection_id: other, user_id: kystlys.userId, text: "KYSTLYS-ONLY comment", created_at: TODAY.toISOString() })
    .execute();
  const tag = await db()
    .insertInto("organization_tags")
    .values({ organization_id: kystlys.organizationId, title: "KYSTLYS-ONLY tag", created_at: TODAY.toISOString() })
    .returning("id")
    .executeTakeFirstOrThrow();
  await db().insertInto("organization_connection_tags").values({ connection_id: other, tag_id: tag.id, created_at: TODAY.toISOString() }).execute();
  const company = await db().selectFrom("companies").select("id").where("org_number", "=", VINMONOPOLET).executeTakeFirstOrThrow();
  await db()
    .insertInto("risk_notifications")
    .values({
      company_id: company.id,
      type: "search",
      date: "2026-11-18",
      created_at: TODAY.toISOString(),
      risk_score: 90,
      relevance_score: 90,
      title: "KYSTLYS-ONLY news hit",
      source: "test",
      url: null,
      description: null,
      kind: null,
      organization_id: kystlys.organizationId,
      dedupe_key: null,
      title_no: null,
      description_no: null,
      details: null,
    })
    .execute();
}, 120_000);

describe("the local report of a followed supplier", () => {
  describe.each(["en", "no"] as const)("%s", (language) => {
    const t = texts[language].report;
    const ta = assistantTexts[language].supplier;

    it("holds the supplier's facts from the database, section by section, in the viewer's language", async () => {
      const viewer = { ...nordvik, language };
      const text = await report(viewer);
      const company = await db().selectFrom("companies").selectAll().where("org_number", "=", VINMONOPOLET).executeTakeFirstOrThrow();
      expect(text.startsWith(`# ${t.title.replace("{{name}}", company.legal_name)}`)).toBe(true);
      for (const heading of [t.summary, t.registry, t.riskOverview, t.financials, t.board, t.announcements, t.notifications, t.tasks, t.comments])
        expect(text).toContain(`\n## ${heading}\n`);
      expect(text).toContain(VINMONOPOLET);
      expect(text).toContain(formatThousands(company.number_of_employees, language));
      expect(text).toContain(ta.transparencyAct);
      for (const category of Object.values(t.categories)) expect(text).toContain(`| ${category} |`);

      // The financial table: the newest years as columns, operating income in the row.
      const statements = await db()
        .selectFrom("financial_statements")
        .select(["financial_year", "operating_income"])
        .where("company_id", "=", company.id)
        .orderBy("financial_year", "desc")
        .limit(5)
        .execute();
      expect(statements.length).toBeGreaterThan(1);
      expect(text).toContain(`| ${t.figure} | ${statements.map((s) => s.financial_year).join(" | ")} |`);
      expect(text).toContain(`| ${t.figures.operating_income} | ${statements.map((s) => formatThousands(s.operating_income, language)).join(" | ")} |`);

      // Board, announcements, the organisation's comments and tags.
      const board = await db()
        .selectFrom("roles")
        .innerJoin("persons", "persons.id", "roles.person_id")
        .select("persons.name")
        .where("roles.company_id", "=", company.id)
        .where("roles.active_to", "is", null)
        .execute();
      expect(board.length).toBeGreaterThan(0);
      for (const m of board.slice(0, 3)) expect(text).toContain(escaped(m.name));
      const newestAnnouncement = await db()
        .selectFrom("announcements")
        .select("type")
        .where("company_id", "=", company.id)
        .orderBy("date", "desc")
        .executeTakeFirstOrThrow();
      expect(text).toContain(escaped(newestAnnouncement.type));
      const connection = (await connectionsOf(nordvik.organizationId)).find((c) => c.org_number === VINMONOPOLET)!;
      const comments = await db().selectFrom("organization_connection_comments").select("text").where("connection_id", "=", connection.connectionId).execute();
      expect(comments.length).toBeGreaterThan(0);
      for (const c of comments) expect(text).toContain(escaped(c.text));
      const tags = await db()
        .selectFrom("organization_connection_tags as ct")
        .innerJoin("organization_tags as tg", "tg.id", "ct.tag_id")
        .select("tg.title")
        .where("ct.connection_id", "=", connection.connectionId)
        .execute();
      for (const tag of tags) expect(text).toContain(escaped(tag.title));

      // Every bullet stays one bullet: no Norwegian date ("18. apr. 2026") turns into an ordered list.
      const html = renderMarkdown(text);
      expect(html).not.toContain("<ol");
      expect(html.match(/<li>/g)?.length).toBe(text.match(/^- /gm)?.length);

      // Never another organisation's.
      expect(text).not.toContain("KYSTLYS-ONLY");
    });

    it("is the same markdown for the same data (deterministic)", async () => {
      const viewer = { ...nordvik, language };
      const data = await gatherReportData({ viewer, orgNumber: VINMONOPOLET, now: TODAY });
      expect(composeReport(data!, viewer).join("")).toBe(composeReport(structuredClone(data!), viewer).join(""));
    });
  });

  it("gives the other organisation its own words and not Nordvik's", async () => {
    const text = await report(kystlys);
    expect(text).toContain("KYSTLYS-ONLY comment");
    expect(text).toContain("KYSTLYS-ONLY tag");
    expect(text).toContain("KYSTLYS-ONLY news hit");
    const nordvikConnection = (await connectionsOf(nordvik.organizationId)).find((c) => c.org_number === VINMONOPOLET)!;
    const nordvikComments = await db()
      .selectFrom("organization_connection_comments")
      .select("text")
      .where("connection_id", "=", nordvikConnection.connectionId)
      .execute();
    for (const c of nordvikComments) expect(text).not.toContain(escaped(c.text));
  });

  it("says so where the data holds nothing, and escapes text that looks like markup", async () => {
    const orgNumber = "999000111";
    const at = TODAY.toISOString();
    await db()
      .insertInto("companies")
      .values({ org_number: orgNumber, legal_name: "1. Tom <b>Leverandør</b> [x](javascript:alert(1)) AS", country_code: "NO", source: "seed", updated_at: at })
      .execute();
    const supplier = await createOrganization({ name: "Tom Leverandør AS", kind: "supplier", orgNumber, dataSharing: 0, createdAt: at });
    const connection = await createConnection({ parent: nordvik.organizationId, child: supplier, deleted: 0, createdAt: at });
    await db()
      .insertInto("organization_connection_comments")
      .values({ connection_id: connection, user_id: null, text: "| a | b |\n<img src=x onerror=alert(1)>", created_at: at })
      .execute();
    const text = await report({ ...nordvik, language: "no" }, orgNumber);
    const t = no.report;
    expect(text).toContain(t.noFinancials);
    expect(text).toContain(t.noNotifications);
    expect(text).toContain(t.noTasks);
    expect(text).toContain(noAssistant.supplier.noBoard);
    expect(text).toContain(noAssistant.supplier.noAnnouncements);
    expect(text).toContain(t.reasons.creditNone);
    expect(text).toContain(t.unknownAuthor);
    expect(text).toContain("1. Tom \\<b\\>Leverandør\\</b\\> \\[x\\](javascript:alert(1)) AS");
    expect(text).toContain("\\| a \\| b \\| \\<img src=x onerror=alert(1)\\>");
    // Rendered as the page renders it: the text stays text.
    const html = renderMarkdown(text);
    expect(html).not.toMatch(/<img|<b>|href="javascript|<ol/);
    expect(html).toContain("&lt;img src=x onerror=alert(1)&gt;");
  });

  it("has no data for a supplier the organisation does not follow, nor for a malformed number", async () => {
    const followed = new Set((await connectionsOf(nordvik.organizationId)).map((c) => c.org_number));
    const notFollowed = await db()
      .selectFrom("companies")
      .select("org_number")
      .where(
        "org_number",
        "not in",
        [...followed].filter((n): n is string => n != null),
      )
      .executeTakeFirstOrThrow();
    expect(await gatherReportData({ viewer: nordvik, orgNumber: notFollowed.org_number, now: TODAY })).toBeNull();
    expect(await gatherReportData({ viewer: nordvik, orgNumber: "12345", now: TODAY })).toBeNull();
  });

  it("stops when the signal aborts", async () => {
    const data = await gatherReportData({ viewer: nordvik, orgNumber: VINMONOPOLET, now: TODAY });
    const controller = new AbortController();
    const chunks: string[] = [];
    await expect(
      (async () => {
        for await (const chunk of writeLocalReport({ data: data!, viewer: nordvik, signal: controller.signal })) {
          chunks.push(chunk);
          controller.abort();
        }
      })(),
    ).rejects.toThrow();
    expect(chunks).toHaveLength(1);
  });
});
