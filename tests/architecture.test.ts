import fs from "node:fs";
import path from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

/*
 * The house plan (docs/architecture.md) is kept true by ESLint's boundary rules and by the layout of the tree.
 * These tests lint small sources as if they lived in app/routes and app/models, so a change to eslint.config.js
 * that lets a boundary slip fails here, and they walk the tree for the layout rules no linter sees.
 */

const root = path.resolve(__dirname, "..");
const eslint = new ESLint({ cwd: root });

async function problems(source: string, file: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath: path.join(root, file) });
  return result.messages.filter((m) => /no-restricted-(imports|paths)$/.test(m.ruleId ?? "")).map((m) => m.message);
}

describe("import boundaries", () => {
  it("refuses a route that imports the database", async () => {
    const found = await problems(`import { db } from "@server/db";\nexport const loader = () => db();\n`, "app/routes/_app.probe.tsx");
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/go through a model or the route kit/);
  });

  it("refuses a route that imports kysely", async () => {
    const found = await problems(`import { sql } from "kysely";\nexport const loader = () => sql\`select 1\`;\n`, "app/routes/api.probe.ts");
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/go through a model or the route kit/);
  });

  it("refuses a route that imports any other server module", async () => {
    const found = await problems(`import { openFile } from "@server/storage";\nexport const loader = () => openFile;\n`, "app/routes/probe/route.tsx");
    expect(found).toHaveLength(1);
  });

  it("accepts a route that goes through a model and the route kit", async () => {
    const source = [
      `import { requireUser } from "~/http/auth.server";`,
      `import { refuseForm } from "~/http/forms.server";`,
      `import { notificationsForCompany } from "~/models/notifications/notifications.server";`,
      `export const loader = async () => [requireUser, refuseForm, notificationsForCompany];`,
      "",
    ].join("\n");
    expect(await problems(source, "app/routes/_app.probe.tsx")).toEqual([]);
  });

  it("refuses a model that imports the route kit", async () => {
    const found = await problems(
      `import { requireUser } from "~/http/auth.server";\nexport const f = () => requireUser;\n`,
      "app/models/tasks/probe.server.ts",
    );
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/route kit/);
  });

  it("refuses a model that imports React or Remix", async () => {
    const found = await problems(
      `import { useState } from "react";\nimport { json } from "@remix-run/node";\nexport const f = () => [useState, json];\n`,
      "app/models/shared/probe.server.ts",
    );
    expect(found).toHaveLength(2);
  });

  it("lets a pure rule module import a server module's types only", async () => {
    const value = `import { db } from "@server/db";\nimport { listX } from "./probe-list.server";\nexport const f = () => [db, listX];\n`;
    expect(await problems(value, "app/models/overview/probe.ts")).toHaveLength(2);
    const types = `import type { Db } from "@server/db";\nimport type { X } from "./probe-list.server";\nexport type F = (db: Db) => X;\n`;
    expect(await problems(types, "app/models/overview/probe.ts")).toEqual([]);
  });

  it("lets a *.server.ts model import the database", async () => {
    const source = `import type { Db } from "@server/db";\nimport { db } from "@server/db";\nexport const f = (d: Db = db()) => d;\n`;
    expect(await problems(source, "app/models/suppliers/probe.server.ts")).toEqual([]);
  });

  it("lets server/ import the pure rule modules of the areas, never a *.server.ts model", async () => {
    const pure = `import { announcementRiskLabel } from "~/models/suppliers/risk";\nexport const f = () => announcementRiskLabel;\n`;
    expect(await problems(pure, "server/providers/probe.ts")).toEqual([]);
    const model = `import { listConnections } from "~/models/suppliers/connections.server";\nexport const f = () => listConnections;\n`;
    const found = await problems(model, "server/providers/probe.ts");
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/only the pure rule modules/);
  });
});

/** Every file under `dir` (relative to the repository), skipping what git ignores in practice. */
function walk(dir: string): string[] {
  const out: string[] = [];
  const visit = (rel: string) => {
    for (const entry of fs.readdirSync(path.join(root, rel), { withFileTypes: true })) {
      if (entry.name === "node_modules" || entry.name.startsWith(".")) continue;
      const child = path.join(rel, entry.name);
      if (entry.isDirectory()) visit(child);
      else out.push(child);
    }
  };
  visit(dir);
  return out;
}

describe("layout", () => {
  it("keeps app/models in area folders, with no loose module", () => {
    const loose = fs
      .readdirSync(path.join(root, "app/models"), { withFileTypes: true })
      .filter((e) => !e.isDirectory())
      .map((e) => e.name);
    expect(loose).toEqual([]);
  });

  it("gives no two files under app/ the same name (a folder route's route.tsx excepted)", () => {
    const byName = new Map<string, string[]>();
    for (const file of walk("app")) {
      const name = path.basename(file);
      if (name === "route.tsx") continue;
      byName.set(name, [...(byName.get(name) ?? []), file]);
    }
    const shared = [...byName.values()].filter((files) => files.length > 1);
    expect(shared).toEqual([]);
  });

  it("cites no issue numbers in code or tests", () => {
    const citing = ["app", "server", "scripts", "tests"].flatMap(walk).filter((file) => /issue [0-9]/i.test(fs.readFileSync(path.join(root, file), "utf8")));
    expect(citing).toEqual([]);
  });
});

describe("kysely", () => {
  it("no query uses an API kysely has deprecated (it logs a warning once per process)", () => {
    // kysely logs `orderBy(..., expr)`, `orderBy('column asc')` and `orderBy(array)` as deprecated at run time; the
    // source is the only place to see them all before a user does.
    const deprecated = [
      { pattern: /\.orderBy\([^()]*(?:\([^()]*\))?[^()]*,\s*sql`/, what: "orderBy(..., sql`…`): use orderBy(…, 'desc') or (ob) => ob.desc().nullsLast()" },
      { pattern: /\.orderBy\(\s*["'`][\w.]+ (?:asc|desc)["'`]\s*\)/i, what: "orderBy('column desc'): use orderBy('column', 'desc')" },
      { pattern: /\.orderBy\(\s*\[/, what: "orderBy([...]): use one orderBy per column" },
    ];
    const found: string[] = [];
    for (const file of [...walk("app"), ...walk("server")].filter((f) => /\.tsx?$/.test(f))) {
      const text = fs.readFileSync(path.join(root, file), "utf8");
      for (const { pattern, what } of deprecated) if (pattern.test(text)) found.push(`${file}: ${what}`);
    }
    expect(found).toEqual([]);
  });
});
