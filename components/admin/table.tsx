import { card, classes } from "../styles";

/**
 * A column's heading: its text (`label`), whether its values are numbers aligned to the end, whether only screens wider
 * than a phone show it ({@link WIDE_ONLY}), extra classes.
 */
export interface Column {
  key: string;
  label: React.ReactNode;
  end?: boolean;
  wide?: boolean;
  className?: string;
}

/**
 * The cells of a `wide` column: hidden on a phone (below 640 px), so that a list's row fits 360 px without scrolling
 * sideways and what matters (a total, a status) stays in view; the row shows what they held in a cell it keeps, in an
 * element of class {@link PHONE_ONLY}.
 */
export const WIDE_ONLY = "max-sm:hidden";

/** What a row shows only on a phone, in place of its {@link WIDE_ONLY} cells. */
export const PHONE_ONLY = "sm:hidden";

/** The cells of a page's main list: closer on a phone, where its {@link WIDE_ONLY} columns are hidden. */
export const LIST_CELL = "px-2 py-2 sm:px-3";

/** A value that is off, hidden or archived in a list's row, greyed in a pill so that a scan of the column finds it. */
export function OffTag({ children }: { children: React.ReactNode }) {
  return <span className="rounded-full bg-stone-200 px-2 py-0.5 text-stone-800">{children}</span>;
}

/**
 * The back office's three kinds of table: `list`, a page's main list in a card of its own with a shaded head; `inset`,
 * a table inside a section, under its heading (a little space above it by default); `panel`, a small table of figures
 * in a panel of the merchant's home, its rows close and lightly ruled.
 */
const LOOKS = {
  list: {
    wrap: `overflow-x-auto ${card}`,
    head: "bg-stone-100",
    cell: LIST_CELL,
    body: "divide-y divide-stone-200",
    margin: "",
    empty: `${card} p-6 text-center text-stone-600`,
  },
  inset: {
    wrap: "overflow-x-auto",
    head: "text-stone-600",
    cell: "px-1 py-1",
    body: "divide-y divide-stone-200",
    margin: "mt-2",
    empty: "text-stone-600",
  },
  panel: {
    wrap: "overflow-x-auto",
    head: "text-stone-600",
    cell: "py-1",
    body: "divide-y divide-stone-100",
    margin: "mt-2",
    empty: "text-stone-600",
  },
} as const;

/**
 * A table of the back office: a caption for screen readers, one row of column headings, then `children` (the rows,
 * `<tr>`s). With `region` (its label, or the id of the heading that labels it) a wide table scrolls inside its own
 * box on a phone, and the box is focusable so that a keyboard can scroll it too. With `empty` set, the table is
 * replaced by that message in a card (a list with nothing in it). `cell` is the heading cells' padding, which the
 * rows' cells should share; `body` the rows' divider.
 */
export function Table({
  columns,
  caption,
  region,
  look = "inset",
  minWidth,
  className = LOOKS[look].margin,
  cell = LOOKS[look].cell,
  head = LOOKS[look].head,
  body = LOOKS[look].body,
  testId,
  empty,
  foot,
  children,
}: {
  columns: readonly Column[];
  caption?: string;
  region?: { label: string } | { labelledBy: string };
  look?: keyof typeof LOOKS;
  /** The width below which the table scrolls, as a class (`sm:min-w-[36rem]`: from a phone's width up). */
  minWidth?: string;
  /** Classes of the outermost element (the region, the table without one, or the empty message): its margins. */
  className?: string;
  cell?: string;
  head?: string;
  body?: string;
  testId?: string;
  empty?: React.ReactNode;
  /** Rows after the body (`<tr>`s): totals. */
  foot?: React.ReactNode;
  children: React.ReactNode;
}) {
  if (empty !== undefined && empty !== false && empty !== null) {
    return <p className={classes(className, LOOKS[look].empty)}>{empty}</p>;
  }
  const table = (
    <table className={classes(!region && className, "w-full", minWidth, "text-sm")} data-testid={testId}>
      {caption && <caption className="sr-only">{caption}</caption>}
      <thead className={head || undefined}>
        <tr>
          {columns.map((column) => (
            <th
              key={column.key}
              scope="col"
              className={classes(
                cell,
                "font-medium",
                column.end ? "text-end" : "text-start",
                column.wide && WIDE_ONLY,
                column.className,
              )}
            >
              {column.label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody className={body || undefined}>{children}</tbody>
      {foot && <tfoot>{foot}</tfoot>}
    </table>
  );
  if (!region) return table;
  return (
    <div
      className={classes(className, LOOKS[look].wrap)}
      role="region"
      aria-label={"label" in region ? region.label : undefined}
      aria-labelledby={"labelledBy" in region ? region.labelledBy : undefined}
      tabIndex={0}
    >
      {table}
    </div>
  );
}

/**
 * Columns from their keys, each headed by `label(key)`; the keys in `end` hold numbers, aligned to the end; those in
 * `wide` are hidden on a phone ({@link WIDE_ONLY}).
 */
export function columnsOf<Key extends string>(
  keys: readonly Key[],
  label: (key: Key) => React.ReactNode,
  end: readonly Key[] = [],
  wide: readonly Key[] = [],
): Column[] {
  return keys.map((key) => ({ key, label: label(key), end: end.includes(key), wide: wide.includes(key) }));
}
