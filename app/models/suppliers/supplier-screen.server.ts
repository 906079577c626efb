import { followedConnectionId } from "~/models/suppliers/follows.server";
import { loadSupplierScreen } from "~/models/suppliers/supplier-screen-registry.server";
import { loadSupplierWork } from "~/models/suppliers/supplier-screen-work.server";

/**
 * The whole supplier screen for one viewer: the company's registry data and,
 * for the viewer's organisation only, its own work on the supplier. The local
 * supplier is the one this organisation follows under the company's number;
 * a localId in the URL is only a hint and never widens what the user may see.
 */
export async function loadSupplierPage(input: {
  organizationId: number;
  userId: number;
  language: "en" | "no";
  externalId: string;
  trees: string[];
  subSearch: string;
  taskResponseId: number | null;
}) {
  const screen = await loadSupplierScreen({
    externalId: input.externalId,
    trees: input.trees,
    viewer: { organizationId: input.organizationId, language: input.language },
  });
  if (!screen) return null;
  const followed = await followedConnectionId({ organizationId: input.organizationId, supplier: { orgNumber: screen.company.organization_id } });
  const localId = followed?.supplierOrganizationId ?? null;
  const work = await loadSupplierWork({
    organizationId: input.organizationId,
    userId: input.userId,
    supplierOrganizationId: localId,
    company: { orgNumber: screen.company.organization_id, countryCode: screen.company.country_code },
    subSearch: input.subSearch,
    taskResponseId: input.taskResponseId,
  });
  return { ...screen, ...work, localId };
}

/** What the supplier screen's components receive (plain JSON values: strings, numbers, booleans, null, arrays, objects). */
/** `now`: the server's time of the render (ISO), what relative times are counted from on both sides of hydration. */
/** `canManageTasks`: the viewer may remind, accept, return and cancel what the organisation sent (supplierTasksManage). */
export type SupplierScreenData = NonNullable<Awaited<ReturnType<typeof loadSupplierPage>>> & { title: string; now: string; canManageTasks: boolean };
