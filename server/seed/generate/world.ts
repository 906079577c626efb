import { generateAnnouncements, generateNotifications } from "./events";
import { generateStatements, type StatementValues } from "./financials";
import { generateIntelligence } from "./intelligence";
import { generateCompanyOwnership } from "./ownership";
import { generatePeople, type GeneratedRole } from "./people";
import { daysBefore, isoDate, parseIsoDate, Rng } from "./random";
import type { AnnouncementRow, NotificationRow, PersonRow, ShareholdingRow, WorldCompany } from "./types";

/**
 * Everything the registry seed generates, computed in memory from the
 * companies in the store and `today` (pure: no database, no clock), so the
 * same sample and the same day always give the same world.
 */

export interface GeneratedWorld {
  statements: Array<StatementValues & { company_id: number }>;
  persons: PersonRow[];
  roles: GeneratedRole[];
  shareholdings: ShareholdingRow[];
  announcements: AnnouncementRow[];
  notifications: NotificationRow[];
  intelligence: Array<{ company_id: number; data: string; generated_at: string }>;
}

/** Companies that file annual accounts and have a board: limited companies and cooperatives, and the foreign demo units. */
export function isFiler(c: WorldCompany): boolean {
  return c.isForeign || c.orgForm === "AS" || c.orgForm === "ASA" || c.orgForm === "SA";
}

/** The stories the demo suppliers tell (index in pickDemoSuppliers order). */
const DEMO_TRENDS: Record<number, "growing" | "steady" | "struggling"> = { 0: "growing", 5: "growing", 6: "steady", 10: "struggling" };

/** Intelligence for the demo suppliers plus this many of the largest other companies. */
const INTELLIGENCE_LARGEST = 300;

export function generateWorld(all: readonly WorldCompany[], today: Date): GeneratedWorld {
  const filers = all.filter(isFiler);
  const demo = filers.filter((c) => c.demoIndex >= 0).sort((a, b) => a.demoIndex - b.demoIndex);
  const ownership = generateCompanyOwnership(filers, demo);
  const lastClosedYear = today.getUTCFullYear() - 1;

  const statements: GeneratedWorld["statements"] = [];
  const accounts = new Map<number, { lossMaking: boolean; capitalIncreases: Array<{ year: number; amount: number }> }>();
  for (const c of filers) {
    const rng = new Rng(`years:${c.orgNumber}`);
    const bankruptcy = c.isBankrupt ? parseIsoDate(c.bankruptcyDate) : null;
    let lastYear = lastClosedYear;
    if (bankruptcy) lastYear = Math.min(lastYear, bankruptcy.getUTCFullYear() - 1);
    else if (!c.isActive) lastYear -= 1;
    const span = c.demoIndex >= 0 ? 6 : c.isForeign ? rng.int(2, 3) : rng.int(3, 6);
    const established = parseIsoDate(c.establishmentDate)?.getUTCFullYear() ?? 0;
    const firstYear = Math.max(lastYear - span + 1, established);
    const generated = generateStatements({
      key: c.orgNumber,
      employees: c.employees,
      industryCode: c.industryCode,
      orgForm: c.orgForm,
      firstYear,
      lastYear,
      distressed: c.isBankrupt || c.isUnderLiquidation,
      inGroup: ownership.parentOf.has(c.id) || (c.isAker && c.orgForm === "AS"),
      trend: DEMO_TRENDS[c.demoIndex],
    });
    for (const s of generated.statements) statements.push({ ...s, company_id: c.id });
    const newest = generated.statements[generated.statements.length - 1];
    accounts.set(c.id, { lossMaking: !!newest && newest.net_income < 0, capitalIncreases: generated.capitalIncreases });
  }

  const people = generatePeople(filers, ownership, today);

  const byId = new Map(all.map((c) => [c.id, c]));
  const subsidiary = new Map<number, string>();
  for (const e of ownership.edges) {
    if (e.holder_company_id !== null && e.percent === 100 && !subsidiary.has(e.holder_company_id)) {
      subsidiary.set(e.holder_company_id, byId.get(e.company_id)?.name ?? "");
    }
  }
  const announcements: AnnouncementRow[] = [];
  const notifications: NotificationRow[] = [];
  for (const c of filers) {
    const acc = accounts.get(c.id);
    const context = {
      company: c,
      today,
      changes: people.changes.get(c.id) ?? [],
      capitalIncreases: acc?.capitalIncreases ?? [],
      lossMaking: acc?.lossMaking ?? false,
      subsidiaryName: subsidiary.get(c.id) ?? null,
    };
    const own = generateAnnouncements(context);
    announcements.push(...own);
    notifications.push(...generateNotifications(context, own));
  }

  const largest = filers
    .filter((c) => c.demoIndex < 0 && c.isActive && (c.employees ?? 0) > 0)
    .sort((a, b) => (b.employees ?? 0) - (a.employees ?? 0) || a.orgNumber.localeCompare(b.orgNumber))
    .slice(0, INTELLIGENCE_LARGEST);
  const intelligence = [...demo, ...largest].map((c) => ({
    company_id: c.id,
    data: JSON.stringify(generateIntelligence(c, c.demoIndex >= 0)),
    generated_at: `${isoDate(daysBefore(today, new Rng(`intelligence-date:${c.orgNumber}`).int(1, 60)))}T06:00:00.000Z`,
  }));

  return {
    statements,
    persons: people.persons,
    roles: people.roles,
    shareholdings: [...ownership.edges, ...people.personShares],
    announcements,
    notifications,
    intelligence,
  };
}
