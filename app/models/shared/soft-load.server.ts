/**
 * A screen section whose data fails to load shows its empty state instead of
 * failing the page (shared/spec/02-supplier-credit-connections.md §8: these failures are silent); the error is logged.
 */
export function softLoad<T>(section: string, load: Promise<T>, fallback: T, context: Record<string, unknown> = {}): Promise<T> {
  return load.catch((error: unknown) => {
    console.error(`${section} failed`, { ...context, error: String(error) });
    return fallback;
  });
}
