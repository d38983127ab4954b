import "server-only";
import { restock, sellStock, soldBelowZero } from "../catalog/stock";
import type { Db, Tx } from "../db/client";
import type { DeliveryFailure, FulfilmentStep, OrderRow, OrderStatus } from "../db/schema";
import { changeOrder, lockOrder, type OrderChange, type OrderEvent } from "../orders/events";
import { raiseFlags } from "../orders/flags";
import { queueOrderSms } from "../orders/sms-outbox";

/**
 * A cash order's moves, as the merchant makes them on the order's page (docs/order-states.md, "Cash on delivery"):
 *
 * | move              | from                                                   | to                                | stock             |
 * |-------------------|--------------------------------------------------------|-----------------------------------|-------------------|
 * | `confirm`         | placed, before `confirm_by`                            | confirmed                         | sold              |
 * | `delivery_failed` | confirmed, out for delivery                            | parcel: delivery_failed           | —                 |
 * | `out_again`       | confirmed, delivery failed                             | parcel: out_for_delivery          | —                 |
 * | `returned`        | confirmed, out for delivery or delivery failed         | cancelled, parcel: returned       | back              |
 * | `collect`         | confirmed, delivered or picked up                      | paid (the amount, who; `paid_at`) | —                 |
 *
 * Cancelling a cash order (placed, or confirmed and still in the shop) is every order's one cancel: lib/refunds/cancel.ts.
 * packed → out for delivery → delivered (or packed → ready → picked up) are lib/orders/fulfilment.ts's steps, which
 * take a confirmed cash order as they take a paid one. Each move runs in one transaction that locks the order's row,
 * checks the move applies to the order as it is now, writes the stock, and writes the change with its event
 * (lib/orders/events.ts): two tabs or two server instances make one move, and the stock moves once with it. A
 * `placed` order's units are held, not sold (lib/catalog/stock.ts): cancelled or expired, its hold simply ends.
 */
export const CASH_MOVES = ["confirm", "delivery_failed", "out_again", "returned", "collect"] as const;
export type CashMove = (typeof CASH_MOVES)[number];

/** What a move reads of the order to decide. */
export type CashState = Pick<OrderRow, "paymentMethod" | "status" | "fulfilment" | "confirmBy" | "amountMinor">;

/**
 * What a move did: `done`; `already` (the order has made this move, perhaps in another tab); `not_allowed` (not from
 * where the order stands now, which it says); `too_late` (a confirmation past the order's `confirm_by`: its units are
 * no longer held, and the scheduled job expires it); `not_found`.
 */
export type CashMoveResult =
  | { result: "done" | "already" | "too_late" | "not_found" }
  | { result: "not_allowed"; status: OrderStatus; fulfilment: FulfilmentStep | null };

/** Where each move may start, and when the order has made it already. */
const RULES: Record<CashMove, { from(order: CashState): boolean; made(order: CashState): boolean }> = {
  confirm: {
    from: (order) => order.status === "placed",
    made: (order) => order.status === "confirmed" || order.status === "paid",
  },
  delivery_failed: {
    from: (order) => order.status === "confirmed" && order.fulfilment === "out_for_delivery",
    made: (order) => order.fulfilment === "delivery_failed",
  },
  out_again: {
    from: (order) => order.status === "confirmed" && order.fulfilment === "delivery_failed",
    made: (order) => order.status === "confirmed" && order.fulfilment === "out_for_delivery",
  },
  returned: {
    from: (order) =>
      order.status === "confirmed" &&
      (order.fulfilment === "out_for_delivery" || order.fulfilment === "delivery_failed"),
    made: (order) => order.fulfilment === "returned",
  },
  collect: {
    from: (order) =>
      order.status === "confirmed" && (order.fulfilment === "delivered" || order.fulfilment === "picked_up"),
    made: (order) => order.status === "paid",
  },
};

/**
 * The moves a cash order can make now, in {@link CASH_MOVES}' order (what the order page offers); none for an online
 * order. A placed order past its `confirm_by` can no longer be confirmed, only cancelled.
 */
export function cashMovesNow(order: CashState, now = new Date()): CashMove[] {
  if (order.paymentMethod !== "cash") return [];
  return CASH_MOVES.filter((move) => RULES[move].from(order) && !(move === "confirm" && !beforeDeadline(order, now)));
}

const beforeDeadline = (order: CashState, now: Date) => order.confirmBy !== null && order.confirmBy > now;

/** Who makes a move (the admin's e-mail) and an optional note of theirs (trimmed by the caller; empty: none). */
interface ByWhom {
  by: string;
  note?: string;
  now?: Date;
}

/**
 * Runs one move: locks the order, checks it may make `move` from where it stands, then `write` (the stock, and the
 * change with its event) in the same transaction.
 */
async function makeMove(
  db: Db,
  id: string,
  move: CashMove,
  now: Date,
  write: (tx: Tx, order: CashState) => Promise<{ change: OrderChange; event: OrderEvent }>,
): Promise<CashMoveResult> {
  return db.transaction(async (tx) => {
    const order = await lockOrder(tx, id);
    if (!order) return { result: "not_found" };
    const rule = RULES[move];
    if (order.paymentMethod !== "cash" || !rule.from(order)) {
      if (order.paymentMethod === "cash" && rule.made(order)) return { result: "already" };
      return { result: "not_allowed", status: order.status, fulfilment: order.fulfilment };
    }
    if (move === "confirm" && !beforeDeadline(order, now)) return { result: "too_late" };
    const { change, event } = await write(tx, order);
    // The row is locked and checked: the change applies.
    await changeOrder(tx, id, change, { ...event, at: now });
    // The customer's word that the order is on: the only cash move with a message of its own (a parcel's steps and a
    // cancel send theirs from lib/orders/fulfilment.ts and lib/refunds/).
    if (move === "confirm") await queueOrderSms(tx, id, "cash_confirmed", { now });
    return { result: "done" };
  });
}

/** The note of a move's event, when there is one. */
const noted = (note: string | undefined) => (note ? { note } : {});

/**
 * The merchant reached the customer: placed → confirmed, and the order's units are sold (taken off hand; its hold was
 * alive until now, so the stock covers it — unless something lowered it under the hold, when it is flagged
 * `oversold`, as a paid order is). Refused past `confirm_by` (`too_late`).
 * @throws the database's error when it cannot write.
 */
export function confirmCashOrder(db: Db, id: string, { by, note, now = new Date() }: ByWhom): Promise<CashMoveResult> {
  return makeMove(db, id, "confirm", now, async (tx) => {
    await sellStock(tx, id, true, now);
    const oversold = await soldBelowZero(tx, id);
    return {
      change: { set: { status: "confirmed", ...(oversold ? raiseFlags("oversold") : {}) } },
      event: {
        type: "cash_confirmed",
        data: { by, ...noted(note), from: "placed", to: "confirmed", ...(oversold ? { oversold } : {}) },
      },
    };
  });
}

/**
 * The courier came back without handing the parcel over, for `reason` (refused at the door, unreachable, a wrong
 * address, postponed): out for delivery → delivery failed. It may go out again, or come back to the shop.
 * @throws the database's error when it cannot write.
 */
export function recordDeliveryFailed(
  db: Db,
  id: string,
  { by, note, reason, now = new Date() }: ByWhom & { reason: DeliveryFailure },
): Promise<CashMoveResult> {
  return makeMove(db, id, "delivery_failed", now, async () => ({
    change: { set: { fulfilment: "delivery_failed" } },
    event: { type: "delivery_failed", data: { by, reason, ...noted(note) } },
  }));
}

/**
 * The parcel whose delivery failed goes out again: delivery failed → out for delivery (recorded as that step, `again`).
 * The customer was e-mailed when it first went out (one e-mail per step), so no e-mail.
 * @throws the database's error when it cannot write.
 */
export function sendOutAgain(db: Db, id: string, { by, note, now = new Date() }: ByWhom): Promise<CashMoveResult> {
  return makeMove(db, id, "out_again", now, async () => ({
    change: { set: { fulfilment: "out_for_delivery" } },
    event: { type: "out_for_delivery", data: { by, again: true, ...noted(note) } },
  }));
}

/**
 * The parcel came back to the shop (from out for delivery, or after a failed delivery): its step becomes `returned`,
 * the order is cancelled, and its units come back on hand.
 * @throws the database's error when it cannot write.
 */
export function recordReturned(db: Db, id: string, { by, note, now = new Date() }: ByWhom): Promise<CashMoveResult> {
  return makeMove(db, id, "returned", now, async (tx) => {
    await restock(tx, id, now);
    return {
      change: { set: { status: "cancelled", fulfilment: "returned" } },
      event: { type: "returned", data: { by, ...noted(note), from: "confirmed", to: "cancelled" } },
    };
  });
}

/**
 * The courier (or the counter) handed over the cash: a confirmed order delivered or picked up → paid, once, with the
 * amount collected (integer minor units; the order's total unless the merchant says otherwise), who recorded it, and
 * `paid_at` now: the sales count it from that day. Its parcel's step is not touched. A different amount is kept as
 * said, the event noting the total it was expected to be.
 * @param amountMinor what was collected, ≥ 0 (the caller checks its form). @throws the database's error.
 */
export function collectCash(
  db: Db,
  id: string,
  { by, note, amountMinor, now = new Date() }: ByWhom & { amountMinor: number },
): Promise<CashMoveResult> {
  return makeMove(db, id, "collect", now, async (_tx, { amountMinor: total }) => {
    return {
      change: { set: { status: "paid", collectedMinor: amountMinor, collectedBy: by, paidAt: now } },
      event: {
        type: "cash_collected",
        data: {
          by,
          collectedMinor: amountMinor,
          ...(amountMinor !== total ? { expectedMinor: total } : {}),
          ...noted(note),
          from: "confirmed",
          to: "paid",
        },
      },
    };
  });
}
