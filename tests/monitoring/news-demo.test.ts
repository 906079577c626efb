import { describe, expect, it } from "vitest";
import { decodeFeed, parseFeed } from "@server/monitoring/news/feed";
import { DEMO_FEEDS, readDemoFeedFile } from "@server/monitoring/news/demo";
import { pickDemoSuppliers } from "@server/seed/demo-suppliers";
import { assessRisk, matchItem } from "~/models/notifications/news-rules";

/**
 * The demo's recorded feeds (server/seed-data/news) read by the real reader and matched against the demo suppliers'
 * registry names: each headline about a supplier finds it, with the risk its words carry, and the generic ones find none.
 */
describe("the demo's recorded news feeds", () => {
  it("parse without skipped items and match the demo suppliers they are written about", async () => {
    const suppliers = pickDemoSuppliers().map((u, i) => ({ companyId: i + 1, name: u.navn }));
    const found: Array<[string, string[], number]> = [];
    for (const feed of DEMO_FEEDS) {
      const parsed = parseFeed(decodeFeed((await readDemoFeedFile(feed.file))!));
      expect(parsed.title).toBe(feed.title);
      expect(parsed.skipped).toEqual([]);
      for (const item of parsed.items) found.push([item.title, matchItem(item, suppliers).map((m) => m.name), assessRisk(item).score]);
    }
    expect(found).toEqual([
      ["DEMO: Eltera AS begjært konkurs etter tapt voldgiftssak", ["ELTERA AS"], 90],
      ["DEMO: Vinmonopolet lanserer ny returordning for glass", ["Aktieselskapet Vinmonopolet"], 10],
      ["DEMO: Økokrim etterforsker mulig bedrageri i byggebransjen", [], 90],
      ["DEMO: Svipp henter ny kapital til ekspansjon", ["SVIPP AS"], 10],
      ["DEMO: Audit alleges forced labour at a sub-supplier of Kjell & Co", ["KJELL & CO NORWAY AS"], 90],
      ["DEMO: Aneo signs long-term wind power agreement", ["ANEO AS"], 10],
      ["DEMO: Consulting as a career — what suppliers look for", [], 10],
      ["DEMO: Sanctions screening flags shipment linked to Tønsberg Data", ["TØNSBERG DATA AS"], 80],
      ["DEMO: Tonsberg Data AS får bot på 250 000 € for personvernbrudd", ["TØNSBERG DATA AS"], 55],
      ["DEMO: Blomsterfrakt Øst ansetter tolv nye sjåfører", ["BLOMSTERFRAKT ØST AS"], 10],
    ]);
  });
});
