import { describe, expect, it } from "vitest";
import { loadLocale } from "./helpers/locale-files";

describe("locales", () => {
  const en = loadLocale("en");
  const no = loadLocale("no");

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
