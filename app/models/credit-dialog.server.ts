import type { SessionUser } from "./session.server";

/**
 * The credit report order dialog's data, read from the URL (shell-wide
 * `?dialog=credit&step=…`). SCAFFOLDING: being built.
 */
export async function loadCreditDialog(_url: URL, _user: SessionUser): Promise<{ step: string } | null> {
  return null;
}
