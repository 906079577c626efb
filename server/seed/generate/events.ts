import type { RoleChange } from "./people";
import { daysAfter, daysBefore, isoDate, parseIsoDate, Rng } from "./random";
import { displayName, formatNok, slug, titleCaseArea } from "./text";
import type { AnnouncementRow, NotificationRow, WorldCompany } from "./types";

/**
 * Register announcements (kunngjøringer) and risk notifications for a
 * company over the last three years. Announcement types and texts follow
 * the Brønnøysund register's style; risk is 1 (routine) to 4 (insolvency),
 * with operational and legal risk 0–100 drawn from a range per type.
 * Announcements follow what else is known about the company: board changes,
 * capital increases after losses, bankruptcy and liquidation. Notification
 * titles are fictional news items from invented outlets on example.com.
 */

export interface EventContext {
  company: WorldCompany;
  today: Date;
  changes: readonly RoleChange[];
  /** Owners' capital injections (NOK thousands) from the generated accounts. */
  capitalIncreases: ReadonlyArray<{ year: number; amount: number }>;
  /** The newest statement shows a loss. */
  lossMaking: boolean;
  /** A subsidiary's name, for merger announcements. */
  subsidiaryName: string | null;
}

interface Kind {
  type: string;
  risk: 1 | 2 | 3 | 4;
  operational: readonly [number, number];
  legal: readonly [number, number];
  detail: (x: DetailContext) => string;
}

interface DetailContext {
  rng: Rng;
  company: WorldCompany;
  date: Date;
  court: string;
  subsidiaryName: string | null;
}

const AUDITORS = ["Fjordrevisjon Demo AS", "Nordlys Revisjon Demo AS", "Kystrevisjon Demo AS", "Viddevis Revisjon Demo AS", "Bølge Revisjon Demo AS"];

const COURTS: Record<string, string> = {
  "0": "Oslo tingrett",
  "1": "Follo og Nordre Østfold tingrett",
  "2": "Østre Innlandet tingrett",
  "3": "Vestfold tingrett",
  "4": "Sør-Rogaland tingrett",
  "5": "Bergen tingrett",
  "6": "Møre og Romsdal tingrett",
  "7": "Trøndelag tingrett",
  "8": "Salten og Lofoten tingrett",
  "9": "Nord-Troms og Senja tingrett",
};

function address(c: WorldCompany): string | null {
  if (!c.streetAddress || !c.postalCode) return null;
  return `${c.streetAddress.split("\n").join(", ")}, ${c.postalCode} ${(c.isForeign ? c.postalArea : titleCaseArea(c.postalArea)) ?? ""}`.trim();
}

const K = {
  address: {
    type: "Endring av forretningsadresse",
    risk: 1,
    operational: [2, 10],
    legal: [0, 5],
    detail: ({ company }) => (address(company) ? `Ny forretningsadresse: ${address(company)}.` : "Ny forretningsadresse er registrert."),
  },
  board: {
    type: "Endring i styret",
    risk: 1,
    operational: [8, 25],
    legal: [2, 10],
    detail: () => "Styrets sammensetning er endret. Nytt styremedlem er registrert.",
  },
  articles: {
    type: "Endring av vedtekter",
    risk: 1,
    operational: [2, 10],
    legal: [5, 15],
    detail: ({ rng }) =>
      `Vedtektene er endret. Endringen gjelder ${rng.pick(["formålsbestemmelsen", "aksjekapitalen", "styrets størrelse", "forretningskommunen", "aksjenes omsettelighet"])}.`,
  },
  accounts: {
    type: "Årsregnskap registrert",
    risk: 1,
    operational: [0, 5],
    legal: [0, 5],
    detail: ({ date }) => `Årsregnskapet for ${date.getUTCFullYear() - 1} er mottatt og registrert i Regnskapsregisteret.`,
  },
  signature: {
    type: "Endring av signatur/prokura",
    risk: 1,
    operational: [3, 12],
    legal: [5, 15],
    detail: ({ rng }) =>
      rng.pick(["Signatur: styrets leder alene. Prokura: daglig leder alene.", "Signatur: to styremedlemmer i fellesskap.", "Prokura er slettet."]),
  },
  industry: {
    type: "Endring av næringskode",
    risk: 1,
    operational: [3, 10],
    legal: [0, 5],
    detail: ({ company }) => `Ny næringskode: ${company.industryCode ?? ""} ${company.industryDescription ?? ""}.`.replace(/\s+\./, "."),
  },
  ceo: { type: "Ny daglig leder", risk: 2, operational: [20, 45], legal: [5, 15], detail: () => "Ny daglig leder er registrert." },
  capitalUp: {
    type: "Kapitalforhøyelse",
    risk: 2,
    operational: [10, 30],
    legal: [5, 20],
    detail: ({ rng }) => `Aksjekapitalen er forhøyet med ${formatNok(rng.pick([50, 100, 250, 500, 1000, 2500]))} ved nytegning av aksjer.`,
  },
  auditor: {
    type: "Endring av revisor",
    risk: 2,
    operational: [10, 25],
    legal: [15, 35],
    detail: ({ rng }) => {
      const [a, b] = rng.sample(AUDITORS, 2);
      return `${a} er registrert som revisor. ${b} er fratrådt.`;
    },
  },
  merger: {
    type: "Fusjon",
    risk: 2,
    operational: [25, 50],
    legal: [15, 35],
    detail: ({ company, subsidiaryName }) =>
      `Melding om fusjon: ${displayName(company.name)} er overtakende selskap i fusjon med ${subsidiaryName ? displayName(subsidiaryName) : "et heleid datterselskap"}. Kreditorfrist seks uker.`,
  },
  capitalDown: {
    type: "Kapitalnedsettelse",
    risk: 2,
    operational: [25, 45],
    legal: [15, 30],
    detail: ({ rng }) =>
      `Beslutning om nedsettelse av aksjekapitalen med ${formatNok(rng.pick([100, 200, 500, 1000]))} til dekning av tap. Kreditorfrist seks uker.`,
  },
  demerger: {
    type: "Fisjon",
    risk: 2,
    operational: [25, 45],
    legal: [15, 30],
    detail: () => "Melding om fisjon: deler av virksomheten overføres til et nytt selskap. Kreditorfrist seks uker.",
  },
  dissolutionWarning: {
    type: "Tvangsoppløsning varslet",
    risk: 3,
    operational: [45, 70],
    legal: [60, 85],
    detail: ({ rng, date }) =>
      `Brønnøysundregistrene varsler tvangsoppløsning fordi ${rng.pick([`selskapet ikke har sendt inn årsregnskap for ${overdueAccountsYear(date)}`, "selskapet ikke har registrert revisor", "selskapet ikke har registrert daglig leder", "styret ikke er lovlig sammensatt"])}. Forholdet må rettes innen fire uker.`,
  },
  fine: {
    type: "Tvangsmulkt ilagt",
    risk: 3,
    operational: [35, 60],
    legal: [50, 75],
    detail: ({ date }) => `Tvangsmulkt er ilagt for manglende innsending av årsregnskap for ${overdueAccountsYear(date)}.`,
  },
  auditorLeft: {
    type: "Revisor fratrådt",
    risk: 3,
    operational: [35, 60],
    legal: [45, 70],
    detail: () => "Revisor har fratrådt. Selskapet må melde ny revisor.",
  },
  liquidation: {
    type: "Oppløsning besluttet",
    risk: 3,
    operational: [60, 85],
    legal: [40, 65],
    detail: () => "Generalforsamlingen har besluttet å oppløse selskapet. Kreditorvarsel med frist seks uker.",
  },
  petition: {
    type: "Konkursbegjæring",
    risk: 4,
    operational: [70, 90],
    legal: [70, 90],
    detail: ({ rng, court, company }) =>
      `Begjæring om konkurs er inngitt av ${company.isForeign ? "en kreditor" : rng.pick(["Skatteetaten", "en leverandør", "Statens innkrevingssentral", "en tidligere ansatt"])} for ${court}.`,
  },
  restructuring: {
    type: "Rekonstruksjon åpnet",
    risk: 4,
    operational: [75, 92],
    legal: [60, 85],
    detail: ({ court }) => `${court} har åpnet rekonstruksjonsforhandling. Rekonstruktør er oppnevnt.`,
  },
  bankruptcy: {
    type: "Konkursåpning",
    risk: 4,
    operational: [90, 100],
    legal: [85, 100],
    detail: ({ court }) => `${court} har åpnet konkurs i selskapet. Bostyrer er oppnevnt, og frist for å melde krav er satt.`,
  },
  forcedDissolution: {
    type: "Tvangsoppløsning",
    risk: 4,
    operational: [85, 100],
    legal: [85, 100],
    detail: ({ court }) => `${court} har besluttet tvangsoppløsning av selskapet. Avviklingsstyre er oppnevnt.`,
  },
} satisfies Record<string, Kind>;

type KindName = keyof typeof K;

const ROUTINE: readonly (readonly [KindName, number])[] = [
  ["address", 3],
  ["board", 4],
  ["articles", 2],
  ["accounts", 5],
  ["signature", 2],
  ["industry", 1],
  ["capitalUp", 2],
  ["auditor", 2],
  ["merger", 0.7],
  ["capitalDown", 0.5],
  ["demerger", 0.3],
  ["dissolutionWarning", 0.35],
  ["fine", 0.3],
  ["auditorLeft", 0.2],
  ["petition", 0.08],
  ["restructuring", 0.04],
];
const TROUBLED: readonly (readonly [KindName, number])[] = [
  ["address", 2],
  ["board", 3],
  ["accounts", 3],
  ["signature", 1],
  ["capitalUp", 2.5],
  ["auditor", 2],
  ["capitalDown", 1.5],
  ["dissolutionWarning", 1.2],
  ["fine", 1.5],
  ["auditorLeft", 1],
  ["petition", 0.6],
  ["restructuring", 0.3],
];

/** Foreign units: only events any register announces, none of the Norwegian-specific ones. */
const FOREIGN: readonly (readonly [KindName, number])[] = [
  ["address", 3],
  ["board", 4],
  ["auditor", 2],
  ["capitalUp", 1.5],
  ["merger", 0.5],
];

const WINDOW_DAYS = 3 * 365;

/** The latest year whose accounts were due by `date` (they are due by the end of July of the next year). */
const overdueAccountsYear = (date: Date) => date.getUTCFullYear() - (date.getUTCMonth() >= 7 ? 1 : 2);

export function generateAnnouncements(x: EventContext): AnnouncementRow[] {
  const { company: c, today } = x;
  const rng = new Rng(`announcements:${c.orgNumber}`);
  const court = c.isForeign ? "Retten" : (COURTS[(c.postalCode ?? "0").charAt(0)] ?? "Oslo tingrett");
  const out: AnnouncementRow[] = [];
  const windowStart = daysBefore(today, WINDOW_DAYS);
  const bankruptcy = c.isBankrupt ? parseIsoDate(c.bankruptcyDate) : null;
  const lastDay = bankruptcy ?? today;

  function add(kind: KindName, date: Date, detail?: string) {
    const k: Kind = K[kind];
    out.push({
      company_id: c.id,
      date: isoDate(date),
      type: k.type,
      detail: detail ?? k.detail({ rng, company: c, date, court, subsidiaryName: x.subsidiaryName }),
      risk: k.risk,
      operational_risk: Math.round(rng.range(k.operational[0], k.operational[1])),
      legal_risk: Math.round(rng.range(k.legal[0], k.legal[1])),
    });
  }
  const randomDay = (from: Date, to: Date) => daysAfter(from, Math.floor(rng.float() * Math.max(1, (to.getTime() - from.getTime()) / 86_400_000)));

  // What the register would have announced anyway.
  for (const change of x.changes) {
    const date = parseIsoDate(change.date);
    if (!date || date < windowStart || date > today) continue;
    if (change.kind === "ceo") add("ceo", date, `${change.incoming ?? "Ny daglig leder"} er registrert som daglig leder. ${change.outgoing} er fratrådt.`);
    else if (change.kind === "chair") add("board", date, `${change.incoming ?? "Ny styreleder"} er registrert som styreleder etter ${change.outgoing}.`);
    else add("board", date, `${change.outgoing} er fratrådt som ${change.kind === "deputy" ? "varamedlem" : "styremedlem"}.`);
  }
  for (const { year, amount } of x.capitalIncreases) {
    const date = new Date(Date.UTC(year, 11, rng.int(1, 20)));
    if (date >= windowStart && date <= today)
      add("capitalUp", date, `Kapitalforhøyelse ved nytegning av aksjer er registrert. Samlet innskudd: ${formatNok(amount)}.`);
  }
  if (bankruptcy) {
    if (!c.isForeign) add("fine", daysBefore(bankruptcy, rng.int(150, 300)));
    add("petition", daysBefore(bankruptcy, rng.int(20, 60)));
    add("bankruptcy", bankruptcy);
  } else if (c.isUnderForcedLiquidation) {
    add("dissolutionWarning", daysBefore(today, rng.int(200, 420)));
    add("forcedDissolution", daysBefore(today, rng.int(30, 150)));
  } else if (c.isUnderLiquidation) {
    add("liquidation", daysBefore(today, rng.int(60, 500)));
  }

  const staff = c.employees ?? 0;
  const demo = c.demoIndex >= 0;
  const [lo, hi] = demo ? [8, 12] : c.isForeign ? [1, 3] : staff >= 250 ? [3, 6] : staff >= 50 ? [2, 4] : staff >= 10 ? [1, 3] : staff >= 1 ? [0, 3] : [0, 2];
  const wanted = rng.int(lo, hi);
  const table = c.isForeign ? FOREIGN : x.lossMaking || c.demoIndex === 10 ? TROUBLED : ROUTINE;
  // The struggling demo supplier's story: a late-filing fine and a creditor's petition within two years.
  if (c.demoIndex === 10) {
    add("fine", daysBefore(today, rng.int(250, 400)));
    add("petition", daysBefore(today, rng.int(60, 200)));
  }
  if (c.demoIndex === 12) add("auditorLeft", daysBefore(today, rng.int(100, 500)));
  // Demo suppliers keep some history beyond the two-year risk window.
  if (demo) {
    add("accounts", daysBefore(today, rng.int(760, 1050)));
    add(rng.pick(["address", "articles", "auditor"] as const), daysBefore(today, rng.int(740, 1080)));
  }
  const from = windowStart < lastDay ? windowStart : daysBefore(lastDay, WINDOW_DAYS);
  while (out.length < wanted) {
    const kind = rng.weighted(table);
    if (kind === "merger" && !x.subsidiaryName && rng.chance(0.7)) continue;
    add(kind, randomDay(from, lastDay));
  }
  return out.sort((a, b) => a.date.localeCompare(b.date));
}

interface NewsItem {
  title: (name: string) => string;
  description: (name: string) => string;
}

const item = (title: (n: string) => string, description: (n: string) => string): NewsItem => ({ title, description });

/** News by risk band: 0–19, 20–39, 40–59, 60–79, 80–100. */
const NEWS: readonly (readonly NewsItem[])[] = [
  [
    item(
      (n) => `${n} vinner kontrakt med offentlig oppdragsgiver`,
      (n) => `${n} er tildelt en rammeavtale etter anbudskonkurranse. Avtalen gjelder i to år med opsjon på forlengelse.`,
    ),
    item(
      (n) => `${n} åpner ny avdeling`,
      (n) => `${n} utvider med en ny avdeling og planlegger flere ansettelser i løpet av året.`,
    ),
    item(
      (n) => `${n} styrker ledergruppen`,
      (n) => `${n} har ansatt ny økonomidirektør og ny leder for salg.`,
    ),
    item(
      (n) => `${n} får miljøsertifisering`,
      (n) => `${n} er sertifisert etter ISO 14001 og rapporterer nå klimagassutslipp årlig.`,
    ),
  ],
  [
    item(
      (n) => `${n} varsler prisøkning`,
      (n) => `${n} øker prisene med mellom fem og åtte prosent som følge av høyere innkjøpskostnader.`,
    ),
    item(
      (n) => `${n} flytter hovedkontoret`,
      (n) => `${n} samler virksomheten i nye lokaler. Flyttingen skal være ferdig innen årsskiftet.`,
    ),
    item(
      (n) => `Ny eier inn i ${n}`,
      (n) => `En ny investor har kjøpt seg inn i ${n}. Partene opplyser ikke om prisen.`,
    ),
    item(
      (n) => `Svakere resultat for ${n}`,
      (n) => `${n} leverte et svakere driftsresultat enn året før, men har fortsatt positiv egenkapital.`,
    ),
  ],
  [
    item(
      (n) => `${n} varsler nedbemanning`,
      (n) => `${n} har innledet drøftinger med de tillitsvalgte om nedbemanning av inntil ti prosent av de ansatte.`,
    ),
    item(
      (n) => `Kunder klager på forsinkelser hos ${n}`,
      (n) => `Flere kunder melder om forsinkede leveranser fra ${n}. Selskapet peker på mangel på innsatsvarer.`,
    ),
    item(
      (n) => `${n} taper stor anbudskonkurranse`,
      (n) => `${n} nådde ikke opp i en anbudskonkurranse om en av selskapets største kontrakter.`,
    ),
    item(
      (n) => `Uenighet i styret i ${n}`,
      (n) => `Et styremedlem i ${n} har trukket seg etter uenighet om selskapets strategi.`,
    ),
  ],
  [
    item(
      (n) => `Arbeidstilsynet gir pålegg til ${n}`,
      (n) => `Arbeidstilsynet fant avvik i arbeidstidsordningen hos ${n} og har gitt pålegg om retting.`,
    ),
    item(
      (n) => `Kraftig underskudd i ${n}`,
      (n) => `${n} fikk et betydelig underskudd i fjor, og egenkapitalen er svekket.`,
    ),
    item(
      (n) => `${n} mister sin største kunde`,
      (n) => `Den største kunden til ${n} har sagt opp avtalen. Kunden sto for en betydelig del av omsetningen.`,
    ),
    item(
      (n) => `Brann i lokalene til ${n}`,
      (n) => `En brann skadet deler av lokalene til ${n}. Driften er delvis stanset mens skadene utbedres.`,
    ),
  ],
  [
    item(
      (n) => `Datainnbrudd hos ${n}`,
      (n) => `${n} har vært utsatt for et løsepengevirus. Kundedata kan være på avveie, og Datatilsynet er varslet.`,
    ),
    item(
      (n) => `Leverandører venter på betaling fra ${n}`,
      (n) => `Flere leverandører opplyser at ${n} ikke har betalt forfalte fakturaer, og at saker er sendt til inkasso.`,
    ),
    item(
      (n) => `${n} får ikke forlenget lånefinansiering`,
      (n) => `Banken har ikke forlenget kredittrammen til ${n}. Selskapet søker ny finansiering.`,
    ),
    item(
      (n) => `Alvorlig arbeidsulykke hos ${n}`,
      (n) => `En ansatt ble alvorlig skadet i en arbeidsulykke hos ${n}. Politiet og Arbeidstilsynet undersøker saken.`,
    ),
  ],
];

/** Invented outlets; their names also mark the rows as generated. */
export const NEWS_SOURCES = ["Demo Næringsliv", "Demo Bransjeavis", "Demo Lokalavis", "Demo Økonominytt"] as const;
export const ANNOUNCEMENT_SOURCE = "Kunngjøringer (demo)";

/** Which news bands an announcement of a given risk level may stand in for. */
const bandsOf = (risk: number) => (risk >= 4 ? [4] : risk === 3 ? [3] : risk === 2 ? [1, 2] : [0, 1]);

export function generateNotifications(x: EventContext, announcements: readonly AnnouncementRow[]): NotificationRow[] {
  const { company: c, today } = x;
  const rng = new Rng(`notifications:${c.orgNumber}`);
  const demo = c.demoIndex >= 0;
  if (!demo && !rng.chance(x.lossMaking ? 0.6 : 0.4)) return [];
  const count = demo ? rng.int(7, 10) : rng.int(1, 4);
  const name = displayName(c.name);
  const lastDay = c.isBankrupt ? (parseIsoDate(c.bankruptcyDate) ?? today) : today;
  const out: NotificationRow[] = [];
  for (let k = 0; k < count; k++) {
    // Demo suppliers get scores spread over the whole scale; others lean low unless they are losing money.
    const score = demo ? Math.min(100, Math.round(((k + rng.float()) / count) * 100)) : Math.round(Math.pow(rng.float(), x.lossMaking ? 0.8 : 1.6) * 100);
    const band = Math.min(4, Math.floor(score / 20));
    const matching = announcements.filter((a) => bandsOf(a.risk).includes(band));
    const created = (date: Date) => new Date(date.getTime() + rng.int(6, 36) * 3_600_000).toISOString();
    if (matching.length && rng.chance(0.35)) {
      const a = rng.pick(matching);
      const date = parseIsoDate(a.date) ?? today;
      out.push({
        company_id: c.id,
        type: "announcement",
        date: a.date,
        created_at: created(date),
        risk_score: score,
        relevance_score: rng.int(70, 100),
        title: `${a.type}: ${name}`,
        source: ANNOUNCEMENT_SOURCE,
        url: `https://kunngjoringer.example.com/${slug(c.orgNumber)}/${a.date}`,
        description: a.detail,
      });
      continue;
    }
    const news = rng.pick(NEWS[band]);
    const date = daysBefore(lastDay, rng.int(3, WINDOW_DAYS - 5));
    const source = rng.pick(NEWS_SOURCES);
    const title = news.title(name);
    out.push({
      company_id: c.id,
      type: "search",
      date: isoDate(date),
      created_at: created(date),
      risk_score: score,
      relevance_score: rng.int(35, 100),
      title,
      source,
      url: `https://${slug(source)}.example.com/${date.getUTCFullYear()}/${String(date.getUTCMonth() + 1).padStart(2, "0")}/${slug(title)}-${rng.int(10000, 99999)}`,
      description: news.description(name),
    });
  }
  return out;
}
