import type { APIResponse } from "@playwright/test";
import { expect, test } from "./test";
import { createUser, demoUser, queryDb, signIn, userLanguage } from "./helpers";
import { E2E_BASE_URL } from "./env";

/**
 * The security review's findings against the real built server
 * (docs/decisions/011): cross-site request forgery, security headers,
 * malformed cookies and open redirects. HTTP checks run once (in the
 * JavaScript-on project); the browser checks need JavaScript.
 */
const FOREIGN = "http://evil.example";
const SAME_SITE_OTHER_PORT = E2E_BASE_URL.replace(/:(\d+)$/, (_m, port: string) => `:${Number(port) + 1}`);
const OWN = { Origin: E2E_BASE_URL };

function expectSecurityHeaders(response: APIResponse) {
  const headers = response.headers();
  const csp = headers["content-security-policy"] ?? "";
  const scriptSrc = csp.match(/script-src[^;]*/)?.[0] ?? "";
  expect(scriptSrc).toMatch(/'nonce-[A-Za-z0-9+/=]+'/);
  expect(scriptSrc).not.toContain("unsafe-inline");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(headers["x-frame-options"]).toBe("DENY");
  expect(headers["x-content-type-options"]).toBe("nosniff");
  expect(headers["referrer-policy"]).toBe("same-origin");
}

/** A connection of the demo analyst's organisation to a followed supplier with an organisation number. */
function analystConnection() {
  const analyst = demoUser("analyst@demo.test");
  const [row] = queryDb<{ id: number; org_number: string; updated_at: string }>(
    `select oc.id, o.org_number, oc.updated_at from organization_connections oc join organizations o on o.id = oc.child_organization_id
     where oc.parent_organization_id = ? and oc.is_deleted = 0 and o.org_number is not null order by oc.id limit 1`,
    analyst.organizationId,
  );
  return { analyst, connection: row! };
}

const commentCount = (connectionId: number) =>
  queryDb<{ n: number }>("select count(*) as n from organization_connection_comments where connection_id = ?", connectionId)[0]!.n;

test.describe("HTTP", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "server checks, independent of the browser: run once");

  test.describe("cross-site request forgery", () => {
    test("a page action posted from another origin is refused with 403 and changes nothing", async ({ request, context }) => {
      const user = await createUser();
      const token = await signIn(context, user);
      for (const origin of [FOREIGN, SAME_SITE_OTHER_PORT, "null"]) {
        const res = await request.post("/preferences/language", {
          form: { language: "no", redirectTo: "/overview" },
          headers: { Cookie: `token=${token}`, Origin: origin },
          maxRedirects: 0,
        });
        expect(res.status()).toBe(403);
        expect(res.headers()["set-cookie"]).toBeUndefined();
      }
      // Sec-Fetch-Site without Origin counts too.
      const site = await request.post("/preferences/language", {
        form: { language: "no" },
        headers: { Cookie: `token=${token}`, "Sec-Fetch-Site": "same-site" },
        maxRedirects: 0,
      });
      expect(site.status()).toBe(403);
      expect(userLanguage(user.id)).toBe("en");
      // From the site itself the same post works.
      const own = await request.post("/preferences/language", { form: { language: "no" }, headers: { Cookie: `token=${token}`, ...OWN }, maxRedirects: 0 });
      expect(own.status()).toBe(302);
      expect(userLanguage(user.id)).toBe("no");
    });

    test("a fetcher-style _data post from another origin is refused; the same post from the site is not", async ({ request, context }) => {
      const { analyst, connection } = analystConnection();
      const token = await signIn(context, analyst);
      const url = `/supplier?externalId=${connection.org_number}&_data=routes%2F_app.supplier`;
      const before = commentCount(connection.id);
      const forged = await request.post(url, { form: { intent: "add-comment", text: "Forged" }, headers: { Cookie: `token=${token}`, Origin: FOREIGN } });
      expect(forged.status()).toBe(403);
      expect(await forged.json()).toMatchObject({ error: "Forbidden" });
      expect(commentCount(connection.id)).toBe(before);
      const own = await request.post(url, { form: { intent: "add-comment", text: "From the site" }, headers: { Cookie: `token=${token}`, ...OWN } });
      expect(own.status()).toBe(200);
      expect(commentCount(connection.id)).toBe(before + 1);
    });

    test("API calls with the cookie: a foreign Origin is 403, a text body is 415; a Bearer call needs no Origin", async ({ request, context }) => {
      const { analyst, connection } = analystConnection();
      const token = await signIn(context, analyst);
      const patch = await request.patch(`/api/organization-connections/${connection.id}`, {
        data: { is_deleted: true },
        headers: { Cookie: `token=${token}`, Origin: FOREIGN },
      });
      expect(patch.status()).toBe(403);
      expect(queryDb<{ is_deleted: number }>("select is_deleted from organization_connections where id = ?", connection.id)[0]!.is_deleted).toBe(0);

      const language = await request.put("/api/users/language", { data: { language: "no" }, headers: { Cookie: `token=${token}`, Origin: FOREIGN } });
      expect(language.status()).toBe(403);

      for (const headers of [{ ...OWN }, {}]) {
        const text = await request.post("/api/organization-connections/file-uploads", {
          data: '{"connectionId":1,"fileUploadIds":[1]}',
          headers: { Cookie: `token=${token}`, "Content-Type": "text/plain", ...headers },
        });
        expect(text.status()).toBe(415);
      }

      const user = await createUser();
      const bearer = await signIn(context, user);
      const viaBearer = await request.put("/api/users/language", { data: { language: "no" }, headers: { Authorization: `Bearer ${bearer}` } });
      expect(viaBearer.status()).toBe(200);
      expect((await viaBearer.json()).language).toBe("no");
      expect(userLanguage(user.id)).toBe("no");
    });
  });

  test.describe("security headers", () => {
    test("on a page, a JSON answer, a static file, an error page and a refusal", async ({ request, context }) => {
      const page = await request.get("/login");
      expectSecurityHeaders(page);
      const html = await page.text();
      const nonce = page.headers()["content-security-policy"]!.match(/'nonce-([^']+)'/)![1]!;
      // Every script of the page carries this answer's nonce.
      const scripts = html.match(/<script\b[^>]*>/g) ?? [];
      expect(scripts.length).toBeGreaterThan(0);
      for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
      expect((await request.get("/login")).headers()["content-security-policy"]).not.toContain(nonce);

      expectSecurityHeaders(await request.get("/api/users/me"));
      expectSecurityHeaders(await request.get("/favicon.svg"));
      const asset = html.match(/\/assets\/[^"]+\.js/)![0];
      const script = await request.get(asset);
      expect(script.status()).toBe(200);
      expectSecurityHeaders(script);
      await signIn(context, await createUser());
      const cookie = (await context.cookies()).find((c) => c.name === "token")!.value;
      const missing = await request.get("/no/such/page", { headers: { Cookie: `token=${cookie}` } });
      expect(missing.status()).toBe(404);
      expectSecurityHeaders(missing);
      expectSecurityHeaders(await request.post("/login", { form: { email: "a@b.example" }, headers: { Origin: FOREIGN } }));
    });
  });

  test.describe("malformed cookies", () => {
    const GARBAGE = "token=%ZZ; lng=%ZZ; nav=%E0%A4%A; __flash=%ZZ.%ZZ; known=%22";

    test("never make a route answer 500", async ({ request }) => {
      const login = await request.get("/login", { headers: { Cookie: GARBAGE } });
      expect(login.status()).toBe(200);
      const overview = await request.get("/overview", { headers: { Cookie: GARBAGE }, maxRedirects: 0 });
      expect(overview.status()).toBe(302);
      expect(overview.headers()["location"]).toBe("/");
      expect((await request.get("/api/users/me", { headers: { Cookie: GARBAGE } })).status()).toBe(401);
      const post = await request.post("/login", { form: { email: "nobody@e2e.test", password: "x" }, headers: { Cookie: GARBAGE, ...OWN } });
      expect(post.status()).toBe(401);
    });
  });

  test.describe("open redirects", () => {
    const OFF_SITE = ["/\t/evil.example/phish", "//evil.example", "/\\evil.example", "/\r\n/evil.example"];

    test("sign-in never sends the user off the site", async ({ request }) => {
      const user = await createUser();
      for (const redirectTo of OFF_SITE) {
        const res = await request.post(`/login?redirectTo=${encodeURIComponent(redirectTo)}`, {
          form: { email: user.email, password: user.password, redirectTo },
          headers: OWN,
          maxRedirects: 0,
        });
        expect(res.status()).toBe(302);
        expect(res.headers()["location"]).toBe("/overview");
      }
    });

    test("the language and navigation preferences never send the user off the site", async ({ request, context }) => {
      const token = await signIn(context, await createUser());
      for (const redirectTo of OFF_SITE) {
        for (const [path, fields] of [
          ["/preferences/language", { language: "en" }],
          ["/preferences/nav", { expanded: "true" }],
        ] as const) {
          const res = await request.post(path, { form: { ...fields, redirectTo }, headers: { Cookie: `token=${token}`, ...OWN }, maxRedirects: 0 });
          expect(res.status()).toBe(302);
          expect(res.headers()["location"]).toBe("/overview");
        }
      }
    });
  });
});

test.describe("in the browser, under the Content-Security-Policy", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "hydration and scripts need JavaScript");

  test("the sign-in page, the supplier screen with a chart and the supplier list hydrate with no CSP violation", async ({ page, context }) => {
    const problems: string[] = [];
    page.on("console", (m) => {
      if (m.type() === "error" || /Content Security Policy/i.test(m.text())) problems.push(m.text());
    });
    page.on("pageerror", (e) => problems.push(e.message));
    await page.addInitScript(() => {
      document.addEventListener("securitypolicyviolation", (e) => console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`));
    });
    const hydrated = async () => expect(page.locator("html")).toHaveAttribute("data-js", "", { timeout: 15_000 });

    await page.goto("/login");
    await hydrated();

    await signIn(context, demoUser("analyst@demo.test"));
    const [company] = queryDb<{ org_number: string }>(
      `select c.org_number from companies c join financial_statements f on f.company_id = c.id
       group by c.id having count(*) >= 2 order by c.id limit 1`,
    );
    await page.goto(`/supplier?externalId=${company!.org_number}`);
    await hydrated();
    await page.goto(`/supplier?externalId=${company!.org_number}&view=statements&chart=operating_income`);
    await hydrated();
    // uPlot draws into a canvas once its chunk has loaded.
    await expect(page.locator("canvas").first()).toBeVisible();

    await page.goto("/suppliers");
    await hydrated();
    await expect(page.getByRole("heading", { level: 1, name: "My suppliers" })).toBeVisible();
    expect(problems).toEqual([]);
  });
});
