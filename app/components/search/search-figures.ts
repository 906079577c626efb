import type { Language } from "~/i18n";
import { formatCompactNok } from "~/models/shared/format";

/** Financial statements are in whole NOK thousands (shared/spec/02-supplier-credit-connections.md §9 "figures in whole thousands"; the seed writes them so). */
export const STATEMENT_UNIT_NOK = 1000;

/**
 * A search hit's operating income or profit (a statement figure, in NOK thousands) as whole NOK, compact, no decimals
 * (shared/spec/01-shell-chat-lei.md §9): 12 345 (thousands) → 'NOK 12M' (en), '12 mill. kr' (no); a loss keeps its minus sign; missing → '—'.
 */
export function hitFigure(thousands: number | null | undefined, locale: Language): string {
  return formatCompactNok(typeof thousands === "number" && Number.isFinite(thousands) ? thousands * STATEMENT_UNIT_NOK : null, locale);
}
