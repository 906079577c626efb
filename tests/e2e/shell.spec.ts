import { expect, test, type Page } from "./test";
import { createUser, expectAccessible, signIn, userLanguage } from "./helpers";

test.describe("access guard", () => {
  for (const path of ["/overview", "/suppliers", "/admin/users", "/projects/7/task/3", "/no/such/page"]) {
    test(`a visitor opening ${path} is sent to the start page`, async ({ page }) => {
      await page.goto(path);
      await expect(page).toHaveURL(/\/$/);
      await expect(page.getByRole("heading", { level: 1 })).toContainText("Know your suppliers");
      await expect(page.getByRole("link", { name: "Sign in" })).toBeVisible();
      await expect(page.getByRole("link", { name: "Create an account" })).toBeVisible();
    });
  }

  for (const path of ["/login", "/signup", "/invite-signup", "/forgot-password", "/reset-password", "/transparency-portal/public/abc"]) {
    test(`a visitor may open ${path}`, async ({ page }) => {
      await page.goto(path);
      await expect(page).toHaveURL(new RegExp(`${path.replace(/\//g, "\\/")}$`));
    });
  }

  test("a signed-in user opening / goes to the overview", async ({ page, context }) => {
    await signIn(context, await createUser());
    await page.goto("/");
    await expect(page).toHaveURL(/\/overview$/);
    await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();
  });
});

test.describe("the API and the session token", () => {
  test("GET /api/users/me answers 401 JSON without a session and the user with a Bearer token", async ({ request, context }) => {
    const anonymous = await request.get("/api/users/me", { maxRedirects: 0 });
    expect(anonymous.status()).toBe(401);
    expect(anonymous.headers()["content-type"]).toContain("application/json");
    const user = await createUser({ accessLevel: 3 });
    const token = await signIn(context, user);
    const me = await request.get("/api/users/me", { headers: { Authorization: `Bearer ${token}` } });
    expect(me.status()).toBe(200);
    expect(await me.json()).toEqual({
      email: user.email,
      language: "en",
      is_admin: false,
      token,
      organization: { organization_name: user.organizationName, access_level: 3 },
      organizationId: user.organizationId,
    });
  });
});

test.describe("navigation by access level", () => {
  const fullGroups = ["Suppliers", "Supplier Tasks", "AI", "Workflow", "Compliance"];

  test("level 1 sees only My Compliance, and no search", async ({ page, context }) => {
    await signIn(context, await createUser({ accessLevel: 1 }));
    // My Compliance itself (/tasks/overview) is a respondent page without the shell (decision 033): a shell page of theirs.
    await page.goto("/files");
    const nav = page.getByRole("navigation", { name: "Main navigation" });
    await expect(nav.getByRole("button", { name: "My Compliance" })).toBeVisible();
    for (const group of [...fullGroups, "Admin"]) await expect(nav.getByRole("button", { name: group, exact: true })).toHaveCount(0);
    await expect(page.getByRole("search")).toHaveCount(0);
  });

  test("level 2 sees the five groups and the search box, no Admin", async ({ page, context }) => {
    await signIn(context, await createUser({ accessLevel: 2 }));
    await page.goto("/overview");
    const nav = page.getByRole("navigation", { name: "Main navigation" });
    for (const group of fullGroups) await expect(nav.getByRole("button", { name: group, exact: true })).toBeVisible();
    await expect(nav.getByRole("button", { name: "Admin" })).toHaveCount(0);
    await expect(page.getByRole("search")).toBeVisible();
  });

  test("an administrator also sees Admin with its five items", async ({ page, context }) => {
    await signIn(context, await createUser({ accessLevel: 3, isAdmin: true }));
    await page.goto("/overview");
    await page.getByRole("button", { name: "Expand navigation" }).click();
    const nav = page.getByRole("navigation", { name: "Main navigation" });
    await expect(nav.getByText("Admin", { exact: true })).toBeVisible();
    for (const [name, href] of [
      ["Organizations", "/admin/organizations"],
      ["Users", "/admin/users"],
      ["Surveys", "/admin/surveys/surveys"],
      ["Task templates", "/admin/tasks/templates"],
      ["Suppliers overview", "/admin/suppliers-overview"],
    ]) {
      await expect(nav.getByRole("link", { name, exact: true })).toHaveAttribute("href", href);
    }
  });

  test("the navigation expands, stays expanded after a reload, and collapses", async ({ page, context, javaScriptEnabled }) => {
    await signIn(context, await createUser({ accessLevel: 2 }));
    await page.goto("/suppliers");
    const nav = page.getByRole("navigation", { name: "Main navigation" });
    await expect(nav.getByRole("link", { name: "My suppliers" })).toBeHidden();
    // With JavaScript the toggle answers at once and saves in the background: wait for the save before reloading.
    const saved = javaScriptEnabled ? page.waitForResponse((r) => r.url().includes("/preferences/nav")) : null;
    await page.getByRole("button", { name: "Expand navigation" }).click();
    await saved;
    await expect(nav.getByRole("link", { name: "My suppliers" })).toBeVisible();
    await expect(nav.getByRole("link", { name: "Reporting portal" })).toBeVisible();
    await expect(page).toHaveURL(/\/suppliers$/);
    await page.reload();
    await expect(nav.getByRole("link", { name: "Credit reports" })).toBeVisible();
    await page.getByRole("button", { name: "Collapse navigation" }).click();
    await expect(nav.getByRole("link", { name: "Credit reports" })).toBeHidden();
  });

  test("a collapsed group shows its items on hover", async ({ page, context }) => {
    await signIn(context, await createUser({ accessLevel: 2 }));
    await page.goto("/overview");
    const nav = page.getByRole("navigation", { name: "Main navigation" });
    await nav.getByRole("button", { name: "Workflow" }).hover();
    await expect(nav.getByRole("link", { name: "Case files" })).toBeVisible();
    await nav.getByRole("link", { name: "Case files" }).click();
    await expect(page).toHaveURL(/\/casefiles$/);
    await expect(page.getByRole("heading", { name: "Case files" })).toBeVisible();
  });

  test("every screen says plainly when it is not available yet", async ({ page, context }) => {
    await signIn(context, await createUser({ accessLevel: 3, isAdmin: true }));
    await page.goto("/projects/12/suppliers");
    await expect(page.getByRole("heading", { name: "Project suppliers" })).toBeVisible();
    await expect(page.getByText("This screen is not available yet.")).toBeVisible();
    await expect(page).toHaveTitle("Project suppliers · Supplier Risk");
  });

  test("the shell, collapsed and expanded, is accessible", async ({ page, context, javaScriptEnabled }) => {
    test.skip(!javaScriptEnabled, "axe-core runs inside the page; the markup is the same with JavaScript off");
    await signIn(context, await createUser({ accessLevel: 3, isAdmin: true }));
    await page.goto("/overview");
    await expectAccessible(page);
    await page.getByRole("button", { name: "Expand navigation" }).click();
    await expect(page.getByRole("navigation", { name: "Main navigation" }).getByRole("link", { name: "My suppliers" })).toBeVisible();
    await expectAccessible(page);
  });

  test("the landing page is accessible", async ({ page, javaScriptEnabled }) => {
    test.skip(!javaScriptEnabled, "axe-core runs inside the page; the markup is the same with JavaScript off");
    await page.goto("/");
    await expectAccessible(page);
  });

  test("the transparency portal hides both bars", async ({ page, context }) => {
    await signIn(context, await createUser({ accessLevel: 2 }));
    await page.goto("/transparency-portal");
    await expect(page.getByRole("heading", { name: "Transparency portal" })).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Main navigation" })).toHaveCount(0);
    await expect(page.getByLabel("User menu")).toHaveCount(0);
  });
});

test.describe("language", () => {
  test("switching to Norwegian updates the account and the page, and back", async ({ page, context }) => {
    const user = await createUser({ accessLevel: 2 });
    await signIn(context, user);
    await page.goto("/projects");
    await page.getByLabel("User menu").click();
    await page.getByRole("button", { name: "Norsk" }).click();
    await expect(page.getByRole("heading", { name: "Prosjekter" })).toBeVisible();
    await expect(page).toHaveURL(/\/projects$/);
    expect(userLanguage(user.id)).toBe("no");
    await page.reload();
    await expect(page.getByText("Denne siden er ikke tilgjengelig ennå.")).toBeVisible();
    await expect(page.locator("html")).toHaveAttribute("lang", "no");
    await page.getByLabel("Brukermeny").click();
    await page.getByRole("button", { name: "English" }).click();
    await expect(page.getByRole("heading", { name: "Projects" })).toBeVisible();
    expect(userLanguage(user.id)).toBe("en");
  });

  test("the switch names each language in its own name, in both interfaces; the group's name is translated", async ({ page }) => {
    await page.goto("/");
    for (const group of ["Change language", "Bytt språk"]) {
      const form = page.getByRole("form", { name: group });
      await expect(form.getByRole("button", { name: "English", exact: true })).toHaveAttribute("lang", "en");
      await expect(form.getByRole("button", { name: "Norsk", exact: true })).toHaveAttribute("lang", "no");
      await expect(form.getByRole("button")).toHaveCount(2);
      if (group === "Change language") await form.getByRole("button", { name: "Norsk" }).click();
    }
    await expect(page.locator("html")).toHaveAttribute("lang", "no");
  });

  test("a visitor can read the start page in Norwegian", async ({ page }) => {
    await page.goto("/");
    await page.getByRole("button", { name: "Norsk" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Kjenn leverandørene dine før de blir din risiko");
    await expect(page.getByRole("link", { name: "Logg inn" })).toBeVisible();
  });
});

test.describe("errors", () => {
  test("an unknown path shows the 404 page with its path", async ({ page, context }) => {
    await signIn(context, await createUser());
    const response = await page.goto("/no/such/page");
    expect(response?.status()).toBe(404);
    await expect(page.getByText("Page Not Found: /no/such/page")).toBeVisible();
    await expect(page.getByRole("heading", { name: "Page Not Found" })).toBeVisible();
    await expect(page.getByText("404", { exact: true })).toBeVisible();
    await expect(page).toHaveTitle("404 Page Not Found · Supplier Risk");
  });

  test("a screen that refuses (a route's own error) titles its error page too", async ({ page, context }) => {
    await signIn(context, await createUser({ accessLevel: 2 }));
    const refused = await page.goto("/admin/users");
    expect(refused?.status()).toBe(403);
    await expect(page).toHaveTitle(/^403 .+ · Supplier Risk$/);
    const missing = await page.goto("/supplier_tasks/999999999");
    expect(missing?.status()).toBe(404);
    await expect(page).toHaveTitle("404 Page Not Found · Supplier Risk");
  });
});

test.describe("updates (shared/spec/01-shell-chat-lei.md §4)", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "without JavaScript every navigation loads the whole page anyway");

  /** Marks the loaded document; a full page load forgets the mark, a navigation inside the page keeps it. */
  const mark = (page: Page) => page.evaluate(() => ((window as unknown as { __sameDocument?: boolean }).__sameDocument = true));
  // While the page is being replaced there is no document to ask: null, and a poll asks again.
  const sameDocument = (page: Page) => page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument === true).catch(() => null);

  test("after a new build is deployed, the next navigation loads the whole page, at most once per 10 s per path", async ({ page, context }) => {
    const user = await createUser({ accessLevel: 2 });
    await signIn(context, user);
    await page.route("**/_build/latest.json*", (route) => route.fulfill({ json: { id: "a-newer-build" }, headers: { "Cache-Control": "no-store" } }));
    await page.goto("/overview");
    await mark(page);

    // The browser asks for the latest build when the window gets focus (and every few minutes).
    const asked = page.waitForRequest((r) => r.url().includes("/_build/latest.json"));
    await page.evaluate(() => window.dispatchEvent(new Event("focus")));
    await asked;
    await page.getByRole("link", { name: user.organizationName }).click();
    await expect(page).toHaveURL(/\/org-structure-explorer$/);
    await expect.poll(() => sameDocument(page)).toBe(false);
    await expect(page.locator("html")).toHaveAttribute("data-js", "");

    // Within 10 s the same path is not reloaded again: the navigation stays inside the page.
    await mark(page);
    const askedAgain = page.waitForRequest((r) => r.url().includes("/_build/latest.json"));
    await page.evaluate(() => window.dispatchEvent(new Event("focus")));
    await askedAgain;
    await page.getByRole("link", { name: user.organizationName }).click();
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await page.waitForLoadState("networkidle");
    expect(await sameDocument(page)).toBe(true);
  });

  test("the same build causes no reload", async ({ page, context }) => {
    const user = await createUser({ accessLevel: 2 });
    await signIn(context, user);
    await page.goto("/overview");
    await mark(page);
    const asked = page.waitForResponse((r) => r.url().includes("/_build/latest.json"));
    await page.evaluate(() => window.dispatchEvent(new Event("focus")));
    expect((await (await asked).json()).id).toBe(
      await page.evaluate(() => (window as unknown as { __remixManifest: { version: string } }).__remixManifest.version),
    );
    await page.getByRole("link", { name: user.organizationName }).click();
    await expect(page).toHaveURL(/\/org-structure-explorer$/);
    await page.waitForLoadState("networkidle");
    expect(await sameDocument(page)).toBe(true);
  });

  test("a screen whose code fails to load reloads the page from the server", async ({ page, context, allowBrowserErrors }) => {
    // The chunk this test makes unreachable, and Remix's own report of the reload it causes.
    allowBrowserErrors(/\/assets\/_app\.casefiles-[^/]+\.js/, /^uncaught error in .*\/overview: $/);
    await signIn(context, await createUser({ accessLevel: 2 }));
    await page.goto("/overview");
    await mark(page);
    // The old build's files are gone: the case files screen's code cannot be fetched.
    await page.route(/\/assets\/_app\.casefiles-[^/]+\.js$/, (route) => route.abort());
    const nav = page.getByRole("navigation", { name: "Main navigation" });
    await nav.getByRole("button", { name: "Workflow" }).hover();
    await nav.getByRole("link", { name: "Case files" }).click();
    // Remix reloads the page it is on, which brings the new build's list of files.
    await expect.poll(() => sameDocument(page)).toBe(false);
    await expect(page).toHaveURL(/\/overview$/);
    await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();
  });
});
