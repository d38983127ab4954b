import { and, eq, lte, not, or, sql, type SQL } from "drizzle-orm";
import { orders, type OrderRow, type OrderStatus } from "./db/schema";

/**
 * How long a payment's page works: until the access token that created it dies, at the lifetime the service gave it
 * (docs/payment-service.md, "The payment page and its lifetime"). The order keeps that moment as `paymentExpiresAt`
 * (lib/checkout/place-order.ts records it with the payment). This module is the one home of the rule — in TypeScript for
 * pages and in SQL for lists, the stock held and the expiry job — and of the status a page shows because of it.
 */

/** Whether an order's payment page is alive at `now` (ms): it was created, and its access token has not died. */
export function isPaymentPageAlive(order: Pick<OrderRow, "paymentExpiresAt">, now = Date.now()): boolean {
  return order.paymentExpiresAt !== null && now < order.paymentExpiresAt.getTime();
}

/** Whether a pending order's payment page still works (at `now`, ms), so the customer can go back to it. */
export function isPaymentPageOpen(order: Pick<OrderRow, "status" | "paymentExpiresAt">, now = Date.now()): boolean {
  return order.status === "pending" && isPaymentPageAlive(order, now);
}

/** {@link isPaymentPageAlive} in SQL, negated: whether an order's payment page is dead at `now` (or never lived). */
export function paymentPageDead(now: Date): SQL {
  return sql`coalesce(${lte(orders.paymentExpiresAt, now)}, true)`;
}

/**
 * The status a page shows: a pending payment whose page died reads as `expired` before the scheduled job has written
 * it. Pages read, events write: computing this never touches the database.
 */
export function effectiveStatus(order: Pick<OrderRow, "status" | "paymentExpiresAt">, now = Date.now()): OrderStatus {
  return order.status === "pending" && !isPaymentPageOpen(order, now) ? "expired" : order.status;
}

/** {@link effectiveStatus} as an SQL condition, for lists and filters: orders that read as `status` at `now`. */
export function effectiveStatusIs(status: OrderStatus, now = new Date()): SQL {
  if (status === "expired") {
    return or(eq(orders.status, "expired"), and(eq(orders.status, "pending"), paymentPageDead(now)))!;
  }
  if (status === "pending") return and(eq(orders.status, "pending"), not(paymentPageDead(now)))!;
  return eq(orders.status, status);
}
