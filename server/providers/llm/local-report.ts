import i18next, { type TFunction } from "i18next";
import enAiReports from "../../../locales/en/aiReports.json";
import noAiReports from "../../../locales/no/aiReports.json";
import enAssistant from "../../../locales/en/assistant.json";
import noAssistant from "../../../locales/no/assistant.json";
import enPeople from "../../../locales/en/people.json";
import noPeople from "../../../locales/no/people.json";
import { REPORT_FIGURES, type SupplierReportData } from "~/models/assistant/ai-report";
import { formatDate, formatThousands, MISSING } from "~/models/shared/format";
import { announcementRiskLabel } from "~/models/suppliers/risk";
import { roleLabel } from "~/models/registry/roles";
import { md } from "./markdown-text";
import type { AssistantViewer, ReportInput } from "./types";

/**
 * The local provider's supplier report (/ai/reports): a deterministic markdown document composed from the
 * report data alone, in the viewer's language — summary, registry facts and flags, risk overview with the reasons for
 * each score, the financial table of recent years, board, announcements, notifications, tasks and surveys, comments.
 * Where the data holds nothing, the report says so. Every text taken from the data is escaped (`md`): a name or comment
 * never becomes a link, emphasis, a table cell break or HTML. Same data and language → same markdown.
 */

const texts = i18next.createInstance();
void texts.init({
  resources: {
    en: { aiReports: enAiReports, assistant: enAssistant, people: enPeople },
    no: { aiReports: noAiReports, assistant: noAssistant, people: noPeople },
  },
  lng: "en",
  fallbackLng: "en",
  ns: ["aiReports", "assistant", "people"],
  defaultNS: "aiReports",
  interpolation: { escapeValue: false },
  initImmediate: false,
});

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;
}

type Language = AssistantViewer["language"];

function table(header: string[], rows: string[][], align?: Array<"l" | "r">): string {
  const sep = header.map((_, i) => (align?.[i] === "r" ? "---:" : "---"));
  return [header, sep, ...rows].map((r) => `| ${r.join(" | ")} |`).join("\n");
}

/**
 * Text at the start of a block (a paragraph, a bullet) must not open another block: Norwegian dates ("18. apr. 2026") and
 * names such as "1. Kvartal AS" would start an ordered list, a leading "#" a heading, "-" or "+" a bullet.
 */
function blockSafe(text: string): string {
  return text.replace(/^(\d{1,9})([.)])/, "$1\\$2").replace(/^([#+-])/, "\\$1");
}

const item = (text: string) => `- ${blockSafe(text)}`;

const CATEGORIES = ["credit", "geography", "reputation", "operational", "legal"] as const;

/** The report as markdown blocks, in order (each block a section). */
export function composeReport(data: SupplierReportData, viewer: AssistantViewer): string[] {
  const language: Language = viewer.language;
  const t = texts.getFixedT(language, "aiReports") as TFunction<"aiReports">;
  const ta = texts.getFixedT(language, "assistant") as TFunction<"assistant">;
  const tp = texts.getFixedT(language, "people");
  const num = (n: number | null | undefined) => formatThousands(n ?? null, language);
  const date = (d: string | null | undefined) => formatDate(d ?? null, language);
  const r = data.registry;
  const blocks: string[] = [];

  blocks.push(
    `# ${t("report.title", { name: md(r.name) })}\n\n_${
      data.organizationName
        ? t("report.composed", { date: date(data.generatedAt), org: md(data.organizationName) })
        : t("report.composedNoOrg", { date: date(data.generatedAt) })
    }_`,
  );

  // Summary
  const status = r.bankruptcyDate
    ? t("report.summaryStatusBankrupt", { date: date(r.bankruptcyDate) })
    : r.isActive
      ? t("report.summaryStatusActive")
      : t("report.summaryStatusInactive");
  const summary = [t("report.summaryStatus", { name: md(r.name), orgNumber: r.orgNumber, status })];
  const highest = CATEGORIES.filter((k) => data.risk[k] != null && data.risk[k] === data.risk.highest);
  summary.push(
    data.risk.highest == null
      ? t("report.summaryNoRisk")
      : t("report.summaryRisk", { score: num(data.risk.highest), category: highest.map((k) => t(`report.categories.${k}`)).join(", ") }),
  );
  const flags = [data.isPriority && ta("supplier.priority"), data.isDueDiligence && ta("supplier.dueDiligence")].filter(Boolean);
  if (flags.length) summary.push(t("report.summaryFlags", { flags: flags.join(", ") }));
  if (data.tags.length) summary.push(t("report.summaryTags", { tags: data.tags.map(md).join(", ") }));
  summary.push(
    t("report.summaryWork", {
      open: data.tasks.filter((x) => !x.submitted).length,
      submitted: data.tasks.filter((x) => x.submitted).length,
      surveys: data.surveys.length,
      notifications: data.riskReasons.reputation.notifications,
    }),
  );
  blocks.push(`## ${t("report.summary")}\n\n${blockSafe(summary.join(" "))}`);

  // Registry facts and flags
  const req = (b: boolean) => (b ? ta("supplier.required") : ta("supplier.notRequired"));
  const facts: Array<[string, string | null]> = [
    [ta("supplier.orgNumber"), r.orgNumber],
    [t("report.lei"), r.lei],
    [ta("supplier.orgForm"), [r.orgForm, r.orgFormDescription && `(${r.orgFormDescription})`].filter(Boolean).join(" ") || null],
    [ta("supplier.industry"), [r.industryCode, r.industryDescription].filter(Boolean).join(" ") || null],
    [ta("supplier.purpose"), r.purpose && clip(r.purpose, 400)],
    [ta("supplier.employees"), r.employees == null ? null : num(r.employees)],
    [ta("supplier.established"), r.established && date(r.established)],
    [ta("supplier.address"), r.address],
    [t("report.country"), r.countryName ? `${r.countryName} (${r.countryCode})` : r.countryCode],
    [ta("supplier.website"), r.website],
    [
      ta("supplier.status"),
      r.bankruptcyDate ? ta("supplier.bankrupt", { date: date(r.bankruptcyDate) }) : r.isActive ? ta("supplier.active") : ta("supplier.inactive"),
    ],
    [ta("supplier.arp"), req(data.compliance.arp)],
    [ta("supplier.transparencyAct"), req(data.compliance.transparencyAct)],
    [ta("supplier.csrd"), req(data.compliance.csrd)],
    [ta("supplier.priority"), data.isPriority ? t("report.yes") : t("report.no")],
    [ta("supplier.dueDiligence"), data.isDueDiligence ? t("report.yes") : t("report.no")],
  ];
  blocks.push(
    `## ${t("report.registry")}\n\n${table(
      [t("report.field"), t("report.value")],
      facts.map(([k, v]) => [md(k), v ? md(v) : MISSING]),
    )}`,
  );

  // Risk overview with reasons
  const rr = data.riskReasons;
  const reason = (k: (typeof CATEGORIES)[number]): string => {
    switch (k) {
      case "credit":
        return rr.credit
          ? t("report.reasons.credit", {
              year: rr.credit.year,
              capital: num(rr.credit.capital),
              liquidity: num(rr.credit.liquidity),
              coverage: num(rr.credit.coverage),
              profitability: num(rr.credit.profitability),
              growth: num(rr.credit.growth),
            })
          : t("report.reasons.creditNone");
      case "geography":
        return rr.geography && rr.geography.score != null
          ? t("report.reasons.geography", { country: md(rr.geography.country) })
          : t("report.reasons.geographyNone");
      case "reputation":
        return rr.reputation.notifications
          ? t("report.reasons.reputation", { count: rr.reputation.notifications, highest: num(rr.reputation.highest) })
          : t("report.reasons.reputationNone");
      case "operational":
        return rr.operational.announcements ? t("report.reasons.operational", { count: rr.operational.announcements }) : t("report.reasons.operationalNone");
      case "legal":
        return rr.legal.announcements ? t("report.reasons.legal", { count: rr.legal.announcements }) : t("report.reasons.legalNone");
    }
  };
  blocks.push(
    `## ${t("report.riskOverview")}\n\n${table(
      [t("report.category"), t("report.score"), t("report.reason")],
      CATEGORIES.map((k) => [t(`report.categories.${k}`), data.risk[k] == null ? t("report.noScore") : num(data.risk[k]), reason(k)]),
      ["l", "r", "l"],
    )}`,
  );

  // Financials
  const years = data.financials.years;
  blocks.push(
    `## ${t("report.financials")}\n\n${
      years.length
        ? `${t("report.financialsUnit", { currency: data.financials.currency })}\n\n${table(
            [t("report.figure"), ...years.map((y) => String(y.year))],
            REPORT_FIGURES.map((f) => [t(`report.figures.${f as "operating_income"}`), ...years.map((y) => num(y.values[f] ?? null))]),
            ["l", ...years.map(() => "r" as const)],
          )}`
        : t("report.noFinancials")
    }`,
  );

  // Board
  blocks.push(
    `## ${t("report.board")}\n\n${
      data.board.length
        ? data.board.map((m) => item(`${md(m.name)} — ${md(roleLabel(m.position, (key) => tp(key)))}`)).join("\n") +
          (data.boardTotal > data.board.length ? `\n\n${t("report.boardMore", { shown: data.board.length, total: data.boardTotal })}` : "")
        : ta("supplier.noBoard")
    }`,
  );

  // Announcements
  blocks.push(
    `## ${t("report.announcements")}\n\n${
      data.announcements.length
        ? data.announcements
            .map((a) =>
              item(
                `${date(a.date)} · ${md(a.type)}${a.detail ? `: ${md(clip(a.detail, 240))}` : ""} (${t("report.announcementRisk", {
                  label: t(`report.riskLabels.${announcementRiskLabel(a.risk)}`),
                })})`,
              ),
            )
            .join("\n") +
          (data.announcementsTotal > data.announcements.length
            ? `\n\n${t("report.announcementsMore", { shown: data.announcements.length, total: data.announcementsTotal })}`
            : "")
        : ta("supplier.noAnnouncements")
    }`,
  );

  // Notifications
  blocks.push(
    `## ${t("report.notifications")}\n\n${
      data.notifications.length
        ? data.notifications
            .map((n) => item(t("report.notificationRow", { date: date(n.date), title: md(clip(n.title, 200)), score: num(n.riskScore) })))
            .join("\n") +
          (data.notificationsTotal > data.notifications.length
            ? `\n\n${t("report.notificationsMore", { shown: data.notifications.length, total: data.notificationsTotal })}`
            : "")
        : t("report.noNotifications")
    }`,
  );

  // Tasks and surveys
  const work = [
    ...data.tasks.map((x) =>
      item(t("report.taskRow", { title: md(x.title), state: x.submitted ? t("report.taskSubmitted") : t("report.taskOpen"), date: date(x.updatedAt) })),
    ),
    ...data.surveys.map((s) => item(t("report.surveyRow", { title: md(s.title), date: date(s.updatedAt) }))),
  ];
  blocks.push(`## ${t("report.tasks")}\n\n${work.length ? work.join("\n") : t("report.noTasks")}`);

  // Comments
  blocks.push(
    `## ${t("report.comments")}\n\n${
      data.comments.length
        ? data.comments
            .map((c) => item(t("report.commentRow", { date: date(c.createdAt), by: md(c.by ?? t("report.unknownAuthor")), text: md(clip(c.text, 400)) })))
            .join("\n") +
          (data.commentsTotal > data.comments.length ? `\n\n${t("report.commentsMore", { shown: data.comments.length, total: data.commentsTotal })}` : "")
        : ta("supplier.noComments")
    }`,
  );
  return blocks;
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The report streamed a section at a time (the contract's chunks); stops when the signal aborts. */
export async function* writeLocalReport(input: ReportInput): AsyncIterable<string> {
  const blocks = composeReport(input.data, input.viewer);
  for (const [i, block] of blocks.entries()) {
    if (input.signal.aborted) throw input.signal.reason ?? new DOMException("The operation was aborted.", "AbortError");
    yield i === blocks.length - 1 ? `${block}\n` : `${block}\n\n`;
    await nextTurn();
  }
}
