/**
 * One line of text: a name, a title, a tag. Such a value ends up in places where a line break or another control
 * character changes the meaning — a mail's subject or sender name, a CSV row, a page title — so a form refuses it
 * (with its message) rather than cleaning it silently. Tabs count too; multi-line fields (comments, descriptions) do
 * not use this.
 */
/** The characters that end or break a line: C0 and C1 controls (tab included), DEL, the line and paragraph separators. */
// eslint-disable-next-line no-control-regex
export const LINE_BREAKING = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

export function isSingleLine(value: string): boolean {
  return value.search(LINE_BREAKING) === -1;
}
