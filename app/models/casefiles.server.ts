/**
 * Case files of an organisation. SCAFFOLDING: signatures are the contract,
 * bodies are being built.
 */
export interface CasefileListItem {
  id: number;
  title: string;
  status: string;
  /** 1 (lowest) … 5 (highest), or null. */
  priority: number | null;
  createdAt: string;
  comments: Array<{ id: number }>;
  events: Array<{ id: number }>;
}

/** GET /api/casefiles/by-supplier/{childId} and the overview card. */
export async function casefilesBySupplier(_input: { organizationId: number; supplierOrganizationId: number }): Promise<CasefileListItem[]> {
  return [];
}
