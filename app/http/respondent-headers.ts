/**
 * Headers of every respondent answer (decision 033): the address, with a link's token, never leaves in a Referer, and
 * nothing is kept by shared caches. Shared by the route modules' `headers` and the answers the loaders build.
 */
export const RESPONDENT_HEADERS = { "Referrer-Policy": "same-origin", "Cache-Control": "private, no-store" } as const;
