import "server-only";
import { eq } from "drizzle-orm";
import type { PgColumn, PgTable, PgUpdateSetSource } from "drizzle-orm/pg-core";
import type { Tx } from "./client";

/**
 * How the back office edits a row — a product, a delivery zone, pickup, cash on delivery, a promo code: the row read
 * and locked, the columns that differ, and the update that writes only when something does. Each domain writes its
 * own audit row with what {@link updateChanged} returns, in the same transaction.
 */

/** A table the back office edits row by row: its rows have an `id` and an `updatedAt`. */
type EditedTable = PgTable & { id: PgColumn; updatedAt: PgColumn };

/** The columns an edit changed: `{ column: [before, after] }`, what the audit rows keep. */
export type Changes = Record<string, [unknown, unknown]>;

/** A column's value as compared and audited: an instant as its ISO 8601 text (as the audit's JSON keeps it). */
const audited = (value: unknown) => (value instanceof Date ? value.toISOString() : value);

/** The columns of `after` whose value differs from `before`'s (instants compare by time), before and after. */
function changes(before: Record<string, unknown>, after: object): Changes {
  const changed: Changes = {};
  for (const [column, value] of Object.entries(after)) {
    const old = audited(before[column]);
    if (old !== audited(value)) changed[column] = [old, audited(value)];
  }
  return changed;
}

/**
 * Reads row `id` of `table` and locks it for the rest of `tx`: a second edit of the same row waits for the first,
 * then compares with what it wrote.
 * @returns the row, or undefined when there is none.
 */
export async function lockRow<T extends EditedTable>(
  tx: Tx,
  table: T,
  id: number,
): Promise<T["$inferSelect"] | undefined> {
  const [row] = await tx
    .select()
    .from(table as PgTable)
    .where(eq(table.id, id))
    .for("update");
  return row as T["$inferSelect"] | undefined;
}

/**
 * A settings table's one row (id 1), locked for the rest of `tx`; made with its columns' defaults (off) if a database
 * lost it.
 */
export async function lockSettings<T extends EditedTable>(tx: Tx, table: T): Promise<T["$inferSelect"]> {
  await tx
    .insert(table)
    .values({ id: 1 } as T["$inferInsert"])
    .onConflictDoNothing();
  return (await lockRow(tx, table, 1))!;
}

/**
 * Writes `after` to row `before.id` of `table` (read by {@link lockRow} or {@link lockSettings} in `tx`), with
 * `updatedAt` now, when any of its columns differ from `before`; an edit that changes nothing writes nothing.
 * @returns the changed columns (empty: nothing written).
 * @throws the database's error when it cannot write (a unique name taken, a check refused).
 */
export async function updateChanged<T extends EditedTable>(
  tx: Tx,
  table: T,
  before: T["$inferSelect"] & { id: number },
  after: Partial<T["$inferInsert"]>,
): Promise<Changes> {
  const changed = changes(before, after);
  if (Object.keys(changed).length === 0) return changed;
  await tx
    .update(table)
    .set({ ...after, updatedAt: new Date() } as PgUpdateSetSource<T>)
    .where(eq(table.id, before.id));
  return changed;
}
