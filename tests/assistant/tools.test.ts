import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@server/db";
import type { AssistantTool, AssistantViewer } from "@server/providers/llm/types";
import { assistantTools } from "~/models/assistant/assistant-tools.server";
import { connectionsOf, DEMO_CUSTOMERS, linkedLocalIds, seedWorld, viewerOf } from "./world";

/** The model's tools: the viewer's organisation only, arguments checked, compact JSON. */

let nordvik: AssistantViewer;
let kystlys: AssistantViewer;

beforeAll(async () => {
  await seedWorld();
  nordvik = await viewerOf(DEMO_CUSTOMERS[0]);
  kystlys = await viewerOf(DEMO_CUSTOMERS[2]);
}, 120_000);

function tool(name: string): AssistantTool {
  const found = assistantTools.find((t) => t.name === name);
  if (!found) throw new Error(`no tool ${name}`);
  return found;
}

describe("the tools' declarations", () => {
  it("each has a unique name, a description and an object JSON Schema without extra properties", () => {
    expect(new Set(assistantTools.map((t) => t.name)).size).toBe(assistantTools.length);
    for (const t of assistantTools) {
      expect(t.name).toMatch(/^[a-z_]+$/);
      expect(t.description.length).toBeGreaterThan(20);
      expect(t.parameters).toMatchObject({ type: "object", additionalProperties: false });
    }
  });
});

describe("scoped to the viewer's organisation", () => {
  it("list_suppliers and list_highest_risk_suppliers give only the organisation's suppliers", async () => {
    const own = new Set((await connectionsOf(kystlys.organizationId)).map((c) => c.id));
    const list = (await tool("list_suppliers").run({ limit: 50 }, kystlys)) as { total: number; suppliers: Array<{ link: string }> };
    expect(list.total).toBe(own.size);
    const risky = await tool("list_highest_risk_suppliers").run({ limit: 20 }, kystlys);
    for (const result of [list, risky]) {
      const ids = linkedLocalIds(JSON.stringify(result));
      expect(ids.length).toBeGreaterThan(0);
      for (const id of ids) expect(own.has(id)).toBe(true);
    }
  });

  it("list_highest_risk_suppliers reads the organisation's stored overall risk, never another organisation's", async () => {
    type Result = {
      total: number;
      suppliers: Array<{ name: string; link: string; risk: { overall: number | null; band: string | null; reasons: unknown[] } }>;
    };
    const store = (connectionId: number, risk: number, band: "green" | "red", reasons: unknown[]) =>
      db()
        .updateTable("organization_connections")
        .set({ overall_risk: risk, overall_risk_band: band, overall_risk_reasons: JSON.stringify(reasons) })
        .where("id", "=", connectionId)
        .execute();
    const nordvikRows = await connectionsOf(nordvik.organizationId);
    const kystlysRows = await connectionsOf(kystlys.organizationId);
    const kystlysBySupplier = new Map(kystlysRows.map((c) => [c.id, c]));
    // A supplier both organisations follow, and one only Nordvik follows.
    const shared = nordvikRows.find((c) => kystlysBySupplier.has(c.id))!;
    const nordvikOnly = nordvikRows.find((c) => !kystlysBySupplier.has(c.id))!;
    expect(shared).toBeDefined();
    expect(nordvikOnly).toBeDefined();
    const bankrupt = [{ kind: "flag", flag: "bankrupt", value: 100 }];
    const reputation = [{ kind: "line", key: "reputation", value: 99 }];
    await store(nordvikOnly.connectionId, 100, "red", bankrupt);
    await store(shared.connectionId, 1, "green", [{ kind: "line", key: "credit", value: 1 }]);
    await store(kystlysBySupplier.get(shared.id)!.connectionId, 99, "red", reputation);

    const forNordvik = (await tool("list_highest_risk_suppliers").run({ limit: 20 }, nordvik)) as Result;
    expect(forNordvik.total).toBe(nordvikRows.length);
    // 100 is the top of the scale: it is among the first (ties by name).
    expect(forNordvik.suppliers.find((s) => s.name === nordvikOnly.name)).toMatchObject({ risk: { overall: 100, band: "red", reasons: bankrupt } });
    expect(forNordvik.suppliers.find((s) => s.name === shared.name)?.risk.overall ?? null).not.toBe(99);

    const forKystlys = (await tool("list_highest_risk_suppliers").run({ limit: 20 }, kystlys)) as Result;
    expect(forKystlys.total).toBe(kystlysRows.length);
    // Kystlys's own 99 on the shared supplier, not Nordvik's 1; Nordvik's other supplier never shows.
    expect(forKystlys.suppliers.find((s) => s.name === shared.name)).toMatchObject({ risk: { overall: 99, band: "red", reasons: reputation } });
    expect(JSON.stringify(forKystlys)).not.toContain(`localId=${nordvikOnly.id}"`);
    // Every row carries exactly Kystlys's stored values, highest first.
    const stored = new Map(
      (
        await db()
          .selectFrom("organization_connections")
          .select(["child_organization_id", "overall_risk", "overall_risk_band"])
          .where("parent_organization_id", "=", kystlys.organizationId)
          .where("is_deleted", "=", 0)
          .execute()
      ).map((r) => [r.child_organization_id, r]),
    );
    for (const row of forKystlys.suppliers) {
      const [id] = linkedLocalIds(row.link);
      expect(row.risk).toMatchObject({ overall: stored.get(id)!.overall_risk, band: stored.get(id)!.overall_risk_band });
    }
    const scores = forKystlys.suppliers.map((s) => s.risk.overall ?? -1);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
  });

  it("get_supplier of a company another organisation follows: registry facts only", async () => {
    const securitas = (await connectionsOf(nordvik.organizationId)).find((c) => c.name === "SECURITAS AS")!;
    expect((await connectionsOf(kystlys.organizationId)).some((c) => c.id === securitas.id)).toBe(false);
    const forOwner = (await tool("get_supplier").run({ supplier: "Securitas" }, nordvik)) as { followed: boolean; work: unknown };
    expect(forOwner).toMatchObject({ followed: true });
    expect(forOwner.work).not.toBeNull();
    const forOther = (await tool("get_supplier").run({ supplier: securitas.org_number }, kystlys)) as { followed: boolean; work: unknown; link: string };
    expect(forOther).toMatchObject({ followed: false, work: null });
    expect(forOther.link).not.toContain("localId");
  });

  it("list_tags and the tag filter know the viewer's tags only", async () => {
    await db()
      .insertInto("organization_tags")
      .values({ organization_id: nordvik.organizationId, title: "Nordvik only", created_at: new Date().toISOString() })
      .execute();
    const tags = (await tool("list_tags").run({}, kystlys)) as Array<{ title: string }>;
    expect(tags.map((t) => t.title)).not.toContain("Nordvik only");
    expect(await tool("list_suppliers").run({ tag: "Nordvik only" }, kystlys)).toMatchObject({ error: expect.stringContaining("No tag") });
    expect(await tool("list_suppliers").run({ tag: "Nordvik only" }, nordvik)).toMatchObject({ total: 0 });
  });

  it("recent_changes are the organisation's notifications, about its own suppliers", async () => {
    const own = new Set((await connectionsOf(kystlys.organizationId)).map((c) => c.org_number));
    const result = (await tool("recent_changes").run({ days: 90 }, kystlys)) as { items: Array<{ orgNumber: string }> };
    expect(result.items.length).toBeGreaterThan(0);
    for (const item of result.items) expect(own.has(item.orgNumber)).toBe(true);
  });

  it("arguments cannot name another organisation", async () => {
    expect(await tool("list_suppliers").run({ organizationId: nordvik.organizationId }, kystlys)).toMatchObject({ error: expect.any(String) });
  });
});

describe("bad arguments are refused with a message the model can read", () => {
  it.each([
    ["list_suppliers", { limit: 0 }],
    ["list_suppliers", { limit: "5" }],
    ["list_suppliers", { priority: "yes" }],
    ["list_suppliers", { country: "Atlantis" }],
    ["list_highest_risk_suppliers", { limit: 1000 }],
    ["get_supplier", {}],
    ["get_supplier", { supplier: 123 }],
    ["get_supplier", { supplier: "x" }],
    ["recent_changes", { days: 1000 }],
    ["recent_changes", { supplier: "'; drop table companies; --" }],
    ["list_tags", { extra: true }],
    ["list_suppliers", null],
  ] as const)("%s %j", async (name, args) => {
    const result = await tool(name).run(args, nordvik);
    if (args === null) {
      // No arguments at all is the same as {}.
      expect(result).toMatchObject({ total: expect.any(Number) });
      return;
    }
    expect(result).toMatchObject({ error: expect.any(String) });
  });

  it("an unknown company is an error result, not a throw", async () => {
    expect(await tool("get_supplier").run({ supplier: "Zyxwvut Qqq" }, nordvik)).toMatchObject({ error: expect.stringContaining("No company") });
  });
});

describe("results", () => {
  it("are compact JSON: a large supplier in well under 10 KB", async () => {
    const result = await tool("get_supplier").run({ supplier: "vinmonopolet" }, nordvik);
    const json = JSON.stringify(result);
    expect(JSON.parse(json)).toMatchObject({ followed: true, registry: { orgNumber: "817209882" } });
    expect(json.length).toBeLessThan(10_000);
  });
});
