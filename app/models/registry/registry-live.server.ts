import { db } from "@server/db";
import { noteIntegration } from "@server/integration-status";
import { liveRegistryProvider, type RegistryProvider } from "@server/providers/registry";
import { syncCompany, syncSearch } from "@server/providers/registry/sync";
import { recomputeOverallRisk } from "~/models/suppliers/overall-risk.server";

/**
 * With REGISTRY_PROVIDER=brreg, screens refresh the store from the live
 * register before reading it. A failing register is logged and the stored
 * (possibly older) data is shown: the register being down must not take the
 * supplier screen with it. With the default local provider these do nothing.
 */
let provider: RegistryProvider | null | undefined;
function live(): RegistryProvider | null {
  if (provider === undefined) provider = liveRegistryProvider();
  return provider;
}

export async function refreshCompany(orgNumber: string): Promise<void> {
  const registry = live();
  if (!registry || !/^\d{9}$/.test(orgNumber)) return;
  try {
    await syncCompany(db(), registry, orgNumber);
    await noteIntegration("registry", { ok: true });
    // The register's flags and figures are inputs of the followers' overall risk (decision 036).
    const company = await db().selectFrom("companies").select("id").where("org_number", "=", orgNumber).executeTakeFirst();
    if (company) await recomputeOverallRisk({ companyIds: [company.id] });
  } catch (error) {
    await noteIntegration("registry", { ok: false, error });
    console.error("registry refresh failed", { orgNumber, error: String(error) });
  }
}

export async function refreshSearch(term: string): Promise<void> {
  const registry = live();
  if (!registry) return;
  try {
    if (/^\d{9}$/.test(term.replace(/\s/g, ""))) await syncCompany(db(), registry, term.replace(/\s/g, ""));
    else await syncSearch(db(), registry, term);
    await noteIntegration("registry", { ok: true });
  } catch (error) {
    await noteIntegration("registry", { ok: false, error });
    console.error("registry search refresh failed", { term, error: String(error) });
  }
}
