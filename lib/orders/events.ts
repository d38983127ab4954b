import "server-only";
import { and, eq, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import type { Db, DbOrTx, Tx } from "../db/client";
import { orderEvents, orders, type OrderEventType, type OrderRow } from "../db/schema";

/**
 * An order's history (`order_events`, append-only), written together with the changes it records. Everything that
 * writes to an order goes through {@link changeOrder} — the checkout's claim and payment (lib/checkout/place-order.ts),
 * settlement (lib/orders/settle.ts), expiry, fulfilment, flags, e-mails — so the history is complete by construction.
 */

/** One entry of an order's history: what happened, its details, and when (default: now). */
export interface OrderEvent {
  type: OrderEventType;
  /** Details for the merchant's audit: the status before and after, a payment token, an error kind… Never secrets. */
  data?: Record<string, unknown>;
  at?: Date;
}

/** A change to an order's row: the columns to set (`updatedAt` is set for you) and, optionally, a condition. */
export interface OrderChange {
  set: Omit<Parameters<ReturnType<Db["update"]>["set"]>[0], "id" | "updatedAt">;
  /**
   * The change applies only while this also holds; otherwise nothing is written. It is how a writer proves that the
   * order is still as it found it: a claim that is still its own ("started, with my claim's deadline"), an order still
   * paid and not yet fulfilled.
   */
  where?: SQL;
}

/**
 * Reads order `id` and locks its row for the rest of `tx`: whoever changes an order after deciding from what it read
 * (settlement, a cash move, a refund, a resent e-mail) reads it here, so a second tab or server instance waits for the
 * first and then decides from what it wrote — each move happens once.
 * @returns the whole row, or `undefined` when there is no such order.
 */
export async function lockOrder(tx: Tx, id: string): Promise<OrderRow | undefined> {
  const [order] = await tx.select().from(orders).where(eq(orders.id, id)).for("update");
  return order;
}

/**
 * Records an event that changes nothing on the order's row: an e-mail sent, a delivery for an order that does not
 * move.
 * @param orderId the order, or `null` for an event about no order we know (a delivery for an unknown token).
 * @throws the database's error when it cannot write.
 */
export async function recordOrderEvent(db: DbOrTx, orderId: string | null, event: OrderEvent): Promise<void> {
  await db
    .insert(orderEvents)
    .values({ orderId, type: event.type, data: event.data ?? {}, at: event.at ?? new Date() });
}

/**
 * Changes an order and records the event that says so, in one statement: both, or — when the change's condition does
 * not hold — neither.
 * @returns whether the order changed: `false` when the condition (or the order's id) matched no row.
 * @throws the database's error when it cannot write.
 */
export async function changeOrder(
  db: DbOrTx,
  orderId: string,
  change: OrderChange,
  event: OrderEvent,
): Promise<boolean> {
  const at = event.at ?? new Date();
  const update = db
    .update(orders)
    .set({ ...change.set, updatedAt: at })
    .where(and(eq(orders.id, orderId), change.where))
    .returning({ id: orders.id });
  return writeOrder(db, update, { ...event, at });
}

/**
 * Writes an order — `write`, an insert into or update of `orders` returning its `id` — and, when it wrote a row, the
 * event that says so, in one statement: atomic on its own, inside a caller's transaction or not, and one round trip
 * to the database. `alongside` are more writes that belong to it, in the same statement (a new order's lines).
 * @returns whether `write` wrote a row.
 * @throws the database's error when it cannot write.
 */
export async function writeOrder(
  db: DbOrTx,
  write: SQLWrapper,
  event: OrderEvent,
  ...alongside: SQLWrapper[]
): Promise<boolean> {
  const at = event.at ?? new Date();
  // Drizzle puts an embedded query in parentheses: each is a CTE's body as it stands.
  const more = alongside.map((statement, index) => sql`, ${sql.raw(`alongside_${index}`)} as ${statement}`);
  const { rows } = await db.execute(
    sql`with written as ${write}${sql.join(more)} insert into order_events (order_id, type, data, at)
      select id, ${event.type}, ${JSON.stringify(event.data ?? {})}::jsonb, ${at.toISOString()}::timestamptz
      from written returning order_id`,
  );
  return rows.length > 0;
}
