import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "@server/db";
import { IMPORTERS } from "@server/importers/index";
import { LeiProviderError, type LeiProvider } from "@server/providers/lei";
import { loader as appLoader } from "~/routes/_app";
import { loadLeiDialog, type LeiDialogData } from "~/models/registry/lei-dialog.server";
import { makeOrg, request, signedIn } from "./helpers/fixtures";

/**
 * The LEI dialog as the server renders it from the URL (shared/spec/01-shell-chat-lei.md §2.7; the whole dialog without JavaScript), over
 * the store filled by the golden-copy importers from the fixture files, and the layout loader's access rule.
 */

const FRAPORT = "5299001ERX0K10IZUL40";
const BLOOMBERG = "5493001KJTIIGC8Y1R12";
const BLOOMBERG_INC = "549300RMUDWPHCUQNE66";
const SHELL = "21380068P1DRHMJ8KU70"; // a reporting exception, no parent
const UNKNOWN = "529900UNKNOWN0000021"; // valid check digits, no record

const w = {} as { analyst: string; viewer: string; otherOrgAnalyst: string };

function fixture(name: string): string {
  return fileURLToPath(new URL(`./fixtures/gleif/${name}`, import.meta.url));
}

beforeAll(async () => {
  await IMPORTERS["gleif-elf"](db(), fixture("elf.csv"));
  await IMPORTERS["gleif-lei2"](db(), fixture("lei2.csv"));
  await IMPORTERS["gleif-rr"](db(), fixture("rr.csv"));
  await IMPORTERS["gleif-repex"](db(), fixture("repex.csv"));
  const org = await makeOrg("LEI Dialog Customer AS", "customer");
  w.analyst = await signedIn("analyst@lei-dialog.test", org, 2);
  w.viewer = await signedIn("viewer@lei-dialog.test", org, 1);
  w.otherOrgAnalyst = await signedIn("other@lei-dialog.test", await makeOrg("Other Customer AS", "customer"), 2);
});

async function dialogFor(token: string, search: string): Promise<LeiDialogData | null> {
  const response = await request(appLoader, `/suppliers?${search}`, {}, token);
  expect(response.status).toBe(200);
  return ((await response.json()) as { leiDialog: LeiDialogData | null }).leiDialog;
}

describe("the LEI dialog from the URL", () => {
  it("is closed without dialog=lei, and for a user below level 2 (the search box's level)", async () => {
    expect(await dialogFor(w.analyst, "leiq=fraport")).toBeNull();
    expect(await dialogFor(w.viewer, "dialog=lei&leiq=fraport")).toBeNull();
    expect(await dialogFor(w.viewer, `dialog=lei&lei=${FRAPORT}`)).toBeNull();
  });

  it("open and empty: no search ran, nothing chosen", async () => {
    expect(await dialogFor(w.analyst, "dialog=lei")).toEqual({
      q: "",
      searched: false,
      results: [],
      record: null,
      recordMissing: false,
      managingLouName: null,
      parent: null,
      children: null,
    });
  });

  it("a blank or whitespace search runs nothing (shared/spec/01-shell-chat-lei.md §5)", async () => {
    const dialog = await dialogFor(w.analyst, "dialog=lei&leiq=%20%20%20");
    expect(dialog).toMatchObject({ q: "", searched: false, results: [] });
  });

  it("searches by name: each result with its LEI and the matched part marked", async () => {
    const dialog = (await dialogFor(w.analyst, "dialog=lei&leiq=bloomberg"))!;
    expect(dialog.searched).toBe(true);
    expect(dialog.results.map((r) => r.lei).sort()).toEqual([BLOOMBERG_INC, BLOOMBERG].sort());
    const finance = dialog.results.find((r) => r.lei === BLOOMBERG)!;
    expect(finance.label.map((p) => p.text).join("")).toBe("Bloomberg Finance L.P.");
    expect(finance.label.filter((p) => p.match).map((p) => p.text.toLowerCase())).toEqual(["bloomberg"]);
  });

  it("searches by LEI, in lower case too", async () => {
    const dialog = (await dialogFor(w.analyst, `dialog=lei&leiq=${FRAPORT.toLowerCase()}`))!;
    expect(dialog.results.map((r) => r.lei)).toContain(FRAPORT);
  });

  it("says there are no results", async () => {
    expect(await dialogFor(w.analyst, "dialog=lei&leiq=qqqzzzxxyvv")).toMatchObject({ searched: true, results: [] });
  });

  it("shows a chosen record with its managing LOU's name and its ultimate parent; no search runs meanwhile", async () => {
    const dialog = (await dialogFor(w.analyst, `dialog=lei&leiq=bloomberg&lei=${BLOOMBERG}`))!;
    expect(dialog.q).toBe("bloomberg");
    expect(dialog.searched).toBe(false);
    expect(dialog.record).toMatchObject({ lei: BLOOMBERG, name: "Bloomberg Finance L.P.", jurisdiction: "US" });
    expect(dialog.record!.nextRenewal).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(dialog.parent).toEqual({ lei: BLOOMBERG_INC, name: "Bloomberg Inc." });
    expect(dialog.children).toBeNull();
  });

  it("a reporting exception is not a parent", async () => {
    const dialog = (await dialogFor(w.analyst, `dialog=lei&lei=${SHELL}`))!;
    expect(dialog.record?.name).toBe("SHELL PLC");
    expect(dialog.parent).toBeNull();
  });

  it("loads the direct children when asked (children=1), the active ones only", async () => {
    const parent = (await dialogFor(w.analyst, `dialog=lei&lei=${BLOOMBERG_INC}&children=1`))!;
    expect(parent.children).toEqual([{ lei: BLOOMBERG, name: "Bloomberg Finance L.P." }]);
    // Fraport's only child in the fixtures is inactive, and a branch is not a consolidated child.
    expect((await dialogFor(w.analyst, `dialog=lei&lei=${FRAPORT}&children=1`))!.children).toEqual([]);
  });

  it("an unknown or malformed LEI shows no record (never an error); another organisation's analyst sees the same registry", async () => {
    expect(await dialogFor(w.analyst, `dialog=lei&lei=${UNKNOWN}`)).toMatchObject({ record: null, recordMissing: true });
    expect(await dialogFor(w.analyst, "dialog=lei&lei=%3Cscript%3E")).toMatchObject({ record: null, recordMissing: true });
    expect((await dialogFor(w.otherOrgAnalyst, `dialog=lei&lei=${BLOOMBERG}`))!.record?.lei).toBe(BLOOMBERG);
  });

  it("cuts a very long search text instead of refusing it", async () => {
    const dialog = (await dialogFor(w.analyst, `dialog=lei&leiq=${"a".repeat(5000)}`))!;
    expect(dialog.q).toHaveLength(200);
  });
});

describe("a registry that fails", () => {
  const failing = (overrides: Partial<LeiProvider>): LeiProvider => {
    const fail = () => Promise.reject(new LeiProviderError("timeout", "no answer"));
    return {
      name: "gleif",
      autocomplete: fail,
      record: fail,
      directChildren: fail,
      ultimateParent: fail,
      managingLou: fail,
      ...overrides,
    };
  };

  it("gives no results and no record, without an error (shared/spec/01-shell-chat-lei.md §8); the operator's log says why", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const provider = failing({});
    expect(await loadLeiDialog(new URL("http://x/?dialog=lei&leiq=fraport"), provider)).toMatchObject({ searched: true, results: [] });
    expect(await loadLeiDialog(new URL(`http://x/?dialog=lei&lei=${FRAPORT}`), provider)).toMatchObject({ record: null, recordMissing: true });
    expect(logged).toHaveBeenCalledWith("LEI dialog: the registry failed", expect.objectContaining({ kind: "timeout" }));
    logged.mockRestore();
  });

  it("the managing LOU's lookup, the parent and the children fail silently: the record shows with the raw LOU", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const { createLocalLeiProvider } = await import("@server/providers/lei/local");
    const local = createLocalLeiProvider();
    const provider = failing({ record: local.record });
    const dialog = await loadLeiDialog(new URL(`http://x/?dialog=lei&lei=${BLOOMBERG}&children=1`), provider);
    expect(dialog.record?.lei).toBe(BLOOMBERG);
    expect(dialog.managingLouName).toBeNull();
    expect(dialog.record?.managingLou).not.toBe("—");
    expect(dialog.parent).toBeNull();
    expect(dialog.children).toEqual([]);
    expect(logged).toHaveBeenCalledTimes(3);
    logged.mockRestore();
  });
});
