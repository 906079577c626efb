/**
 * The LEI code itself (ISO 17442): 20 characters A–Z0–9 whose last two are
 * check digits under ISO 7064 MOD 97-10 — read as a number with A=10 … Z=35,
 * the whole code leaves remainder 1 when divided by 97.
 *
 * Lower case is accepted and upper-cased (people paste LEIs from documents
 * that print them either way); blanks around the code are ignored.
 */
export function normalizeLeiCode(input: string): string | null {
  const code = input.trim().toUpperCase();
  if (!/^[A-Z0-9]{20}$/.test(code)) return null;
  let remainder = 0;
  for (const char of code) {
    const value = Number.parseInt(char, 36); // '0'–'9' → 0–9, 'A'–'Z' → 10–35
    remainder = value < 10 ? (remainder * 10 + value) % 97 : (remainder * 100 + value) % 97;
  }
  return remainder === 1 ? code : null;
}
