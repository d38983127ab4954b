import "server-only";
import { and, asc, eq, gt, inArray, isNotNull, not, or, sql } from "drizzle-orm";
import type { DbOrTx, Tx } from "../db/client";
import { orderLines, orders, products } from "../db/schema";
import { isPaymentPageAlive, paymentPageDead } from "../payment-page";

/**
 * Stock, kept the way the best shops keep it — on hand, held, sold — for a hosted checkout whose payment page lives
 * 600 seconds:
 *
 * - **On hand** is `products.stock` (null: not counted). The back office sets it; a paid order takes its units off.
 * - **Held**: an unpaid checkout holds its lines' units while its payment can still be made — a claim still being
 *   paid for (`started`, until its deadline), or a payment whose page is alive (`pending`, `awaiting_confirmation`,
 *   until `paymentExpiresAt`). Held units are not a counter: they are summed from those orders' lines, so a hold ends
 *   by itself the moment its page dies, and with the move to `failed`, `cancelled` or `expired`, without waiting for
 *   the scheduled job (which runs once a day on some hosts).
 * - **Available** = on hand − held. The checkout's claim checks it with the products' rows locked, in the claim's own
 *   transaction ({@link holdStock}); no lock is held across the call to the payment service.
 * - **Sold**: the move to `paid` takes the order's units off hand ({@link sellStock}), in the settlement's
 *   transaction. A payment confirmed after its hold ended, when the stock went to others meanwhile: money wins, the
 *   order is paid, the stock goes below zero, and the order is flagged `oversold`.
 */

/** At most this many left is "low stock": the product page says how many are left, the back office lists it. */
export const LOW_STOCK = 3;

/** What one order line asks of the stock. */
export interface StockLine {
  productId: number;
  quantity: number;
}

/** A line the stock cannot cover: how many there are to buy now (0: sold out). */
export interface Shortfall {
  productId: number;
  wanted: number;
  available: number;
}

/** The orders whose lines hold stock at `now` (see the module's comment): a condition on `orders`. */
export function holding(now: Date) {
  return or(
    and(eq(orders.status, "started"), gt(orders.claimExpiresAt, now)),
    and(inArray(orders.status, ["pending", "awaiting_confirmation"]), not(paymentPageDead(now))),
  )!;
}

/**
 * Units that unpaid checkouts hold now, per product.
 * @param ids the products. @param exceptOrder an order whose own lines are not counted.
 */
export async function heldStock(
  db: DbOrTx,
  ids: readonly number[],
  { now = new Date(), exceptOrder }: { now?: Date; exceptOrder?: string } = {},
): Promise<Map<number, number>> {
  if (ids.length === 0) return new Map();
  const live = db
    .select({ id: orders.id })
    .from(orders)
    .where(exceptOrder ? and(holding(now), sql`${orders.id} <> ${exceptOrder}`) : holding(now));
  const rows = await db
    .select({ productId: orderLines.productId, held: sql<number>`sum(${orderLines.quantity})::int` })
    .from(orderLines)
    .where(and(inArray(orderLines.orderId, live), inArray(orderLines.productId, [...ids])))
    .groupBy(orderLines.productId);
  return new Map(rows.map((row) => [row.productId!, row.held]));
}

/**
 * Locks the products' rows (in id order, so two checkouts never wait for each other in a circle) and reads what is on
 * hand: the claim's check and the sale then see every hold committed before them.
 */
async function lockProducts(tx: Tx, ids: number[]) {
  const rows = await tx
    .select({ id: products.id, stock: products.stock })
    .from(products)
    .where(inArray(products.id, ids))
    .orderBy(asc(products.id))
    .for("update");
  return new Map(rows.map((row) => [row.id, row.stock]));
}

/**
 * The checkout's check, in the claim's transaction: whether the stock can cover `lines` now. When it can, the claim
 * then inserts the order and its lines, and they hold the units from its commit on; when it cannot, nothing is held.
 * @returns the lines it cannot cover (empty when it can cover them all).
 */
export async function holdStock(tx: Tx, lines: readonly StockLine[], now = new Date()): Promise<Shortfall[]> {
  const ids = [...new Set(lines.map((line) => line.productId))].sort((a, b) => a - b);
  const onHand = await lockProducts(tx, ids);
  const counted = ids.filter((id) => onHand.get(id) !== null && onHand.get(id) !== undefined);
  const held = await heldStock(tx, counted, { now });
  return lines.flatMap((line) => {
    const stock = onHand.get(line.productId);
    if (stock === null || stock === undefined) return [];
    const available = Math.max(0, stock - (held.get(line.productId) ?? 0));
    return line.quantity > available ? [{ productId: line.productId, wanted: line.quantity, available }] : [];
  });
}

/**
 * The move to paid, in the settlement's transaction: takes the order's units off hand. When the order's hold had
 * already ended (its page died, it was cancelled or expired, or its claim was never paid for) and others hold or
 * bought what it needs, it is sold anyway — money wins — and reported.
 * @param stillHeld whether the order's own hold was alive when its payment was confirmed.
 * @returns whether it oversold: the stock could not cover the order without it.
 */
export async function sellStock(tx: Tx, orderId: string, stillHeld: boolean, now = new Date()): Promise<boolean> {
  const lines = await tx
    .select({ productId: orderLines.productId, quantity: orderLines.quantity })
    .from(orderLines)
    .where(and(eq(orderLines.orderId, orderId), isNotNull(orderLines.productId)));
  const wanted = lines as StockLine[];
  if (wanted.length === 0) return false;
  const ids = [...new Set(wanted.map((line) => line.productId))].sort((a, b) => a - b);
  const onHand = await lockProducts(tx, ids);
  let oversold = false;
  if (!stillHeld) {
    const held = await heldStock(tx, ids, { now, exceptOrder: orderId });
    oversold = wanted.some(({ productId, quantity }) => {
      const stock = onHand.get(productId);
      return stock !== null && stock !== undefined && quantity > stock - (held.get(productId) ?? 0);
    });
  }
  for (const { productId, quantity } of wanted) {
    await tx
      .update(products)
      .set({ stock: sql`${products.stock} - ${quantity}`, updatedAt: now })
      .where(and(eq(products.id, productId), isNotNull(products.stock)));
  }
  return oversold;
}

/** Whether an order's own lines still hold stock at `now`, by its status and clocks (the rule of {@link holding}). */
export function holdsStock(
  order: { status: string; claimExpiresAt: Date; paymentExpiresAt: Date | null },
  now = new Date(),
): boolean {
  if (order.status === "started") return order.claimExpiresAt > now;
  if (order.status === "pending" || order.status === "awaiting_confirmation")
    return isPaymentPageAlive(order, now.getTime());
  return false;
}

/**
 * After {@link sellStock}, in the same transaction: whether the sale left any of the order's counted products below
 * zero. A sale whose hold was alive should never do that; when something lowered the stock under live holds anyway
 * (a direct edit of the database, a rule this module does not know), what was paid beyond the stock is still
 * oversold, and is flagged as such.
 */
export async function soldBelowZero(tx: Tx, orderId: string): Promise<boolean> {
  const [row] = await tx
    .select({ id: products.id })
    .from(products)
    .where(
      and(
        sql`${products.stock} < 0`,
        inArray(
          products.id,
          tx.select({ id: orderLines.productId }).from(orderLines).where(eq(orderLines.orderId, orderId)),
        ),
      ),
    )
    .limit(1);
  return row !== undefined;
}
