// Apart from the credit models (which build zod schemas): the browser's download helper needs only this.

/**
 * The file name a download answer names (RFC 6266): `filename*` (UTF-8,
 * percent-encoded) wins over `filename`; null when there is neither. Only the
 * last path segment is kept, so a header cannot choose a folder.
 */
export function fileNameFromContentDisposition(header: string | null | undefined): string | null {
  if (!header) return null;
  const extended = /filename\*\s*=\s*([^']*)'[^']*'([^;]+)/i.exec(header);
  let name: string | null = null;
  if (extended) {
    try {
      name = decodeURIComponent(extended[2].trim());
    } catch {
      name = null;
    }
  }
  if (name == null) {
    const plain = /filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]+))/i.exec(header);
    if (plain) name = (plain[1] ?? plain[2] ?? "").replace(/\\(.)/g, "$1").trim();
  }
  const base = name?.split(/[\\/]/).pop()?.trim();
  return base ? base : null;
}
