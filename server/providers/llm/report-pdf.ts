import { Lexer, type Token, type Tokens } from "marked";
import { BOLD, CONTENT_BOTTOM, FOOTER_TOP, INK, interpolate, LEFT, MARGIN, PageWriter, WIDTH, winAnsi, type TextStyle } from "../../pdf/page-writer";

/**
 * A supplier report's markdown as a PDF (/ai/reports): A4, pdfkit's built-in Helvetica (text through `winAnsi`,
 * so æ, ø, å and the no-break spaces of Norwegian numbers print as they are), the credit report's page geometry, colours
 * and furniture. The markdown's structure is drawn — headings, paragraphs, bullet and numbered lists, tables (column widths
 * from their content, header repeated after a page break), block quotes, rules, code — and inline markup is reduced to its
 * text: a report is read, not clicked, and nothing in it can reach out of the document. Pure: same input, same bytes.
 */

export interface ReportPdfInput {
  markdown: string;
  language: "en" | "no";
  /** The report's time: the PDF's CreationDate (fixed, so the file is reproducible). */
  createdAt: Date;
  title: string;
  /** Running head from page 2 and the document's subject, e.g. "Vinmonopolet AS · 910 000 000". */
  subject: string;
  /** Footer lines, already in the report's language. */
  footer: string;
  /** "Page {{page}} of {{pages}}" in the report's language. */
  pageLabel: string;
  productName: string;
}

const COLOR = { ...INK, code: "#f2f5f8" } as const;
const ITALIC = "Helvetica-Oblique";
const MONO = "Courier";
const BODY = 9.5;
const TABLE = { size: 8.5, padX: 5, padY: 4 };
const HEADING_SIZE: Record<number, number> = { 1: 17, 2: 12, 3: 10.5, 4: 10, 5: 9.5, 6: 9.5 };

type Style = TextStyle;

/** The text of inline tokens (markup dropped, escapes resolved). */
export function inlineText(tokens: Token[] | undefined, fallback = ""): string {
  if (!tokens) return fallback;
  return tokens
    .map((t) => {
      if (t.type === "br") return "\n";
      if ("tokens" in t && Array.isArray(t.tokens) && t.tokens.length) return inlineText(t.tokens);
      return "text" in t && typeof t.text === "string" ? decodeEntities(t.text) : "";
    })
    .join("");
}

// marked escapes &, <, >, " and ' in inline text; the PDF shows the characters.
function decodeEntities(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#39);/g, (_, e: string) => ({ amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'" })[e] ?? _);
}

class PdfWriter extends PageWriter {
  constructor(readonly input: ReportPdfInput) {
    super(
      { title: input.title, subject: input.subject, product: input.productName, creationDate: input.createdAt, language: input.language },
      { size: BODY, lineGap: 1.5 },
    );
  }

  /** A paragraph that may run over pages: written line group by line group so no text falls into the footer. */
  paragraph(text: string, x: number, width: number, style: Style = {}, after = 6) {
    const lines = text.split("\n");
    for (const line of lines) {
      const words = line.split(/(?<=\s)/);
      let chunk = "";
      for (const word of words) {
        const next = chunk + word;
        // Fill the rest of the page with as much of the paragraph as fits; the rest goes on the next page.
        if (chunk && this.y + this.height(next, width, style) > CONTENT_BOTTOM) {
          this.write(chunk.trimEnd(), x, this.y, width, style);
          this.doc.addPage();
          this.y = MARGIN.top;
          chunk = word;
        } else chunk = next;
      }
      const h = this.height(chunk || " ", width, style);
      this.ensure(h);
      this.write(chunk, x, this.y, width, style);
      this.y += h;
    }
    this.y += after;
  }

  heading(token: Tokens.Heading) {
    const text = inlineText(token.tokens, token.text);
    const size = HEADING_SIZE[token.depth] ?? BODY;
    const style: Style = { font: BOLD, size, color: COLOR.navy };
    const h = this.height(text, WIDTH, style);
    // A heading keeps at least a few lines of its section with it.
    this.ensure(h + 40);
    if (token.depth <= 2) this.doc.outline.addItem(winAnsi(text));
    this.write(text, LEFT, this.y, WIDTH, style);
    this.y += h + (token.depth === 1 ? 4 : 2);
    if (token.depth <= 2) {
      this.rule(LEFT, this.y, WIDTH, COLOR.navy, token.depth === 1 ? 1 : 0.6);
      this.y += 8;
    } else this.y += 3;
  }

  list(token: Tokens.List, x: number, width: number, depth = 0) {
    const start = typeof token.start === "number" ? token.start : 1;
    token.items.forEach((item, i) => {
      const marker = token.ordered ? `${start + i}.` : depth % 2 ? "–" : "•";
      const indent = token.ordered ? 16 : 11;
      const inline: Token[] = [];
      const nested: Tokens.List[] = [];
      for (const child of item.tokens) {
        if (child.type === "list") nested.push(child as Tokens.List);
        else if (child.type === "text" || child.type === "paragraph") inline.push(...((child as Tokens.Text).tokens ?? [child]));
        else inline.push(child);
      }
      const text = inlineText(inline);
      this.ensure(this.height(text.split(/\s+/).slice(0, 12).join(" ") || " ", width - indent));
      this.write(marker, x, this.y, indent, { color: COLOR.muted });
      this.paragraph(text, x + indent, width - indent, {}, 2.5);
      for (const n of nested) this.list(n, x + indent, width - indent, depth + 1);
    });
    if (depth === 0) this.y += 4;
  }

  table(token: Tokens.Table) {
    const header = token.header.map((c) => inlineText(c.tokens, c.text));
    const rows = token.rows.map((r) => r.map((c) => inlineText(c.tokens, c.text)));
    const align = token.align.map((a) => (a === "right" ? "right" : a === "center" ? "center" : "left"));
    const widths = this.columnWidths(header, rows);
    const headerStyle: Style = { font: BOLD, size: TABLE.size - 0.5, color: COLOR.navy };
    const rowHeight = (cells: string[], style: Style) =>
      Math.max(...cells.map((c, i) => this.height(c || " ", widths[i]! - 2 * TABLE.padX, style))) + 2 * TABLE.padY;
    const drawHeader = () => {
      const h = rowHeight(header, headerStyle);
      this.fillRect(LEFT, this.y, WIDTH, h, COLOR.headerFill);
      let x = LEFT;
      header.forEach((c, i) => {
        this.write(c, x + TABLE.padX, this.y + TABLE.padY, widths[i]! - 2 * TABLE.padX, headerStyle, { align: align[i] });
        x += widths[i]!;
      });
      this.y += h;
    };
    this.ensure(rowHeight(header, headerStyle) + (rows[0] ? rowHeight(rows[0], { size: TABLE.size }) : 0));
    drawHeader();
    rows.forEach((row, r) => {
      const h = rowHeight(row, { size: TABLE.size });
      if (this.y + h > CONTENT_BOTTOM) {
        this.doc.addPage();
        this.y = MARGIN.top;
        drawHeader();
      }
      if (r % 2 === 1) this.fillRect(LEFT, this.y, WIDTH, h, COLOR.zebra);
      let x = LEFT;
      row.forEach((c, i) => {
        this.write(c, x + TABLE.padX, this.y + TABLE.padY, widths[i]! - 2 * TABLE.padX, { size: TABLE.size }, { align: align[i] });
        x += widths[i]!;
      });
      this.y += h;
      this.rule(LEFT, this.y, WIDTH);
    });
    this.y += 10;
  }

  /** Widths in proportion to each column's longest word and its text, every column at least 40 pt, filling the page width. */
  private columnWidths(header: string[], rows: string[][]): number[] {
    this.style({ size: TABLE.size });
    const n = header.length;
    const want = header.map((h, i) => {
      const cells = [h, ...rows.map((r) => r[i] ?? "")];
      const longest = Math.max(...cells.map((c) => this.doc.widthOfString(winAnsi(c))));
      return Math.min(longest, 260) + 2 * TABLE.padX;
    });
    const minimum = Math.min(40, WIDTH / n);
    const total = want.reduce((a, b) => a + b, 0);
    if (total <= WIDTH) {
      const extra = (WIDTH - total) / n;
      return want.map((w) => w + extra);
    }
    const scaled = want.map((w) => Math.max(minimum, (w / total) * WIDTH));
    const sum = scaled.reduce((a, b) => a + b, 0);
    return scaled.map((w) => (w / sum) * WIDTH);
  }

  block(token: Token) {
    switch (token.type) {
      case "heading":
        return this.heading(token as Tokens.Heading);
      case "paragraph": {
        const p = token as Tokens.Paragraph;
        // A paragraph that is only emphasis (the report's byline) prints in italics, muted.
        const only = p.tokens.length === 1 && p.tokens[0]!.type === "em";
        return this.paragraph(inlineText(p.tokens, p.text), LEFT, WIDTH, only ? { font: ITALIC, size: BODY - 0.5, color: COLOR.muted } : {});
      }
      case "text":
        return this.paragraph(inlineText((token as Tokens.Text).tokens, (token as Tokens.Text).text), LEFT, WIDTH);
      case "list":
        return this.list(token as Tokens.List, LEFT, WIDTH);
      case "table":
        return this.table(token as Tokens.Table);
      case "blockquote": {
        const q = token as Tokens.Blockquote;
        const top = this.y;
        const text = q.tokens.map((t) => ("tokens" in t && Array.isArray(t.tokens) ? inlineText(t.tokens) : "text" in t ? String(t.text) : "")).join("\n");
        this.paragraph(text, LEFT + 12, WIDTH - 12, { color: COLOR.muted }, 2);
        if (this.y > top)
          this.doc
            .save()
            .rect(LEFT, top, 2.5, this.y - top)
            .fillColor(COLOR.rule)
            .fill()
            .restore();
        this.y += 6;
        return;
      }
      case "code": {
        const text = (token as Tokens.Code).text;
        const h = this.height(text, WIDTH - 12, { font: MONO, size: 8 });
        this.ensure(Math.min(h, 120) + 8);
        this.paragraph(text, LEFT + 6, WIDTH - 12, { font: MONO, size: 8 }, 8);
        return;
      }
      case "hr":
        this.ensure(12);
        this.rule(LEFT, this.y + 4, WIDTH);
        this.y += 12;
        return;
      case "space":
        return;
      default:
        // Raw HTML and anything else: shown as the text it is.
        if ("text" in token && typeof token.text === "string" && token.text.trim()) this.paragraph(token.text, LEFT, WIDTH);
    }
  }

  furniture() {
    const { doc, input } = this;
    const range = doc.bufferedPageRange();
    for (let i = range.start; i < range.start + range.count; i++) {
      doc.switchToPage(i);
      // The footer lies below the bottom margin; with the margin in place pdfkit would answer by adding a page.
      doc.page.margins.bottom = 0;
      if (i > range.start) {
        this.write(input.productName, LEFT, 30, 200, { font: BOLD, size: 7.5, color: COLOR.navy }, { lineBreak: false });
        this.write(
          input.subject,
          LEFT + 210,
          30,
          WIDTH - 210,
          { size: 7.5, color: COLOR.muted },
          { align: "right", lineBreak: false, ellipsis: true, height: 10 },
        );
        this.rule(LEFT, 42, WIDTH);
      }
      this.rule(LEFT, FOOTER_TOP, WIDTH);
      this.write(input.footer, LEFT, FOOTER_TOP + 6, WIDTH - 80, { size: 6.8, color: COLOR.muted });
      const page = interpolate(input.pageLabel, { page: i - range.start + 1, pages: range.count });
      this.write(page, LEFT + WIDTH - 75, FOOTER_TOP + 6, 75, { font: BOLD, size: 7.5 }, { align: "right", lineBreak: false });
    }
  }

  render(): Promise<Buffer> {
    const chunks: Buffer[] = [];
    const done = new Promise<Buffer>((resolve, reject) => {
      this.doc.on("data", (chunk: Buffer) => chunks.push(chunk));
      this.doc.on("end", () => resolve(Buffer.concat(chunks)));
      this.doc.on("error", reject);
    });
    for (const token of new Lexer({ gfm: true }).lex(this.input.markdown)) this.block(token);
    this.furniture();
    this.doc.end();
    return done;
  }
}

/** Renders a supplier report's markdown as a PDF. */
export function renderReportPdf(input: ReportPdfInput): Promise<Buffer> {
  return new PdfWriter(input).render();
}
