/**
 * Text from the data inside the local provider's markdown (chat answers and supplier reports): nothing in a name or
 * comment may become a link, emphasis, a table cell or HTML.
 */
export function md(text: string | null | undefined): string {
  // Line breaks would end a list item; other spaces (the no-break spaces of Norwegian numbers) stay as they are.
  return (text ?? "")
    .replace(/[\r\n\t ]+/g, " ")
    .trim()
    .replace(/[\\`*_[\]<>|~]/g, (c) => `\\${c}`);
}
