/**
 * Free text as an SQLite FTS5 prefix query: every word must match the start of a word of the entry (the registry's and
 * the LEI store's search). At most 8 words; quotes dropped; null when nothing searchable is left.
 */
export function ftsQuery(term: string): string | null {
  const words = term
    .normalize("NFKC")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .slice(0, 8);
  if (!words.length) return null;
  return words.map((w) => `"${w.replace(/"/g, "")}"*`).join(" ");
}
