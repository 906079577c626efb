import { Link, useLocation } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { leiHref } from "~/components/lei/links";
import { useTranslation } from "~/translations";
import { ARP_MIN_EMPLOYEES, CSRD, TRANSPARENCY_ACT, type ComplianceFlags } from "~/models/suppliers/compliance";
import { formatAddress, formatDate, formatThousands, MISSING } from "~/models/shared/format";
import type { SupplierScreenData } from "~/models/suppliers/supplier-screen.server";
import { COPIED_CONFIRMATION_MS } from "./supplier-screen-rules";
import { uiLanguage, type Language } from "~/i18n";
import { Section } from "./Section";

/**
 * Company overview (shared/spec/02-supplier-credit-connections.md "Supplier detail"): registry facts, the address
 * rule, the compliance-regime flags (shared/spec/02-supplier-credit-connections.md §9), the organisation id that
 * can be copied and, when GLEIF has one, the company's LEI.
 */
export function CompanyOverview({ data }: { data: SupplierScreenData; extra?: string }) {
  const { t, i18n } = useTranslation("supplier");
  const lng = uiLanguage(i18n.language);
  const c = data.company;
  const address = formatAddress(c);
  const industry = [c.industry_code, c.industry_description].filter(Boolean).join(" ");
  const type = c.type ? (c.type_description ? `${c.type} (${c.type_description})` : c.type) : null;
  return (
    <Section id="company-overview" title={t("overview.title")}>
      <dl className="grid grid-cols-1 gap-x-4 gap-y-2 text-sm sm:grid-cols-[minmax(9rem,auto)_1fr]">
        <Row label={t("overview.legalName")}>{c.legal_name}</Row>
        <Row label={t("overview.organizationId")}>
          <OrganizationId id={c.organization_id} />
        </Row>
        {c.lei ? (
          <Row label={t("overview.lei")}>
            <LeiLink lei={c.lei} />
          </Row>
        ) : null}
        <Row label={t("overview.industry")}>{industry || MISSING}</Row>
        <Row label={t("overview.purpose")}>{c.purpose?.trim() || MISSING}</Row>
        <Row label={t("overview.type")}>{type ?? MISSING}</Row>
        <Row label={t("overview.employees")}>{formatThousands(c.number_of_employees, lng)}</Row>
        <Row label={t("overview.established")}>{formatDate(c.establishment_date, lng)}</Row>
        <Row label={t("overview.address")}>{address ?? <span className="text-base-content/70">{t("overview.addressIncomplete")}</span>}</Row>
      </dl>
      <ComplianceRegimes flags={data.compliance} lng={lng} />
    </Section>
  );
}

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <>
      <dt className="font-medium text-base-content/70">{label}</dt>
      <dd className="min-w-0 break-words">{children}</dd>
    </>
  );
}

/** The company's LEI, opening the LEI dialog on its record (URL state: it works without JavaScript too). */
function LeiLink({ lei }: { lei: string }) {
  const { t } = useTranslation("supplier");
  const { pathname, search } = useLocation();
  return (
    <Link to={leiHref(pathname, search, { lei })} preventScrollReset className="link font-mono" title={t("overview.leiOpen")}>
      {lei}
    </Link>
  );
}

/**
 * The organisation id as selectable text. The copy button needs the Clipboard
 * API, so it appears only once the page's scripts run; without them the id is
 * selected and copied by hand.
 */
function OrganizationId({ id }: { id: string }) {
  const { t } = useTranslation("supplier");
  const [mounted, setMounted] = useState(false);
  const [copied, setCopied] = useState(false);
  const textRef = useRef<HTMLSpanElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  useEffect(() => {
    setMounted(true);
    return () => clearTimeout(timer.current);
  }, []);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(id);
      setCopied(true);
      clearTimeout(timer.current);
      timer.current = setTimeout(() => setCopied(false), COPIED_CONFIRMATION_MS);
    } catch {
      // Clipboard refused (permissions, insecure context): select the id for a manual copy.
      const node = textRef.current;
      const selection = window.getSelection();
      if (node && selection) {
        const range = document.createRange();
        range.selectNodeContents(node);
        selection.removeAllRanges();
        selection.addRange(range);
      }
    }
  };

  return (
    <span className="inline-flex items-center gap-2">
      <span ref={textRef} className="font-mono select-all">
        {id}
      </span>
      {mounted ? (
        <>
          <button
            type="button"
            onClick={() => void copy()}
            className="btn btn-ghost btn-xs btn-square"
            aria-label={t("overview.copyId")}
            title={t("overview.copyId")}
          >
            <CopyIcon />
          </button>
          <span role="status" className="text-xs font-medium text-green-800">
            {copied ? t("overview.copied") : null}
          </span>
        </>
      ) : null}
    </span>
  );
}

function CopyIcon() {
  return (
    <svg
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.8}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      className="size-4"
    >
      <path d="M9 9h10a1 1 0 0 1 1 1v10a1 1 0 0 1-1 1H9a1 1 0 0 1-1-1V10a1 1 0 0 1 1-1zM5 15H4a1 1 0 0 1-1-1V4a1 1 0 0 1 1-1h10a1 1 0 0 1 1 1v1" />
    </svg>
  );
}

/** ARP, Transparency Act and CSRD: whether the rule applies, with the rule in words. */
function ComplianceRegimes({ flags, lng }: { flags: ComplianceFlags; lng: Language }) {
  const { t } = useTranslation("supplier");
  // Thresholds are NOK thousands; the explanations speak of millions.
  const millions = (thousands: number) => formatThousands(thousands / 1000, lng);
  const regimes = [
    { key: "arp", required: flags.arp, rule: t("compliance.arpRule", { employees: ARP_MIN_EMPLOYEES }) },
    {
      key: "transparencyAct",
      required: flags.transparencyAct,
      rule: t("compliance.transparencyActRule", {
        balance: millions(TRANSPARENCY_ACT.minBalance),
        revenue: millions(TRANSPARENCY_ACT.minRevenue),
        employees: TRANSPARENCY_ACT.minEmployees,
      }),
    },
    {
      key: "csrd",
      required: flags.csrd,
      rule: t("compliance.csrdRule", {
        balance: millions(CSRD.minBalance),
        revenue: millions(CSRD.minRevenue),
        employees: CSRD.minEmployees,
      }),
    },
  ] as const;
  return (
    <div className="mt-4 border-t border-base-300 pt-3">
      <h3 className="text-sm font-semibold">{t("compliance.title")}</h3>
      <ul className="mt-2 flex flex-col gap-2">
        {regimes.map((r) => (
          <li key={r.key} className="text-sm">
            <div className="flex flex-wrap items-center gap-2">
              <span className="font-medium">{t(`compliance.${r.key}`)}</span>
              <span
                className={`badge badge-sm border ${r.required ? "border-green-300 bg-green-100 text-green-900" : "border-base-300 bg-base-200 text-base-content"}`}
              >
                {r.required ? t("compliance.yes") : t("compliance.no")}
              </span>
            </div>
            <p className="text-xs text-base-content/70">{r.rule}</p>
          </li>
        ))}
      </ul>
    </div>
  );
}
