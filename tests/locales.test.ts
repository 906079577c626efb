import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

function flatten(obj: Record<string, unknown>, prefix = ""): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(obj)) {
    const full = prefix ? `${prefix}.${key}` : key;
    if (value && typeof value === "object") Object.assign(out, flatten(value as Record<string, unknown>, full));
    else out[full] = String(value);
  }
  return out;
}

function load(lng: string): Record<string, string> {
  const dir = path.resolve("locales", lng);
  const all: Record<string, string> = {};
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith(".json"))) {
    const ns = file.replace(/\.json$/, "");
    for (const [k, v] of Object.entries(flatten(JSON.parse(fs.readFileSync(path.join(dir, file), "utf8"))))) all[`${ns}:${k}`] = v;
  }
  return all;
}

describe("locales", () => {
  const en = load("en");
  const no = load("no");

  it("English and Norwegian have exactly the same keys", () => {
    expect(Object.keys(no).sort()).toEqual(Object.keys(en).sort());
  });

  it("no text is empty", () => {
    const empty = Object.entries({ ...en, ...no }).filter(([, v]) => v.trim() === "");
    expect(empty).toEqual([]);
  });

  it("interpolations match between the two languages", () => {
    const vars = (s: string) => (s.match(/\{\{\s*\w+\s*\}\}/g) ?? []).sort();
    const differing = Object.keys(en).filter((k) => JSON.stringify(vars(en[k])) !== JSON.stringify(vars(no[k] ?? "")));
    expect(differing).toEqual([]);
  });

  it("keeps the spec's English texts word for word", () => {
    expect(en["common:userMenu.signOut"]).toBe("Sign Out");
    expect(en["common:errors.notFound"]).toBe("Page Not Found: {{path}}");
    expect(en["common:errors.notFoundTitle"]).toBe("Page Not Found");
    expect(en["common:errors.serverErrorTitle"]).toBe("Internal Server Error");
    expect(en["nav:groups.supplierTasks"]).toBe("Supplier Tasks");
    expect(en["nav:groups.myCompliance"]).toBe("My Compliance");
  });
});
