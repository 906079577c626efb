/** A company as the generators see it: the registry row, trimmed to what they use. */
export interface WorldCompany {
  id: number;
  orgNumber: string;
  name: string;
  orgForm: string | null;
  countryCode: string;
  industryCode: string | null;
  industryDescription: string | null;
  employees: number | null;
  establishmentDate: string | null;
  isBankrupt: boolean;
  bankruptcyDate: string | null;
  isUnderLiquidation: boolean;
  isUnderForcedLiquidation: boolean;
  isActive: boolean;
  streetAddress: string | null;
  postalCode: string | null;
  postalArea: string | null;
  /** The imported Aker Solutions group: its real ownership edges are kept as they are. */
  isAker: boolean;
  /** Fictional foreign demo unit. */
  isForeign: boolean;
  /** Position among the demo suppliers (pickDemoSuppliers order), or -1. */
  demoIndex: number;
}

export interface PersonRow {
  id: number;
  name: string;
  birth_year: number;
  sex: "M" | "F";
  country_code: string;
  boardscore: number;
}

export interface RoleRow {
  person_id: number;
  company_id: number;
  position: string;
  active_from: string;
  active_to: string | null;
}

export interface ShareholdingRow {
  company_id: number;
  holder_company_id: number | null;
  holder_person_id: number | null;
  percent: number;
  relation_type: string;
}

export interface AnnouncementRow {
  company_id: number;
  date: string;
  type: string;
  detail: string;
  risk: number;
  operational_risk: number;
  legal_risk: number;
}

export interface NotificationRow {
  company_id: number;
  type: "announcement" | "search";
  date: string;
  created_at: string;
  risk_score: number;
  relevance_score: number;
  title: string;
  source: string;
  url: string;
  description: string;
}

/** Relation code of generated shareholdings; the imported group edges keep the register's 'HFOR'. */
export const GENERATED_RELATION = "EIER";

export const positionKinds = ["ceo", "chair", "member", "deputy"] as const;
export type PositionKind = (typeof positionKinds)[number];
