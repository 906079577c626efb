import { Form, Link } from "@remix-run/react";
import { FilterSelect, useFilterErrors } from "~/components/ui/FilterSelect";
import {
  DEFAULT_LOOKBACK_DAYS,
  DEFAULT_MIN_RISK_SCORE_PANEL,
  LOOKBACK_DAYS_MAX,
  NOTIFICATION_TYPES,
  READ_FILTERS,
  STATUS_FILTERS,
} from "~/models/notifications/notifications";
import { useTranslation } from "~/translations";

/** The list's filters: one GET form, each refused value said next to its field. */
export function NotificationsFilters({
  raw,
  tags,
  error: refusedField,
}: {
  raw: Record<string, string>;
  tags: Array<{ id: number; title: string }>;
  error: string | null;
}) {
  const { t } = useTranslation("notifications");
  const { ids, error, invalid } = useFilterErrors(refusedField);
  return (
    <Form method="get" className="mt-4 grid grid-cols-2 gap-3 rounded-box border border-base-300 bg-base-100 p-3 lg:grid-cols-4" aria-label={t("filters")}>
      <div>
        <label htmlFor={`${ids}-min`} className="mb-1 block text-sm font-medium">
          {t("minRiskScore")}
        </label>
        <input
          id={`${ids}-min`}
          name="minRiskScore"
          type="number"
          step={1}
          inputMode="numeric"
          defaultValue={raw.minRiskScore || String(DEFAULT_MIN_RISK_SCORE_PANEL)}
          className="input input-sm w-full"
          {...invalid("minRiskScore")}
        />
        {error("minRiskScore", t("invalidNumber", { min: 0, max: 100 }))}
      </div>
      <div>
        <label htmlFor={`${ids}-days`} className="mb-1 block text-sm font-medium">
          {t("lookbackDays")}
        </label>
        <input
          id={`${ids}-days`}
          name="lookbackDays"
          type="number"
          step={1}
          inputMode="numeric"
          defaultValue={raw.lookbackDays || String(DEFAULT_LOOKBACK_DAYS)}
          className="input input-sm w-full"
          {...invalid("lookbackDays")}
        />
        {error("lookbackDays", t("invalidNumber", { min: 0, max: LOOKBACK_DAYS_MAX }))}
      </div>
      <FilterSelect
        name="type"
        label={t("type")}
        value={raw.type || "all"}
        options={NOTIFICATION_TYPES.map((v) => [v, t(`types.${v}`)])}
        error={error("type", t("page.invalidChoice"))}
        invalid={invalid("type")}
      />
      <div>
        <label htmlFor={`${ids}-supplier`} className="mb-1 block text-sm font-medium">
          {t("page.supplier")}
        </label>
        <input
          id={`${ids}-supplier`}
          name="supplier"
          type="search"
          inputMode="numeric"
          maxLength={30}
          defaultValue={raw.supplier}
          className="input input-sm w-full"
          {...invalid("supplier")}
        />
        {error("supplier", t("page.invalidSupplier"))}
      </div>
      <FilterSelect
        name="tag"
        label={t("page.tag")}
        value={raw.tag}
        options={[["", t("page.allTags")], ...tags.map((tag): [string, string] => [String(tag.id), tag.title])]}
        error={error("tag", t("page.invalidChoice"))}
        invalid={invalid("tag")}
      />
      <FilterSelect
        name="read"
        label={t("page.read")}
        value={raw.read || "all"}
        options={READ_FILTERS.map((v) => [v, t(`page.reads.${v}`)])}
        error={error("read", t("page.invalidChoice"))}
        invalid={invalid("read")}
      />
      <FilterSelect
        name="status"
        label={t("page.status")}
        value={raw.status || "active"}
        options={STATUS_FILTERS.map((v) => [v, t(`page.statuses.${v}`)])}
        error={error("status", t("page.invalidChoice"))}
        invalid={invalid("status")}
      />
      <div className="flex items-end gap-2">
        <button type="submit" className="btn btn-primary btn-sm">
          {t("page.filter")}
        </button>
        <Link to="/notifications" className="btn btn-ghost btn-sm">
          {t("page.reset")}
        </Link>
      </div>
    </Form>
  );
}
