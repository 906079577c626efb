import { z } from "zod";
import type { NaceSection } from "~/models/registry/nace";

/** What /dashboard shows (decision 038): the constants and shapes the server and the page share. */

export const SNAPSHOT_BANDS = ["green", "yellow", "red", "unknown"] as const;
export type SnapshotBand = (typeof SNAPSHOT_BANDS)[number];
/** The history the band chart shows, in days up to and including today. */
export const HISTORY_DAYS = 90;
/** Countries shown one by one; the rest are "Other". */
export const TOP_COUNTRIES = 15;
export const DASHBOARD_CHARTS = ["bands", "countries", "industries", "regimes", "due-diligence"] as const;
export type DashboardChart = (typeof DASHBOARD_CHARTS)[number];

export type BandCounts = Record<SnapshotBand, number>;

export interface BandHistory {
  /** The first day with a snapshot of this organisation (any filter); null when there is none yet. */
  since: string | null;
  /** Every day of the window from the later of `since` and 89 days ago up to today; `null` counts where no snapshot was taken. */
  days: Array<{ day: string; counts: BandCounts | null }>;
}

export interface CountryCount {
  /** ISO code, upper case; null for the "Other" row. */
  code: string | null;
  name: string | null;
  /** The countries table's risk score (0–100), null when unknown or for "Other". */
  riskScore: number | null;
  count: number;
}

export interface IndustryCount {
  /** Null: no registry company or no (valid) industry code. */
  section: NaceSection | null;
  count: number;
}

export interface RegimeCounts {
  arp: number;
  transparencyAct: number;
  csrd: number;
  /** Suppliers with a registry company (the regimes are judged on its data). */
  assessed: number;
}

export interface Dashboard {
  total: number;
  today: BandCounts;
  history: BandHistory;
  countries: CountryCount[];
  industries: IndustryCount[];
  regimes: RegimeCounts;
  dueDiligence: { count: number; total: number };
}

const flag = z
  .string()
  .optional()
  .transform((value): boolean | null => (value === "yes" ? true : value === "no" ? false : null));

/** The dashboard's URL (its GET form), read leniently like /suppliers: anything unknown falls back to "any". */
export const dashboardQuery = z
  .object({
    tag: z.string().optional(),
    priority: flag,
    dd: flag,
    chart: z.enum(DASHBOARD_CHARTS).optional().catch(undefined),
  })
  .transform(({ dd, ...rest }) => ({ ...rest, dueDiligence: dd }));
