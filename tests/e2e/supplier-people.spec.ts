import fs from "node:fs";
import path from "node:path";
import { roleLabel } from "../../app/models/registry/roles";
import { expect, test, type Locator, type Page } from "./test";
import { formatDate } from "../../app/models/shared/format";
import { createUser, demoUser, expectAccessible, queryDb, signIn } from "./helpers";

/** A stored position as the English interface shows it: translated from its register role code ('Styreleder' → 'Chairman of the board'). */
const englishRoles = (JSON.parse(fs.readFileSync(path.resolve("locales/en/people.json"), "utf8")) as { roles: Record<string, string> }).roles;
const englishPosition = (position: string) => roleLabel(position, (key) => englishRoles[key.slice("roles.".length)]);

/**
 * Ownership, board and people on the supplier screen (shared/spec/02-supplier-credit-connections.md "Supplier
 * detail", "Person full-screen modal"), with JavaScript on and off. The
 * companies and people come from the demo world, found by their properties.
 */

const ownership = (percent: number) =>
  new Intl.NumberFormat("en", { style: "percent", minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(percent / 100);
const day = (iso: string) => new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" }).format(new Date(iso));
const TWO_DECIMALS = /\d\.\d{2}%$/;

const supplierUrl = (orgNumber: string) => `/supplier?externalId=${orgNumber}`;
const section = (page: Page, name: string) => page.getByRole("region", { name, exact: true });
const dialog = (page: Page) => page.getByRole("dialog");

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A board list's row of one person in one position (a person may hold several roles in one company). */
function boardRow(page: Page, list: Locator, name: string, position: string): Locator {
  return list
    .getByRole("listitem")
    .filter({ has: page.getByRole("link", { name, exact: true }) })
    .filter({ has: page.getByText(new RegExp(`^${escapeRegExp(englishPosition(position))} · `)) })
    .first();
}

function one<T>(rows: T[], what: string): T {
  const [row] = rows;
  if (!row) throw new Error(`the demo world has no ${what}`);
  return row;
}

test.beforeEach(async ({ context }) => {
  await signIn(context, demoUser("analyst@demo.test"));
});

test.describe("shareholders and company shares", () => {
  test("shareholders show ownership with 2 decimals; an organisation links to its supplier screen", async ({ page }) => {
    const row = one(
      queryDb<{ org_number: string; legal_name: string; holder: string; holder_name: string; percent: number }>(
        `select c.org_number, c.legal_name, h.org_number as holder, h.legal_name as holder_name, s.percent
         from shareholdings s join companies c on c.id = s.company_id join companies h on h.id = s.holder_company_id
         where s.percent is not null order by s.percent desc, c.org_number limit 1`,
      ),
      "organisation shareholder",
    );
    await page.goto(supplierUrl(row.org_number));
    const shareholders = section(page, "Shareholders");
    const entry = shareholders
      .getByRole("listitem")
      .filter({ has: page.getByRole("link", { name: row.holder_name, exact: true }) })
      .first();
    await expect(entry).toContainText(ownership(row.percent));
    for (const text of await shareholders.getByRole("listitem").allInnerTexts()) expect(text).toMatch(/\d\.\d{2}%/);

    await entry.getByRole("link", { name: row.holder_name, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`externalId=${row.holder}$`));
    // The holder's own screen lists the company among its shares.
    const shares = section(page, "Company shares");
    await expect(shares.getByRole("link", { name: row.legal_name, exact: true })).toBeVisible();
    await expect(shares.getByRole("listitem").filter({ hasText: row.legal_name }).first()).toContainText(ownership(row.percent));
  });

  test("a person shareholder opens the person dialog", async ({ page }) => {
    const row = one(
      queryDb<{ org_number: string; person_id: number; name: string; percent: number }>(
        `select c.org_number, p.id as person_id, p.name, s.percent
         from shareholdings s join companies c on c.id = s.company_id join persons p on p.id = s.holder_person_id
         where s.percent is not null order by s.percent desc, c.org_number limit 1`,
      ),
      "person shareholder",
    );
    await page.goto(supplierUrl(row.org_number));
    const entry = section(page, "Shareholders").getByRole("listitem").filter({ hasText: row.name }).first();
    await expect(entry).toContainText(ownership(row.percent));
    await entry.getByRole("link", { name: row.name, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`person=${row.person_id}`));
    await expect(dialog(page)).toBeVisible();
    await expect(dialog(page).getByRole("heading", { name: row.name })).toBeVisible();
  });

  test("company shares list what the supplier owns, with 2 decimals and links", async ({ page }) => {
    const row = one(
      queryDb<{ holder: string; org_number: string; legal_name: string; percent: number }>(
        `select h.org_number as holder, c.org_number, c.legal_name, s.percent
         from shareholdings s join companies c on c.id = s.company_id join companies h on h.id = s.holder_company_id
         where s.percent is not null order by (select count(*) from shareholdings x where x.holder_company_id = h.id) desc, h.org_number limit 1`,
      ),
      "company with shares",
    );
    await page.goto(supplierUrl(row.holder));
    const shares = section(page, "Company shares");
    const entry = shares
      .getByRole("listitem")
      .filter({ has: page.getByRole("link", { name: row.legal_name, exact: true }) })
      .first();
    await expect(entry).toContainText(ownership(row.percent));
    await expect(entry.getByRole("link", { name: row.legal_name, exact: true })).toHaveAttribute("href", supplierUrl(row.org_number));
  });

  test("a supplier without shareholders says so", async ({ page }) => {
    const row = one(
      queryDb<{ org_number: string }>(
        `select org_number from companies c where not exists (select 1 from shareholdings s where s.company_id = c.id)
         and not exists (select 1 from shareholdings s where s.holder_company_id = c.id) order by org_number limit 1`,
      ),
      "company without ownership data",
    );
    await page.goto(supplierUrl(row.org_number));
    await expect(section(page, "Shareholders")).toContainText("No shareholders are registered for this company.");
    await expect(section(page, "Company shares")).toContainText("This company holds no registered shares in other companies.");
  });
});

test.describe("ownership tree", () => {
  /**
   * A chain A → B → C → D (A owns B, B owns C, C owns D). B's shareholders list
   * A; A's tree shows B and C (three levels with A itself) but not D.
   */
  function chain() {
    return one(
      queryDb<{ a: string; a_name: string; b: string; b_name: string; c_name: string; c_pct: number; d_name: string }>(
        `select a.org_number as a, a.legal_name as a_name, b.org_number as b, b.legal_name as b_name,
                c.legal_name as c_name, s2.percent as c_pct, d.legal_name as d_name
         from shareholdings s1
         join shareholdings s2 on s2.holder_company_id = s1.company_id
         join shareholdings s3 on s3.holder_company_id = s2.company_id
         join companies a on a.id = s1.holder_company_id
         join companies b on b.id = s1.company_id
         join companies c on c.id = s2.company_id
         join companies d on d.id = s3.company_id
         where a.id not in (b.id, c.id, d.id) and b.id not in (c.id, d.id) and c.id <> d.id and s2.percent is not null
           -- D must not also sit higher in A's tree
           and not exists (select 1 from shareholdings x where x.company_id = d.id and x.holder_company_id in (a.id, b.id))
           and d.legal_name not in (a.legal_name, b.legal_name, c.legal_name)
         order by a.org_number, b.org_number, c.org_number limit 1`,
      ),
      "ownership chain four deep",
    );
  }

  test("expanding shows three levels with 2-decimal percentages; collapsing hides it", async ({ page }) => {
    const row = chain();
    await page.goto(supplierUrl(row.b));
    const shareholders = section(page, "Shareholders");
    const toggle = shareholders.getByRole("link", { name: `Ownership tree of ${row.a_name}` });
    await expect(toggle).toHaveAttribute("aria-expanded", "false");
    await toggle.click();
    await expect(page).toHaveURL(new RegExp(`tree=${row.a}`));
    await expect(toggle).toHaveAttribute("aria-expanded", "true");

    const tree = shareholders.getByRole("list", { name: `Companies owned by ${row.a_name}` });
    await expect(tree.getByRole("link", { name: row.b_name, exact: true }).first()).toBeVisible();
    const cItem = tree
      .getByRole("listitem")
      .filter({ has: page.getByRole("link", { name: row.c_name, exact: true }) })
      .last();
    await expect(cItem).toContainText(ownership(row.c_pct));
    await expect(tree.getByRole("link", { name: row.d_name, exact: true })).toHaveCount(0);
    for (const text of await tree.locator("span.tabular-nums").allInnerTexts()) expect(text.trim()).toMatch(TWO_DECIMALS);
    // No level deeper than the third.
    await expect(tree.locator("[data-level='4']")).toHaveCount(0);

    await toggle.click();
    await expect(toggle).toHaveAttribute("aria-expanded", "false");
    await expect(tree).toHaveCount(0);
    await expect(page).not.toHaveURL(/tree=/);
  });

  test("with JavaScript: no page reload, and a tree seen once shows at once when re-expanded", async ({ page }, testInfo) => {
    test.skip(testInfo.project.name !== "js-on", "client-side behaviour");
    const row = chain();
    await page.goto(supplierUrl(row.b));
    const shareholders = section(page, "Shareholders");
    const toggle = shareholders.getByRole("link", { name: `Ownership tree of ${row.a_name}` });
    await page.evaluate(() => ((window as unknown as { __same: boolean }).__same = true));
    await toggle.click();
    const tree = shareholders.getByRole("list", { name: `Companies owned by ${row.a_name}` });
    await expect(tree).toBeVisible();
    await toggle.click();
    await expect(tree).toHaveCount(0);

    // Hold back the loaders: the cached tree must show before they answer.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(
      (url) => url.searchParams.has("_data"),
      async (route) => {
        await held;
        await route.continue();
      },
    );
    await toggle.click();
    await expect(tree).toBeVisible({ timeout: 2_000 });
    await expect(toggle).toHaveAttribute("aria-expanded", "true");
    release();
    await expect(page).toHaveURL(new RegExp(`tree=${row.a}`));
    expect(await page.evaluate(() => (window as unknown as { __same?: boolean }).__same)).toBe(true);
  });
});

test.describe("board", () => {
  test("current board sorted by board score, with Chairman badge and dates", async ({ page }) => {
    const company = one(
      queryDb<{ id: number; org_number: string }>(
        `select c.id, c.org_number from companies c
         where exists (select 1 from roles r where r.company_id = c.id and r.active_to is null and (r.position like '%styreleder%' or r.position like '%chairman%'))
           and (select count(distinct p.boardscore) from roles r join persons p on p.id = r.person_id where r.company_id = c.id and r.active_to is null) >= 3
         order by c.org_number limit 1`,
      ),
      "board with a chairman",
    );
    const members = queryDb<{ name: string; position: string; boardscore: number; active_from: string | null }>(
      `select p.name, r.position, p.boardscore, r.active_from from roles r join persons p on p.id = r.person_id
       where r.company_id = ? and r.active_to is null order by p.boardscore desc`,
      company.id,
    );
    await page.goto(supplierUrl(company.org_number));
    const board = section(page, "Board");
    const items = board.getByRole("list", { name: "Board" }).getByRole("listitem");
    await expect(items).toHaveCount(members.length);
    const scores = (await items.locator(".tabular-nums").allInnerTexts()).map(Number);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(scores[0]).toBe(Math.round(members[0].boardscore));

    const chair = members.find((m) => /styreleder|chairman/i.test(m.position))!;
    const chairItem = boardRow(page, board, chair.name, chair.position);
    await expect(chairItem.getByText("Chairman", { exact: true })).toBeVisible();
    await expect(chairItem).toContainText(englishPosition(chair.position));
    if (chair.active_from) await expect(chairItem).toContainText(`Since ${day(chair.active_from)}`);
    const plain = members.find((m) => !/styreleder|chairman|ceo|adm\. direktør/i.test(m.position));
    if (plain) await expect(boardRow(page, board, plain.name, plain.position).locator(".badge")).toHaveCount(0);
  });

  test("a CEO carries the CEO badge", async ({ page }) => {
    const rows = queryDb<{ org_number: string; name: string; position: string; active_to: string | null }>(
      `select c.org_number, p.name, r.position, r.active_to from roles r join persons p on p.id = r.person_id join companies c on c.id = r.company_id
       where r.position like '%ceo%' or r.position like '%adm. direkt%' order by r.active_to is not null, c.org_number limit 1`,
    );
    test.skip(rows.length === 0, "the demo world has no CEO positions");
    const row = rows[0];
    await page.goto(supplierUrl(row.org_number));
    const list = section(page, row.active_to ? "Former board" : "Board");
    const item = boardRow(page, list, row.name, row.position);
    await expect(item.getByText("CEO", { exact: true })).toBeVisible();
  });

  test("former board lists members with their period", async ({ page }) => {
    const row = one(
      queryDb<{ org_number: string; name: string; active_from: string; active_to: string }>(
        `select c.org_number, p.name, r.active_from, r.active_to from roles r join persons p on p.id = r.person_id join companies c on c.id = r.company_id
         where r.active_to is not null and r.active_from is not null order by c.org_number limit 1`,
      ),
      "former board member",
    );
    await page.goto(supplierUrl(row.org_number));
    const rows = section(page, "Former board")
      .getByRole("listitem")
      .filter({ has: page.getByRole("link", { name: row.name, exact: true }) });
    await expect(rows.filter({ hasText: `${day(row.active_from)} – ${day(row.active_to)}` }).first()).toBeVisible();
  });

  test("board relations list people on shared boards, with the boards as links", async ({ page }) => {
    const row = one(
      queryDb<{ org_number: string; name: string; shared: string; shared_name: string }>(
        `select c.org_number, op.name, sc.org_number as shared, sc.legal_name as shared_name
         from roles m
         join roles mb on mb.person_id = m.person_id and mb.active_to is null and mb.company_id <> m.company_id
         join roles o on o.company_id = mb.company_id and o.active_to is null and o.person_id <> m.person_id
         join persons op on op.id = o.person_id
         join companies c on c.id = m.company_id
         join companies sc on sc.id = mb.company_id
         where m.active_to is null
           and o.person_id not in (select person_id from roles where company_id = m.company_id and active_to is null)
         order by c.org_number limit 1`,
      ),
      "board relation",
    );
    await page.goto(supplierUrl(row.org_number));
    const relations = section(page, "Board relations");
    const item = relations
      .getByRole("listitem")
      .filter({ has: page.getByRole("link", { name: row.name, exact: true }) })
      .first();
    await expect(item).toContainText(/\d+ shared boards?/);
    const boardLink = item.getByRole("list", { name: `Shared boards with ${row.name}` }).getByRole("link", { name: row.shared_name, exact: true });
    await expect(boardLink).toHaveAttribute("href", supplierUrl(row.shared));
    const counts = (await relations.getByText(/^\d+ shared boards?$/).allInnerTexts()).map((s) => parseInt(s, 10));
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
  });

  test("board relations say so when there are none", async ({ page }) => {
    const row = one(
      queryDb<{ org_number: string }>(
        `select c.org_number from companies c
         where exists (select 1 from roles r where r.company_id = c.id and r.active_to is null)
           and not exists (
             select 1 from roles m
             join roles mb on mb.person_id = m.person_id and mb.active_to is null and mb.company_id <> c.id
             join roles o on o.company_id = mb.company_id and o.active_to is null and o.person_id <> m.person_id
             where m.company_id = c.id and m.active_to is null
               and o.person_id not in (select person_id from roles where company_id = c.id and active_to is null))
         order by c.org_number limit 1`,
      ),
      "board without relations",
    );
    await page.goto(supplierUrl(row.org_number));
    await expect(section(page, "Board relations")).toContainText("No direct relations found on shared boards.");
  });
});

test.describe("person dialog", () => {
  /** A person with a role in a bankrupt company, opened from that company's board. */
  function bankruptRole() {
    return one(
      queryDb<{ person_id: number; name: string; org_number: string; legal_name: string; date_of_bankruptcy: string; active_to: string | null }>(
        `select p.id as person_id, p.name, c.org_number, c.legal_name, c.date_of_bankruptcy, r.active_to
         from roles r join persons p on p.id = r.person_id join companies c on c.id = r.company_id
         where c.date_of_bankruptcy is not null order by r.active_to is not null, p.id limit 1`,
      ),
      "role in a bankrupt company",
    );
  }

  async function openFromBoard(page: Page, row: ReturnType<typeof bankruptRole>): Promise<Locator> {
    await page.goto(supplierUrl(row.org_number));
    const board = section(page, row.active_to ? "Former board" : "Board");
    await board.getByRole("link", { name: row.name, exact: true }).first().click();
    const modal = page.getByRole("dialog", { name: row.name });
    await expect(modal).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`person=${row.person_id}`));
    return modal;
  }

  test("opens from the board; CV with a Bankrupt role, shares, relations; closes", async ({ page }) => {
    const row = bankruptRole();
    const modal = await openFromBoard(page, row);
    await expect(modal).toHaveAttribute("aria-modal", "true");
    for (const label of ["Age", "Sex", "Country", "Board score"]) await expect(modal.getByText(label, { exact: true })).toBeVisible();

    // Management CV: the bankrupt company's role with its status and date.
    await expect(modal.getByRole("link", { name: "Management CV" })).toHaveAttribute("aria-current", "page");
    const roleRow = modal
      .getByRole("row")
      .filter({ has: page.getByRole("link", { name: row.legal_name, exact: true }) })
      .first();
    await expect(roleRow).toContainText(`Bankrupt ${day(row.date_of_bankruptcy)}`);
    await expect(roleRow.getByRole("link", { name: row.legal_name, exact: true })).toHaveAttribute("href", supplierUrl(row.org_number));

    // Shares.
    const shares = queryDb<{ legal_name: string; percent: number | null }>(
      `select c.legal_name, s.percent from shareholdings s join companies c on c.id = s.company_id where s.holder_person_id = ? order by s.percent desc`,
      row.person_id,
    );
    await modal.getByRole("link", { name: "Shares", exact: true }).click();
    await expect(page).toHaveURL(/personTab=shares/);
    await expect(modal.getByRole("link", { name: "Shares", exact: true })).toHaveAttribute("aria-current", "page");
    if (shares.length) {
      const first = modal.getByRole("row").filter({ hasText: shares[0].legal_name }).first();
      await expect(first).toContainText(shares[0].percent == null ? "—" : ownership(shares[0].percent));
    } else {
      await expect(modal).toContainText("No shareholdings are registered for this person.");
    }

    // Relations.
    await modal.getByRole("link", { name: "Relations", exact: true }).click();
    await expect(page).toHaveURL(/personTab=relations/);
    await expect(modal.getByRole("link", { name: "Relations", exact: true })).toHaveAttribute("aria-current", "page");
    const related = queryDb<{ name: string }>(
      `select distinct op.name from roles mine join roles theirs on theirs.company_id = mine.company_id and theirs.person_id <> mine.person_id
       join persons op on op.id = theirs.person_id where mine.person_id = ? and mine.active_to is null and theirs.active_to is null`,
      row.person_id,
    );
    if (related.length) await expect(modal.getByRole("link", { name: related[0].name, exact: true }).first()).toBeVisible();
    else await expect(modal).toContainText("No direct relations found on shared boards.");

    // Back to the CV, then close.
    await modal.getByRole("link", { name: "Management CV" }).click();
    await expect(page).not.toHaveURL(/personTab=/);
    await expect(modal.getByRole("row").filter({ hasText: row.legal_name }).first()).toContainText("Bankrupt");
    await modal.getByRole("link", { name: "Close" }).click();
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await expect(page).not.toHaveURL(/person=/);
    await expect(page).toHaveURL(new RegExp(`externalId=${row.org_number}`));
  });

  test("a relation opens that person's dialog, and Back leaves the dialog", async ({ page }) => {
    const row = one(
      queryDb<{ person_id: number; name: string; other_id: number; other: string; org_number: string }>(
        `select p.id as person_id, p.name, op.id as other_id, op.name as other, c.org_number
         from roles mine join roles theirs on theirs.company_id = mine.company_id and theirs.person_id <> mine.person_id and theirs.active_to is null
         join persons p on p.id = mine.person_id join persons op on op.id = theirs.person_id join companies c on c.id = mine.company_id
         where mine.active_to is null and p.name <> op.name order by c.org_number, p.id limit 1`,
      ),
      "two people on one board",
    );
    await page.goto(`${supplierUrl(row.org_number)}&person=${row.person_id}&personTab=relations`);
    const modal = page.getByRole("dialog", { name: row.name });
    await modal.getByRole("link", { name: row.other, exact: true }).first().click();
    await expect(page.getByRole("dialog", { name: row.other })).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`person=${row.other_id}`));
    await expect(page).not.toHaveURL(/personTab=/);
    await page.getByRole("dialog").getByRole("link", { name: "Back" }).click();
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await expect(page).toHaveURL(new RegExp(`externalId=${row.org_number}$`));
  });

  test("with JavaScript: focus moves in, Escape closes, Back steps back in history, no serious axe findings", async ({ page }, testInfo) => {
    test.skip(testInfo.project.name !== "js-on", "keyboard and history behaviour need JavaScript");
    const row = bankruptRole();
    const modal = await openFromBoard(page, row);
    await expect(modal).toBeFocused();
    await expect(page.locator("html")).toHaveCSS("overflow", "hidden");
    await expectAccessible(page);

    await page.keyboard.press("Escape");
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await expect(page).not.toHaveURL(/person=/);

    // Opened from the page, Back returns to that history entry (forward goes to the dialog again).
    const again = await openFromBoard(page, row);
    await again.getByRole("link", { name: "Shares", exact: true }).click();
    await expect(page).toHaveURL(/personTab=shares/);
    await again.getByRole("link", { name: "Back" }).click();
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await page.goForward();
    await expect(page.getByRole("dialog", { name: row.name })).toBeVisible();
  });
});

test.describe("board roles and dates in the user's language", () => {
  /** A company whose current board holds the position, with one such member. */
  const boardWith = (position: string) =>
    one(
      queryDb<{ org_number: string; name: string; active_from: string | null }>(
        `select c.org_number, p.name, r.active_from from roles r join persons p on p.id = r.person_id join companies c on c.id = r.company_id
         where r.position = ? and r.active_to is null order by c.org_number limit 1`,
        position,
      ),
      `current '${position}'`,
    );

  test("the English board shows no Norwegian role names", async ({ page }) => {
    const row = boardWith("Styremedlem");
    await page.goto(supplierUrl(row.org_number));
    const board = section(page, "Board");
    await expect(
      board
        .getByRole("listitem")
        .filter({ has: page.getByRole("link", { name: row.name, exact: true }) })
        .first(),
    ).toContainText("Board member");
    await expect(board).not.toContainText(/Styremedlem|Varamedlem|Styreleder|Daglig leder/);
  });

  test("the Norwegian board shows no English role names, and Norwegian dates", async ({ page, context }) => {
    await signIn(context, await createUser({ language: "no" }));
    const row = boardWith("Board member");
    await page.goto(supplierUrl(row.org_number));
    const board = section(page, "Styre");
    const item = board
      .getByRole("listitem")
      .filter({ has: page.getByRole("link", { name: row.name, exact: true }) })
      .first();
    await expect(item).toContainText("Styremedlem");
    if (row.active_from) await expect(item).toContainText(`Siden ${formatDate(row.active_from, "no")}`);
    await expect(board).not.toContainText(/Board member|Chairman|Deputy board member|\bCEO\b/);
    // Norwegian months: no English abbreviation anywhere in the list
    await expect(board).not.toContainText(/\b(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sept?|Oct|Nov|Dec) \d{4}/);
  });
});
