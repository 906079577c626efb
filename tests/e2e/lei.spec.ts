import { expect, test, type Page } from "./test";
import { demoUser, expectAccessible, signIn } from "./helpers";

/**
 * The LEI search modal (shared/spec/01-shell-chat-lei.md §2.7, §4, §5, §8, §9) over the demo world's LEI records (the recorded real GLEIF
 * records, CC0): with JavaScript it searches as one types and works in place over /api/lei-api/*; without it,
 * it is URL state — a GET form and links.
 */

const FRAPORT = { lei: "5299001ERX0K10IZUL40", name: "Fraport AG Frankfurt Airport Services Worldwide" };
const FRAPORT_CHILDREN = ["Lima Airport Partners S.R.L.", "FRAPORT MALTA BUSINESS SERVICES LTD"];
const BLOOMBERG = { lei: "5493001KJTIIGC8Y1R12", name: "Bloomberg Finance L.P." };
const BLOOMBERG_PARENT = { lei: "549300RMUDWPHCUQNE66", name: "Bloomberg Inc." };

function leiDialog(page: Page) {
  return page.getByRole("dialog", { name: "LEI search" });
}

/** The dialog from the search dropdown's LEI button (JavaScript), or from the search results page's (without). */
async function openFromSearch(page: Page, javaScriptEnabled: boolean) {
  if (javaScriptEnabled) {
    await page.goto("/suppliers");
    const box = page.getByRole("search", { name: "Search" }).getByRole("combobox", { name: "Search" });
    await box.focus();
    await page.getByRole("link", { name: "LEI", exact: true }).click();
  } else {
    await page.goto("/search?q=fraport");
    await page.getByRole("link", { name: "LEI", exact: true }).click();
  }
  await expect(page).toHaveURL(/dialog=lei/);
  await expect(leiDialog(page)).toBeVisible();
}

async function search(page: Page, text: string, javaScriptEnabled: boolean) {
  const box = leiDialog(page).getByRole("searchbox", { name: "Company name or LEI" });
  await expect(box).toHaveAttribute("placeholder", "Search company name or LEI (Legal Entity Identifier)…");
  // With JavaScript the dialog's code is lazy: type once it runs.
  if (javaScriptEnabled) await expect(leiDialog(page).locator("form[data-ready]")).toHaveCount(1);
  await box.fill(text);
  // Enter searches at once (with JavaScript); without it, Enter submits the GET form.
  if (!javaScriptEnabled) await box.press("Enter");
}

function detail(page: Page, label: string) {
  return leiDialog(page)
    .locator("dt", { hasText: new RegExp(`^${label}$`) })
    .first()
    .locator("xpath=following-sibling::dd[1]");
}

test.describe("LEI search modal", () => {
  test.beforeEach(async ({ context }) => {
    await signIn(context, demoUser("analyst@demo.test"));
  });

  test("search by name and by LEI, open the record, copy the LEI, open the parent, load children, open a child, close", async ({
    page,
    context,
    javaScriptEnabled,
  }) => {
    if (javaScriptEnabled) await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    await openFromSearch(page, javaScriptEnabled);
    const dialog = leiDialog(page);

    // By name: the two-column results, the legal name and "LEI: {id}".
    await search(page, "fraport", javaScriptEnabled);
    const result = dialog.getByRole("link", { name: new RegExp(`${FRAPORT.name}.*LEI: ${FRAPORT.lei}`) });
    await expect(result).toBeVisible();
    await result.click();
    await expect(dialog.getByRole("heading", { name: FRAPORT.name })).toBeVisible();
    await expect(detail(page, "Jurisdiction")).toHaveText("DE");
    await expect(detail(page, "Registered ID")).not.toHaveText("");
    await expect(detail(page, "Next renewal")).toHaveText(/^\d{4}-\d{2}-\d{2}$/);
    await expect(dialog.getByText("No ultimate parent found.")).toBeVisible();
    // The results list is gone once a record is chosen.
    await expect(dialog.getByRole("list", { name: "Results" })).toHaveCount(0);

    // Copy: the LEI is in a selectable field; with JavaScript the button copies it and says so for 2 s.
    await expect(dialog.getByRole("textbox", { name: "LEI", exact: true })).toHaveValue(FRAPORT.lei);
    if (javaScriptEnabled) {
      await dialog.getByRole("button", { name: `Copy the LEI ${FRAPORT.lei}` }).click();
      await expect(dialog.getByText("Copied", { exact: true })).toBeVisible();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(FRAPORT.lei);
      await expect(dialog.getByText("Copied", { exact: true })).toBeHidden({ timeout: 3000 });
    } else {
      await expect(dialog.getByRole("button", { name: /Copy/ })).toHaveCount(0);
    }

    // Children: the button goes once they are loaded; cards in a list of at most 12 rem.
    await dialog.getByRole("link", { name: "Load child entities" }).click();
    await expect(dialog.getByRole("heading", { name: "Direct Children" })).toBeVisible();
    await expect(dialog.getByRole("link", { name: "Load child entities" })).toHaveCount(0);
    const children = dialog.getByTestId("lei-children");
    for (const name of FRAPORT_CHILDREN) await expect(children.getByRole("link", { name: new RegExp(name) })).toBeVisible();
    expect(await children.evaluate((el) => getComputedStyle(el).maxHeight)).toBe("192px");
    await children.getByRole("link", { name: new RegExp(FRAPORT_CHILDREN[0]) }).click();
    await expect(dialog.getByRole("heading", { name: FRAPORT_CHILDREN[0] })).toBeVisible();
    // A new record starts with its children not loaded.
    await expect(dialog.getByRole("link", { name: "Load child entities" })).toBeVisible();

    // By LEI (lower case is the same LEI).
    await search(page, BLOOMBERG.lei.toLowerCase(), javaScriptEnabled);
    if (javaScriptEnabled) await dialog.getByRole("searchbox").press("Enter");
    await dialog.getByRole("link", { name: new RegExp(`LEI: ${BLOOMBERG.lei}`) }).click();
    await expect(dialog.getByRole("heading", { name: BLOOMBERG.name })).toBeVisible();
    await expect(detail(page, "Managing LOU")).not.toHaveText("");

    // The ultimate parent is a card that opens its record.
    const parent = dialog.getByRole("link", { name: new RegExp(`${BLOOMBERG_PARENT.name}.*LEI: ${BLOOMBERG_PARENT.lei}`) });
    await expect(parent).toBeVisible();
    // axe-core runs inside the page; the markup is the same with JavaScript off.
    if (javaScriptEnabled) await expectAccessible(page);
    await parent.click();
    await expect(dialog.getByRole("heading", { name: BLOOMBERG_PARENT.name })).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`lei=${BLOOMBERG_PARENT.lei}`));

    // The footer's link to the LEI standard opens elsewhere, safely.
    const standard = dialog.getByRole("link", { name: /About the LEI standard/ });
    await expect(standard).toHaveAttribute("target", "_blank");
    await expect(standard).toHaveAttribute("rel", /noopener/);

    // Close clears everything: the dialog and every one of its parameters go.
    await dialog.getByRole("link", { name: "Close" }).last().click();
    await expect(leiDialog(page)).toHaveCount(0);
    await expect(page).not.toHaveURL(/dialog=|leiq=|lei=/);
  });

  test("a search with nothing found says 'No results.'; an unknown or malformed LEI in the URL too, never an error", async ({ page }) => {
    await page.goto("/suppliers?dialog=lei&leiq=qqqzzzxxyvv");
    await expect(leiDialog(page).getByText("No results.")).toBeVisible();
    for (const lei of ["529900UNKNOWN0000021", "not-an-lei"]) {
      const response = await page.goto(`/suppliers?dialog=lei&lei=${lei}`);
      expect(response?.status()).toBe(200);
      await expect(leiDialog(page).getByText("No results.")).toBeVisible();
    }
  });

  test("the page behind keeps its own parameters through the dialog's form and links", async ({ page, javaScriptEnabled }) => {
    await page.goto("/suppliers?q=a&dialog=lei");
    await search(page, "bloomberg", javaScriptEnabled);
    await leiDialog(page)
      .getByRole("link", { name: new RegExp(BLOOMBERG.name) })
      .click();
    await expect(leiDialog(page).getByRole("heading", { name: BLOOMBERG.name })).toBeVisible();
    await expect(page).toHaveURL(/[?&]q=a(&|$)/);
    await leiDialog(page).getByRole("link", { name: "Close" }).last().click();
    await expect(page).toHaveURL(/\/suppliers\?q=a$/);
  });
});

test.describe("LEI search modal with JavaScript: the spec's timing and calls", () => {
  test.beforeEach(async ({ context, javaScriptEnabled }) => {
    test.skip(!javaScriptEnabled, "typing, debounce and the API calls exist only with JavaScript");
    await signIn(context, demoUser("analyst@demo.test"));
  });

  test("750 ms debounce, spinner, blank makes no call, choosing makes no search, a click outside clears the list", async ({ page }) => {
    await page.goto("/suppliers?dialog=lei");
    const dialog = leiDialog(page);
    const calls: Array<{ at: number; term: string | null }> = [];
    page.on("request", (request) => {
      const url = new URL(request.url());
      if (url.pathname === "/api/lei-api/autocomplete") calls.push({ at: Date.now(), term: url.searchParams.get("term") });
    });
    const box = dialog.getByRole("searchbox", { name: "Company name or LEI" });
    // The dialog's code is lazy: type once it runs.
    await expect(dialog.locator("form[data-ready]")).toHaveCount(1);
    await box.pressSequentially("bloom", { delay: 50 });
    const typedAt = Date.now();
    await expect(dialog.getByTestId("lei-spinner")).toBeVisible();
    await expect(dialog.getByRole("list", { name: "Results" })).toBeVisible();
    expect(calls).toHaveLength(1);
    expect(calls[0].term).toBe("bloom");
    expect(calls[0].at - typedAt).toBeGreaterThanOrEqual(650);
    await expect(dialog.getByTestId("lei-spinner")).toHaveCount(0);

    // A click outside the search box clears the list.
    await dialog.getByRole("heading", { name: "LEI search" }).click();
    await expect(dialog.getByRole("list", { name: "Results" })).toHaveCount(0);

    // Blank or whitespace clears and makes no call.
    await box.fill("   ");
    await page.waitForTimeout(1000);
    expect(calls).toHaveLength(1);

    // Choosing a suggestion fills the box and does not search again.
    await box.fill("bloomberg");
    await box.press("Enter");
    await dialog.getByRole("link", { name: new RegExp(BLOOMBERG.name) }).click();
    await expect(dialog.getByRole("heading", { name: BLOOMBERG.name })).toBeVisible();
    await expect(box).toHaveValue(BLOOMBERG.name);
    const before = calls.length;
    await page.waitForTimeout(1000);
    expect(calls).toHaveLength(before);
    await expect(dialog.getByRole("heading", { name: BLOOMBERG.name })).toBeFocused();
  });
});

test.describe("LEI from the supplier screen", () => {
  // The demo world's generated LEI records follow the registry's majority ownership (server/seed/lei.ts).
  const ELTERA = { orgNumber: "811600792", lei: "DEMO00NO811600792059", name: "ELTERA AS" };

  test("a company with an LEI shows it and opens the dialog on it: its parent chain and children", async ({ page, context }) => {
    await signIn(context, demoUser("analyst@demo.test"));
    await page.goto(`/supplier?externalId=${ELTERA.orgNumber}`);
    await page.getByRole("link", { name: new RegExp(ELTERA.lei) }).click();
    const dialog = leiDialog(page);
    await expect(dialog.getByRole("heading", { name: ELTERA.name })).toBeVisible();
    await expect(detail(page, "Registered ID")).toHaveText(ELTERA.orgNumber);
    await expect(detail(page, "Jurisdiction")).toHaveText("NO");
    await expect(detail(page, "Legal Form")).toHaveText(/\((YI42|IQGE)\)$/);
    await expect(dialog.getByRole("link", { name: /STANGNES HOLDING AS/ })).toBeVisible();
    await dialog.getByRole("link", { name: "Load child entities" }).click();
    await expect(dialog.getByRole("region", { name: "Direct Children" }).getByRole("link", { name: /VEIANLEGG AS/ })).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`externalId=${ELTERA.orgNumber}`));
  });
});
