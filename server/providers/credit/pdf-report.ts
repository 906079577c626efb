import { BOLD, CONTENT_BOTTOM, FOOTER_TOP, INK, interpolate, LEFT, PageWriter, REGULAR, WIDTH, A4, winAnsi, type TextStyle } from "../../pdf/page-writer";
import { ebitda, type FinancialRiskScore, type FinancialStatement } from "~/models/registry/financials";
import { formatDate, formatOwnership, formatPercent, formatThousands, MISSING } from "~/models/shared/format";
import { announcementRiskLabel, isCeo, isChairman, riskBandColor, type RiskBand } from "~/models/suppliers/risk";
import type en from "../../../locales/en/creditReport.json";

/**
 * The layout of the local provider's credit report (A4, pdfkit, built-in
 * Helvetica). Pure: it gets everything it prints in a {@link CreditReportInput}
 * and reads nothing else, so the same input and `now` give the same bytes.
 * Every printed word comes in with the input: the caller hands over the
 * creditReport texts (locales/{en,no}/creditReport.json) of the report's language.
 */

/** The creditReport namespace of one language, shaped like the English file. */
export type ReportTexts = typeof en;
/** The languages a report is written in (the app's interface languages). */
export type ReportTextLanguage = "en" | "no";

export interface ReportCompanyFlags {
  bankrupt: boolean;
  bankruptcyDate: string | null;
  underLiquidation: boolean;
  underForcedLiquidation: boolean;
  /** The register's is_active = 0. */
  inactive: boolean;
  deletedAt: string | null;
}

export interface CreditReportInput {
  language: ReportTextLanguage;
  /** Every printed word, in `language`. */
  texts: ReportTexts;
  /** The moment of the report: printed as its Oslo calendar date and written as the PDF's CreationDate. */
  now: Date;
  company: {
    orgNumber: string;
    name: string;
    legalForm: string | null;
    industry: string | null;
    establishmentDate: string | null;
    registrationDate: string | null;
    employees: number | null;
    /** Country name in the report language, with its code. */
    country: string;
    website: string | null;
    purpose: string | null;
    address: { lines: string[]; postCode: string | null; city: string | null };
    flags: ReportCompanyFlags;
    /** True when the company facts come from Brønnøysundregistrene (the NLOD attribution applies). */
    fromRegistry: boolean;
  };
  /** The newest statement's score and its year; null without a scored statement. */
  risk: { score: FinancialRiskScore; year: number } | null;
  board: Array<{ name: string; position: string; since: string | null }>;
  shareholders: Array<{ name: string; kind: "company" | "person"; orgNumber: string | null; ownership: number | null }>;
  /** Newest first. */
  statements: FinancialStatement[];
  currency: string;
  /** Already limited to the report's window, newest first. */
  announcements: Array<{ date: string; type: string; detail: string | null; risk: number }>;
}

/* ---------------- text helpers ---------------- */

export { interpolate, winAnsi };

const OSLO = "Europe/Oslo";

/** 'YYYY-MM-DD' of an instant in Oslo: the report's calendar date, also used in the file name. */
export function osloDate(instant: Date): string {
  const parts = new Intl.DateTimeFormat("en-GB", { timeZone: OSLO, year: "numeric", month: "2-digit", day: "2-digit" }).formatToParts(instant);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? "00";
  return `${part("year")}-${part("month")}-${part("day")}`;
}

/**
 * English reports use the product's en-GB dates ('5 Mar 2024'); Norwegian
 * ones the dd.mm.yyyy a Norwegian reader expects in a formal document.
 */
function formatDay(value: string | Date | null | undefined, language: ReportTextLanguage): string {
  if (value === null || value === undefined || value === "") return MISSING;
  if (language === "en") return formatDate(value);
  const day = value instanceof Date ? osloDate(value) : value.slice(0, 10);
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  return match ? `${match[3]}.${match[2]}.${match[1]}` : MISSING;
}

function formatDecimal(value: number | null, language: ReportTextLanguage, digits: number): string {
  if (value === null || !Number.isFinite(value)) return MISSING;
  return new Intl.NumberFormat(language, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(value);
}

/** Bands of the financial risk parts (shared/spec/02-supplier-credit-connections.md §9): ≤33 low, ≤66 medium, above high — the colour bands' thresholds. */
const BAND_KEY: Record<RiskBand, "low" | "medium" | "high"> = { green: "low", yellow: "medium", red: "high" };

/* ---------------- page geometry and style ---------------- */

const COLOR = {
  ...INK,
  boxFill: "#f2f5f8",
  track: "#dde3ea",
  white: "#ffffff",
  low: "#2f7d32",
  medium: "#b7791f",
  high: "#c0392b",
  grey: "#6b7280",
  dark: "#374151",
} as const;

const BAND_COLOR: Record<RiskBand, string> = { green: COLOR.low, yellow: COLOR.medium, red: COLOR.high };

interface Column {
  header: string;
  width: number;
  align?: "left" | "right" | "center";
}

interface Cell extends TextStyle {
  text: string;
}

type Row = Array<string | Cell>;

const TABLE = { size: 8.5, headerSize: 7.5, padX: 5, padY: 4, lineGap: 1 };

type Flag = { short: string; detail: string; color: string; tint: string; adverse: boolean };

class ReportWriter extends PageWriter {
  readonly t: ReportTexts;

  constructor(
    readonly input: CreditReportInput,
    readonly reportDay: string,
  ) {
    const { name, orgNumber } = input.company;
    const product = input.texts.productName;
    super(
      {
        title: interpolate(input.texts.documentTitle, { name }),
        subject: interpolate(input.texts.documentSubject, { name, orgNumber, product }),
        product,
        creationDate: input.now,
        language: input.language,
      },
      { size: 9, lineGap: 1 },
    );
    this.t = input.texts;
  }

  /** A section title with its rule, kept on one page with the first `following` points of its content. */
  section(title: string, following: number, x = LEFT, width = WIDTH) {
    const titleHeight = 24;
    this.ensure(titleHeight + following);
    this.doc.outline.addItem(winAnsi(title));
    this.write(title, x, this.y, width, { font: BOLD, size: 11, color: COLOR.navy });
    this.rule(x, this.y + 15, width, COLOR.navy, 0.8);
    this.y += titleHeight;
  }

  /** A muted paragraph (empty-section messages, notes). */
  note(text: string, size = 8.5) {
    const h = this.height(text, WIDTH, { size });
    this.ensure(h);
    this.write(text, LEFT, this.y, WIDTH, { size, color: COLOR.muted });
    this.y += h + 4;
  }

  /** Label/value rows in a column; returns the y below the last row. Values wrap inside their width. */
  keyValues(rows: Array<[label: string, value: string, style?: TextStyle]>, x: number, y: number, width: number, labelWidth: number): number {
    const valueWidth = width - labelWidth - 6;
    for (const [label, value, style] of rows) {
      const h = Math.max(this.height(label, labelWidth, { size: 8 }), this.height(value, valueWidth, { size: 9, ...style }));
      this.write(label, x, y + 0.8, labelWidth, { size: 8, color: COLOR.muted });
      this.write(value, x + labelWidth + 6, y, valueWidth, { size: 9, ...style });
      y += h + 4;
    }
    return y;
  }

  /* ---- tables ---- */

  private cell(value: string | Cell): Cell {
    return typeof value === "string" ? { text: value } : value;
  }

  private headerHeight(columns: Column[]): number {
    return Math.max(...columns.map((c) => this.height(c.header, c.width - 2 * TABLE.padX, { font: BOLD, size: TABLE.headerSize }))) + 2 * TABLE.padY;
  }

  private rowHeight(columns: Column[], row: Row): number {
    return (
      Math.max(
        ...columns.map((c, i) => {
          const cell = this.cell(row[i] ?? "");
          return this.height(cell.text, c.width - 2 * TABLE.padX, { size: TABLE.size, ...cell }, TABLE.lineGap);
        }),
      ) +
      2 * TABLE.padY
    );
  }

  /** Height of the table's head and first two rows: what a section title must keep with it, so no row is left alone under a title. */
  tableStart(columns: Column[], rows: Row[]): number {
    return this.headerHeight(columns) + rows.slice(0, 2).reduce((sum, row) => sum + this.rowHeight(columns, row), 0);
  }

  private tableHeader(columns: Column[]) {
    const h = this.headerHeight(columns);
    this.fillRect(LEFT, this.y, WIDTH, h, COLOR.headerFill);
    let x = LEFT;
    for (const c of columns) {
      this.write(
        c.header,
        x + TABLE.padX,
        this.y + TABLE.padY,
        c.width - 2 * TABLE.padX,
        { font: BOLD, size: TABLE.headerSize, color: COLOR.navy },
        { align: c.align ?? "left" },
      );
      x += c.width;
    }
    this.y += h;
  }

  /**
   * Rows are measured before they are drawn: a row that does not fit goes
   * whole to the next page, which repeats the column heads.
   */
  table(columns: Column[], rows: Row[]) {
    this.ensure(this.tableStart(columns, rows));
    this.tableHeader(columns);
    rows.forEach((row, index) => {
      const h = this.rowHeight(columns, row);
      if (this.y + h > CONTENT_BOTTOM) {
        this.newPage();
        this.tableHeader(columns);
      }
      if (index % 2 === 1) this.fillRect(LEFT, this.y, WIDTH, h, COLOR.zebra);
      // Each row draws the rule above itself, after its fill, so a fill never hides a rule.
      if (index > 0) this.rule(LEFT, this.y, WIDTH);
      let x = LEFT;
      columns.forEach((c, i) => {
        const cell = this.cell(row[i] ?? "");
        this.write(
          cell.text,
          x + TABLE.padX,
          this.y + TABLE.padY,
          c.width - 2 * TABLE.padX,
          { size: TABLE.size, ...cell },
          { align: c.align ?? "left", lineGap: TABLE.lineGap },
        );
        x += c.width;
      });
      this.y += h;
    });
    this.rule(LEFT, this.y, WIDTH, COLOR.rule, 0.8);
    this.y += 6;
  }

  /* ---- content ---- */

  flags(): Flag[] {
    const { flags } = this.input.company;
    const s = this.t.status;
    const lang = this.input.language;
    const out: Flag[] = [];
    if (flags.bankrupt || flags.bankruptcyDate) {
      out.push({
        short: s.bankrupt,
        detail: flags.bankruptcyDate ? interpolate(s.bankruptSince, { date: formatDay(flags.bankruptcyDate, lang) }) : s.bankrupt,
        color: COLOR.high,
        tint: "#fbeaea",
        adverse: true,
      });
    }
    const amber = { color: COLOR.medium, tint: "#fbf1e0", adverse: true };
    if (flags.underForcedLiquidation) out.push({ short: s.underForcedLiquidation, detail: s.underForcedLiquidationDetail, ...amber });
    else if (flags.underLiquidation) out.push({ short: s.underLiquidation, detail: s.underLiquidationDetail, ...amber });
    if (flags.deletedAt) {
      out.push({
        short: s.deleted,
        detail: interpolate(s.deletedOn, { date: formatDay(flags.deletedAt, lang) }),
        color: COLOR.dark,
        tint: "#eceef1",
        adverse: true,
      });
    }
    // A bankrupt, liquidated or deleted unit is inactive by definition; the flag only adds news on its own.
    if (flags.inactive && out.length === 0) out.push({ short: s.inactive, detail: s.inactiveDetail, color: COLOR.grey, tint: "#eceef1", adverse: true });
    if (out.length === 0) out.push({ short: s.active, detail: s.activeDetail, color: COLOR.low, tint: "#e8f3e9", adverse: false });
    return out;
  }

  pill(text: string, x: number, y: number, color: string): number {
    const label = text.toLocaleUpperCase(this.input.language === "no" ? "nb" : "en");
    const w = this.textWidth(label, { font: BOLD, size: 7.5 }) + 14;
    this.fillRect(x, y, w, 15, color, 3);
    this.write(label, x + 7, y + 4.2, w, { font: BOLD, size: 7.5, color: COLOR.white }, { lineBreak: false });
    return w;
  }

  titleBlock() {
    const { t, doc } = this;
    const { company } = this.input;
    doc.save().rect(0, 0, A4.width, 86).fillColor(COLOR.navy).fill().restore();
    this.write(t.productName.toLocaleUpperCase("en"), LEFT, 24, 300, { font: BOLD, size: 8.5, color: "#c9d6e6" }, { characterSpacing: 1.2 });
    this.write(t.title, LEFT, 40, 320, { font: BOLD, size: 22, color: COLOR.white });
    this.write(t.reportDate, LEFT + WIDTH - 200, 30, 200, { size: 8, color: "#c9d6e6" }, { align: "right" });
    this.write(formatDay(this.reportDay, this.input.language), LEFT + WIDTH - 200, 43, 200, { font: BOLD, size: 13, color: COLOR.white }, { align: "right" });

    this.y = 108;
    const nameHeight = this.height(company.name, WIDTH, { font: BOLD, size: 17 });
    this.write(company.name, LEFT, this.y, WIDTH, { font: BOLD, size: 17, color: COLOR.ink });
    this.y += nameHeight + 3;
    const meta = [interpolate(t.orgNumberShort, { orgNumber: company.orgNumber }), company.country, company.legalForm].filter(Boolean).join("   ·   ");
    this.write(meta, LEFT, this.y, WIDTH, { size: 9.5, color: COLOR.muted });
    this.y += this.height(meta, WIDTH, { size: 9.5 }) + 8;
    const flags = this.flags();
    if (flags.some((f) => f.adverse)) {
      // An adverse status is the first thing an analyst must see: one tinted banner line per flag.
      for (const flag of flags) {
        const h = 25;
        this.fillRect(LEFT, this.y, WIDTH, h, flag.tint, 3);
        this.fillRect(LEFT, this.y, 4, h, flag.color);
        const w = this.pill(flag.short, LEFT + 12, this.y + 5, flag.color);
        this.write(
          flag.detail,
          LEFT + 12 + w + 10,
          this.y + 8.5,
          WIDTH - w - 34,
          { font: BOLD, size: 9.5, color: flag.color },
          { lineBreak: false, ellipsis: true, height: 12 },
        );
        this.y += h + 4;
      }
      this.y += 14;
    } else {
      let x = LEFT;
      for (const flag of flags) x += this.pill(flag.short, x, this.y, flag.color) + 6;
      this.y += 15 + 18;
    }
  }

  identification() {
    const { t, input } = this;
    const c = input.company;
    const lang = input.language;
    const leftWidth = 300;
    const rightX = LEFT + leftWidth + 24;
    const rightWidth = WIDTH - leftWidth - 24;
    const top = this.y;

    this.section(t.sections.identification, 60, LEFT, leftWidth);
    const leftEnd = this.keyValues(
      [
        [t.fields.legalName, c.name, { font: BOLD }],
        [t.fields.orgNumber, c.orgNumber],
        [t.fields.legalForm, c.legalForm ?? MISSING],
        [t.fields.industry, c.industry ?? MISSING],
        [t.fields.established, formatDay(c.establishmentDate, lang)],
        [t.fields.registered, formatDay(c.registrationDate, lang)],
        [t.fields.employees, c.employees === null ? MISSING : formatThousands(c.employees, lang)],
        [t.fields.country, c.country],
        ...(c.website ? [[t.fields.website, c.website] as [string, string]] : []),
      ],
      LEFT,
      this.y,
      leftWidth,
      104,
    );

    this.y = top;
    this.section(t.sections.address, 60, rightX, rightWidth);
    const place = [c.address.postCode, c.address.city].filter(Boolean).join(" ");
    const addressLines = c.address.lines.length && place ? [...c.address.lines, place] : [t.address.incomplete];
    let y = this.y;
    for (const line of addressLines) {
      const h = this.height(line, rightWidth, { size: 9 });
      this.write(line, rightX, y, rightWidth, { size: 9, color: c.address.lines.length && place ? COLOR.ink : COLOR.muted });
      y += h + 1;
    }
    this.y = y + 12;
    this.section(t.sections.status, 30, rightX, rightWidth);
    y = this.y;
    for (const flag of this.flags()) {
      this.fillRect(rightX, y + 2.2, 6, 6, flag.color, 3);
      const h = this.height(flag.detail, rightWidth - 12, { font: BOLD, size: 9 });
      this.write(flag.detail, rightX + 12, y, rightWidth - 12, { font: BOLD, size: 9, color: flag.color });
      y += h + 4;
    }

    this.y = Math.max(leftEnd, y) + 2;
    if (c.purpose) {
      const end = this.keyValues([[t.fields.purpose, c.purpose]], LEFT, this.y, WIDTH, 104);
      this.y = end;
    }
    this.y += 12;
  }

  riskSummary() {
    const { t, input } = this;
    const lang = input.language;
    const risk = input.risk;
    const pad = 12;
    if (!risk) {
      const h = this.height(t.risk.none, WIDTH - 2 * pad, { size: 9 }) + 2 * pad;
      this.section(t.sections.summary, h);
      this.fillRect(LEFT, this.y, WIDTH, h, COLOR.boxFill, 4);
      this.write(t.risk.none, LEFT + pad, this.y + pad, WIDTH - 2 * pad, { size: 9, color: COLOR.muted });
      this.y += h + 16;
      return;
    }
    const score = (value: number | null | undefined) =>
      typeof value === "number" && Number.isFinite(value) ? new Intl.NumberFormat(lang, { maximumFractionDigits: 0 }).format(value) : MISSING;
    const band = (value: number | null | undefined): RiskBand | null => (typeof value === "number" && Number.isFinite(value) ? riskBandColor(value) : null);
    const parts: Array<[string, number | null | undefined]> = [
      [t.risk.parts.capital, risk.score.capitalRisk],
      [t.risk.parts.liquidity, risk.score.liquidityRisk],
      [t.risk.parts.coverage, risk.score.coverageRisk],
      [t.risk.parts.profitability, risk.score.profitabilityRisk],
      [t.risk.parts.growth, risk.score.growthRisk],
    ];
    const noteText = interpolate(t.risk.basedOn, { year: risk.year });
    const rowH = 16;
    const tableH = 14 + parts.length * rowH;
    const noteH = this.height(noteText, WIDTH - 2 * pad, { size: 7.5 });
    const boxH = pad + Math.max(tableH, 78) + 8 + noteH + pad;
    this.section(t.sections.summary, boxH);
    const top = this.y;
    this.fillRect(LEFT, top, WIDTH, boxH, COLOR.boxFill, 4);

    // Left: the headline score.
    const final = risk.score.finalScore;
    const finalBand = band(final);
    const leftX = LEFT + pad;
    this.write(t.risk.score, leftX, top + pad, 140, { font: BOLD, size: 8, color: COLOR.muted });
    const big = score(final);
    this.write(big, leftX, top + pad + 14, 140, { font: BOLD, size: 30, color: finalBand ? BAND_COLOR[finalBand] : COLOR.muted }, { lineBreak: false });
    const bigWidth = this.textWidth(big, { font: BOLD, size: 30 });
    this.write(t.risk.outOf, leftX + bigWidth + 5, top + pad + 31, 80, { size: 9, color: COLOR.muted }, { lineBreak: false });
    if (finalBand) this.pill(t.risk.bands[BAND_KEY[finalBand]], leftX, top + pad + 55, BAND_COLOR[finalBand]);

    // Right: the five parts with bars.
    const tx = LEFT + 170;
    const cols = { name: 92, value: 34, bar: 118, band: WIDTH - 170 - pad - 92 - 34 - 118 };
    let y = top + pad;
    const head: TextStyle = { font: BOLD, size: 7.5, color: COLOR.navy };
    this.write(t.risk.component, tx, y, cols.name, head);
    this.write(t.risk.value, tx + cols.name, y, cols.value, head, { align: "right" });
    this.write(t.risk.band, tx + cols.name + cols.value + cols.bar, y, cols.band, head, { align: "left" });
    this.rule(tx, y + 11, WIDTH - 170 - pad, COLOR.rule);
    y += 14;
    for (const [name, value] of parts) {
      const b = band(value);
      this.write(name, tx, y + 4, cols.name, { size: 9 });
      this.write(score(value), tx + cols.name, y + 4, cols.value, { font: BOLD, size: 9 }, { align: "right" });
      const barX = tx + cols.name + cols.value + 12;
      const barW = cols.bar - 24;
      this.fillRect(barX, y + 6, barW, 6, COLOR.track, 3);
      if (b && typeof value === "number") this.fillRect(barX, y + 6, Math.max(3, (Math.min(100, Math.max(0, value)) / 100) * barW), 6, BAND_COLOR[b], 3);
      this.write(b ? t.risk.bands[BAND_KEY[b]] : MISSING, tx + cols.name + cols.value + cols.bar, y + 4, cols.band, {
        font: BOLD,
        size: 9,
        color: b ? BAND_COLOR[b] : COLOR.muted,
      });
      y += rowH;
    }
    this.write(noteText, LEFT + pad, top + boxH - pad - noteH, WIDTH - 2 * pad, { size: 7.5, color: COLOR.muted });
    this.y = top + boxH + 16;
  }

  boardSection() {
    const { t, input } = this;
    const lang = input.language;
    const roleKey = (position: string): keyof ReportTexts["board"]["roles"] | null => {
      if (isChairman(position)) return "chair";
      if (isCeo(position)) return "ceo";
      const p = position.toLocaleLowerCase("nb");
      if (p.includes("nestleder") || p.includes("deputy chair")) return "deputyChair";
      if (p.includes("varamedlem") || p.includes("deputy")) return "deputy";
      if (p.includes("styremedlem") || p.includes("board member")) return "member";
      return null;
    };
    // Chair and CEO first, then the board by rank; equal ranks keep the store's order (boardscore).
    const rank: Record<string, number> = { chair: 0, ceo: 1, deputyChair: 2, member: 3, deputy: 4 };
    const members = input.board.map((m) => ({ ...m, key: roleKey(m.position) })).sort((a, b) => (a.key ? rank[a.key] : 5) - (b.key ? rank[b.key] : 5));
    const chair = members.filter((m) => m.key === "chair").map((m) => m.name);
    const ceo = members.filter((m) => m.key === "ceo").map((m) => m.name);
    const columns: Column[] = [
      { header: t.board.name, width: 210 },
      { header: t.board.role, width: 190 },
      { header: t.board.since, width: WIDTH - 400 },
    ];
    const rows: Row[] = members.map((m) => {
      const lead = m.key === "chair" || m.key === "ceo";
      return [{ text: m.name, font: lead ? BOLD : REGULAR }, m.key ? t.board.roles[m.key] : m.position, formatDay(m.since, lang)];
    });
    this.section(t.sections.board, 40 + (rows.length ? this.tableStart(columns, rows) : 0));
    this.y = this.keyValues(
      [
        [t.board.chair, chair.join(", ") || t.board.notRegistered, { font: chair.length ? BOLD : REGULAR, color: chair.length ? COLOR.ink : COLOR.muted }],
        [t.board.ceo, ceo.join(", ") || t.board.notRegistered, { font: ceo.length ? BOLD : REGULAR, color: ceo.length ? COLOR.ink : COLOR.muted }],
      ],
      LEFT,
      this.y,
      WIDTH,
      150,
    );
    this.y += 6;
    if (rows.length) this.table(columns, rows);
    else this.note(t.board.none);
    this.y += 10;
  }

  shareholderSection() {
    const { t, input } = this;
    const columns: Column[] = [
      { header: t.shareholders.name, width: WIDTH - 260 },
      { header: t.shareholders.type, width: 80 },
      { header: t.shareholders.orgNumber, width: 100 },
      { header: t.shareholders.ownership, width: 80, align: "right" },
    ];
    const rows: Row[] = input.shareholders.map((s) => [
      s.name,
      s.kind === "company" ? t.shareholders.company : t.shareholders.person,
      s.orgNumber ?? MISSING,
      { text: formatOwnership(s.ownership, input.language), font: BOLD },
    ]);
    this.section(t.sections.shareholders, rows.length ? this.tableStart(columns, rows) : 20);
    if (rows.length) this.table(columns, rows);
    else this.note(t.shareholders.none);
    this.y += 10;
  }

  keyFigureSection() {
    const { t, input } = this;
    const lang = input.language;
    const k = t.keyFigures;
    const noteText = interpolate(k.note, { currency: input.currency });
    if (!input.statements.length) {
      this.section(t.sections.keyFigures, 20);
      this.note(k.none);
      this.y += 10;
      return;
    }
    const amount = (v: number | null | undefined) => formatThousands(v ?? null, lang);
    const lines: Array<[string, (s: FinancialStatement) => string]> = [
      [k.operatingIncome, (s) => amount(s.operating_income)],
      [k.operatingProfit, (s) => amount(s.operating_profit)],
      [k.ebitda, (s) => amount(ebitda(s))],
      [k.netIncome, (s) => amount(s.net_income)],
      [k.totalAssets, (s) => amount(s.total_assets)],
      [k.equity, (s) => amount(s.equity)],
      [k.equityRatio, (s) => (s.equity != null && s.total_assets ? formatPercent((s.equity / s.total_assets) * 100, lang) : MISSING)],
      [k.currentRatio, (s) => (s.current_assets != null && s.total_current_debt ? formatDecimal(s.current_assets / s.total_current_debt, lang, 2) : MISSING)],
    ];
    // Six years fit across A4 with room for the labels; more years continue in a second table.
    const perTable = 6;
    for (let start = 0; start < input.statements.length; start += perTable) {
      const years = input.statements.slice(start, start + perTable);
      // Few years get wider columns (up to 90 pt) so the figures spread over the width instead of bunching left.
      const yearWidth = Math.min(90, (WIDTH - 140) / years.length);
      const columns: Column[] = [
        { header: interpolate(k.unit, { currency: input.currency }), width: WIDTH - years.length * yearWidth },
        ...years.map((s): Column => ({ header: String(s.financial_year), width: yearWidth, align: "right" })),
      ];
      const rows: Row[] = lines.map(([label, value]) => [{ text: label, font: BOLD }, ...years.map((s) => value(s))]);
      if (start === 0) this.section(t.sections.keyFigures, this.tableStart(columns, rows) + 40);
      this.table(columns, rows);
    }
    this.note(noteText, 7.5);
    this.y += 10;
  }

  announcementSection() {
    const { t, input } = this;
    const a = t.announcements;
    const columns: Column[] = [
      { header: a.date, width: 66 },
      { header: a.type, width: 118 },
      { header: a.detail, width: WIDTH - 66 - 118 - 58 },
      { header: a.risk, width: 58 },
    ];
    const labelColor = { High: COLOR.high, Medium: COLOR.medium, Low: COLOR.low } as const;
    const rows: Row[] = input.announcements.map((n) => {
      const label = announcementRiskLabel(n.risk);
      return [formatDay(n.date, input.language), n.type, n.detail ?? MISSING, { text: a.labels[label], font: BOLD, color: labelColor[label] }];
    });
    this.section(t.sections.announcements, rows.length ? this.tableStart(columns, rows) : 20);
    if (rows.length) this.table(columns, rows);
    else this.note(a.none);
  }

  /** Footer on every page and a running head from page 2 on, drawn once the page count is known. */
  pageFurniture() {
    const { doc, t, input } = this;
    const range = doc.bufferedPageRange();
    const product = t.productName;
    const source = input.company.fromRegistry ? t.footer.sourceRegistry : t.footer.sourceDemo;
    const generated = interpolate(t.footer.generated, { date: formatDay(this.reportDay, input.language), product });
    const textWidth = WIDTH - 80;
    for (let i = range.start; i < range.start + range.count; i++) {
      doc.switchToPage(i);
      // The footer lies below the bottom margin; with the margin in place pdfkit would answer by adding a page.
      doc.page.margins.bottom = 0;
      if (i > range.start) {
        this.write(interpolate(t.continuation, { product }), LEFT, 30, 200, { font: BOLD, size: 7.5, color: COLOR.navy }, { lineBreak: false });
        const head = `${input.company.name}  ·  ${input.company.orgNumber}`;
        this.write(head, LEFT + 210, 30, WIDTH - 210, { size: 7.5, color: COLOR.muted }, { align: "right", lineBreak: false, ellipsis: true, height: 10 });
        this.rule(LEFT, 42, WIDTH, COLOR.rule);
      }
      this.rule(LEFT, FOOTER_TOP, WIDTH, COLOR.rule);
      let y = FOOTER_TOP + 6;
      for (const line of [source, generated]) {
        this.write(line, LEFT, y, textWidth, { size: 6.8, color: COLOR.muted });
        y += this.height(line, textWidth, { size: 6.8 }) + 1.5;
      }
      const page = interpolate(t.footer.page, { page: i - range.start + 1, pages: range.count });
      this.write(page, LEFT + WIDTH - 75, FOOTER_TOP + 6, 75, { font: BOLD, size: 7.5, color: COLOR.ink }, { align: "right", lineBreak: false });
    }
  }

  async render(): Promise<Buffer> {
    const chunks: Buffer[] = [];
    const done = new Promise<Buffer>((resolve, reject) => {
      this.doc.on("data", (chunk: Buffer) => chunks.push(chunk));
      this.doc.on("end", () => resolve(Buffer.concat(chunks)));
      this.doc.on("error", reject);
    });
    this.titleBlock();
    this.identification();
    this.riskSummary();
    this.boardSection();
    this.shareholderSection();
    this.keyFigureSection();
    this.announcementSection();
    this.pageFurniture();
    this.doc.end();
    return done;
  }
}

/** Renders the credit report PDF. */
export function renderCreditReport(input: CreditReportInput): Promise<Buffer> {
  return new ReportWriter(input, osloDate(input.now)).render();
}
