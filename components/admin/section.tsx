import { card, classes } from "../styles";

/**
 * How a section stands out: `plain` (most), `action` (the one thing to do next), `problem` (what must be fixed); `bare`
 * is no card at all, a part of a page under its heading.
 */
const TONES = {
  plain: `${card} p-4`,
  action: "rounded-xl border border-brand-600 bg-white p-4",
  problem: "rounded-xl border border-red-300 bg-red-50 p-4 text-red-900",
  bare: "",
} as const;

/**
 * A titled card of the back office: a `<section>` labelled by its `<h2>`. `id` is the heading's id (a table inside
 * names its scrolling region after it); `anchor` the section's own id, for links to it. `large` is the heading size of
 * pages with several forms, which also spaces the section's children; `aside` stands at the end of the heading's line.
 */
export function Section({
  id,
  title,
  tone = "plain",
  large = false,
  aside,
  anchor,
  className,
  testId,
  children,
}: {
  id: string;
  title: React.ReactNode;
  tone?: keyof typeof TONES;
  large?: boolean;
  aside?: React.ReactNode;
  anchor?: string;
  className?: string;
  testId?: string;
  children: React.ReactNode;
}) {
  const heading = (
    <h2 id={id} className={large ? "text-lg font-semibold" : "font-semibold"}>
      {title}
    </h2>
  );
  return (
    <section
      id={anchor}
      aria-labelledby={id}
      className={classes(large && "space-y-3", TONES[tone], className)}
      data-testid={testId}
    >
      {aside ? (
        <div className="flex flex-wrap items-center justify-between gap-3">
          {heading}
          {aside}
        </div>
      ) : (
        heading
      )}
      {children}
    </section>
  );
}

/** A message alone in a card: a page's "not found", an empty list (`centred`, quieter). */
export function CardMessage({
  centred = false,
  role,
  className,
  children,
}: {
  centred?: boolean;
  role?: "alert" | "status";
  className?: string;
  children: React.ReactNode;
}) {
  return (
    <p role={role} className={classes(className, card, "p-6", centred && "text-center text-stone-600")}>
      {children}
    </p>
  );
}

/** The colours of a {@link Notice}: `done` (it happened), `saved`, `warning` (it did not, and why), `error`. */
const NOTICE_TONES = {
  done: "border-brand-600 bg-brand-50",
  saved: "border-green-300 bg-green-50 text-green-900",
  warning: "border-amber-300 bg-amber-50 text-amber-900",
  error: "border-red-300 bg-red-50 text-red-900",
} as const;

/** A line that reports the result of what the admin just did, or what is off with the request (`role="alert"`). */
export function Notice({
  tone,
  role = "status",
  testId,
  className,
  children,
}: {
  tone: keyof typeof NOTICE_TONES;
  role?: "alert" | "status";
  testId?: string;
  className?: string;
  children: React.ReactNode;
}) {
  return (
    <p role={role} data-testid={testId} className={classes(className, "rounded-lg border p-3", NOTICE_TONES[tone])}>
      {children}
    </p>
  );
}
