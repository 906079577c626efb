import type { SerializeFrom } from "@remix-run/node";
import { Form, Link, useNavigation, useSubmit } from "@remix-run/react";
import { useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "~/translations";
import { Icon } from "~/components/ui/icons";
import { Dialog } from "~/components/ui/Dialog";
import { CREDIT_COUNTRIES, CREDIT_SEARCH_DEBOUNCE_MS, DEFAULT_REPORT_FILE_NAME, isCreditCountry } from "~/models/credit/credit";
import { useFetchDownload } from "~/components/ui/download";
import type { loadCreditDialog } from "~/models/credit/credit-dialog.server";
import { MISSING } from "~/models/shared/format";
import { CreditConfirmStep, useCreditOrdering } from "./CreditConfirmStep";
import { CreditTermsDialog } from "./CreditTermsDialog";
import { useHydrated } from "~/components/ui/useHydrated";
import { useCreditLinks, type CreditParams } from "./links";

export type CreditDialogData = NonNullable<SerializeFrom<Awaited<ReturnType<typeof loadCreditDialog>>>>;
type Company = Extract<CreditDialogData, { step: "details" }>["company"];

/** The parameters that describe the dialog as it is now (for the terms toggle and close). */
function stateParams(dialog: CreditDialogData): CreditParams {
  const search = { country: dialog.country ?? "", name: dialog.name, regNo: dialog.regNo };
  switch (dialog.step) {
    case "search":
      return { step: "search", ...search };
    case "details":
    case "confirm":
      return { step: dialog.step, ...search, id: dialog.company.id };
    case "done":
      return { step: "done", order: String(dialog.order.id) };
  }
}

function useCountryName() {
  const { t } = useTranslation("credit");
  return (code: string | null | undefined) => {
    if (!code) return MISSING;
    const upper = code.toUpperCase();
    return isCreditCountry(upper) ? t(`countries.${upper}`) : upper;
  };
}

/**
 * The credit report order dialog (shared/spec/02-supplier-credit-connections.md "Credit report order dialog"):
 * search → details → confirm → (loading) → done, every step URL state on
 * whatever page it was opened from (`?dialog=credit&step=…`). Every move is a
 * link or a form, so it all works without JavaScript; with it, the search
 * runs as one types, Escape closes, focus is held, the order shows its
 * loading step and the report downloads in place.
 */
export function CreditDialog({ dialog }: { dialog: CreditDialogData }) {
  const { t } = useTranslation("credit");
  const links = useCreditLinks();
  const ordering = useCreditOrdering();
  const current = stateParams(dialog);

  return (
    <Dialog
      title={t("title")}
      closeHref={links.closeHref}
      closeLabel={t("close")}
      size="lg"
      // Leaving while the order is placed would hide its outcome; it finishes first.
      closeOnEscape={!ordering}
      focusKey={ordering ? "loading" : dialog.step}
      overlays={
        dialog.terms ? (
          <CreditTermsDialog terms={dialog.terms} hrefFor={(language) => links.href({ ...current, terms: language })} closeHref={links.href(current)} />
        ) : null
      }
    >
      <div className="sm:p-1">
        {ordering ? <LoadingStep /> : null}
        {/* Hidden, not unmounted, while the order is placed: a refused order comes back to the form as the user left it. */}
        <div hidden={ordering}>
          {dialog.step === "search" ? (
            <SearchStep dialog={dialog} />
          ) : dialog.step === "details" ? (
            <DetailsStep dialog={dialog} />
          ) : dialog.step === "confirm" ? (
            <CreditConfirmStep dialog={dialog} busy={ordering} />
          ) : (
            <DoneStep dialog={dialog} />
          )}
        </div>
      </div>
    </Dialog>
  );
}

function Spinner({ className = "loading-sm" }: { className?: string }) {
  return <span className={`loading loading-spinner ${className}`} aria-hidden="true" />;
}

/**
 * Search: a GET form (works as is without JavaScript). With JavaScript the
 * name and number fields appear once a country is chosen, typing searches
 * after the spec's 1000 ms pause, Enter or the button at once, replacing the
 * history entry so Back leaves the dialog rather than replaying keystrokes.
 */
function SearchStep({ dialog }: { dialog: Extract<CreditDialogData, { step: "search" }> }) {
  const { t } = useTranslation("credit");
  const countryName = useCountryName();
  const links = useCreditLinks();
  const submit = useSubmit();
  const navigation = useNavigation();
  const hydrated = useHydrated();
  const ids = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  const [country, setCountry] = useState<string>(dialog.country ?? "");
  const [waiting, setWaiting] = useState(false);

  useEffect(() => () => clearTimeout(timer.current), []);

  const runNow = () => {
    clearTimeout(timer.current);
    setWaiting(false);
    if (formRef.current) submit(formRef.current, { replace: true, preventScrollReset: true });
  };

  const runLater = () => {
    clearTimeout(timer.current);
    const form = formRef.current;
    if (!form) return;
    const data = new FormData(form);
    const empty = !String(data.get("name") ?? "").trim() && !String(data.get("regNo") ?? "").trim();
    // Emptied fields clear the results and the searched flag at once (shared/spec/02-supplier-credit-connections.md §5).
    if (empty) return runNow();
    setWaiting(true);
    timer.current = setTimeout(runNow, CREDIT_SEARCH_DEBOUNCE_MS);
  };

  const pending = navigation.state === "loading" && navigation.location.pathname === links.pathname;
  const pendingSearch = pending && new URLSearchParams(navigation.location.search).get("step") === "search";
  const searching = waiting || pendingSearch;
  // Without JavaScript the fields always show; with it, once a country is chosen.
  const showFields = !hydrated || country !== "";

  return (
    <div className="flex flex-col gap-4">
      <Form
        ref={formRef}
        method="get"
        action={links.pathname}
        replace
        preventScrollReset
        role="search"
        aria-label={t("search.label")}
        onSubmit={() => {
          clearTimeout(timer.current);
          setWaiting(false);
        }}
        className="grid gap-3 sm:grid-cols-2"
      >
        {links.pageFields.map(([key, value], index) => (
          <input key={`${key}-${index}`} type="hidden" name={key} value={value} />
        ))}
        <input type="hidden" name="dialog" value="credit" />
        <input type="hidden" name="step" value="search" />
        <div className="sm:col-span-2">
          <label htmlFor={`${ids}-country`} className="mb-1 block text-sm font-medium">
            {t("search.country")}
          </label>
          <select
            id={`${ids}-country`}
            name="country"
            value={country}
            onChange={(event) => {
              setCountry(event.target.value);
              runNow();
            }}
            className="select w-full sm:w-72"
          >
            <option value="">{t("search.chooseCountry")}</option>
            {CREDIT_COUNTRIES.map((c) => (
              <option key={c.code} value={c.code}>
                {t(`countries.${c.code}`)}
              </option>
            ))}
          </select>
        </div>
        <div hidden={!showFields}>
          <label htmlFor={`${ids}-name`} className="mb-1 block text-sm font-medium">
            {t("search.name")}
          </label>
          <input
            id={`${ids}-name`}
            type="search"
            name="name"
            defaultValue={dialog.name}
            maxLength={100}
            autoComplete="off"
            onChange={runLater}
            className="input w-full"
          />
        </div>
        <div hidden={!showFields}>
          <label htmlFor={`${ids}-regNo`} className="mb-1 block text-sm font-medium">
            {t("search.regNo")}
          </label>
          <input
            id={`${ids}-regNo`}
            type="search"
            name="regNo"
            defaultValue={dialog.regNo}
            maxLength={50}
            autoComplete="off"
            inputMode="text"
            onChange={runLater}
            className="input w-full"
          />
        </div>
        <div className="flex items-center gap-3 sm:col-span-2">
          <button type="submit" className="btn btn-primary">
            <Icon name="search" className="size-4" />
            {t("search.submit")}
          </button>
          {!dialog.searched && !searching ? <p className="text-sm text-base-content/70">{t("search.hint")}</p> : null}
        </div>
      </Form>

      <div aria-live="polite" aria-busy={searching}>
        {searching ? (
          <p className="mb-3 flex items-center gap-2 text-sm text-base-content/70">
            <Spinner />
            {t("search.searching")}
          </p>
        ) : null}
        {dialog.searched && dialog.results.length === 0 && !searching ? <p className="text-base-content/70">{t("search.noResults")}</p> : null}
        {dialog.results.length ? (
          <ul aria-label={t("search.results")} className={`grid gap-2 sm:grid-cols-2 ${searching ? "opacity-60" : ""}`}>
            {dialog.results.map((company) => (
              <li key={company.id}>
                <Link
                  to={links.href({ step: "details", country: dialog.country ?? "", name: dialog.name, regNo: dialog.regNo, id: company.id })}
                  preventScrollReset
                  className="block h-full rounded-box border border-base-300 bg-base-100 px-4 py-3 transition hover:border-primary hover:bg-base-200 focus-visible:outline-2 focus-visible:outline-primary"
                >
                  <span className="block font-semibold">{company.name}</span>
                  <span className="mt-0.5 block text-sm text-base-content/75">{countryName(company.country)}</span>
                  <span className="block text-sm text-base-content/75">{company.regNo || MISSING}</span>
                </Link>
              </li>
            ))}
          </ul>
        ) : null}
      </div>
    </div>
  );
}

/** The status words the providers give (local and Creditsafe's common ones); others are shown as given. */
const KNOWN_STATUSES = new Set(["Active", "Inactive", "Bankrupt", "Deleted"]);

function address(company: Company): string {
  const { street, houseNo, postCode, city } = company.address;
  const line1 = [street, houseNo].filter((part) => part && part.trim()).join(" ");
  const line2 = [postCode, city].filter((part) => part && part.trim()).join(" ");
  return [line1, line2].filter(Boolean).join(", ") || MISSING;
}

/** Details of the chosen company; the order failure comes back here (shared/spec/02-supplier-credit-connections.md §4, §8). */
function DetailsStep({ dialog }: { dialog: Extract<CreditDialogData, { step: "details" }> }) {
  const { t } = useTranslation("credit");
  const countryName = useCountryName();
  const links = useCreditLinks();
  const { company } = dialog;
  const search = { country: dialog.country ?? "", name: dialog.name, regNo: dialog.regNo };
  const fields: Array<[string, string]> = [
    [t("fields.name"), company.name || MISSING],
    [t("fields.country"), countryName(company.country)],
    [t("fields.regNo"), company.regNo || MISSING],
    [t("fields.status"), company.status ? (KNOWN_STATUSES.has(company.status) ? t(`statuses.${company.status}`) : company.status) : MISSING],
    [t("fields.legalForm"), company.legalForm || MISSING],
    [t("fields.address"), address(company)],
  ];
  return (
    <div className="flex flex-col gap-4">
      <div>
        <Link to={links.href({ step: "search", ...search })} preventScrollReset className="btn btn-ghost btn-sm -ml-2">
          <Icon name="chevronLeft" className="size-4" />
          {t("details.back")}
        </Link>
      </div>
      {dialog.error === "order" ? (
        <div role="alert" className="alert alert-error">
          {t("orderFailed")}
        </div>
      ) : null}
      <h3 className="text-xl font-semibold">{company.name}</h3>
      <dl className="grid gap-3 sm:grid-cols-2">
        {fields.map(([label, value]) => (
          <div key={label} className="rounded-box border border-base-300 px-4 py-2.5">
            <dt className="text-xs text-base-content/70">{label}</dt>
            <dd className="font-medium">{value}</dd>
          </div>
        ))}
      </dl>
      <div className="flex justify-end">
        <Link to={links.href({ step: "confirm", ...search, id: company.id })} preventScrollReset className="btn btn-primary">
          {t("details.proceed")}
        </Link>
      </div>
    </div>
  );
}

function LoadingStep() {
  const { t } = useTranslation("credit");
  return (
    <div role="status" className="flex flex-col items-center gap-4 py-12 text-center">
      <Spinner className="loading-lg text-primary" />
      <p className="font-medium">{t("loading")}</p>
    </div>
  );
}

/** Done: the report is ready; download it or start over (shared/spec/02-supplier-credit-connections.md §4). */
function DoneStep({ dialog }: { dialog: Extract<CreditDialogData, { step: "done" }> }) {
  const { t } = useTranslation("credit");
  const links = useCreditLinks();
  const { order } = dialog;
  const href = `/api/credit-safe/${order.id}/download`;
  // A plain link downloads without JavaScript; with it the page stays put and a failure says so.
  const { state: download, onClick: onDownload } = useFetchDownload(href, DEFAULT_REPORT_FILE_NAME);

  return (
    <div className="flex flex-col items-center gap-4 py-6 text-center">
      <span className="flex size-14 items-center justify-center rounded-full bg-success/15 text-success" aria-hidden="true">
        <svg viewBox="0 0 24 24" className="size-8" fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" strokeLinejoin="round">
          <path d="M5 13l4 4L19 7" />
        </svg>
      </span>
      <h3 className="text-xl font-semibold">{t("done.title")}</h3>
      <p>{t("done.ready", { company: order.companyName })}</p>
      {download === "failed" ? (
        <div role="alert" className="alert alert-error">
          {t("done.downloadFailed")}
        </div>
      ) : null}
      <div className="flex flex-wrap justify-center gap-2">
        <a
          href={href}
          download={order.fileName || DEFAULT_REPORT_FILE_NAME}
          onClick={onDownload}
          aria-busy={download === "busy" || undefined}
          className="btn btn-primary"
        >
          {download === "busy" ? <Spinner /> : null}
          {download === "busy" ? t("done.downloading") : t("done.download")}
        </a>
        <Link to={links.href({})} preventScrollReset className="btn btn-ghost">
          {t("done.backToSearch")}
        </Link>
      </div>
    </div>
  );
}
