import type { Permission } from "~/models/accounts/permissions";
import { scaffoldedScreens } from "../../remix.config.js";

/** Which scaffolded screen a URL path is; a static segment beats a parameter. */
export function scaffoldKeyForPath(pathname: string): string {
  const segments = pathname.split("/").filter(Boolean);
  let best: { id: string; score: number } | null = null;
  for (const [id, pattern] of scaffoldedScreens) {
    const parts = pattern.split("/");
    if (parts.length !== segments.length) continue;
    let score = 0;
    let matches = true;
    parts.forEach((part, i) => {
      if (part.startsWith(":")) return;
      if (part === segments[i]) score += 1;
      else matches = false;
    });
    if (matches && (!best || score > best.score)) best = { id, score };
  }
  return best?.id ?? "overview";
}

/** Screens every signed-in user may open (shared/spec/01-shell-chat-lei.md §2.3: below level 2 only My Compliance; a user's own account). */
const FOR_EVERY_USER = new Set(["overview", "account_email_settings", "account_change_password"]);

/** Who may open a scaffolded screen, from the one permission table: admin pages for is_admin, the rest of the map from level 2. */
export function scaffoldPermission(key: string): Permission {
  if (key.startsWith("admin_")) return "admin";
  return FOR_EVERY_USER.has(key) ? "signedIn" : "registryRead";
}
