import type { ComplianceFlags } from "~/models/suppliers/compliance";
import type { FigureField } from "~/models/registry/financials";
import type { OverallRiskReason } from "~/models/suppliers/overall-risk";
import type { RiskBand } from "~/models/suppliers/risk";

/**
 * The shapes of the assistant's data, shared by the data functions (assistant-data.server.ts), the model's
 * tools and the local assistant (server/providers/llm/local.ts, which is handed `AssistantData`: server/ never imports
 * app/*.server). Pure: types and the supplier screen's address.
 */

/** Whose data: the same fields as the provider contract's AssistantViewer (server/providers/llm/types.ts). */
export interface AssistantDataViewer {
  userId: number;
  organizationId: number;
  language: "en" | "no";
}

/** The supplier screen of a company, with the organisation's own supplier when it follows one. */
export function supplierLink(orgNumber: string, localId: number | null): string {
  const params = new URLSearchParams({ externalId: orgNumber });
  if (localId != null) params.set("localId", String(localId));
  return `/supplier?${params.toString()}`;
}

export interface SupplierBrief {
  name: string;
  orgNumber: string | null;
  countryCode: string;
  countryName: string | null;
  isPriority: boolean;
  isDueDiligence: boolean;
  tags: string[];
  link: string | null;
}

export interface SupplierFilters {
  priority?: boolean;
  dueDiligence?: boolean;
  tagId?: number;
  /** ISO 3166-1 alpha-2. */
  countryCode?: string;
}

export interface SupplierListAnswer {
  total: number;
  suppliers: SupplierBrief[];
}

export interface RiskOverview {
  /** 0–100 each; null where the data gives no score (the supplier screen's risk overview). */
  credit: number | null;
  geography: number | null;
  reputation: number | null;
  operational: number | null;
  legal: number | null;
  /** The highest of the five: one serious risk is not averaged away. */
  highest: number | null;
}

/** A followed supplier's stored overall risk (decision 036), as /suppliers shows it. */
export interface StoredRisk {
  /** 0–100; null until computed or when nothing is known. */
  overall: number | null;
  band: RiskBand | null;
  /** What decided it, most decisive first (a line with its value, or a register flag). */
  reasons: OverallRiskReason[];
}

export interface RiskyRow extends SupplierBrief {
  risk: StoredRisk;
}

export interface RegistryFacts {
  name: string;
  orgNumber: string;
  countryCode: string;
  orgForm: string | null;
  orgFormDescription: string | null;
  industryCode: string | null;
  industryDescription: string | null;
  purpose: string | null;
  employees: number | null;
  established: string | null;
  address: string | null;
  website: string | null;
  isActive: boolean;
  bankruptcyDate: string | null;
}

export interface SupplierFacts {
  followed: boolean;
  link: string;
  registry: RegistryFacts;
  /** Only when the organisation follows the supplier. */
  work: {
    compliance: ComplianceFlags;
    risk: RiskOverview;
    financials: {
      year: number;
      previousYear: number | null;
      currency: string;
      /** NOK thousands; change in percent against the year before (null when not comparable). */
      figures: Array<{ field: FigureField; value: number | null; previous: number | null; changePercent: number | null }>;
    } | null;
    ceo: string | null;
    chair: string | null;
    board: Array<{ name: string; position: string }>;
    boardTotal: number;
    announcements: Array<{ date: string; type: string; detail: string | null; risk: number }>;
    announcementsTotal: number;
    openTasks: Array<{ title: string; updatedAt: string }>;
    submittedTasks: number;
    tags: string[];
    comments: Array<{ text: string; createdAt: string; by: string | null }>;
    commentsTotal: number;
    isPriority: boolean;
    isDueDiligence: boolean;
  } | null;
}

export interface SupplierMatch {
  name: string;
  orgNumber: string;
  followed: boolean;
  localId: number | null;
}

export interface CountryRef {
  code: string;
  name: string;
}

export interface ChangeItem {
  date: string;
  supplier: string;
  orgNumber: string;
  link: string;
  title: string;
  riskScore: number;
  type: string;
}

export interface AssistantData {
  followedSuppliersNamedIn(viewer: AssistantDataViewer, text: string): Promise<SupplierMatch[]>;
  findSupplier(viewer: AssistantDataViewer, term: string): Promise<SupplierMatch[]>;
  highestRiskSuppliers(viewer: AssistantDataViewer, input?: { limit?: number; filters?: SupplierFilters }): Promise<{ total: number; suppliers: RiskyRow[] }>;
  listFollowedSuppliers(viewer: AssistantDataViewer, filters?: SupplierFilters, limit?: number): Promise<SupplierListAnswer>;
  organizationTags(viewer: AssistantDataViewer): Promise<Array<{ id: number; title: string; suppliers: number }>>;
  recentChanges(
    viewer: AssistantDataViewer,
    input?: { days?: number; limit?: number; now?: Date; supplierOrgNumber?: string | null },
  ): Promise<{ days: number; total: number; items: ChangeItem[] }>;
  supplierFacts(viewer: AssistantDataViewer, orgNumber: string, now?: Date): Promise<SupplierFacts | null>;
  tagNamedIn(viewer: AssistantDataViewer, text: string): Promise<{ id: number; title: string } | null>;
  countryNamedIn(text: string, language: "en" | "no"): Promise<CountryRef | null>;
}
