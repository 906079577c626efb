import { sectorOf } from "./industry";
import { Rng } from "./random";
import { GENERATED_RELATION, type ShareholdingRow, type WorldCompany } from "./types";

/**
 * Company ownership: holding companies on top, operating companies below
 * them, subsidiaries and sub-subsidiaries below those, and investment
 * companies with minority stakes across the sample. Every company gets at
 * most one majority owner and owners are always taken from companies not yet
 * placed below anyone, so the graph has no cycles. The stakes in one company
 * never add up to more than 100 %.
 */

export interface CompanyOwnership {
  edges: ShareholdingRow[];
  /** Majority owner of a company (company id → owner id). */
  parentOf: Map<number, number>;
  /** Percent of each company not yet held by anyone (for person owners). */
  room: Map<number, number>;
  /** Companies that own others (holdings, investors, parents). */
  owners: Set<number>;
  /** Investment companies: owned by people, holding minority stakes. */
  investors: number[];
  /** Top holdings of groups (no company owner). */
  groupTops: number[];
}

const HOLDING_NAME = /\bHOLDING\b/i;
const INVEST_NAME = /INVEST|KAPITAL/i;

function majorityPercent(rng: Rng): number {
  return rng.chance(0.55) ? 100 : Math.round(rng.range(50.1, 99.9) * 100) / 100;
}

export function generateCompanyOwnership(companies: readonly WorldCompany[], demo: readonly WorldCompany[]): CompanyOwnership {
  const rng = new Rng("ownership");
  const edges: ShareholdingRow[] = [];
  const parentOf = new Map<number, number>();
  const held = new Map<number, number>();
  const owners = new Set<number>();
  const used = new Set<number>();

  const eligible = companies.filter((c) => !c.isAker && !c.isForeign && c.demoIndex < 0 && c.isActive && (c.orgForm === "AS" || c.orgForm === "ASA"));
  const staff = (c: WorldCompany) => c.employees ?? 0;
  const holdings = eligible.filter((c) => staff(c) === 0 && HOLDING_NAME.test(c.name));
  const investorPool = eligible.filter((c) => staff(c) === 0 && !HOLDING_NAME.test(c.name) && INVEST_NAME.test(c.name));
  const operating = eligible.filter((c) => staff(c) > 0);
  const quiet = eligible.filter((c) => staff(c) === 0 && !HOLDING_NAME.test(c.name) && !INVEST_NAME.test(c.name));

  const roomOf = (id: number) => 100 - (held.get(id) ?? 0);
  function own(holder: WorldCompany, owned: WorldCompany, percent: number) {
    const p = Math.min(percent, roomOf(owned.id));
    if (p <= 0 || holder.id === owned.id) return;
    edges.push({ company_id: owned.id, holder_company_id: holder.id, holder_person_id: null, percent: p, relation_type: GENERATED_RELATION });
    held.set(owned.id, (held.get(owned.id) ?? 0) + p);
    if (p > 50) parentOf.set(owned.id, holder.id);
    owners.add(holder.id);
    used.add(holder.id);
    used.add(owned.id);
  }

  /** A random unused company of the pool, preferring the sector of `like` and smaller than `maxStaff`. */
  function take(pool: readonly WorldCompany[], like?: WorldCompany, maxStaff?: number): WorldCompany | undefined {
    const free = pool.filter((c) => !used.has(c.id));
    const smaller = maxStaff === undefined ? free : free.filter((c) => staff(c) < maxStaff);
    const candidates = smaller.length ? smaller : free;
    if (like) {
      const sector = sectorOf(like.industryCode).key;
      const same = candidates.filter((c) => sectorOf(c.industryCode).key === sector);
      if (same.length) return rng.pick(same);
    }
    return candidates.length ? rng.pick(candidates) : undefined;
  }
  const child = (parent: WorldCompany) => take(operating, parent, Math.max(2, staff(parent))) ?? take(quiet);
  const leaf = (parent: WorldCompany) => (rng.chance(0.5) ? take(quiet) : undefined) ?? take(operating, parent, Math.max(2, staff(parent))) ?? take(quiet);

  const demoAt = (i: number) => demo[i];
  const groupTops: number[] = [];
  const topHolding = () => {
    const h = take(holdings);
    if (h) groupTops.push(h.id);
    return h;
  };

  // Showcase structures around the demo suppliers (shared/spec/02-supplier-credit-connections.md §2: shareholders, company shares, ownership trees).
  // 0: owned through two holding levels and owning three levels below: six levels in all.
  const d0 = demoAt(0);
  if (d0) {
    const top = topHolding();
    const mid = take(holdings);
    if (top && mid) {
      own(top, mid, 100);
      own(mid, d0, 100);
    }
    let parent = d0;
    for (const percent of [100, 75.5, 51.25]) {
      const next = child(parent);
      if (!next) break;
      own(parent, next, percent);
      parent = next;
    }
    const sibling = child(d0);
    if (sibling) own(d0, sibling, 60);
  }
  // 1 owns 60 % of 13, which owns a company of its own; 1 is owned by a holding.
  const d1 = demoAt(1);
  const d13 = demoAt(13);
  if (d1) {
    const top = topHolding();
    if (top) own(top, d1, 100);
    if (d13) {
      own(d1, d13, 60.4);
      const sub = leaf(d13);
      if (sub) own(d13, sub, 100);
    }
  }
  // 4 is owned by the fictional Swedish holding.
  const d4 = demoAt(4);
  const swedishHolding = companies.find((c) => c.isForeign && c.countryCode === "SE" && HOLDING_NAME.test(c.name));
  if (d4 && swedishHolding) own(swedishHolding, d4, 100);
  // 5: owned by a holding; owns three subsidiaries, one of them with two of its own and one more below.
  const d5 = demoAt(5);
  if (d5) {
    const top = topHolding();
    if (top) own(top, d5, 100);
    const subs = [child(d5), child(d5), child(d5)].filter((c): c is WorldCompany => !!c);
    subs.forEach((s, i) => own(d5, s, [100, 100, 66.67][i]));
    if (subs[0]) {
      const a = leaf(subs[0]);
      const b = leaf(subs[0]);
      if (a) own(subs[0], a, 100);
      if (b) own(subs[0], b, 90);
      if (a) {
        const c = leaf(a);
        if (c) own(a, c, 100);
      }
    }
  }
  // 3 and 14 own subsidiaries; 7, 10 and 12 are owned by holdings.
  for (const i of [3, 14]) {
    const d = demoAt(i);
    if (!d) continue;
    for (let k = 0; k < 2; k++) {
      const s = child(d);
      if (!s) continue;
      own(d, s, majorityPercent(rng));
      if (i === 14) {
        const t = leaf(s);
        if (t) own(s, t, 100);
      }
    }
  }
  for (const [i, percent] of [
    [7, 80.25],
    [10, 100],
    [12, 100],
  ] as const) {
    const d = demoAt(i);
    const top = d && topHolding();
    if (d && top) own(top, d, percent);
    if (i === 7 && d) {
      const s = child(d);
      if (s) own(d, s, 100);
    }
  }

  // Generic groups. The first few are forced four levels deep so deep chains exist whatever the sample holds.
  const freeHoldings = holdings.filter((h) => !used.has(h.id));
  freeHoldings.forEach((h, index) => {
    if (used.has(h.id)) return;
    // Some holdings own another group's top holding: a holding of holdings.
    const orphans = groupTops.filter((t) => !parentOf.has(t) && t !== h.id);
    const orphanTop = orphans.length ? rng.pick(orphans) : undefined;
    if (index % 7 === 3 && orphanTop !== undefined) {
      const target = companies.find((c) => c.id === orphanTop);
      if (target) {
        groupTops.push(h.id);
        own(h, target, majorityPercent(rng));
        return;
      }
    }
    const forcedDepth = index < 6 ? 4 : 0;
    const kids = rng.weighted([
      [1, 5],
      [2, 3],
      [3, 2],
    ] as const);
    let any = false;
    for (let k = 0; k < kids; k++) {
      const c = take(operating) ?? take(quiet);
      if (!c) break;
      own(h, c, majorityPercent(rng));
      any = true;
      // Below an operating company: subsidiaries, more likely in the same industry.
      let parent = c;
      for (let depth = 2; depth <= 4; depth++) {
        const must = k === 0 && depth <= forcedDepth;
        if (!must && !rng.chance(depth === 2 ? 0.35 : 0.3)) break;
        const next = depth === 4 ? leaf(parent) : child(parent);
        if (!next) break;
        own(parent, next, majorityPercent(rng));
        parent = next;
      }
    }
    if (any) groupTops.push(h.id);
  });

  // Investment companies: minority stakes in operating companies (and a few demo suppliers).
  const investors: number[] = [];
  const investTargets = [...operating, ...demo.filter((d) => d.demoIndex === 8 || d.demoIndex === 7 || d.demoIndex === 12)];
  for (const inv of investorPool) {
    if (used.has(inv.id)) continue;
    investors.push(inv.id);
    used.add(inv.id);
    const stakes = rng.int(2, 5);
    for (let k = 0; k < stakes; k++) {
      const target = rng.pick(investTargets);
      const percent = Math.round(rng.range(5, 35) * 100) / 100;
      if (roomOf(target.id) < percent + 1) continue;
      if (edges.some((e) => e.holder_company_id === inv.id && e.company_id === target.id)) continue;
      own(inv, target, percent);
    }
  }
  const room = new Map<number, number>();
  for (const c of companies) room.set(c.id, Math.round(roomOf(c.id) * 100) / 100);
  return { edges, parentOf, room, owners, investors, groupTops };
}

/** Length (in edges) of the longest ownership chain ending at each company. */
export function chainDepths(parentOf: ReadonlyMap<number, number>, ids: Iterable<number>): Map<number, number> {
  const depth = new Map<number, number>();
  const of = (id: number): number => {
    const known = depth.get(id);
    if (known !== undefined) return known;
    const parent = parentOf.get(id);
    const d = parent === undefined ? 0 : of(parent) + 1;
    depth.set(id, d);
    return d;
  };
  for (const id of ids) of(id);
  return depth;
}
