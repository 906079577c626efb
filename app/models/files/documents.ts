/**
 * How a document's extracted text is shown (/ai/documents/:fileId): a PDF page by page (its pages are separated by a form
 * feed), any other text in parts of at most PART_CHARS characters, cut at a line break where there is one. Pure.
 */
export const PART_CHARS = 10_000;

export function documentPages(text: string, hasPages: boolean, partChars = PART_CHARS): string[] {
  if (hasPages) return text.split("\f");
  const parts: string[] = [];
  let rest = text;
  while (rest.length > partChars) {
    const cut = rest.lastIndexOf("\n", partChars);
    const at = cut > partChars / 2 ? cut + 1 : partChars;
    parts.push(rest.slice(0, at));
    rest = rest.slice(at);
  }
  if (rest || parts.length === 0) parts.push(rest);
  return parts;
}

/** The page asked for by `?page=` (1-based), within 1…count; anything else is page 1. */
export function pageNumber(raw: string | null, count: number): number {
  if (!raw || !/^[1-9]\d{0,5}$/.test(raw)) return 1;
  return Math.min(Number(raw), Math.max(1, count));
}
