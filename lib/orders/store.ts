import "server-only";
import { and, asc, desc, eq, notInArray, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "../db/client";
import { orderLines, orders, refunds, type OrderLineRow, type OrderRow, type OrderStatus } from "../db/schema";
import { ORDER_ID } from "../ids";
import { effectiveStatus } from "../payment-page";

/**
 * An order with its lines as sold, as a page shows it: `status` is its effective status (a pending payment whose
 * page died reads as `expired`; lib/payment-page.ts, `effectiveStatus`), and `pendingRefundMinor` the refunds still
 * to make, summed (lib/refunds/; `refundedMinor` sums those made). Money in integer minor units (1/100 LYD).
 */
export type Order = OrderRow & { lines: OrderLineRow[]; pendingRefundMinor: number };

/**
 * The refunds of the order still to make, summed (minor units), as a field of a select from `orders` (tables named: a
 * column in a field's subquery has none).
 */
export const pendingRefundMinor = sql<number>`coalesce((select sum(refunds.amount_minor) from refunds where refunds.order_id = orders.id and refunds.status = 'pending'), 0)::int`;

/** The refunds of order `id` still to make, summed (minor units). */
export async function pendingRefundOf(db: DbOrTx, id: string): Promise<number> {
  const [row] = await db
    .select({ minor: sql<number>`coalesce(sum(${refunds.amountMinor}), 0)::int` })
    .from(refunds)
    .where(and(eq(refunds.orderId, id), eq(refunds.status, "pending")));
  return row?.minor ?? 0;
}

/**
 * The statuses of an order on the customer's pages: one that never got a payment (`started`, `failed`) is not shown
 * there. Pages index their texts and actions by it, so the compiler lists every place a new status must be handled.
 */
type CustomerStatus = Exclude<OrderStatus, "started" | "failed">;
/** Orders that never got a payment: "not found" on every page a customer reaches. */
export const NEVER_SHOWN = ["started", "failed"] as const satisfies readonly OrderStatus[];

/** An order as the customer's pages show it. */
export type CustomerOrder<T extends OrderRow = Order> = Omit<T, "status"> & { status: CustomerStatus };

/** The status a customer's page shows for an order its query let through (never `started` or `failed`). */
function shownStatus(order: Pick<OrderRow, "status" | "paymentExpiresAt">): CustomerStatus {
  const status = effectiveStatus(order);
  if (status === "started" || status === "failed") throw new Error(`an order ${status} reached a customer's page`);
  return status;
}

/** How long after the customer came back the order page keeps looking for the service's confirmation by itself. */
const CONFIRMATION_WAIT_MS = 60_000;

/**
 * Until when (ms since epoch) the order page should keep refreshing itself: while the payment is reported but not
 * yet confirmed, for a minute after the customer came back. `null` when there is nothing (more) to wait for.
 */
export function awaitingConfirmationUntil(
  order: Pick<OrderRow, "status" | "customerReturnedAt">,
  now = Date.now(),
): number | null {
  if (order.status !== "awaiting_confirmation" || !order.customerReturnedAt) return null;
  const until = order.customerReturnedAt.getTime() + CONFIRMATION_WAIT_MS;
  return now < until ? until : null;
}

/**
 * One order of one browser session, with its lines: what the order page shows. An order of another session, an id
 * that is not an order id, or an order that never got a payment is "not found", never an error. Reads only.
 */
export async function findCustomerOrder(db: Db, id: string, sessionId: string): Promise<CustomerOrder | undefined> {
  if (!ORDER_ID.test(id)) return undefined;
  const where = and(eq(orders.id, id), eq(orders.sessionId, sessionId), notInArray(orders.status, [...NEVER_SHOWN]));
  const order = await db.query.orders.findFirst({ where });
  if (!order) return undefined;
  const [lines, pending] = await Promise.all([
    db.select().from(orderLines).where(eq(orderLines.orderId, id)).orderBy(asc(orderLines.position)),
    pendingRefundOf(db, id),
  ]);
  return { ...order, status: shownStatus(order), lines, pendingRefundMinor: pending };
}

/**
 * What the page opened by an order's signed link shows (lib/orders/order-link.ts): its status, lines and total, the
 * delivery method and city, where its goods are, how it is paid for (a cash order's fee and the deadline of the
 * merchant's call), the promo code it was priced with and what it took off, and — after the sale — when the merchant
 * cancelled it and what was refunded or is still to refund. Nothing that names or reaches the customer (name, phone,
 * e-mail, street address, landmark), nor the payment page's address: a link may be forwarded.
 */
export type LinkedOrder = Pick<
  CustomerOrder,
  "id" | "status" | "amountMinor" | "customerReturnedAt" | OrderTerms | "pendingRefundMinor"
> & { lines: Pick<OrderLineRow, "name" | "unitMinor" | "quantity">[] };

/**
 * The columns that say an order's terms beyond its lines, wherever the customer is shown them (the page of its signed
 * link, its e-mails: lib/email/render.ts): how its goods travel (not the address) and the step they are at, how it is
 * paid and priced, and what the merchant did after the sale.
 */
export type OrderTerms =
  | "deliveryMethod"
  | "deliveryCityEn"
  | "deliveryCityAr"
  | "deliveryFeeMinor"
  | "fulfilment"
  | "paymentMethod"
  | "cashFeeMinor"
  | "confirmBy"
  | "promoCode"
  | "discountMinor"
  | "cancelledAt"
  | "refundedMinor";

/**
 * One order by its id alone, with its lines, as the page opened by its signed link shows it: only the columns of
 * {@link LinkedOrder} are read. Call it only once the link's signature is verified. An id that is not an order id, or
 * an order that never got a payment, is "not found". Reads only.
 */
export async function findLinkedOrder(db: Db, id: string): Promise<LinkedOrder | undefined> {
  if (!ORDER_ID.test(id)) return undefined;
  const [order] = await db
    .select({
      id: orders.id,
      status: orders.status,
      paymentExpiresAt: orders.paymentExpiresAt,
      amountMinor: orders.amountMinor,
      customerReturnedAt: orders.customerReturnedAt,
      deliveryMethod: orders.deliveryMethod,
      deliveryCityEn: orders.deliveryCityEn,
      deliveryCityAr: orders.deliveryCityAr,
      deliveryFeeMinor: orders.deliveryFeeMinor,
      fulfilment: orders.fulfilment,
      paymentMethod: orders.paymentMethod,
      cashFeeMinor: orders.cashFeeMinor,
      confirmBy: orders.confirmBy,
      promoCode: orders.promoCode,
      discountMinor: orders.discountMinor,
      cancelledAt: orders.cancelledAt,
      refundedMinor: orders.refundedMinor,
      pendingRefundMinor,
    })
    .from(orders)
    .where(and(eq(orders.id, id), notInArray(orders.status, [...NEVER_SHOWN])));
  if (!order) return undefined;
  const lines = await db
    .select({ name: orderLines.name, unitMinor: orderLines.unitMinor, quantity: orderLines.quantity })
    .from(orderLines)
    .where(eq(orderLines.orderId, id))
    .orderBy(asc(orderLines.position));
  const { paymentExpiresAt, ...shown } = order;
  return { ...shown, status: shownStatus({ status: order.status, paymentExpiresAt }), lines };
}

/** The orders one browser session placed that got a payment, newest first ("your orders"), each as it reads now. */
export async function listCustomerOrders(db: Db, sessionId: string, limit = 50): Promise<CustomerOrder<OrderRow>[]> {
  const rows = await db
    .select()
    .from(orders)
    .where(and(eq(orders.sessionId, sessionId), notInArray(orders.status, [...NEVER_SHOWN])))
    .orderBy(desc(orders.createdAt))
    .limit(limit);
  return rows.map((order) => ({ ...order, status: shownStatus(order) }));
}
