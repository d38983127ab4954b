import "server-only";
import { and, asc, eq, gt, inArray, isNotNull, not, or, sql, type SQL } from "drizzle-orm";
import type { DbOrTx, Tx } from "../db/client";
import { orderLines, orders, products } from "../db/schema";
import { isPaymentPageAlive, paymentPageDead } from "../payment-page";

/**
 * Stock, kept the way the best shops keep it — on hand, held, sold — for a hosted checkout whose payment page lives
 * 600 seconds:
 *
 * - **On hand** is `products.stock` (null: not counted). The back office sets it; a paid order takes its units off.
 * - **Held**: an unpaid checkout holds its lines' units while its payment can still be made — a claim still being
 *   paid for (`started`, until its deadline), a payment whose page is alive (`pending`, `awaiting_confirmation`,
 *   until `paymentExpiresAt`), or a cash order waiting for the merchant's call (`placed`, until `confirmBy`). Held units are not a counter: they are summed from those orders' lines, so a hold ends
 *   by itself the moment its page dies, and with the move to `failed`, `cancelled` or `expired`, without waiting for
 *   the scheduled job (which runs once a day on some hosts).
 * - **Available** = on hand − held. The checkout's claim checks it with the products' rows locked, in the claim's own
 *   transaction ({@link holdStock}); no lock is held across the call to the payment service.
 * - **Sold**: the move to `paid` takes the order's units off hand ({@link sellStock}), in the settlement's
 *   transaction. A payment confirmed after its hold ended, when the stock went to others meanwhile: money wins, the
 *   order is paid, the stock goes below zero, and the order is flagged `oversold`.
 * - **Cash on delivery** (lib/cash/): a cash order is sold when the merchant confirms it (before any money changes
 *   hands), and its units come back once ({@link restock}) if it is then cancelled or its parcel comes back.
 * - **After the sale** (lib/refunds/): a sold order the merchant cancels comes back on hand once ({@link restock}); goods
 *   returned after delivery come back per unit the merchant restocks ({@link putBack}).
 */

/** At most this many left is "low stock": the product page says how many are left, the back office lists it. */
export const LOW_STOCK = 3;

/** What one order line asks of the stock. */
export interface StockLine {
  productId: number;
  quantity: number;
}

/**
 * A line the stock cannot cover: how many there are to buy now (0: sold out), and — when what is on hand would cover
 * it but other checkouts hold the rest — `freeAt`, when the earliest of those holds ends.
 */
interface Shortfall {
  productId: number;
  wanted: number;
  available: number;
  freeAt?: Date;
}

/** What unpaid checkouts hold of one product now: how many units, and when the earliest of those holds ends. */
export interface Held {
  units: number;
  freeAt: Date;
}

/** The orders whose lines hold stock at `now` (see the module's comment): a condition on `orders`. */
export function holding(now: Date) {
  return or(
    and(eq(orders.status, "started"), gt(orders.claimExpiresAt, now)),
    and(inArray(orders.status, ["pending", "awaiting_confirmation"]), not(paymentPageDead(now))),
    and(eq(orders.status, "placed"), gt(orders.confirmBy, now)),
  )!;
}

/**
 * When a holding order's hold ends, in SQL: its claim's deadline while `started`, the merchant's call's deadline while
 * `placed`, else its payment page's death.
 */
const holdEnds = sql`case ${orders.status} when 'started' then ${orders.claimExpiresAt} when 'placed' then ${orders.confirmBy} else ${orders.paymentExpiresAt} end`;

/** The earliest end of the holds (of those that meet `condition`), read back as a Date; null when there are none. */
const earliest = (condition?: SQL) =>
  sql`min(${holdEnds})${condition ? sql` filter (where ${condition})` : sql``}`.mapWith(
    (value: string | Date): Date | null => (value === null ? null : new Date(value)),
  );

/**
 * Units that unpaid checkouts hold now, per product, and when the earliest of those holds ends.
 * @param ids the products. @param exceptOrder an order whose own lines are not counted.
 */
export async function heldStock(
  db: DbOrTx,
  ids: readonly number[],
  { now = new Date(), exceptOrder }: { now?: Date; exceptOrder?: string } = {},
): Promise<Map<number, Held>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({
      productId: orderLines.productId,
      units: sql<number>`sum(${orderLines.quantity})::int`,
      freeAt: earliest(),
    })
    .from(orderLines)
    .innerJoin(orders, eq(orders.id, orderLines.orderId))
    .where(
      and(
        exceptOrder ? and(holding(now), sql`${orders.id} <> ${exceptOrder}`) : holding(now),
        inArray(orderLines.productId, [...ids]),
      ),
    )
    .groupBy(orderLines.productId);
  return new Map(rows.map((row) => [row.productId!, { units: row.units, freeAt: row.freeAt! }]));
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

/** The budget of held units of one client address: its key, and the most units its open checkouts may hold. */
export interface HoldBudget {
  clientAddress: string;
  max: number;
}

/** What the checkout's check found: the lines the stock cannot cover, or that the address would hold too much. */
export type HoldCheck =
  | { kind: "ok" }
  | { kind: "short"; lines: Shortfall[] }
  | { kind: "over_budget"; held: number; freeAt: Date | undefined };

/**
 * The checkout's check, in the claim's transaction (which holds the address's lock): whether the stock can cover
 * `lines` now, and whether the address's open checkouts would then hold more than `budget.max` units of counted stock
 * (products whose stock is not counted cost nothing: nobody else can run short of them). When both pass, the claim
 * inserts the order and its lines, and they hold the units from its commit on; when not, nothing is held. The units
 * held — per product, and by the address — are one statement.
 */
export async function holdStock(
  tx: Tx,
  lines: readonly StockLine[],
  budget: HoldBudget,
  now = new Date(),
): Promise<HoldCheck> {
  const ids = [...new Set(lines.map((line) => line.productId))].sort((a, b) => a - b);
  const onHand = await lockProducts(tx, ids);
  const counted = (id: number) => onHand.get(id) !== null && onHand.get(id) !== undefined;
  const mine = eq(orders.clientAddress, budget.clientAddress);
  const rows = await tx
    .select({
      productId: orderLines.productId,
      units: sql<number>`sum(${orderLines.quantity})::int`,
      freeAt: earliest(),
      mine: sql<number>`coalesce(sum(${orderLines.quantity}) filter (where ${mine}), 0)::int`,
      mineFreeAt: earliest(mine),
    })
    .from(orderLines)
    .innerJoin(orders, eq(orders.id, orderLines.orderId))
    .innerJoin(products, eq(products.id, orderLines.productId))
    .where(and(holding(now), isNotNull(products.stock), or(inArray(orderLines.productId, ids), mine)))
    .groupBy(orderLines.productId);
  const held = new Map(rows.map((row) => [row.productId!, row]));

  const short = lines.flatMap((line): Shortfall[] => {
    const stock = onHand.get(line.productId);
    if (stock === null || stock === undefined) return [];
    const hold = held.get(line.productId);
    const available = Math.max(0, stock - (hold?.units ?? 0));
    if (line.quantity <= available) return [];
    // On hand would cover it: other checkouts' holds are why, and the earliest of them ends at `freeAt`.
    const freeAt = hold?.freeAt && line.quantity <= stock ? { freeAt: hold.freeAt } : {};
    return [{ productId: line.productId, wanted: line.quantity, available, ...freeAt }];
  });
  if (short.length > 0) return { kind: "short", lines: short };

  const heldByAddress = rows.reduce((total, row) => total + row.mine, 0);
  const wanted = lines.reduce((total, line) => total + (counted(line.productId) ? line.quantity : 0), 0);
  if (wanted > 0 && heldByAddress + wanted > budget.max) {
    const ends = rows.flatMap((row) => (row.mineFreeAt ? [row.mineFreeAt.getTime()] : []));
    return {
      kind: "over_budget",
      held: heldByAddress,
      freeAt: ends.length > 0 ? new Date(Math.min(...ends)) : undefined,
    };
  }
  return { kind: "ok" };
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
      return stock !== null && stock !== undefined && quantity > stock - (held.get(productId)?.units ?? 0);
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

/**
 * The sale undone: puts an order's units back on hand (products whose stock is counted), in the caller's transaction —
 * an order the merchant cancelled after its units were sold, or a cash parcel that came back. Exactly once is the
 * caller's part: it calls this only with the order's move away from its sold state, the order's row locked. A product
 * deleted since (its line's product null) has nothing to take back.
 * @returns the units put back on hand (those of products whose stock is counted).
 */
export async function restock(tx: Tx, orderId: string, now = new Date()): Promise<number> {
  const lines = await tx
    .select({ productId: orderLines.productId, quantity: sql<number>`sum(${orderLines.quantity})::int` })
    .from(orderLines)
    .where(and(eq(orderLines.orderId, orderId), isNotNull(orderLines.productId)))
    .groupBy(orderLines.productId);
  return putBack(tx, lines as StockLine[], now);
}

/**
 * Puts `lines`' units back on hand (products whose stock is counted), in the caller's transaction: goods that came back
 * (lib/refunds/returns.ts), whose return row makes it once.
 * @returns the units put back on hand.
 */
export async function putBack(tx: Tx, lines: readonly StockLine[], now = new Date()): Promise<number> {
  const units = new Map<number, number>();
  for (const { productId, quantity } of lines) units.set(productId, (units.get(productId) ?? 0) + quantity);
  let restocked = 0;
  // In id order, as every lock of products is taken, so two transactions never wait for each other in a circle.
  for (const [productId, quantity] of [...units].sort(([a], [b]) => a - b)) {
    const counted = await tx
      .update(products)
      .set({ stock: sql`${products.stock} + ${quantity}`, updatedAt: now })
      .where(and(eq(products.id, productId), isNotNull(products.stock)))
      .returning({ id: products.id });
    if (counted.length > 0) restocked += quantity;
  }
  return restocked;
}

/** Whether an order's own lines still hold stock at `now`, by its status and clocks (the rule of {@link holding}). */
export function holdsStock(
  order: { status: string; claimExpiresAt: Date; paymentExpiresAt: Date | null; confirmBy?: Date | null },
  now = new Date(),
): boolean {
  if (order.status === "started") return order.claimExpiresAt > now;
  if (order.status === "placed") return !!order.confirmBy && order.confirmBy > now;
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
