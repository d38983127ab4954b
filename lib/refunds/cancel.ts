import "server-only";
import { restock } from "../catalog/stock";
import type { Db } from "../db/client";
import type { CancelReason } from "../db/schema";
import { changeOrder } from "../orders/events";
import { queueAfterSaleEmail } from "../orders/outbox";
import { queueOrderSms } from "../orders/sms-outbox";
import { lockAfterSaleOrder, notAllowed, noted, type NotDone } from "./order";
import { writeRefund } from "./refunds";
import { canCancel, refundLeftMinor } from "./rules";

/** What {@link cancelOrder} did: `done` with the units put back on hand and the refund it opened (null: none). */
export type CancelResult =
  | { result: "done"; restockedUnits: number; refundId: number | null }
  | Extract<NotDone, { result: "already" | "not_allowed" | "not_found" }>;

/**
 * The merchant cancels an order that has not reached its customer (lib/refunds/rules.ts, `canCancel`: online `paid`,
 * or cash `placed`/`confirmed`, its parcel not delivered), for `reason`: final. In one transaction with the order's
 * row locked: status → `cancelled` with `cancelled_at` and `cancel_reason`, and the `order_cancelled` event; sold units
 * (online paid, cash confirmed) back on hand once, a placed cash order's hold simply ends; its promo code's use is
 * given back (a use is an order paid or confirmed: lib/promo-codes/uses.ts); a paid online order opens a pending
 * refund (cause `cancel`) of what is left to refund, to make on the service's dashboard; the customer's e-mail in the
 * order's language when `notify`. The parcel's step, if any, stays as the record of how far it got. A cancel is
 * once: a second one (another tab, another instance) answers `already`.
 * @param note trimmed by the caller; empty: none.
 * @throws the database's error when it cannot write.
 */
export function cancelOrder(
  db: Db,
  id: string,
  {
    reason,
    note,
    by,
    notify,
    now = new Date(),
  }: { reason: CancelReason; note?: string; by: string; notify: boolean; now?: Date },
): Promise<CancelResult> {
  return db.transaction(async (tx) => {
    const order = await lockAfterSaleOrder(tx, id);
    if (!order) return { result: "not_found" };
    if (order.cancelledAt) return { result: "already" };
    if (!canCancel(order)) return notAllowed(order);
    const sold = order.status === "paid" || order.status === "confirmed";
    const restockedUnits = sold ? await restock(tx, id, now) : 0;
    const leftMinor = order.paymentMethod === "online" ? refundLeftMinor(order) : 0;
    const refund =
      leftMinor > 0
        ? await writeRefund(tx, order, { amountMinor: leftMinor, cause: "cancel", by, notify: false, now })
        : null;
    // The row is locked and checked: the change applies.
    await changeOrder(
      tx,
      id,
      { set: { status: "cancelled", cancelledAt: now, cancelReason: reason } },
      {
        type: "order_cancelled",
        at: now,
        data: {
          by,
          reason,
          ...noted(note),
          from: order.status,
          to: "cancelled",
          restockedUnits,
          ...(refund ? { refundId: refund.refundId, refundMinor: leftMinor } : {}),
        },
      },
    );
    if (notify) await queueAfterSaleEmail(tx, id, { reason: "cancelled" }, now);
    if (notify) await queueOrderSms(tx, id, "cancelled", { now });
    return { result: "done", restockedUnits, refundId: refund?.refundId ?? null };
  });
}
