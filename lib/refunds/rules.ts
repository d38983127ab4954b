import type { FulfilmentStep, OrderRow, OrderStatus, RefundRow } from "../db/schema";

/**
 * What an order can do after its sale, as pure functions of the order as stored: the one home of these rules. The
 * order page asks {@link afterSaleNow} what to offer; lists and the customer's page ask {@link refundStanding}; the
 * moves (cancel.ts, refunds.ts, returns.ts) check the same functions with the order's row locked.
 */

/** What the rules read of an order. */
export type AfterSaleOrder = Pick<
  OrderRow,
  | "paymentMethod"
  | "status"
  | "fulfilment"
  | "paidAt"
  | "amountMinor"
  | "collectedMinor"
  | "cancelledAt"
  | "refundedMinor"
> & {
  /** The order's refunds still to make (`refunds.status = 'pending'`), summed, minor units. */
  pendingRefundMinor: number;
};

/**
 * The money an order received, minor units: an online order's amount once paid (`paid_at`), a cash order's collected
 * cash; 0 otherwise. Its refunds, pending and refunded together, never sum above it.
 */
export function receivedMinor(order: Pick<OrderRow, "paymentMethod" | "paidAt" | "amountMinor" | "collectedMinor">) {
  if (order.paymentMethod === "cash") return order.collectedMinor ?? 0;
  return order.paidAt ? order.amountMinor : 0;
}

/** What is left to refund, minor units: received − every refund so far (pending or refunded); never below 0. */
export function refundLeftMinor(order: AfterSaleOrder): number {
  return Math.max(0, receivedMinor(order) - order.refundedMinor - order.pendingRefundMinor);
}

/** The pending refunds of a list of an order's refunds, summed (for {@link AfterSaleOrder}'s `pendingRefundMinor`). */
export function pendingRefundMinor(refunds: readonly Pick<RefundRow, "status" | "amountMinor">[]): number {
  return refunds.reduce((sum, refund) => sum + (refund.status === "pending" ? refund.amountMinor : 0), 0);
}

/**
 * Parcel steps from which an order may still be cancelled: its goods have not reached the customer. A cash parcel
 * that left the shop is not cancelled but comes back (lib/cash/moves.ts, `returned`, which puts its units back when
 * they are back); an online order has no such move, so it may be cancelled while out for delivery too — its parcel is
 * on its way back.
 */
const CANCELLABLE_AT: Record<AfterSaleOrder["paymentMethod"], readonly (FulfilmentStep | null)[]> = {
  online: [null, "packed", "ready_for_pickup", "out_for_delivery"],
  cash: [null, "packed", "ready_for_pickup"],
};

/** The statuses from which the merchant may cancel: an online order paid, a cash order placed or confirmed. */
const CANCELLABLE: Record<AfterSaleOrder["paymentMethod"], readonly OrderStatus[]> = {
  online: ["paid"],
  cash: ["placed", "confirmed"],
};

/**
 * Whether the merchant may cancel the order now: online `paid` or cash `placed`/`confirmed`, its goods not delivered
 * (see {@link CANCELLABLE_AT}), and not cancelled by the merchant already.
 */
export function canCancel(order: Pick<AfterSaleOrder, "paymentMethod" | "status" | "fulfilment" | "cancelledAt">) {
  if (order.cancelledAt) return false;
  return (
    CANCELLABLE[order.paymentMethod].includes(order.status) &&
    CANCELLABLE_AT[order.paymentMethod].includes(order.fulfilment)
  );
}

/** Whether goods may come back now: a paid order (online, or cash collected) delivered or picked up. */
export function canReturn(order: Pick<AfterSaleOrder, "status" | "fulfilment">) {
  return order.status === "paid" && (order.fulfilment === "delivered" || order.fulfilment === "picked_up");
}

/** What the order page offers now (see {@link afterSaleNow}). */
export interface AfterSaleNow {
  cancel: boolean;
  /** A refund may be opened, for at most `leftMinor`; null when nothing is left to refund (or nothing was received). */
  refund: { leftMinor: number } | null;
  return: boolean;
}

/**
 * What the merchant may do to the order now: cancel it ({@link canCancel}), open a refund (money received and some
 * left to refund), record a return ({@link canReturn}).
 */
export function afterSaleNow(order: AfterSaleOrder): AfterSaleNow {
  const leftMinor = refundLeftMinor(order);
  return { cancel: canCancel(order), refund: leftMinor > 0 ? { leftMinor } : null, return: canReturn(order) };
}

/**
 * Where an order stands with its refunds, for lists, badges and the customer's page:
 * - `refunded`: everything it received was refunded (recorded)
 * - `pending`: a refund is still to make (on its way to the customer)
 * - `partly_refunded`: some of it was refunded, nothing is pending
 * - `none`: no refund
 */
export type RefundStanding = "none" | "pending" | "partly_refunded" | "refunded";

/** The order's {@link RefundStanding}. */
export function refundStanding(
  order: Pick<AfterSaleOrder, "paymentMethod" | "paidAt" | "amountMinor" | "collectedMinor" | "refundedMinor"> & {
    pendingRefundMinor: number;
  },
): RefundStanding {
  const received = receivedMinor(order);
  if (received > 0 && order.refundedMinor >= received) return "refunded";
  if (order.pendingRefundMinor > 0) return "pending";
  return order.refundedMinor > 0 ? "partly_refunded" : "none";
}
