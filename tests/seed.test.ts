import { describe, expect, it } from "vitest";
import { db } from "@server/db";
import { verifyPassword } from "@server/auth/password";
import { DEMO_ACCOUNTS, DEMO_PASSWORD, seedDemoWorld } from "@server/seed/demo";

async function counts() {
  const n = async (t: "users" | "organizations") =>
    Number(
      (
        await db()
          .selectFrom(t)
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );
  return { users: await n("users"), organizations: await n("organizations") };
}

describe("demo world", () => {
  it("is re-runnable: a second run changes nothing", async () => {
    await seedDemoWorld(db());
    const first = await counts();
    await seedDemoWorld(db());
    expect(await counts()).toEqual(first);
    expect(first.organizations).toBeGreaterThanOrEqual(3 + 10);
  });

  it("has the five demo accounts with their levels, organisations and password", async () => {
    await seedDemoWorld(db());
    const rows = await db()
      .selectFrom("users")
      .innerJoin("organizations", "organizations.id", "users.organization_id")
      .select([
        "users.email",
        "users.access_level",
        "users.is_admin",
        "users.password_hash",
        "organizations.name",
        "organizations.kind",
        "organizations.org_number",
      ])
      .where(
        "users.email",
        "in",
        DEMO_ACCOUNTS.map((a) => a.email),
      )
      .execute();
    const by = Object.fromEntries(rows.map((r) => [r.email, r]));
    expect(by["admin@demo.test"]).toMatchObject({ access_level: 3, is_admin: 1, kind: "customer" });
    expect(by["analyst@demo.test"]).toMatchObject({ access_level: 2, is_admin: 0, name: by["admin@demo.test"].name });
    expect(by["viewer@demo.test"]).toMatchObject({ access_level: 1, is_admin: 0, name: by["admin@demo.test"].name });
    expect(by["other@demo.test"]).toMatchObject({ access_level: 2, kind: "customer" });
    expect(by["other@demo.test"].name).not.toBe(by["admin@demo.test"].name);
    // The respondent belongs to a real supplier from the Brønnøysund sample.
    expect(by["supplier@demo.test"]).toMatchObject({ kind: "supplier" });
    expect(by["supplier@demo.test"].org_number).toMatch(/^\d{9}$/);
    expect(await verifyPassword(DEMO_PASSWORD, by["viewer@demo.test"].password_hash)).toBe(true);
  });
});
