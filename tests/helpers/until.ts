import { setTimeout as sleep } from "node:timers/promises";

/**
 * Asks `what` every 20 ms until `ok` holds, and returns that value; after `timeoutMs` fails with the last value (and
 * `describe()`, when given: what else the test knows, a child process's output say).
 */
export async function until<T>(what: () => Promise<T>, ok: (value: T) => boolean, timeoutMs = 5_000, describe?: () => string): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await what();
    if (ok(value)) return value;
    if (Date.now() > end) throw new Error(`Timed out waiting; last value: ${JSON.stringify(value)}${describe ? `\n${describe()}` : ""}`);
    await sleep(20);
  }
}
