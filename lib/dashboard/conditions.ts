import "server-only";
import { and, eq, gte, isNotNull, isNull, lt, or, sql, type SQL } from "drizzle-orm";
import { orders, type PaymentMethodName } from "../db/schema";
import { CONFIRMATION_GRACE_MS } from "../orders/settle";
import type { DayRange } from "../time";

/**
 * The conditions on `orders` behind the dashboard's numbers, in one home: the dashboard counts with them and the orders
 * list (lib/admin/orders.ts) filters with them, so that a number and the list it links to always agree.
 */

/**
 * Orders paid within the days of `range` (by `paid_at`: when they became paid), on the index `orders_paid_at`: a sale,
 * whatever happened after — an order the merchant cancelled once paid was a sale, and its refund is a refund
 * (lib/refunds/).
 */
export function paidWithin(range: Pick<DayRange, "start" | "end">): SQL {
  return and(gte(orders.paidAt, range.start), lt(orders.paidAt, range.end))!;
}

/**
 * Orders that received money: paid (online, or cash collected), or paid once and cancelled by the merchant since
 * (their `paid_at` stays).
 */
export function moneyReceived(): SQL {
  return or(eq(orders.status, "paid"), isNotNull(orders.paidAt))!;
}

/**
 * The money an order received, in SQL: lib/refunds/rules.ts's `receivedMinor` (an online order's amount once paid, a
 * cash order's collected cash), as the database's check `orders_refunded_range` bounds the refunds by it.
 */
const received = sql`case when ${orders.paymentMethod} = 'cash' then coalesce(${orders.collectedMinor}, 0) when ${orders.paidAt} is not null then ${orders.amountMinor} else 0 end`;

/** Orders with a refund still to make (a pending refund: the home's "refunds to make"). */
function refundDue(): SQL {
  return sql`exists (select 1 from refunds where refunds.order_id = ${orders.id} and refunds.status = 'pending')`;
}

/**
 * Where an order stands with its refunds, as the orders list filters it: lib/refunds/rules.ts's `refundStanding` —
 * `refunded` (all it received), `partly_refunded` (some, nothing still to make), `refund_due` (a refund to make) — and
 * `returned` (goods came back after delivery).
 */
export const REFUND_FILTERS = ["refund_due", "partly_refunded", "refunded", "returned"] as const;
export type RefundFilter = (typeof REFUND_FILTERS)[number];

/** Orders in `filter` ({@link REFUND_FILTERS}). */
export function refundsIn(filter: RefundFilter): SQL {
  const refunded = and(sql`${orders.refundedMinor} > 0`, sql`${orders.refundedMinor} >= ${received}`)!;
  return {
    refund_due: refundDue(),
    partly_refunded: and(
      sql`${orders.refundedMinor} > 0`,
      sql`${orders.refundedMinor} < ${received}`,
      sql`not ${refundDue()}`,
    )!,
    refunded,
    returned: sql`exists (select 1 from returns where returns.order_id = ${orders.id})`,
  }[filter];
}

/** Orders whose checkout started within the days of `range` (by `created_at`). */
export function startedWithin(range: Pick<DayRange, "start" | "end">): SQL {
  return and(gte(orders.createdAt, range.start), lt(orders.createdAt, range.end))!;
}

/**
 * Orders whose goods have not reached the customer yet (no last step: `fulfilled_at` is null) and may go: paid ones,
 * and cash orders the merchant confirmed by phone (their cash is collected at the door, after the goods move).
 */
export function toFulfil(): SQL {
  return and(or(eq(orders.status, "paid"), eq(orders.status, "confirmed")), isNull(orders.fulfilledAt))!;
}

/** Orders paid for, or to be paid for, one way (`orders.payment_method`: online, or cash on delivery). */
export function paidBy(way: PaymentMethodName): SQL {
  return eq(orders.paymentMethod, way);
}

/**
 * Where a cash order stands, as the orders list filters it (`cash=`) and the home counts it:
 * - `to_confirm`: placed, waiting for the merchant's call (its units held until `confirm_by`)
 * - `confirmed`: the merchant reached the customer, and the cash is not collected yet (on its way, delivered, or back
 *   from a failed delivery): the home's "cash to collect"
 * - `collected`: the courier handed the cash over (the order is `paid`)
 * - `delivery_failed`: out for delivery and not handed over, waiting to go out again
 * - `cancelled`: cancelled before it shipped, or returned to the shop (`fulfilment = 'returned'`)
 */
export const CASH_STATES = ["to_confirm", "confirmed", "collected", "delivery_failed", "cancelled"] as const;
export type CashState = (typeof CASH_STATES)[number];

/** Cash orders in `state` ({@link CASH_STATES}). */
export function cashIn(state: CashState): SQL {
  const where = {
    to_confirm: eq(orders.status, "placed"),
    confirmed: eq(orders.status, "confirmed"),
    collected: eq(orders.status, "paid"),
    delivery_failed: and(eq(orders.status, "confirmed"), eq(orders.fulfilment, "delivery_failed")),
    cancelled: eq(orders.status, "cancelled"),
  }[state];
  return and(paidBy("cash"), where)!;
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

/**
 * Orders with a text message the outbox gave up on (`failed`) or the network could not deliver (`undelivered`, by its
 * delivery report): lib/sms/delivery.ts.
 */
export function smsFailed(): SQL {
  return sql`exists (select 1 from sms_outbox where sms_outbox.order_id = ${orders.id} and sms_outbox.status in ('failed', 'undelivered'))`;
}

/** Orders whose payment was created: the customer reached the payment page. */
export function paymentCreated(): SQL {
  return isNotNull(orders.paymentToken);
}

/**
 * Orders paid online by the gateway the service says was used (`paid_gateway`); {@link UNKNOWN_GATEWAY} for those it
 * never named (a mark as paid, or a delivery without one). Cash orders never name one, and are never among them.
 */
export function paidWithGateway(gateway: string): SQL {
  return and(
    paidBy("online"),
    gateway === UNKNOWN_GATEWAY ? isNull(orders.paidGateway) : eq(orders.paidGateway, gateway),
  )!;
}

/**
 * The orders list's `gateway=` for paid orders with no gateway named: `-`, which no alias can be (an alias starts with a
 * letter or digit: lib/gateways.ts).
 */
export const UNKNOWN_GATEWAY = "-";
