import "server-only";
import { eq } from "drizzle-orm";
import type { PgColumn, PgTable, PgUpdateSetSource } from "drizzle-orm/pg-core";
import type { Db, Tx } from "./client";

/**
 * How the back office edits a row — a product, a delivery zone, pickup, cash on delivery, a promo code: the row read
 * and locked, the columns that differ, the update that writes only when something does, and a refusal for a taken
 * name said as the form's problem. Each domain writes its own audit row of what changed, in the same transaction.
 */

/** A table the back office edits row by row: its rows have an `id` and an `updatedAt`. */
type EditedTable = PgTable & { id: PgColumn; updatedAt: PgColumn };

/** A row of such a table, as read. */
type Row<T extends EditedTable> = T["$inferSelect"] & { id: number };

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
export async function lockRow<T extends EditedTable>(tx: Tx, table: T, id: number): Promise<Row<T> | undefined> {
  const [row] = await tx
    .select()
    .from(table as PgTable)
    .where(eq(table.id, id))
    .for("update");
  return row as Row<T> | undefined;
}

/**
 * Edits row `id` of `table`: locks it ({@link lockRow}), writes `after` when any of its columns differ
 * ({@link updateChanged}), then writes the audit row of what changed with `audit` — all in `tx`.
 * @returns the changed columns' names (empty: nothing written, nothing audited), or undefined when there is no row.
 * @throws the database's error when it cannot write.
 */
export async function editRow<T extends EditedTable>(
  tx: Tx,
  table: T,
  id: number,
  after: Partial<T["$inferInsert"]>,
  audit: (changed: Changes) => Promise<unknown>,
): Promise<string[] | undefined> {
  const before = await lockRow(tx, table, id);
  if (!before) return undefined;
  const changed = await updateChanged(tx, table, before, after);
  const columns = Object.keys(changed);
  if (columns.length > 0) await audit(changed);
  return columns;
}

/**
 * Edits a settings table's one row (id 1) as {@link editRow} does, first making it with its columns' defaults (off)
 * if a database lost it.
 * @returns the changed columns' names.
 */
export async function editSettings<T extends EditedTable>(
  tx: Tx,
  table: T,
  after: Partial<T["$inferInsert"]>,
  audit: (changed: Changes) => Promise<unknown>,
): Promise<string[]> {
  await tx
    .insert(table)
    .values({ id: 1 } as T["$inferInsert"])
    .onConflictDoNothing();
  return (await editRow(tx, table, 1, after, audit))!;
}

/** What adding a row answers: its id, or the problem a taken name was said as ({@link unlessTaken}). */
export type Created<Problem extends string> = { ok: true; id: number } | { ok: false; problem: Problem };

/**
 * Adds a row of `values` to `table` and its audit row, written by `audit` with the new row's id, in one transaction
 * of `db`; a unique constraint it breaks is answered as `taken`'s problem ({@link unlessTaken}).
 * @throws the database's error for anything else.
 */
export function createRow<T extends EditedTable, Problem extends string>(
  db: Db,
  table: T,
  values: T["$inferInsert"],
  audit: (tx: Tx, id: number) => Promise<unknown>,
  taken: (constraint: string | undefined) => Problem | undefined,
): Promise<Created<Problem>> {
  return unlessTaken(
    db,
    async (tx) => {
      const [created] = await tx
        .insert(table)
        .values(values)
        .returning({ id: table.id as PgColumn });
      const id = created!.id as number;
      await audit(tx, id);
      return { ok: true as const, id };
    },
    taken,
  );
}

/**
 * Runs `write` in one transaction of `db`. When the database refuses it for a unique constraint that `taken` has a
 * problem for (a slug, a name, a code another row already has), answers that problem instead of throwing: the form
 * says it on its field.
 * @param taken the problem for a broken unique constraint, by the constraint's name; undefined for one it cannot say.
 * @throws the database's error for anything else.
 */
export async function unlessTaken<R, Problem extends string>(
  db: Db,
  write: (tx: Tx) => Promise<R>,
  taken: (constraint: string | undefined) => Problem | undefined,
): Promise<R | { ok: false; problem: Problem }> {
  try {
    return await db.transaction(write);
  } catch (error) {
    const cause = (error as { cause?: { code?: string; constraint?: string } })?.cause;
    const problem = cause?.code === "23505" ? taken(cause.constraint) : undefined;
    if (problem) return { ok: false, problem };
    throw error;
  }
}

/**
 * Writes `after` to row `before.id` of `table` (read by {@link lockRow} in `tx`), with
 * `updatedAt` now, when any of its columns differ from `before`; an edit that changes nothing writes nothing.
 * @returns the changed columns (empty: nothing written).
 * @throws the database's error when it cannot write (a unique name taken, a check refused).
 */
export async function updateChanged<T extends EditedTable>(
  tx: Tx,
  table: T,
  before: Row<T>,
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
