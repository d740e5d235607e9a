import type { ReactNode } from "react";

/**
 * A table on wide screens and, below a breakpoint, a list of cards: every
 * cell on its own line with its column's name beside it, so a row's state and
 * actions are on screen on a phone without scrolling sideways. The settings'
 * tables all lay out this way; only the breakpoint and the frame differ.
 */

/** A column of data, named on its card by `label`; `header` replaces the label in the table's head when it says more. */
type DataColumn<Row> = { label: string; header?: ReactNode; cell: (row: Row) => ReactNode; className?: string };
/** The row's buttons: no name, last, laid out as a line of buttons on a card. */
type ActionsColumn<Row> = { actions: (row: Row) => ReactNode; className?: string };
export type Column<Row> = DataColumn<Row> | ActionsColumn<Row>;

/**
 * Tailwind finds classes by their literal text, so each breakpoint's classes
 * are written out in full. `framed`: the table has a border and header band of
 * its own and roomier cells; unframed, it sits inside a section's box.
 */
const breakpoints = {
  md: {
    scroll: "md:overflow-x-auto",
    table: "w-full text-sm max-md:block md:min-w-full md:divide-y md:divide-slate-200",
    head: "max-md:sr-only",
    body: "divide-y divide-slate-100 max-md:block",
    row: { framed: "max-md:block max-md:px-4 max-md:py-3", unframed: "align-top max-md:block max-md:py-3" },
    cell: "max-md:flex max-md:items-start max-md:justify-between max-md:gap-3 max-md:py-1",
    cellPadding: { framed: "md:px-4 md:py-3", unframed: "md:py-2 md:pr-4" },
    actions: { framed: "md:px-4 md:py-3 md:text-right max-md:pt-2", unframed: "md:py-2 md:text-right max-md:pt-2" },
    label: "md:hidden",
  },
  lg: {
    scroll: "lg:overflow-x-auto",
    table: "w-full text-sm max-lg:block lg:min-w-full lg:divide-y lg:divide-slate-200",
    head: "max-lg:sr-only",
    body: "divide-y divide-slate-100 max-lg:block",
    row: { framed: "max-lg:block max-lg:px-4 max-lg:py-3", unframed: "align-top max-lg:block max-lg:py-3" },
    cell: "max-lg:flex max-lg:items-start max-lg:justify-between max-lg:gap-3 max-lg:py-1",
    cellPadding: { framed: "lg:px-4 lg:py-3", unframed: "lg:py-2 lg:pr-4" },
    actions: { framed: "lg:px-4 lg:py-3 lg:text-right max-lg:pt-2", unframed: "lg:py-2 lg:text-right max-lg:pt-2" },
    label: "lg:hidden",
  },
} as const;

const frames = {
  framed: { box: "relative rounded-lg border border-slate-200 bg-white", head: "bg-slate-50 text-left text-slate-600", th: "px-4 py-3", lastTh: "px-4 py-3" },
  unframed: { box: "relative", head: "text-left text-slate-600", th: "py-2 pr-4", lastTh: "py-2" },
} as const;

const join = (...classes: (string | undefined)[]) => classes.filter(Boolean).join(" ");

export function ResponsiveTable<Row>({
  rows,
  columns,
  rowKey,
  rowTestId,
  cardsBelow,
  framed = false,
}: {
  rows: readonly Row[];
  columns: readonly Column<Row>[];
  rowKey: (row: Row) => string;
  rowTestId: string;
  /** The breakpoint under which rows become cards. */
  cardsBelow: keyof typeof breakpoints;
  framed?: boolean;
}) {
  const layout = breakpoints[cardsBelow];
  const look = framed ? "framed" : "unframed";
  const frame = frames[look];
  return (
    <div className={join(frame.box, layout.scroll)}>
      <table className={layout.table}>
        <thead className={join(frame.head, layout.head)}>
          <tr>
            {columns.map((column) =>
              "actions" in column ? (
                <th key="actions" scope="col" className={frame.lastTh}>
                  <span className="sr-only">Actions</span>
                </th>
              ) : (
                <th key={column.label} scope="col" className={join(frame.th, "font-medium")}>
                  {column.header ?? column.label}
                </th>
              ),
            )}
          </tr>
        </thead>
        <tbody className={layout.body}>
          {rows.map((row) => (
            <tr key={rowKey(row)} data-testid={rowTestId} className={layout.row[look]}>
              {columns.map((column) =>
                "actions" in column ? (
                  <td key="actions" className={join(column.className, layout.actions[look])}>
                    {column.actions(row)}
                  </td>
                ) : (
                  <td key={column.label} className={join(layout.cellPadding[look], layout.cell, column.className)}>
                    <span className={join("shrink-0 font-sans text-sm font-normal text-slate-500", layout.label)}>{column.label}</span>
                    {column.cell(row)}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
