import { Link, useLocation } from "@remix-run/react";
import { useCallback, useState } from "react";
import { useTranslation } from "~/translations";
import { Dialog } from "~/components/ui/Dialog";
import { Icon } from "~/components/ui/icons";
import type { SupplierScreenData } from "~/models/suppliers/supplier-screen.server";
import { withParams } from "./screen-url";
import { StatementChart } from "./StatementChart";
import { useHydrated } from "~/components/ui/useHydrated";
import { TableScroll } from "~/components/ui/TableScroll";
import {
  STATEMENT_TABLES,
  findRow,
  formatRowValue,
  rowSeries,
  rowValue,
  visibleRows,
  type RowField,
  type StatementRow,
  type StatementTable,
} from "./statement-rows";

type Statement = SupplierScreenData["statements"][number];

/*
 * Highlight colours are opaque mixes (not `bg-primary/10`) because the sticky
 * row-label column must hide the figures scrolling underneath it.
 * Without JavaScript the hovered or focused row lights up through CSS (`group`);
 * with it, the hovered cell's column as well, and the cell itself a bit more.
 */
const ROW_CSS =
  "group-hover:bg-[color-mix(in_oklab,var(--color-primary)_9%,var(--color-base-100))] group-focus-within:bg-[color-mix(in_oklab,var(--color-primary)_9%,var(--color-base-100))]";
const LIT = "bg-[color-mix(in_oklab,var(--color-primary)_9%,var(--color-base-100))]";
const LIT_CELL = "bg-[color-mix(in_oklab,var(--color-primary)_20%,var(--color-base-100))]";

/** Row and column under the pointer (col null: only the row, e.g. a focused row label). */
interface Hover {
  row: number;
  col: number | null;
}

const rowAnchor = (table: StatementTable, field: RowField) => `fin-${table.id}-${field}`;

/**
 * The full financial statements page (shared/spec/02-supplier-credit-connections.md "Full financial statements page"):
 * key figures, income statement and balance sheet with the years as columns,
 * newest first, and the chart of one row as URL state (`chart={field}`).
 */
export function FinancialStatementsPage({ data }: { data: SupplierScreenData; extra?: string }) {
  const { t } = useTranslation("financials");
  const { search } = useLocation();
  const hydrated = useHydrated();
  const statements = [...data.statements].sort((a, b) => b.financial_year - a.financial_year);
  const chart = findRow(new URLSearchParams(search).get("chart"));

  return (
    <div className="mt-4 flex flex-col gap-4">
      <div className="flex flex-wrap items-center gap-3">
        <Link to={withParams(search, { view: null, chart: null })} preventScrollReset className="btn btn-ghost btn-sm">
          <Icon name="chevronLeft" className="size-4" />
          {t("back")}
        </Link>
        <h2 className="text-xl font-semibold">{t("title")}</h2>
      </div>

      {statements.length === 0 ? (
        <div className="rounded-box border border-base-300 bg-base-100 p-4">
          <p className="text-sm text-base-content/70">{t("empty")}</p>
        </div>
      ) : (
        <>
          <p className="text-sm text-base-content/70">{t("showChart")}</p>
          {STATEMENT_TABLES.map((table) => (
            <StatementTableCard key={table.id} table={table} statements={statements} search={search} hydrated={hydrated} />
          ))}
          {chart && (
            <ChartDialog
              field={chart.row.field}
              row={chart.row}
              statements={statements}
              closeTo={withParams(search, { chart: null }) + (hydrated ? "" : `#${rowAnchor(chart.table, chart.row.field)}`)}
              hydrated={hydrated}
            />
          )}
        </>
      )}
    </div>
  );
}

/** 'Amounts in NOK thousands', or a note that the currency differs between years. */
function useUnitCaption(statements: Statement[]): { text: string; mixed: boolean } {
  const { t } = useTranslation("financials");
  const currencies = new Set(statements.map((s) => s.currency || "NOK"));
  if (currencies.size > 1) return { text: t("captionMixed"), mixed: true };
  return { text: t("caption", { currency: [...currencies][0] ?? "NOK" }), mixed: false };
}

function StatementTableCard({ table, statements, search, hydrated }: { table: StatementTable; statements: Statement[]; search: string; hydrated: boolean }) {
  const { t } = useTranslation("financials");
  const [hover, setHover] = useState<Hover | null>(null);
  const unit = useUnitCaption(statements);
  const titleId = `fin-${table.id}-title`;
  const statementTable = table.id !== "keyFigures";
  let rowIndex = -1;

  const groups = table.groups.map((group) => ({ heading: group.heading, rows: visibleRows(group.rows, statements) })).filter((group) => group.rows.length > 0);

  const colLit = (col: number) => hover !== null && hover.col === col;

  return (
    <section aria-labelledby={titleId} className="min-w-0 rounded-box border border-base-300 bg-base-100 p-4">
      <h3 id={titleId} className="mb-2 text-base font-semibold">
        {t(`tables.${table.id}`)}
      </h3>
      <TableScroll>
        <table className="w-full border-collapse text-sm" onMouseLeave={() => setHover(null)}>
          <caption className="pb-2 text-left text-xs text-base-content/70">
            <span className="sr-only">{t(`tables.${table.id}`)}. </span>
            {unit.text}
          </caption>
          <thead>
            <tr className="border-b border-base-300">
              <th scope="col" className="sticky left-0 z-[1] bg-base-100 px-2 py-1.5 text-left font-medium">
                <span className="sr-only">{t("itemHeader")}</span>
              </th>
              {statements.map((s, col) => (
                <th
                  key={s.financial_year}
                  scope="col"
                  className={`whitespace-nowrap px-3 py-1.5 text-right font-semibold tabular-nums ${colLit(col) ? LIT : ""}`}
                >
                  {s.financial_year}
                  {unit.mixed && <span className="block text-xs font-normal text-base-content/70">{s.currency}</span>}
                </th>
              ))}
            </tr>
          </thead>
          {groups.map((group) => (
            <tbody key={group.heading ?? "rows"}>
              {group.heading && (
                <tr>
                  <th
                    scope="rowgroup"
                    colSpan={statements.length + 1}
                    className="px-2 pb-1 pt-3 text-left text-xs font-semibold uppercase tracking-wide text-base-content/70"
                  >
                    {/* Sticky inside the full-width cell, so the heading stays in view when the years scroll. */}
                    <span className="sticky left-2">{t(`groups.${group.heading}`)}</span>
                  </th>
                </tr>
              )}
              {group.rows.map((row) => {
                rowIndex += 1;
                const index = rowIndex;
                const rowLit = hover !== null && hover.row === index;
                const anchor = rowAnchor(table, row.field);
                const weight = row.kind === "total" ? "font-semibold" : row.kind === "subtotal" ? "font-medium" : "font-normal";
                const border = row.kind === "total" ? "border-t border-base-300" : "";
                return (
                  <tr key={row.field} className={`group ${border}`}>
                    <th
                      scope="row"
                      id={anchor}
                      className={`sticky left-0 z-[1] scroll-mt-24 whitespace-nowrap py-1 pr-4 text-left ${weight} ${
                        statementTable && row.kind === "item" ? "pl-5" : "pl-2"
                      } ${rowLit ? LIT : `bg-base-100 ${ROW_CSS}`}`}
                      onMouseEnter={() => setHover({ row: index, col: null })}
                    >
                      <Link
                        to={withParams(search, { chart: row.field }) + (hydrated ? "" : `#${anchor}`)}
                        preventScrollReset
                        className="link link-hover inline-flex items-center gap-1.5"
                        onFocus={() => setHover({ row: index, col: null })}
                        onBlur={() => setHover(null)}
                      >
                        {t(`rows.${row.field}`)}
                        <ChartGlyph />
                      </Link>
                    </th>
                    {statements.map((s, col) => {
                      const cellLit = rowLit && hover?.col === col;
                      const lit = rowLit || colLit(col);
                      return (
                        <td
                          key={s.financial_year}
                          className={`whitespace-nowrap px-3 py-1 text-right tabular-nums ${weight} ${cellLit ? LIT_CELL : lit ? LIT : ROW_CSS}`}
                          onMouseEnter={() => setHover({ row: index, col })}
                        >
                          {formatRowValue(rowValue(s, row.field), row.format)}
                        </td>
                      );
                    })}
                  </tr>
                );
              })}
            </tbody>
          ))}
        </table>
      </TableScroll>
    </section>
  );
}

/** A small line-chart mark telling that the label opens a chart. */
function ChartGlyph() {
  return (
    <svg
      viewBox="0 0 16 16"
      className="size-3.5 shrink-0 text-base-content/40"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.6}
      aria-hidden="true"
      focusable="false"
    >
      <path d="M2 13l4-5 3 3 5-7" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

/**
 * The chart of one row. Server-rendered as a small table of the figures (the
 * page without JavaScript); with JavaScript the uPlot chart takes its place and
 * the table stays for screen readers. Closes through the X, a click on the
 * backdrop (both links that remove `chart`) and, with JavaScript, Escape
 * (ui/Dialog).
 */
function ChartDialog({
  field,
  row,
  statements,
  closeTo,
  hydrated,
}: {
  field: RowField;
  row: StatementRow;
  statements: Statement[];
  closeTo: string;
  hydrated: boolean;
}) {
  const { t } = useTranslation("financials");
  const label = t(`rows.${field}`);
  const points = rowSeries(statements, field);
  const unit = useUnitCaption(statements);
  const format = useCallback((value: number | null | undefined) => formatRowValue(value, row.format), [row.format]);

  return (
    <Dialog title={label} closeHref={closeTo} closeLabel={t("chart.close")} size="lg" focusKey={field}>
      {row.format === "amount" && <p className="-mt-1 mb-3 text-xs text-base-content/70">{unit.text}</p>}
      <StatementChart points={points} label={label} yearLabel={t("chart.year")} format={format} enabled={hydrated}>
        <table className="w-full max-w-sm text-sm">
          <caption className="sr-only">{t("chart.figures", { label })}</caption>
          <thead>
            <tr className="border-b border-base-300">
              <th scope="col" className="px-2 py-1 text-left font-semibold">
                {t("chart.year")}
              </th>
              <th scope="col" className="px-2 py-1 text-right font-semibold">
                {t("chart.value")}
              </th>
            </tr>
          </thead>
          <tbody>
            {points.map((p) => (
              <tr key={p.year} className="border-b border-base-200">
                <th scope="row" className="px-2 py-1 text-left font-normal tabular-nums">
                  {p.year}
                </th>
                <td className="px-2 py-1 text-right tabular-nums">{format(p.value)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </StatementChart>
    </Dialog>
  );
}
