import { Link, useLocation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { SupplierScreenData } from "~/routes/supplier";
import { withParams } from "./screen-url";
import { Empty, Section } from "./Section";

/**
 * Credit risk (left column): the credit reports ordered on this supplier and the
 * button that opens the order dialog pre-filled with country and registration
 * number. The dialog is URL state (dialog=credit), so the button is a link.
 * The list of earlier reports arrives with the credit report feature; until
 * then the section shows its empty state.
 */
export function CreditReportsSection({ data }: { data: SupplierScreenData; extra?: string }) {
  const { t } = useTranslation("supplier");
  const { search } = useLocation();
  const company = data.company;
  const orderHref = withParams(search, { dialog: "credit", country: company.country_code, regNo: company.organization_id });
  return (
    <Section
      id="credit-reports"
      title={t("creditReports.title")}
      actions={
        <Link to={orderHref} preventScrollReset className="btn btn-primary btn-sm">
          {t("creditReports.order")}
        </Link>
      }
    >
      <Empty>{t("creditReports.empty")}</Empty>
    </Section>
  );
}
