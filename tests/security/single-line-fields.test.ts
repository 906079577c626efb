import { describe, expect, it } from "vitest";
import { outbox } from "@server/mail";
import { action as signupAction } from "~/routes/signup";
import { action as organizationsAction } from "~/routes/_app.admin.organizations";
import { db } from "@server/db";
import { isSingleLine } from "~/models/shared/single-line";
import { signedIn } from "../helpers/fixtures";
import { args, BASE, call, form } from "../helpers/requests";

/**
 * A name is one line. An organisation's name goes into mail subjects and sender lines, CSV rows and page titles; a
 * line break in it (from anonymous sign-up, or an administrator) must be refused with a message, and nothing stored.
 */
const MESSAGE = "Use one line: no line breaks, tabs or other control characters.";
const INJECTED = ["Evil AS\r\nBcc: thief@evil.example", "Evil AS\nX", "Evil\tAS", "Evil\u0000AS", "Evil\u2028AS", "Evil\u0085AS"];

describe("single-line fields", () => {
  it("knows a line from more than one", () => {
    expect(isSingleLine("Nordvik Ærlig & Sønn AS – «Øst»")).toBe(true);
    for (const value of INJECTED) expect(isSingleLine(value), JSON.stringify(value)).toBe(false);
  });

  it("sign-up refuses an organisation name with a control character: 400, the message, no mail, nothing stored", async () => {
    for (const organizationName of INJECTED) {
      const before = outbox().length;
      const res = await call(
        signupAction,
        args(
          form("/signup", { intent: "signup", organizationName, email: "single@test.example", password: "Long-enough-1", confirmPassword: "Long-enough-1" }),
        ),
      );
      expect(res.status, JSON.stringify(organizationName)).toBe(400);
      // A NUL is refused before any form is read (the route kit's readForm); the others by the field, with its message.
      if (!organizationName.includes("\u0000")) expect((await res.json()).result.error.organizationName).toEqual([MESSAGE]);
      expect(outbox().length).toBe(before);
    }
    expect(await db().selectFrom("organizations").select("id").where("name", "like", "Evil%").execute()).toEqual([]);
  });

  it("the administrator's new organisation refuses it the same way", async () => {
    const admin = await signedIn("single-admin@test.example", null, 3);
    await db().updateTable("users").set({ is_admin: 1 }).where("email", "=", "single-admin@test.example").execute();
    const res = await call(
      organizationsAction,
      args(
        form(
          "/admin/organizations",
          { intent: "create", name: "Evil AS\r\nBcc: thief@evil.example", email: "first@evil.example" },
          { Cookie: `token=${admin}`, Origin: BASE },
        ),
      ),
    );
    expect(res.status).toBe(400);
    expect((await res.json()).result.error.name).toEqual([MESSAGE]);
    expect(await db().selectFrom("organizations").select("id").where("name", "like", "Evil%").execute()).toEqual([]);
  });
});
