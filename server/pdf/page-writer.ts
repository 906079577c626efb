import PDFDocument from "pdfkit";

/**
 * What the product's PDFs share (the credit report, the supplier report): A4 with pdfkit's built-in Helvetica, one page
 * geometry and palette, text through `winAnsi` (the built-in fonts cannot show other characters), and the drawing
 * primitives of a writer that keeps its own `y` and breaks pages itself so nothing falls into the footer. Pure: the same
 * input gives the same bytes (CreationDate is the caller's, so pdfkit's file id is fixed too).
 */

export const A4 = { width: 595.28, height: 841.89 };
export const MARGIN = { top: 60, bottom: 30, left: 48, right: 48 };
export const LEFT = MARGIN.left;
export const WIDTH = A4.width - MARGIN.left - MARGIN.right;
/** Content stops here; the footer lives below. Kept above pdfkit's own limit so pdfkit never breaks a page by itself. */
export const CONTENT_BOTTOM = A4.height - 84;
export const FOOTER_TOP = A4.height - 66;

export const REGULAR = "Helvetica";
export const BOLD = "Helvetica-Bold";

/** The palette both reports draw with. */
export const INK = { ink: "#1f2933", muted: "#5b6675", rule: "#cfd6de", navy: "#1d3557", headerFill: "#e8edf3", zebra: "#f6f8fa" } as const;

export interface TextStyle {
  font?: string;
  size?: number;
  color?: string;
}

export function interpolate(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, key: string) => (key in values ? String(values[key]) : whole));
}

// The characters Windows-1252 has above Latin-1's C1 gap; pdfkit's standard fonts encode text as WinAnsi.
const WIN_ANSI_EXTRA = new Set("€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ");

function isWinAnsi(ch: string): boolean {
  const code = ch.codePointAt(0) ?? 0;
  return (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRA.has(ch);
}

/**
 * Text the built-in Helvetica can show. pdfkit writes any other character as a
 * broken code (it does not fall back), so: Intl's minus sign becomes an en dash
 * (a digit wide, like a minus), the narrow and thin spaces Intl uses for
 * grouping become no-break spaces, accented letters outside Latin-1 lose their
 * accent, and anything else becomes '?'.
 */
export function winAnsi(text: string): string {
  let out = "";
  for (const ch of text.normalize("NFC")) {
    if (isWinAnsi(ch)) out += ch;
    else if (ch === "\u2212") out += "–";
    else if (ch === "\u2010" || ch === "\u2011") out += "-";
    else if (ch === "\u202f" || ch === "\u2007" || ch === "\u2009") out += "\u00a0";
    else if (/\s/u.test(ch)) out += " ";
    else {
      const base = ch.normalize("NFD").replace(/\p{M}/gu, "");
      out += base && [...base].every(isWinAnsi) ? base : "?";
    }
  }
  return out;
}

export interface DocumentInfo {
  title: string;
  subject: string;
  /** The product's name: author and creator. */
  product: string;
  creationDate: Date;
  language: "en" | "no";
}

export class PageWriter {
  readonly doc: PDFKit.PDFDocument;
  y = MARGIN.top;

  constructor(
    info: DocumentInfo,
    private readonly text: { size: number; lineGap: number },
  ) {
    this.doc = new PDFDocument({
      size: "A4",
      margins: MARGIN,
      bufferPages: true,
      info: { Title: winAnsi(info.title), Author: info.product, Creator: info.product, Subject: winAnsi(info.subject), CreationDate: info.creationDate },
      lang: info.language === "no" ? "nb-NO" : "en-GB",
      displayTitle: true,
    });
  }

  protected style({ font = REGULAR, size = this.text.size, color = INK.ink }: TextStyle) {
    this.doc.font(font).fontSize(size).fillColor(color);
  }

  height(text: string, width: number, style: TextStyle = {}, lineGap = this.text.lineGap): number {
    this.style(style);
    return this.doc.heightOfString(winAnsi(text), { width, lineGap });
  }

  write(text: string, x: number, y: number, width: number, style: TextStyle = {}, extra: PDFKit.Mixins.TextOptions = {}) {
    this.style(style);
    this.doc.text(winAnsi(text), x, y, { width, lineGap: this.text.lineGap, ...extra });
  }

  textWidth(text: string, style: TextStyle): number {
    this.style(style);
    return this.doc.widthOfString(winAnsi(text));
  }

  rule(x: number, y: number, width: number, color: string = INK.rule, thickness = 0.5) {
    this.doc
      .save()
      .moveTo(x, y)
      .lineTo(x + width, y)
      .lineWidth(thickness)
      .strokeColor(color)
      .stroke()
      .restore();
  }

  fillRect(x: number, y: number, w: number, h: number, color: string, radius = 0) {
    this.doc.save();
    if (radius > 0) this.doc.roundedRect(x, y, w, h, radius);
    else this.doc.rect(x, y, w, h);
    this.doc.fillColor(color).fill().restore();
  }

  newPage() {
    this.doc.addPage();
    this.y = MARGIN.top;
  }

  /** Breaks the page unless `needed` points still fit: the way rows and blocks are kept whole. */
  ensure(needed: number) {
    if (this.y + needed > CONTENT_BOTTOM) this.newPage();
  }
}
