import "server-only";
import { and, eq, type SQL } from "drizzle-orm";
import { PgTransaction } from "drizzle-orm/pg-core";
import type { Db, DbOrTx } from "../db/client";
import { orderEvents, orders, type OrderEventType } from "../db/schema";

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
 * Changes an order and records the event that says so, in one transaction (the caller's, when it passes one): both,
 * or — when the change's condition does not hold — neither.
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
  const write = async (tx: DbOrTx) => {
    const [changed] = await tx
      .update(orders)
      .set({ ...change.set, updatedAt: at })
      .where(and(eq(orders.id, orderId), change.where))
      .returning({ id: orders.id });
    if (!changed) return false;
    await recordOrderEvent(tx, orderId, { ...event, at });
    return true;
  };
  return db instanceof PgTransaction ? write(db) : db.transaction(write);
}
