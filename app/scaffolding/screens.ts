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
