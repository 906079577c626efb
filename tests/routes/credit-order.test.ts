import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "@server/db";
import { action as orderAction, loader as orderLoader } from "~/routes/credit.order";
import { company, makeOrg, signedIn } from "../helpers/fixtures";
import { BASE, call } from "../helpers/requests";

/**
 * POST /credit/order, the credit order dialog's confirm form, against the
 * real local provider: what a browser posts (with or without JavaScript),
 * what a changed page or another client could post instead, and who may.
 */

const ORG_NO = "923609016";
const ORG_NO_2 = "987654321";
const SE_NO = "5566778899";
const RETURN_TO = `/supplier?externalId=${ORG_NO}&dialog=credit&step=confirm&country=NO&regNo=${ORG_NO}&id=local%3A${ORG_NO}`;

const w = {} as { orgA: number; orgB: number; userA: number; tokenA: string; tokenB: string; tokenViewer: string; tokenNoOrg: string; tokenNo: string };

let keySeq = 0;
/** A fresh idempotency key as the dialog makes them (32 hex digits). */
function newKey(): string {
  return (++keySeq).toString(16).padStart(32, "0");
}

/** The confirm form as the dialog renders it, ticked. */
function confirmForm(overrides: Record<string, string | null> = {}): Record<string, string> {
  const fields: Record<string, string | null> = {
    intent: "order",
    id: `local:${ORG_NO}`,
    countryCode: "NO",
    language: "NO",
    terms: "on",
    idempotencyKey: newKey(),
    returnTo: RETURN_TO,
    ...overrides,
  };
  return Object.fromEntries(Object.entries(fields).filter((entry): entry is [string, string] => entry[1] !== null));
}

function post(body: BodyInit | null, token: string | null, contentType: string | null = "application/x-www-form-urlencoded"): Promise<Response> {
  const headers: Record<string, string> = { Origin: BASE };
  if (contentType) headers["Content-Type"] = contentType;
  if (token) headers.Cookie = `token=${token}`;
  const request = new Request(`${BASE}/credit/order`, { method: "POST", body, headers });
  return call(orderAction, { request, params: {}, context: {} });
}

function submit(fields: Record<string, string>, token: string | null = w.tokenA): Promise<Response> {
  return post(new URLSearchParams(fields), token);
}

function rows() {
  return db().selectFrom("credit_reports").selectAll().orderBy("id").execute();
}

function location(res: Response): URL {
  return new URL(res.headers.get("Location") ?? "", BASE);
}

type Reply = { result: { status: string; error: Record<string, string[] | null> } };

beforeAll(async () => {
  w.orgA = await makeOrg("Kunde A AS", "customer");
  w.orgB = await makeOrg("Kunde B AS", "customer");
  w.tokenA = await signedIn("anna@order.test", w.orgA, 2);
  w.userA = (await db().selectFrom("users").select("id").where("email", "=", "anna@order.test").executeTakeFirstOrThrow()).id;
  w.tokenB = await signedIn("bob@order.test", w.orgB, 2);
  w.tokenViewer = await signedIn("viewer@order.test", w.orgA, 1);
  w.tokenNoOrg = await signedIn("nobody@order.test", null, 3);
  w.tokenNo = await signedIn("nora@order.test", w.orgA, 2);
  await db().updateTable("users").set({ language: "no" }).where("email", "=", "nora@order.test").execute();
  await company(ORG_NO, "KREDITTPRØVE AS");
  await company(ORG_NO_2, "ANDRE PRØVE AS");
  await db()
    .insertInto("companies")
    .values({ org_number: SE_NO, legal_name: "SVENSK PROV AB", country_code: "SE", source: "seed", updated_at: "2025-01-01T00:00:00.000Z" })
    .execute();
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe("POST /credit/order: who may order", () => {
  it("a visitor is sent to the start page, a level-1 member and a user without an organisation get 403; nothing is ordered", async () => {
    const visitor = await submit(confirmForm(), null);
    expect(visitor.status).toBe(302);
    expect(visitor.headers.get("Location")).toBe("/");
    for (const token of [w.tokenViewer, w.tokenNoOrg]) {
      const res = await submit(confirmForm(), token);
      expect(res.status).toBe(403);
      expect(await res.json()).toMatchObject({ error: "Forbidden" });
    }
    expect(await rows()).toEqual([]);
  });

  it("GET is sent away: the dialog lives on its page", async () => {
    const res = await call(orderLoader, { request: new Request(`${BASE}/credit/order`), params: {}, context: {} });
    expect(res.status).toBe(302);
  });
});

describe("POST /credit/order: bodies that are not the form", () => {
  it.each<[string, BodyInit | null, string | null, number]>([
    ["a JSON body", JSON.stringify(confirmForm()), "application/json", 415],
    ["a text/plain body", new URLSearchParams(confirmForm()).toString(), "text/plain", 415],
    ["an empty body without a content type", null, null, 415],
    ["an empty form", "", "application/x-www-form-urlencoded", 400],
    ["a NUL in a field", new URLSearchParams(confirmForm({ returnTo: `${RETURN_TO}\u0000` })), "application/x-www-form-urlencoded", 400],
  ])("%s → %i, nothing ordered", async (_case, body, type, status) => {
    const res = await post(body, w.tokenA, type);
    expect(res.status).toBe(status);
    expect(await rows()).toEqual([]);
  });

  it.each([
    ["no intent", { intent: null }],
    ["an unknown intent", { intent: "delete" }],
    ["an intent of another form", { intent: "add-comment" }],
  ])("400 for %s, nothing ordered", async (_case, overrides) => {
    const res = await submit(confirmForm(overrides));
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ field: "intent" });
    expect(await rows()).toEqual([]);
  });
});

describe("POST /credit/order: refused forms", () => {
  it("terms not ticked: back to the confirm step with the message's code, the search, the company and the chosen language", async () => {
    const res = await submit(confirmForm({ terms: null, language: "EN" }));
    expect(res.status).toBe(303);
    const to = location(res);
    expect(to.pathname).toBe("/supplier");
    expect(Object.fromEntries(to.searchParams)).toEqual({
      externalId: ORG_NO,
      dialog: "credit",
      step: "confirm",
      country: "NO",
      regNo: ORG_NO,
      id: `local:${ORG_NO}`,
      error: "terms",
      language: "EN",
    });
    expect(await rows()).toEqual([]);
  });

  it("a changed hidden field is a 400 with the form's reply in the user's language, nothing ordered", async () => {
    for (const [token, message] of [
      [w.tokenA, "This order form is out of date. Go back to the company and start the order again."],
      [w.tokenNo, "Bestillingsskjemaet er utdatert. Gå tilbake til selskapet og start bestillingen på nytt."],
    ]) {
      const res = await submit(confirmForm({ idempotencyKey: "not-a-key" }), token);
      expect(res.status).toBe(400);
      const { result } = (await res.json()) as Reply;
      expect(result.status).toBe("error");
      expect(result.error.idempotencyKey).toEqual([message]);
    }
    expect(await rows()).toEqual([]);
  });

  it("a language that is not a report language is refused with its message, also when the terms are missing", async () => {
    const res = await submit(confirmForm({ language: "DE", terms: null }), w.tokenNo);
    expect(res.status).toBe(400);
    const { result } = (await res.json()) as Reply;
    expect(result.error.language).toEqual(["Velg rapportspråk."]);
    expect(result.error.terms).toEqual(["Kryss av i boksen for å godta vilkårene før du bestiller."]);
    expect(await rows()).toEqual([]);
  });

  it.each(["//evil.example/", "https://evil.example/", "/\t/evil.example", "", "supplier"])("400 for the return address %j", async (returnTo) => {
    const res = await submit(confirmForm({ returnTo }));
    expect(res.status).toBe(400);
    expect(res.headers.get("Location")).toBeNull();
    expect(await rows()).toEqual([]);
  });

  it("a language the country does not offer comes back to the details step with error=order", async () => {
    const res = await submit(
      confirmForm({ id: `local:${SE_NO}`, countryCode: "SE", language: "NO", returnTo: "/overview?dialog=credit&step=confirm&country=SE" }),
    );
    expect(res.status).toBe(303);
    const to = location(res);
    expect(to.pathname).toBe("/overview");
    expect(to.searchParams.get("step")).toBe("details");
    expect(to.searchParams.get("error")).toBe("order");
    expect(await rows()).toEqual([]);
  });

  it("a company the provider does not know, or of another country, comes back with error=order, logged", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    for (const overrides of [{ id: "local:000000000" }, { id: `local:${SE_NO}`, countryCode: "NO" }] as Array<Record<string, string>>) {
      const res = await submit(confirmForm(overrides));
      expect(res.status).toBe(303);
      expect(location(res).searchParams.get("error")).toBe("order");
    }
    expect(errors).toHaveBeenCalledWith("credit order failed", expect.objectContaining({ organizationId: w.orgA }));
    expect(await rows()).toEqual([]);
  });
});

describe("POST /credit/order: ordering", () => {
  it("orders the report for the session's organisation and user and goes to the done step", async () => {
    const res = await submit(confirmForm({ language: "EN" }));
    expect(res.status).toBe(303);
    const to = location(res);
    expect(to.pathname).toBe("/supplier");
    const all = await rows();
    expect(all).toHaveLength(1);
    expect(Object.fromEntries(to.searchParams)).toEqual({ externalId: ORG_NO, dialog: "credit", step: "done", order: String(all[0].id) });
    expect(all[0]).toMatchObject({
      organization_id: w.orgA,
      user_id: w.userA,
      company_name: "KREDITTPRØVE AS",
      reg_no: ORG_NO,
      country_code: "NO",
      language: "EN",
      provider: "local",
      provider_id: `local:${ORG_NO}`,
      price_nok: 80,
    });
  });

  it("the same form again returns the first order and orders nothing", async () => {
    const form = confirmForm();
    const first = await submit(form);
    const count = (await rows()).length;
    const again = await submit(form);
    expect(again.status).toBe(303);
    expect(location(again).searchParams.get("order")).toBe(location(first).searchParams.get("order"));
    expect(await rows()).toHaveLength(count);
  });

  it("takes the company's name and number from the provider, never from the form", async () => {
    const res = await submit({ ...confirmForm({ id: `local:${ORG_NO_2}` }), companyName: "Evil Corp AS", regNo: ORG_NO });
    expect(res.status).toBe(303);
    const id = Number(location(res).searchParams.get("order"));
    const row = (await rows()).find((r) => r.id === id)!;
    expect({ company_name: row.company_name, reg_no: row.reg_no }).toEqual({ company_name: "ANDRE PRØVE AS", reg_no: ORG_NO_2 });
  });

  it("another organisation's key and ids in the form do not reach its orders: B's post is B's own new order", async () => {
    const form = confirmForm();
    const ofA = await submit(form, w.tokenA);
    const aOrder = Number(location(ofA).searchParams.get("order"));
    const ofB = await submit({ ...form, organizationId: String(w.orgA), userId: String(w.userA), order: String(aOrder) }, w.tokenB);
    expect(ofB.status).toBe(303);
    const bOrder = Number(location(ofB).searchParams.get("order"));
    expect(bOrder).not.toBe(aOrder);
    const b = (await rows()).find((r) => r.id === bOrder)!;
    expect(b.organization_id).toBe(w.orgB);
    expect(b.user_id).not.toBe(w.userA);
    expect((await rows()).filter((r) => r.id === aOrder)).toEqual([expect.objectContaining({ organization_id: w.orgA })]);
  });
});
