import { PageLink } from "@/components/page-link";
import { card } from "../../styles";
import { linkClass } from "./format";

/** A panel's headline count, linked to the list that makes it (`testId` for the count's tests). */
export function CountLink({ href, testId, children }: { href: string; testId: string; children: React.ReactNode }) {
  return (
    <p className="mt-1">
      <PageLink href={href} className={linkClass} data-testid={testId}>
        {children}
      </PageLink>
    </p>
  );
}

/**
 * A panel's few rows under its count (orders, products), one a line: what the row is at the start, what is known of it
 * at the end. With `label` the rows are in an order that matters and that it names (nearest first, oldest first).
 */
export function PanelList({
  label,
  wrap = true,
  rows,
}: {
  label?: string;
  /** Whether the end goes under the start when the line is too narrow for both (off: the start's text wraps). */
  wrap?: boolean;
  rows: { key: string | number; start: React.ReactNode; end: React.ReactNode }[];
}) {
  if (rows.length === 0) return null;
  const List = label ? "ol" : "ul";
  return (
    <List className="mt-2 divide-y divide-stone-100 text-sm" aria-label={label}>
      {rows.map((row) => (
        <li key={row.key} className={`flex ${wrap ? "flex-wrap " : ""}justify-between gap-2 py-1.5`}>
          {row.start}
          {row.end}
        </li>
      ))}
    </List>
  );
}

/** A group of the home's headline figures, named for screen readers (`id` of its heading, `title`). */
export function FigureGroup({ id, title, children }: { id: string; title: string; children: React.ReactNode }) {
  return (
    <section aria-labelledby={id}>
      <h2 id={id} className="sr-only">
        {title}
      </h2>
      <dl className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">{children}</dl>
    </section>
  );
}

/**
 * One headline figure in its card: its name, the value (linked to its orders when `href` is given; `testId` on the
 * value), then `children` (what it compares with, how it is made).
 */
export function Figure({
  name,
  value,
  href,
  testId,
  large = false,
  children,
}: {
  name: string;
  value: string;
  href?: string;
  testId: string;
  /** The larger type of the period's figures. */
  large?: boolean;
  children: React.ReactNode;
}) {
  const size = large ? "text-2xl" : "text-xl";
  return (
    <div className={`${card} p-4`}>
      <dt className="text-sm text-stone-600">{name}</dt>
      {href ? (
        <dd className={`mt-1 ${size} font-semibold tracking-tight`}>
          <PageLink href={href} className="hover:underline" data-testid={testId}>
            {value}
          </PageLink>
        </dd>
      ) : (
        <dd className={`mt-1 ${size} font-semibold tracking-tight`} data-testid={testId}>
          {value}
        </dd>
      )}
      {children}
    </div>
  );
}
