/**
 * One line of text: a name, a title, a tag. Such a value ends up in places where a line break or another control
 * character changes the meaning — a mail's subject or sender name, a CSV row, a page title — so a form refuses it
 * (with its message) rather than cleaning it silently. Tabs count too; multi-line fields (comments, descriptions) do
 * not use this.
 */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

export function isSingleLine(value: string): boolean {
  return !CONTROL.test(value);
}
