import "server-only";
import { and, eq, gte, isNotNull, isNull, lt, sql, type SQL } from "drizzle-orm";
import { orders } from "../db/schema";
import { CONFIRMATION_GRACE_MS } from "../orders/settle";
import type { DayRange } from "../time";

/**
 * The conditions on `orders` behind the dashboard's numbers, in one home: the dashboard counts with them and the orders
 * list (lib/admin/orders.ts) filters with them, so that a number and the list it links to always agree.
 */

/** Orders paid within the days of `range` (by `paid_at`: when they became paid), on the index `orders_paid_at`. */
export function paidWithin(range: Pick<DayRange, "start" | "end">): SQL {
  return and(eq(orders.status, "paid"), gte(orders.paidAt, range.start), lt(orders.paidAt, range.end))!;
}

/** Orders whose checkout started within the days of `range` (by `created_at`). */
export function startedWithin(range: Pick<DayRange, "start" | "end">): SQL {
  return and(gte(orders.createdAt, range.start), lt(orders.createdAt, range.end))!;
}

/** Paid orders whose goods have not reached the customer yet (no last step: `fulfilled_at` is null). */
export function toFulfil(): SQL {
  return and(eq(orders.status, "paid"), isNull(orders.fulfilledAt))!;
}

/**
 * Orders the customer reported paid that are still unconfirmed past the grace period (lib/orders/settle.ts,
 * `CONFIRMATION_GRACE_MS`), whether or not the scheduled job has flagged them yet (it may run once a day).
 */
export function confirmationOverdue(now: Date): SQL {
  return and(
    eq(orders.status, "awaiting_confirmation"),
    lt(orders.customerReturnedAt, new Date(now.getTime() - CONFIRMATION_GRACE_MS)),
  )!;
}

/** Orders with an e-mail the outbox gave up on (`email_outbox.status` = `failed`; index `email_outbox_failed`). */
export function emailFailed(): SQL {
  return sql`exists (select 1 from email_outbox where email_outbox.order_id = ${orders.id} and email_outbox.status = 'failed')`;
}

/** Orders whose payment was created: the customer reached the payment page. */
export function paymentCreated(): SQL {
  return isNotNull(orders.paymentToken);
}

/**
 * Paid orders by the gateway the service says was used (`paid_gateway`); {@link UNKNOWN_GATEWAY} for those it never
 * named (a mark as paid, or a delivery without one).
 */
export function paidWithGateway(gateway: string): SQL {
  return gateway === UNKNOWN_GATEWAY ? isNull(orders.paidGateway) : eq(orders.paidGateway, gateway);
}

/**
 * The orders list's `gateway=` for paid orders with no gateway named: `-`, which no alias can be (an alias starts with a
 * letter or digit: lib/gateways.ts).
 */
export const UNKNOWN_GATEWAY = "-";
