import fs from "node:fs";
import path from "node:path";

function flatten(obj: Record<string, unknown>, prefix = ""): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(obj)) {
    const full = prefix ? `${prefix}.${key}` : key;
    if (value && typeof value === "object") Object.assign(out, flatten(value as Record<string, unknown>, full));
    else out[full] = String(value);
  }
  return out;
}

/** Every text of one language as `namespace:dotted.key` → value. */
export function loadLocale(lng: string): Record<string, string> {
  const dir = path.resolve("locales", lng);
  const all: Record<string, string> = {};
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith(".json"))) {
    const ns = file.replace(/\.json$/, "");
    for (const [k, v] of Object.entries(flatten(JSON.parse(fs.readFileSync(path.join(dir, file), "utf8"))))) all[`${ns}:${k}`] = v;
  }
  return all;
}
