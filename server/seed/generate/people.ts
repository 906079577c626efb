import { generateName } from "./names";
import { chainDepths, type CompanyOwnership } from "./ownership";
import { daysBefore, isoDate, parseIsoDate, Rng } from "./random";
import { GENERATED_RELATION, type PersonRow, type PositionKind, type RoleRow, type ShareholdingRow, type WorldCompany } from "./types";

/**
 * Generated people on the boards of the sample companies: per company a CEO,
 * a chair, board members and deputies, and former holders of those roles.
 *
 * A pool of professional board members takes a share of the seats (more on
 * larger boards, picked with weights so a few sit on many boards), and group
 * executives sit on their subsidiaries' boards; that is what makes board
 * relations (people sharing boards) appear. The first pool members are
 * "featured": each sits on demo suppliers' boards and on the board of a
 * bankrupt and of an inactive company, so a person's role list shows every
 * organisation status.
 */

export interface GeneratedRole extends RoleRow {
  kind: PositionKind;
}

export interface RoleChange {
  date: string;
  kind: PositionKind;
  outgoing: string;
  incoming: string | null;
}

export interface PeopleWorld {
  persons: PersonRow[];
  roles: GeneratedRole[];
  /** Board changes per company, for announcements. */
  changes: Map<number, RoleChange[]>;
  personShares: ShareholdingRow[];
}

const POOL_SIZE = 450;
const FEATURED = 15;
const SEAT_CAP = 10;

const POSITIONS: Record<"no" | "en", Record<PositionKind, readonly string[]>> = {
  no: { ceo: ["Daglig leder (CEO)", "Daglig leder (CEO)", "Adm. direktør"], chair: ["Styreleder"], member: ["Styremedlem"], deputy: ["Varamedlem"] },
  en: { ceo: ["CEO"], chair: ["Chairman of the board"], member: ["Board member"], deputy: ["Deputy board member"] },
};

interface Tier {
  members: readonly [number, number];
  deputies: readonly [number, number];
  pro: number;
  former: readonly [number, number];
}

const TIERS = {
  none: { members: [0, 1], deputies: [0, 1], pro: 0.08, former: [0, 1] },
  micro: { members: [0, 2], deputies: [0, 1], pro: 0.12, former: [0, 2] },
  small: { members: [2, 3], deputies: [0, 1], pro: 0.3, former: [1, 2] },
  mid: { members: [3, 4], deputies: [1, 1], pro: 0.45, former: [1, 3] },
  large: { members: [4, 4], deputies: [1, 1], pro: 0.6, former: [2, 4] },
  demo: { members: [3, 4], deputies: [1, 1], pro: 0.7, former: [4, 6] },
  foreign: { members: [1, 2], deputies: [0, 0], pro: 0, former: [0, 1] },
} satisfies Record<string, Tier>;

const KIND_WEIGHT: Record<PositionKind, number> = { chair: 3, ceo: 2.5, member: 1.5, deputy: 0.5 };

const DAY = 86_400_000;
const between = (rng: Rng, from: Date, to: Date) =>
  new Date(from.getTime() + Math.floor((rng.float() * Math.max(0, to.getTime() - from.getTime())) / DAY) * DAY);

function splitPercent(rng: Rng, total: number, n: number): number[] {
  const weights = Array.from({ length: n }, (_, i) => (i === 0 ? rng.range(1, 3) : rng.range(0.5, 1.5)));
  const sum = weights.reduce((a, b) => a + b, 0);
  const shares = weights.map((w) => Math.round(((total * w) / sum) * 100) / 100);
  shares[n - 1] = Math.round((total - shares.slice(0, -1).reduce((a, b) => a + b, 0)) * 100) / 100;
  return shares;
}

export function generatePeople(companies: readonly WorldCompany[], ownership: CompanyOwnership, today: Date): PeopleWorld {
  const persons: PersonRow[] = [];
  const roles: GeneratedRole[] = [];
  const changes = new Map<number, RoleChange[]>();
  const seats = new Map<number, number>();
  const byId = new Map(companies.map((c) => [c.id, c]));

  function newPerson(rng: Rng, country: string, kind: PositionKind | "owner", surname?: string): number {
    const n = generateName(rng, country, surname);
    const [lo, hi] = kind === "ceo" || kind === "chair" ? [1952, 1988] : kind === "deputy" ? [1958, 1998] : [1950, 1994];
    const id = persons.length + 1;
    persons.push({ id, name: n.name, birth_year: rng.int(lo, hi), sex: n.sex, country_code: country, boardscore: 0 });
    return id;
  }

  // The professional pool; a few are Swedish or Danish, as on real Norwegian boards.
  const poolRng = new Rng("people:pool");
  const pool: number[] = [];
  for (let i = 0; i < POOL_SIZE; i++) {
    const country = poolRng.weighted([
      ["NO", 92],
      ["SE", 5],
      ["DK", 3],
    ] as const);
    const id = newPerson(poolRng, country, "member");
    persons[id - 1].birth_year = poolRng.int(1948, 1980);
    pool.push(id);
  }
  const cumulative: number[] = [];
  pool.reduce((acc, _id, i) => {
    const next = acc + 1 / Math.pow(i + 1, 0.5);
    cumulative.push(next);
    return next;
  }, 0);
  const featured = pool.slice(0, FEATURED);

  function pickPro(rng: Rng, onBoard: Set<number>): number | undefined {
    for (let attempt = 0; attempt < 6; attempt++) {
      const r = rng.float() * cumulative[cumulative.length - 1];
      let lo = 0;
      let hi = cumulative.length - 1;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (cumulative[mid] < r) lo = mid + 1;
        else hi = mid;
      }
      const id = pool[lo];
      if (!onBoard.has(id) && (seats.get(id) ?? 0) < SEAT_CAP) return id;
    }
    return undefined;
  }

  // Featured people are placed on these boards whatever the draw.
  const forced = new Map<number, number[]>();
  const force = (companyId: number, personId: number) => forced.set(companyId, [...(forced.get(companyId) ?? []), personId]);
  const demo = companies.filter((c) => c.demoIndex >= 0).sort((a, b) => a.demoIndex - b.demoIndex);
  for (const d of demo) {
    force(d.id, featured[(d.demoIndex + 1) % FEATURED]);
    force(d.id, featured[(d.demoIndex + 7) % FEATURED]);
  }
  const byOrg = (a: WorldCompany, b: WorldCompany) => a.orgNumber.localeCompare(b.orgNumber);
  const bankrupt = companies.filter((c) => c.isBankrupt).sort(byOrg);
  const inactive = companies.filter((c) => !c.isBankrupt && !c.isActive).sort(byOrg);
  bankrupt.forEach((c, j) => force(c.id, featured[j % FEATURED]));
  inactive.forEach((c, j) => force(c.id, featured[(j + 4) % FEATURED]));

  // Parents before subsidiaries, so a subsidiary's board can take the parent's executives.
  const depth = chainDepths(
    ownership.parentOf,
    companies.map((c) => c.id),
  );
  const order = [...companies].sort((a, b) => (depth.get(a.id) ?? 0) - (depth.get(b.id) ?? 0) || byOrg(a, b));
  const leaders = new Map<number, { ceo: number; chair: number }>();

  for (const c of order) {
    const rng = new Rng(`board:${c.orgNumber}`);
    const staff = c.employees ?? 0;
    const tierName: keyof typeof TIERS =
      c.demoIndex >= 0
        ? "demo"
        : c.isForeign
          ? "foreign"
          : c.orgForm === "ASA" || staff >= 250
            ? "large"
            : staff >= 50
              ? "mid"
              : staff >= 10
                ? "small"
                : staff >= 1
                  ? "micro"
                  : "none";
    const tier: Tier = TIERS[tierName];
    const local = c.isForeign ? c.countryCode : "NO";
    const language = c.isForeign || rng.chance(c.orgForm === "ASA" || staff >= 250 ? 0.5 : 0.2) ? "en" : "no";
    const position = (kind: PositionKind) => rng.pick(POSITIONS[language][kind]);
    const onBoard = new Set<number>();
    const established = parseIsoDate(c.establishmentDate) ?? daysBefore(today, 365 * 25);
    const end = c.isBankrupt ? (parseIsoDate(c.bankruptcyDate) ?? today) : today;
    const latest = daysBefore(end, 45);
    const earliest = new Date(Math.max(established.getTime(), daysBefore(today, 365 * 18).getTime()));
    const startDate = (recentDays?: readonly [number, number]) => {
      if (recentDays) {
        const d = daysBefore(today, rng.int(recentDays[0], recentDays[1]));
        if (d > established) return d;
      }
      return earliest < latest ? between(rng, earliest, latest) : established;
    };
    const newcomer = (kind: PositionKind) => {
      const country = c.isForeign
        ? local
        : rng.weighted([
            ["NO", 94],
            ["SE", 3],
            ["DK", 2],
            ["GB", 0.5],
            ["DE", 0.5],
          ] as const);
      return newPerson(rng, country, kind);
    };
    const seat = (kind: PositionKind, pro: number) => {
      const fromPool = rng.chance(pro) ? pickPro(rng, onBoard) : undefined;
      return fromPool ?? newcomer(kind);
    };
    const add = (personId: number, kind: PositionKind, from: Date) => {
      onBoard.add(personId);
      seats.set(personId, (seats.get(personId) ?? 0) + 1);
      roles.push({ person_id: personId, company_id: c.id, position: position(kind), active_from: isoDate(from), active_to: null, kind });
    };

    const parentId = ownership.parentOf.get(c.id);
    const parent = parentId === undefined ? undefined : leaders.get(parentId);
    const parentIsHolding = parentId !== undefined && (byId.get(parentId)?.employees ?? 0) === 0;
    const mustSit = [...(forced.get(c.id) ?? [])];

    let chair: number;
    if (c.demoIndex >= 0) chair = featured[c.demoIndex % FEATURED];
    else if (parent && rng.chance(0.65)) chair = parentIsHolding ? parent.chair : parent.ceo;
    else chair = seat("chair", tier.pro);
    const chairFrom = startDate(c.demoIndex >= 0 && c.demoIndex % 3 === 0 ? [200, 1000] : undefined);
    add(chair, "chair", chairFrom);

    let ceo: number;
    if (tierName === "none" && rng.chance(0.6)) ceo = chair;
    else ceo = !c.isForeign && rng.chance(0.05) ? (pickPro(rng, onBoard) ?? newcomer("ceo")) : newcomer("ceo");
    const ceoFrom = startDate(c.demoIndex >= 0 && c.demoIndex % 2 === 0 ? [120, 700] : undefined);
    if (ceo === chair) {
      roles.push({ person_id: ceo, company_id: c.id, position: position("ceo"), active_from: isoDate(ceoFrom), active_to: null, kind: "ceo" });
    } else add(ceo, "ceo", ceoFrom);
    leaders.set(c.id, { ceo, chair });

    const memberCount = rng.int(tier.members[0], tier.members[1]);
    let deputyCount = rng.int(tier.deputies[0], tier.deputies[1]);
    // A board of fewer than two members must have a deputy (Aksjeloven § 6-1).
    if (memberCount === 0 && !c.isForeign) deputyCount = Math.max(deputyCount, 1);
    if (parent && rng.chance(0.4)) mustSit.push(parentIsHolding ? parent.ceo : parent.chair);
    let placedMembers = 0;
    for (const p of mustSit) {
      if (onBoard.has(p)) continue;
      add(p, "member", startDate());
      placedMembers++;
    }
    for (; placedMembers < memberCount; placedMembers++) add(seat("member", tier.pro), "member", startDate());
    for (let k = 0; k < deputyCount; k++) add(seat("deputy", tier.pro * 0.3), "deputy", startDate());

    // Former roles: predecessors of today's CEO and chair, and members who left.
    const formerCount = rng.int(tier.former[0], tier.former[1]);
    const list: RoleChange[] = [];
    const formerKinds: PositionKind[] = [];
    for (let k = 0; k < formerCount; k++) formerKinds.push(k === 0 ? "ceo" : k === 1 ? "chair" : k === 2 && c.demoIndex >= 0 ? "deputy" : "member");
    for (const kind of formerKinds) {
      const successorFrom = kind === "ceo" ? ceoFrom : kind === "chair" ? chairFrom : null;
      const to = successorFrom ?? (c.demoIndex >= 0 || rng.chance(0.5) ? daysBefore(today, rng.int(40, 1000)) : daysBefore(today, rng.int(200, 2500)));
      const from = new Date(Math.max(established.getTime(), daysBefore(to, rng.int(300, 3000)).getTime()));
      if (to.getTime() - from.getTime() < 120 * DAY || to > today) continue;
      const person = !c.isForeign && rng.chance(0.35) ? (pickPro(rng, onBoard) ?? newcomer(kind)) : newcomer(kind);
      roles.push({ person_id: person, company_id: c.id, position: position(kind), active_from: isoDate(from), active_to: isoDate(to), kind });
      const incoming = kind === "ceo" ? ceo : kind === "chair" ? chair : null;
      list.push({
        date: isoDate(to),
        kind,
        outgoing: persons[person - 1].name,
        incoming: incoming === null ? null : persons[incoming - 1].name,
      });
    }
    if (list.length) changes.set(c.id, list);
  }

  // Boardscore: Σ over current roles of weight × (1 + log10(1 + employees)),
  // former roles at 0.3 of that; score = 100 × (1 − e^(−raw / 20)), one decimal.
  // Weights: chair 3, CEO 2.5, member 1.5, deputy 0.5. The chair of one small
  // company scores about 20, a member of five mid-sized boards about 60, and
  // only people with many seats on large boards come near 100.
  const raw = new Map<number, number>();
  for (const r of roles) {
    const size = 1 + Math.log10(1 + (byId.get(r.company_id)?.employees ?? 0));
    const w = KIND_WEIGHT[r.kind] * size * (r.active_to === null ? 1 : 0.3);
    raw.set(r.person_id, (raw.get(r.person_id) ?? 0) + w);
  }
  for (const p of persons) p.boardscore = Math.round(1000 * (1 - Math.exp(-(raw.get(p.id) ?? 0) / 20))) / 10;

  return { persons, roles, changes, personShares: personOwners(companies, ownership, leaders, newPerson, persons) };
}

/** People owning the shares companies do not hold: founders of small companies, holding and investor owners, managers. */
function personOwners(
  companies: readonly WorldCompany[],
  ownership: CompanyOwnership,
  leaders: ReadonlyMap<number, { ceo: number; chair: number }>,
  newPerson: (rng: Rng, country: string, kind: PositionKind | "owner", surname?: string) => number,
  persons: readonly PersonRow[],
): ShareholdingRow[] {
  const out: ShareholdingRow[] = [];
  const tops = new Set(ownership.groupTops);
  const investors = new Set(ownership.investors);
  const surname = (id: number) => persons[id - 1].name.split(" ").slice(-1)[0];
  for (const c of companies) {
    if (c.isAker || c.isForeign) continue;
    const lead = leaders.get(c.id);
    const room = ownership.room.get(c.id) ?? 100;
    if (!lead || room < 1) continue;
    const rng = new Rng(`owners:${c.orgNumber}`);
    const staff = c.employees ?? 0;
    const hasParent = ownership.parentOf.has(c.id);
    let holders: number[] = [];
    let total = room;
    if (investors.has(c.id) || tops.has(c.id)) {
      holders = [lead.chair];
      if (rng.chance(0.4)) holders.push(newPerson(rng, "NO", "owner", surname(lead.chair)));
    } else if (c.demoIndex === 2 || c.demoIndex === 9 || c.demoIndex === 11) {
      holders = [lead.ceo, lead.chair, newPerson(rng, "NO", "owner", surname(lead.ceo))];
    } else if (!hasParent && staff <= 20) {
      holders = [lead.chair];
      if (lead.ceo !== lead.chair && rng.chance(0.6)) holders.push(lead.ceo);
      if (rng.chance(0.25)) holders.push(newPerson(rng, "NO", "owner", surname(lead.chair)));
      if (rng.chance(0.15)) total = Math.round(room * rng.range(0.6, 0.95) * 100) / 100;
    } else if (hasParent) {
      if (!rng.chance(0.35) || room < 2) continue;
      holders = [lead.ceo];
      total = Math.round(room * rng.range(0.3, 1) * 100) / 100;
    } else {
      // Founders keep a stake in companies they built; the very largest have dispersed or public owners.
      if (staff >= 500 || !rng.chance(0.4)) continue;
      holders = [lead.chair];
      total = Math.min(room, Math.round(rng.range(15, 60) * 100) / 100);
    }
    holders = [...new Set(holders)];
    const shares = splitPercent(rng, total, holders.length);
    holders.forEach((h, i) => {
      if (shares[i] > 0) out.push({ company_id: c.id, holder_company_id: null, holder_person_id: h, percent: shares[i], relation_type: GENERATED_RELATION });
    });
  }
  return out;
}
