import { Marked, type Tokens } from "marked";

/**
 * The assistant's answers as HTML (shared/spec/01-shell-chat-lei.md §2.6: GitHub-flavoured markdown through marked), safe to put in the page:
 * an answer is text a model or a stored message wrote, so nothing in it may run. Raw HTML is never passed through
 * (it is shown as text), and links and images keep only web addresses and the site's own paths — no `javascript:`,
 * `data:`, `vbscript:` or other scheme, however it is spelt (entities, control characters, upper case). Links open in a
 * new tab without access to this page. Pure: the chat panel in the browser and the /ai/chat page on the server share it.
 */

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

const NAMED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", colon: ":", tab: "\t", newline: "\n", sol: "/", nbsp: " " };

/** Character references decoded the way a browser would before it reads the scheme (`&#106;avascript:`, `&colon;`). */
function decodeEntities(text: string): string {
  let previous: string;
  let out = text;
  // Twice-encoded references (`&amp;#106;`) decode again: a URL is judged by the most it could become.
  do {
    previous = out;
    out = out.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);?/gi, (whole, ref: string) => {
      if (ref[0] === "#") {
        const code = ref[1] === "x" || ref[1] === "X" ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
        return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : "";
      }
      return NAMED[ref.toLowerCase()] ?? whole;
    });
  } while (out !== previous);
  return out;
}

const SAFE_SCHEMES = new Set(["http:", "https:", "mailto:"]);

/** The URL when it may be a link's or image's target, else null. */
export function safeUrl(raw: string | null | undefined): string | null {
  if (!raw) return null;
  let decoded: string;
  try {
    decoded = decodeURIComponentSafe(decodeEntities(raw));
  } catch {
    return null;
  }
  // Browsers ignore whitespace and control characters inside a scheme ("java\tscript:").
  // eslint-disable-next-line no-control-regex -- matching control characters is the point here
  const compact = decoded.replace(/[\u0000-\u0020\u007f-\u009f\u00ad\u200b-\u200f\u2028\u2029\ufeff]/g, "").toLowerCase();
  const scheme = /^([a-z][a-z0-9+.-]*):/.exec(compact);
  if (scheme) return SAFE_SCHEMES.has(scheme[0]) ? raw.trim() : null;
  // No scheme: a path of this site or a fragment; never a protocol-relative address to another host, nor a backslash trick.
  if (compact.startsWith("//") || compact.startsWith("\\") || compact.startsWith("/\\")) return null;
  // Something that is neither (a colon before any slash would be read as a scheme by some parsers).
  if (/^[^/?#]*:/.test(compact)) return null;
  return raw.trim();
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function attribute(text: string): string {
  return escapeHtml(decodeEntities(text));
}

const marked = new Marked({
  gfm: true,
  breaks: false,
  async: false,
  renderer: {
    // Raw HTML, block or inline, is shown as the text it is.
    html({ text }: Tokens.HTML | Tokens.Tag) {
      return escapeHtml(text);
    },
    link({ href, title, tokens }: Tokens.Link) {
      const inner = this.parser.parseInline(tokens);
      const url = safeUrl(href);
      if (!url) return inner;
      const titled = title ? ` title="${attribute(title)}"` : "";
      return `<a href="${attribute(url)}"${titled} target="_blank" rel="noopener noreferrer">${inner}</a>`;
    },
    // Images are not loaded from an answer (they could track the reader); the alt text links to them when the address is safe.
    image({ href, text }: Tokens.Image) {
      const url = safeUrl(href);
      const label = escapeHtml(decodeEntities(text || href || ""));
      return url ? `<a href="${attribute(url)}" target="_blank" rel="noopener noreferrer">${label}</a>` : label;
    },
  },
});

/** The markdown as safe HTML. */
export function renderMarkdown(markdown: string): string {
  return marked.parse(markdown, { async: false }) as string;
}
