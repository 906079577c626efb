import { useTranslation } from "~/translations";
import { badgeClass } from "./colors";
import { RISK_BAND_LEVEL, type RiskBand } from "~/models/suppliers/risk";

/**
 * A supplier's stored overall risk (decision 036) as a badge: the number and the level in words in the band's colour
 * (shared/spec/02-supplier-credit-connections.md §9), never colour alone; "Not available" when it is not known. Texts from the `suppliers` namespace.
 */
export function OverallRiskBadge({ risk }: { risk: { score: number; band: RiskBand } | null }) {
  const { t } = useTranslation("suppliers");
  if (!risk) return <span className="text-base-content/70">{t("risk.notAvailable")}</span>;
  return (
    <span className={`${badgeClass(risk.band)} badge-sm gap-1 whitespace-nowrap tabular-nums`}>
      {risk.score}
      <span>{t(`risk.${RISK_BAND_LEVEL[risk.band]}`)}</span>
    </span>
  );
}
