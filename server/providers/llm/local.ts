import i18next, { type TFunction } from "i18next";
import enAssistant from "../../../locales/en/assistant.json";
import noAssistant from "../../../locales/no/assistant.json";
import enPeople from "../../../locales/en/people.json";
import noPeople from "../../../locales/no/people.json";
import type { AssistantData, RiskOverview, StoredRisk, SupplierFilters, SupplierMatch } from "~/models/assistant/assistant";
import { formatDate, formatThousands } from "~/models/shared/format";
import { roleLabel } from "~/models/registry/roles";
import { documentAnswer } from "./local-documents";
import { writeLocalReport } from "./local-report";
import { md } from "./markdown-text";
import type { AssistantViewer, LlmProvider, StreamInput } from "./types";
import { composeIntelligence } from "~/models/assistant/supplier-intelligence";

/**
 * The `local` provider (docs/architecture.md `llm`): a rule-based assistant, no model. It recognises a fixed set of
 * questions in English and Norwegian by patterns, recognises supplier names (the organisation's own suppliers by their
 * distinctive words, other companies through the registry's search index), reads the answer from the organisation's
 * own data (app/models/assistant/assistant-data.server.ts) and writes it in the viewer's language as markdown with links to the
 * supplier screens. What it does not recognise it declines plainly, listing what it can answer.
 *
 * The answer streams as small chunks (a word with its following space), yielding to the event loop between them so the
 * route flushes each one; a block whose data takes a moment to read is preceded by its heading, so the first chunk
 * does not wait for the whole answer. Generation stops when the signal aborts.
 */

const texts = i18next.createInstance();
void texts.init({
  resources: { en: { assistant: enAssistant, people: enPeople }, no: { assistant: noAssistant, people: noPeople } },
  lng: "en",
  fallbackLng: "en",
  ns: ["assistant", "people"],
  defaultNS: "assistant",
  interpolation: { escapeValue: false },
  initImmediate: false,
});

type T = TFunction<"assistant">;

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;
}

/* ---------------- recognising the question ---------------- */

type Intent =
  | { kind: "help" }
  | { kind: "greeting" }
  | { kind: "changes"; supplier: SupplierMatch | null }
  | { kind: "highestRisk"; filters: SupplierFilters; filterLabel: string | null }
  | { kind: "list"; filter: "dueDiligence" | "priority" }
  | { kind: "tag"; tag: { id: number; title: string } | null }
  | { kind: "country"; country: { code: string; name: string } | null }
  | { kind: "supplier"; term: string; strong: boolean; named: SupplierMatch[] }
  | { kind: "decline" };

const HELP = /\b(help|what can you (do|answer)|what do you know|which questions)\b|\bhjelp\b|hva kan du|hvilke spørsmål/;
const GREETING = /^(hi|hello|hey|good (morning|afternoon|evening)|hei|hallo|heisann|god (morgen|dag|kveld))\b[\s!.,]*$/;
const CHANGES =
  /\b(what('s| has| have)? changed|changes|what('s| is)? new|news|this week|last week|past week|recent(ly)?)\b|\b(endret|endringer|nytt|nyheter|denne uken|siste uke(n)?|forrige uke|i det siste)\b/;
const RISK_WORD = /\brisk|risiko|risikab/;
const TOP_WORD = /\b(highest|most|greatest|biggest|top|worst|riskiest|high)\b|\b(høyest|høy|størst|mest|verst|risikable|risikableste)\b/;
/** Words that ask for the riskiest on their own ("høyrisiko", "risky"). */
const HIGH_RISK = /\b(riskiest|risky|high[- ]risk)\b|høyrisiko|risikable|risikofylt/;
const DUE_DILIGENCE = /due diligence|aktsomhet/;
const PRIORITY = /priorit/;
const TAG_WORD = /\b(tag|tags|tagged|label|labelled|labeled)\b|etikett/;
const LIST_WORD = /supplier|leverandør|\b(which|what|list|show|my|our|hvilke|hvem|vis|list opp|mine|våre)\b/;
const SUPPLIER_WORD = /supplier|leverandør/;
/** "Tell me about X": what follows names a company. */
const STRONG_ABOUT =
  /\b(tell me (more )?about|what do you know about|(give me |show me )?(information|info|details|facts|an overview) (about|on|of)|describe|summari[sz]e|fortell (meg )?(mer )?om|hva vet du om|(gi meg )?(informasjon|info|opplysninger|detaljer|en oversikt) om|beskriv|oppsummer)\s+(?<term>.+)$/;
/** "What is X", "who is X": a company only if the registry knows one by that name. */
const WEAK_ABOUT = /^(what is|what's|who is|who are|how is|how about|hva er|hvem er|hvordan går det med|hva med)\s+(?<term>.+)$/;
const TERM_NOISE = /\b(the|a|an|company|supplier|our|my|please|firm|selskapet|leverandøren|vår|min|mitt|firmaet|takk|thanks)\b|'s\b|[?!.,:;"“”«»]/g;

function cleanTerm(term: string): string {
  return term.replace(TERM_NOISE, " ").replace(/\s+/g, " ").trim();
}

async function recognise(data: AssistantData, viewer: AssistantViewer, question: string): Promise<Intent> {
  const q = question.normalize("NFC").toLocaleLowerCase("nb").replace(/\s+/g, " ").trim();
  if (!q) return { kind: "help" };
  if (GREETING.test(q)) return { kind: "greeting" };
  if (HELP.test(q)) return { kind: "help" };

  const named = await data.followedSuppliersNamedIn(viewer, q);
  if (CHANGES.test(q) && !TOP_WORD.test(q)) return { kind: "changes", supplier: named[0] ?? null };

  const wantsList = LIST_WORD.test(q);
  const dueDiligence = DUE_DILIGENCE.test(q);
  const priority = PRIORITY.test(q);
  const tag = TAG_WORD.test(q) || wantsList ? await data.tagNamedIn(viewer, q) : null;
  const country = SUPPLIER_WORD.test(q) ? await data.countryNamedIn(q, viewer.language) : null;

  if (((RISK_WORD.test(q) && TOP_WORD.test(q)) || HIGH_RISK.test(q)) && named.length === 0) {
    const filters: SupplierFilters = {};
    const labels: string[] = [];
    const t = texts.getFixedT(viewer.language, "assistant");
    if (dueDiligence) {
      filters.dueDiligence = true;
      labels.push(t("supplier.dueDiligence"));
    }
    if (priority) {
      filters.priority = true;
      labels.push(t("supplier.priority"));
    }
    if (tag) {
      filters.tagId = tag.id;
      labels.push(`“${tag.title}”`);
    }
    if (country) {
      filters.countryCode = country.code;
      labels.push(country.name);
    }
    return { kind: "highestRisk", filters, filterLabel: labels.length ? labels.join(", ") : null };
  }
  if (named.length === 0 && wantsList) {
    if (dueDiligence) return { kind: "list", filter: "dueDiligence" };
    if (priority) return { kind: "list", filter: "priority" };
    if (TAG_WORD.test(q) || tag) return { kind: "tag", tag };
    if (country) return { kind: "country", country };
    if (SUPPLIER_WORD.test(q) && /\b(in|from|i|fra)\s+\p{L}+/u.test(q) && /\b(which|hvilke|list|show|vis)\b/.test(q)) return { kind: "country", country: null };
  }

  const strong = q.match(STRONG_ABOUT)?.groups?.term;
  if (named.length) return { kind: "supplier", term: cleanTerm(strong ?? q), strong: true, named };
  if (strong && cleanTerm(strong)) return { kind: "supplier", term: cleanTerm(strong), strong: true, named: [] };
  const weak = q.match(WEAK_ABOUT)?.groups?.term;
  if (weak && cleanTerm(weak)) return { kind: "supplier", term: cleanTerm(weak), strong: false, named: [] };
  const number = q.match(/\b\d{3}\s?\d{3}\s?\d{3}\b/)?.[0];
  if (number) return { kind: "supplier", term: number.replace(/\s/g, ""), strong: true, named: [] };
  return { kind: "decline" };
}

/* ---------------- writing the answer ---------------- */

/** The answer as blocks of markdown; a block may be a promise (its data is still being read). */
type Blocks = AsyncGenerator<string, void, undefined>;

function capabilities(t: T): string {
  const items = ["highestRisk", "supplier", "dueDiligence", "priority", "tag", "country", "changes"] as const;
  return `${t("capabilities.title")}\n\n${items.map((k) => `- ${t(`capabilities.${k}`)}`).join("\n")}\n`;
}

function scoreText(t: T, risk: RiskOverview, language: AssistantViewer["language"]): string {
  const keys = ["credit", "geography", "reputation", "operational", "legal"] as const;
  return keys.map((k) => `${t(`scores.${k}`)} ${risk[k] == null ? t("scores.none") : formatThousands(risk[k], language)}`).join(", ");
}

/** What decided a stored overall risk: ": reputation 94, legal 70" or ": bankrupt"; nothing when there is no reason. */
function reasonsText(t: T, risk: StoredRisk, language: AssistantViewer["language"]): string {
  const parts = risk.reasons.map((r) => (r.kind === "line" ? `${t(`scores.${r.key}`)} ${formatThousands(r.value, language)}` : t(`risk.flags.${r.flag}`)));
  return parts.length ? `: ${parts.join(", ")}` : "";
}

async function* highestRisk(data: AssistantData, viewer: AssistantViewer, t: T, intent: Extract<Intent, { kind: "highestRisk" }>): Blocks {
  yield `### ${intent.filterLabel ? t("risk.filtered", { filter: md(intent.filterLabel) }) : t("risk.title")}\n\n${t("risk.lead")}\n\n`;
  const { total, suppliers } = await data.highestRiskSuppliers(viewer, { limit: 5, filters: intent.filters });
  if (!suppliers.length) {
    yield `${t("risk.none")}\n`;
    return;
  }
  const rows = suppliers.map(
    (s, i) =>
      `${i + 1}. ${t("risk.row", {
        overall: s.risk.overall == null ? t("scores.none") : formatThousands(s.risk.overall, viewer.language),
        name: md(s.name),
        link: s.link,
        level: s.risk.band ? t(`risk.levels.${s.risk.band}`) : t("risk.notComputed"),
        reasons: reasonsText(t, s.risk, viewer.language),
      })}`,
  );
  yield `${rows.join("\n")}\n\n${t("risk.shown", { shown: suppliers.length, total })}\n`;
}

async function* supplierList(data: AssistantData, viewer: AssistantViewer, t: T, title: string, filters: SupplierFilters): Blocks {
  yield `### ${title}\n\n`;
  const LIMIT = 20;
  const { total, suppliers } = await data.listFollowedSuppliers(viewer, filters, LIMIT);
  if (!total) {
    yield `${t("list.empty")}\n`;
    return;
  }
  const lines = suppliers.map((s) => {
    const extra = [s.orgNumber, s.tags.length ? s.tags.map(md).join(", ") : null].filter(Boolean).join(" · ");
    return `- ${s.link ? `[${md(s.name)}](${s.link})` : md(s.name)}${extra ? ` — ${extra}` : ""}`;
  });
  yield `${t("list.count", { count: total })}\n\n${lines.join("\n")}\n`;
  if (total > suppliers.length) yield `\n${t("list.more", { count: total - suppliers.length })}\n`;
}

async function* tagAnswer(data: AssistantData, viewer: AssistantViewer, t: T, tag: { id: number; title: string } | null): Blocks {
  if (tag) {
    yield* supplierList(data, viewer, t, t("list.tag", { tag: md(tag.title) }), { tagId: tag.id });
    return;
  }
  const tags = await data.organizationTags(viewer);
  yield `${tags.length ? t("list.tagUnknown", { tags: tags.map((x) => `“${md(x.title)}”`).join(", ") }) : t("list.noTags")}\n`;
}

async function* changes(data: AssistantData, viewer: AssistantViewer, t: T, supplier: SupplierMatch | null, now: Date): Blocks {
  let days = 7;
  yield `### ${t("changes.title", { days })}${supplier ? ` — ${md(supplier.name)}` : ""}\n\n`;
  let found = await data.recentChanges(viewer, { days, now, supplierOrgNumber: supplier?.orgNumber });
  if (!found.total) {
    yield `${t("changes.none", { days })}\n\n`;
    // Nothing this week: the month before shows whether anything is going on at all.
    days = 30;
    found = await data.recentChanges(viewer, { days, now, supplierOrgNumber: supplier?.orgNumber });
    if (!found.total) {
      yield `${t("changes.none", { days })}\n`;
      return;
    }
    yield `${t("changes.latest", { days })}\n\n`;
  }
  const rows = found.items.map(
    (n) =>
      `- ${t("changes.row", {
        date: formatDate(n.date, viewer.language),
        supplier: md(n.supplier),
        link: n.link,
        title: md(clip(n.title, 160)),
        score: n.riskScore,
      })}`,
  );
  yield `${rows.join("\n")}\n\n${t("changes.total", { count: found.total })}\n`;
}

async function* supplierAnswer(data: AssistantData, viewer: AssistantViewer, t: T, intent: Extract<Intent, { kind: "supplier" }>, now: Date): Blocks {
  const matches = intent.named.length ? intent.named : await data.findSupplier(viewer, intent.term);
  const [first] = matches;
  if (!first) {
    if (!intent.strong) {
      yield* decline(t);
      return;
    }
    yield `${t("supplier.notFound", { term: md(intent.term) })}\n\n${capabilities(t)}`;
    return;
  }
  const facts = await data.supplierFacts(viewer, first.orgNumber, now);
  if (!facts) {
    yield `${t("supplier.notFound", { term: md(intent.term) })}\n`;
    return;
  }
  const language = viewer.language;
  const r = facts.registry;
  const tp = texts.getFixedT(language, "people");
  const out: string[] = [];
  out.push(`### [${md(r.name)}](${facts.link})\n`);
  if (!facts.followed) out.push(`${t("supplier.notFollowed")}\n`);
  const status = r.bankruptcyDate
    ? t("supplier.bankrupt", { date: formatDate(r.bankruptcyDate, language) })
    : r.isActive
      ? t("supplier.active")
      : t("supplier.inactive");
  const registry = [
    [t("supplier.orgNumber"), r.orgNumber],
    [t("supplier.orgForm"), [r.orgForm, r.orgFormDescription && `(${r.orgFormDescription})`].filter(Boolean).join(" ")],
    [t("supplier.industry"), [r.industryCode, r.industryDescription].filter(Boolean).join(" ")],
    [t("supplier.purpose"), r.purpose && clip(r.purpose, 300)],
    [t("supplier.employees"), r.employees == null ? null : formatThousands(r.employees, language)],
    [t("supplier.established"), r.established && formatDate(r.established, language)],
    [t("supplier.address"), r.address],
    [t("supplier.website"), r.website],
    [t("supplier.status"), status],
  ].filter((row): row is [string, string] => Boolean(row[1]));
  out.push(`#### ${t("supplier.registry")}\n\n${registry.map(([k, v]) => `- ${k}: ${md(v)}`).join("\n")}\n`);
  const w = facts.work;
  if (w) {
    const flags = [w.isPriority && t("supplier.priority"), w.isDueDiligence && t("supplier.dueDiligence")].filter(Boolean);
    if (flags.length) out.push(`**${t("supplier.flags")}:** ${flags.join(", ")}\n`);
    const c = w.compliance;
    const req = (b: boolean) => (b ? t("supplier.required") : t("supplier.notRequired"));
    out.push(
      `#### ${t("supplier.compliance")}\n\n- ${t("supplier.arp")}: ${req(c.arp)}\n- ${t("supplier.transparencyAct")}: ${req(c.transparencyAct)}\n- ${t("supplier.csrd")}: ${req(c.csrd)}\n`,
    );
    out.push(`#### ${t("supplier.riskOverview")}\n\n${scoreText(t, w.risk, language)}\n`);
    if (w.financials) {
      const lines = w.financials.figures.map((f) => {
        const change =
          f.changePercent != null && w.financials!.previousYear != null
            ? ` (${t("supplier.change", {
                change:
                  new Intl.NumberFormat(language === "no" ? "nb-NO" : "en-GB", { signDisplay: "exceptZero", maximumFractionDigits: 1 }).format(
                    f.changePercent,
                  ) + " %",
                previousYear: w.financials!.previousYear,
              })})`
            : "";
        return `- ${t(`supplier.figures.${f.field as "operating_income"}`)}: ${formatThousands(f.value, language)}${change}`;
      });
      out.push(`#### ${t("supplier.financials", { year: w.financials.year })}\n\n${lines.join("\n")}\n`);
    } else out.push(`#### ${t("supplier.keyFigures")}\n\n${t("supplier.noFinancials")}\n`);
    const board = [
      w.ceo && `- ${t("supplier.ceo")}: ${md(w.ceo)}`,
      w.chair && `- ${t("supplier.chair")}: ${md(w.chair)}`,
      ...w.board.filter((m) => m.name !== w.ceo && m.name !== w.chair).map((m) => `- ${md(m.name)} — ${md(roleLabel(m.position, (key) => tp(key)))}`),
    ].filter(Boolean);
    const boardShown = w.board.length;
    out.push(
      `#### ${t("supplier.board")}\n\n${board.length ? board.join("\n") : t("supplier.noBoard")}${w.boardTotal > boardShown ? `\n\n${t("supplier.boardMore", { count: w.boardTotal - boardShown })}` : ""}\n`,
    );
    out.push(
      `#### ${t("supplier.announcements")}\n\n${
        w.announcements.length
          ? w.announcements.map((a) => `- ${formatDate(a.date, language)} · ${md(a.type)}${a.detail ? `: ${md(clip(a.detail, 200))}` : ""}`).join("\n") +
            (w.announcementsTotal > w.announcements.length
              ? `\n\n${t("supplier.announcementsMore", { shown: w.announcements.length, total: w.announcementsTotal })}`
              : "")
          : t("supplier.noAnnouncements")
      }\n`,
    );
    out.push(
      `#### ${t("supplier.openTasks")}\n\n${
        w.openTasks.length ? w.openTasks.map((x) => `- ${md(x.title)}`).join("\n") : t("supplier.noOpenTasks")
      }${w.submittedTasks ? `\n\n${t("supplier.submittedTasks", { count: w.submittedTasks })}` : ""}\n`,
    );
    out.push(`#### ${t("supplier.tags")}\n\n${w.tags.length ? w.tags.map((x) => md(x)).join(", ") : t("supplier.noTags")}\n`);
    out.push(
      `#### ${t("supplier.comments")}\n\n${
        w.comments.length
          ? w.comments.map((x) => `- ${formatDate(x.createdAt, language)}${x.by ? ` (${md(x.by)})` : ""}: ${md(clip(x.text, 300))}`).join("\n") +
            (w.commentsTotal > w.comments.length ? `\n\n${t("supplier.commentsMore", { shown: w.comments.length, total: w.commentsTotal })}` : "")
          : t("supplier.noComments")
      }\n`,
    );
  }
  out.push(`[${t("supplier.open")}](${facts.link})\n`);
  const others = matches.slice(1, 4);
  if (others.length && !intent.named.length)
    out.push(`${t("supplier.alsoMatched", { term: md(intent.term), names: others.map((m) => md(m.name)).join("; ") })}\n`);
  yield out.join("\n");
}

async function* decline(t: T): Blocks {
  yield `${t("decline")} ${t("about")}\n\n${capabilities(t)}`;
}

async function* answer(data: AssistantData, viewer: AssistantViewer, question: string, now: Date): Blocks {
  const t = texts.getFixedT(viewer.language, "assistant");
  const intent = await recognise(data, viewer, question);
  switch (intent.kind) {
    case "greeting":
      yield `${t("greeting")} ${t("about")}\n\n${capabilities(t)}`;
      return;
    case "help":
      yield `${t("about")}\n\n${capabilities(t)}`;
      return;
    case "changes":
      yield* changes(data, viewer, t, intent.supplier, now);
      return;
    case "highestRisk":
      yield* highestRisk(data, viewer, t, intent);
      return;
    case "list":
      yield* supplierList(data, viewer, t, t(`list.${intent.filter}`), intent.filter === "priority" ? { priority: true } : { dueDiligence: true });
      return;
    case "tag":
      yield* tagAnswer(data, viewer, t, intent.tag);
      return;
    case "country":
      if (intent.country) yield* supplierList(data, viewer, t, t("list.country", { country: md(intent.country.name) }), { countryCode: intent.country.code });
      else yield `${t("list.countryUnknown")}\n`;
      return;
    case "supplier":
      yield* supplierAnswer(data, viewer, t, intent, now);
      return;
    case "decline":
      yield* decline(t);
  }
}

/** Words with the space after them: the "tokens" of the stream. */
export function tokens(text: string): string[] {
  return text.match(/\s*\S+\s*/g) ?? (text ? [text] : []);
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The local assistant over the organisation-scoped data functions it is handed (`assistantData` of
 * app/models/assistant/assistant-data.server.ts: server/ does not import app/*.server). `now` fixes the clock for tests.
 */
export function createLocalAssistant(data: AssistantData, options: { now?: () => Date } = {}): LlmProvider {
  const clock = options.now ?? (() => new Date());
  return {
    name: "local",
    async *stream({ messages, viewer, signal, documents }: StreamInput): AsyncIterable<string> {
      const question = [...messages].reverse().find((m) => m.role === "user")?.content ?? "";
      // An attached document answers first when the question is about it (local-documents.ts).
      const fromDocuments = documents?.length ? documentAnswer(texts.getFixedT(viewer.language, "assistant"), documents, question, viewer.language) : null;
      const blocks =
        fromDocuments != null
          ? (async function* () {
              yield fromDocuments;
            })()
          : answer(data, viewer, question, clock());
      for await (const block of blocks) {
        for (const token of tokens(block)) {
          if (signal.aborted) return;
          yield token;
          await nextTurn();
        }
      }
    },
    writeReport: writeLocalReport,
    writeIntelligence: async ({ facts, language }) => composeIntelligence(facts, language),
  };
}
