import {
  getCoreRowModel,
  getSortedRowModel,
  useReactTable,
  type ColumnDef,
  type SortingFn,
  type SortingState,
} from "@tanstack/react-table";
import { Fragment, useMemo, useState, type ReactNode } from "react";
import { useTranslation } from "~/texts";
import { useHydrated } from "./useHydrated";

export type SortValue = string | number | null | undefined;

export interface TableColumn<Row> {
  id: string;
  /** The header's text, translated. */
  header: string;
  /** A header read by screen readers only (a column of buttons, say). */
  headerHidden?: boolean;
  /** What the column sorts by; a column without it does not sort. */
  sortValue?: (row: Row) => SortValue;
  /** The cell's content; the sort value (or "–" without one) when left out. */
  cell?: (row: Row) => ReactNode;
  /** Figures: right-aligned with the class `num`. */
  numeric?: boolean;
  /** The row's header cell (`<th scope="row">`). */
  rowHeader?: boolean;
}

export interface DataTableProps<Row> {
  columns: TableColumn<Row>[];
  rows: Row[];
  /** A key that stays with the row whatever the order. */
  rowId: (row: Row, index: number) => string;
  caption?: ReactNode;
  captionHidden?: boolean;
  className?: string;
  /** The order the table opens in; without it the rows' own order. */
  initialSort?: { id: string; desc: boolean };
  /** Draws a whole `<tr>` itself, for rows that keep state of their own. */
  renderRow?: (row: Row) => ReactNode;
  testId?: string;
}

/**
 * Numbers by value, texts in the language's order with their digits as numbers ("S2" before "S10");
 * numbers before texts. Empty values are kept last by the table whatever the direction.
 */
export function compareValues(a: SortValue, b: SortValue, collator: Intl.Collator): number {
  if (typeof a === "number" && typeof b === "number") return a - b;
  if (typeof a === "number") return -1;
  if (typeof b === "number") return 1;
  return collator.compare(a ?? "", b ?? "");
}

const ARIA_SORT = { asc: "ascending", desc: "descending" } as const;
const MARK = { asc: "▲", desc: "▼" } as const;
const SLOT = "\u0000";

/**
 * A table people read and sort: a real `<table>` drawn on the server, whose sortable headers are buttons
 * (Tab to one, Enter or Space: ascending, descending, the rows' own order) with `aria-sort` on their `<th>`.
 * Without JavaScript the rows stand in their own order and the buttons are disabled.
 */
export function DataTable<Row>({
  columns,
  rows,
  rowId,
  caption,
  captionHidden,
  className,
  initialSort,
  renderRow,
  testId,
}: DataTableProps<Row>) {
  const { t, i18n } = useTranslation();
  const hydrated = useHydrated();
  const [sorting, setSorting] = useState<SortingState>(initialSort ? [initialSort] : []);
  const defs = useMemo<ColumnDef<Row, SortValue>[]>(() => {
    const collator = new Intl.Collator(i18n.language, { numeric: true, sensitivity: "base" });
    const byValue: SortingFn<Row> = (a, b, id) =>
      compareValues(a.getValue<SortValue>(id), b.getValue<SortValue>(id), collator);
    return columns.map((c) => ({
      id: c.id,
      // null counts as empty, so that it stays last in both directions.
      accessorFn: (row: Row) => c.sortValue?.(row) ?? undefined,
      enableSorting: Boolean(c.sortValue),
      sortingFn: byValue,
      sortUndefined: "last",
    }));
  }, [columns, i18n.language]);
  const table = useReactTable({
    data: rows,
    columns: defs,
    state: { sorting },
    onSortingChange: setSorting,
    getRowId: rowId,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
    enableMultiSort: false,
  });
  const byId = new Map(columns.map((c) => [c.id, c]));
  // A sort button is named by its text ("Sort by Count"): the header shown, the words around it for screen
  // readers only, in the language's order. Text rather than aria-label, so that the name holds the label seen.
  const [sortBefore, sortAfter] = t("table.sortBy", { column: SLOT }).split(SLOT);

  return (
    <table className={className} data-testid={testId}>
      {caption ? <caption className={captionHidden ? "visually-hidden" : undefined}>{caption}</caption> : null}
      <thead>
        <tr>
          {table.getFlatHeaders().map((h) => {
            const c = byId.get(h.column.id)!;
            const sorted = h.column.getIsSorted();
            const label = c.headerHidden ? <span className="visually-hidden">{c.header}</span> : c.header;
            return (
              <th
                key={h.id}
                scope="col"
                className={c.numeric ? "num" : undefined}
                aria-sort={h.column.getCanSort() ? (sorted ? ARIA_SORT[sorted] : "none") : undefined}
              >
                {h.column.getCanSort() ? (
                  <button
                    type="button"
                    className="table__sort"
                    disabled={!hydrated}
                    onClick={h.column.getToggleSortingHandler()}
                  >
                    {sortBefore ? <span className="visually-hidden">{sortBefore}</span> : null}
                    {label}
                    {sortAfter ? <span className="visually-hidden">{sortAfter}</span> : null}
                    <span aria-hidden="true" className="table__sort-mark">
                      {sorted ? MARK[sorted] : "↕"}
                    </span>
                  </button>
                ) : (
                  label
                )}
              </th>
            );
          })}
        </tr>
      </thead>
      <tbody>
        {table.getRowModel().rows.map((r) =>
          renderRow ? (
            <Fragment key={r.id}>{renderRow(r.original)}</Fragment>
          ) : (
            <tr key={r.id}>
              {columns.map((c) => {
                const content = c.cell ? c.cell(r.original) : (c.sortValue?.(r.original) ?? "–");
                const cls = c.numeric ? "num" : undefined;
                return c.rowHeader ? (
                  <th key={c.id} scope="row" className={cls}>
                    {content}
                  </th>
                ) : (
                  <td key={c.id} className={cls}>
                    {content}
                  </td>
                );
              })}
            </tr>
          ),
        )}
      </tbody>
    </table>
  );
}
