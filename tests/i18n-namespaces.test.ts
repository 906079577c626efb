import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * A text of another namespace (`t("ns:key")`) shows as its key unless that namespace is loaded. The browser loads what
 * a component asks for with `useTranslation([...])` and what the page's routes declare in `handle.i18n` (the layouts
 * wait for those, `PageTexts`); `common` is always there, and the signed-in shell's own (nav, search, chat) on every
 * signed-in page. So every `t("ns:…")` in a component names a namespace its file asks for, and in a route one its file
 * asks for or its handle declares. A full page load hid the mistake (it lists the route's namespaces); a link did not.
 */
const root = path.resolve(__dirname, "..");
const namespaces = new Set(fs.readdirSync(path.join(root, "locales/en")).map((f) => f.replace(/\.json$/, "")));

function files(dir: string): string[] {
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory()) return files(rel);
    return /\.tsx?$/.test(entry.name) && !/\.test\./.test(entry.name) ? [rel] : [];
  });
}

const quoted = (text: string) => [...text.matchAll(/"([A-Za-z]+)"/g)].map((m) => m[1]);

/** A list of namespaces named by a constant (`useTranslation(RESPONDENT_NAMESPACES)`): its array, wherever it is defined. */
function constantList(name: string): string[] {
  for (const file of files("app")) {
    const m = new RegExp(`const ${name}\\b[^=]*=\\s*(\\[[^\\]]*\\])`).exec(fs.readFileSync(path.join(root, file), "utf8"));
    if (m) return quoted(m[1]);
  }
  throw new Error(`useTranslation(${name}): no constant ${name} = [...] in app/`);
}

function declared(text: string, file: string): Set<string> {
  const out = new Set(["common"]);
  for (const m of text.matchAll(/useTranslation\(\s*(\[[^\]]*\]|"[^"]*"|[A-Z][A-Z_]+)?\s*\)/g)) {
    const list = !m[1] ? ["common"] : /^[A-Z]/.test(m[1]) ? constantList(m[1]) : quoted(m[1]);
    for (const ns of list) out.add(ns);
  }
  if (file.startsWith("app/routes/")) {
    const handle = /export const handle\b[^;]*?i18n:\s*(\[[^\]]*\])/s.exec(text);
    if (handle) for (const ns of quoted(handle[1])) out.add(ns);
  }
  if (file.startsWith("app/components/shell/") || file.startsWith("app/scaffolding/")) for (const ns of ["nav", "search", "chat"]) out.add(ns);
  return out;
}

describe("translation namespaces", () => {
  it("every t('ns:key') names a namespace its file (or its route's handle) makes the browser load", () => {
    const missing: string[] = [];
    for (const file of [...files("app/components"), ...files("app/routes"), ...files("app/scaffolding")]) {
      const text = fs.readFileSync(path.join(root, file), "utf8");
      if (!text.includes("useTranslation")) continue;
      const have = declared(text, file);
      const used = new Set([...text.matchAll(/\bt\(\s*["`]([A-Za-z]+):/g)].map((m) => m[1]).filter((ns) => namespaces.has(ns)));
      const lacking = [...used].filter((ns) => !have.has(ns));
      if (lacking.length) missing.push(`${file}: ${lacking.join(", ")}`);
    }
    expect(missing).toEqual([]);
  });
});

describe("counts in texts", () => {
  it("the supplier card's case-file counts agree with their number, in both languages", async () => {
    const { translate } = await import("~/translate");
    const store = Object.fromEntries(
      ["en", "no"].map((lng) => [lng, { connections: JSON.parse(fs.readFileSync(path.join(root, `locales/${lng}/connections.json`), "utf8")) }]),
    );
    const say = (lng: string, key: string, count: number) => translate(store, [lng], "connections", key, { count });
    expect([say("en", "card.casefileComments", 1), say("en", "card.casefileEvents", 1)]).toEqual(["1 comment", "1 event"]);
    expect([say("en", "card.casefileComments", 2), say("en", "card.casefileEvents", 0)]).toEqual(["2 comments", "0 events"]);
    expect([say("no", "card.casefileComments", 1), say("no", "card.casefileEvents", 1)]).toEqual(["1 kommentar", "1 hendelse"]);
    expect([say("no", "card.casefileComments", 3), say("no", "card.casefileEvents", 3)]).toEqual(["3 kommentarer", "3 hendelser"]);
  });
});
