import type { FulfilmentStep, OrderStatus } from "../db/schema";

/**
 * Where a cash-on-delivery order stands, in the customer's words (their order page and its signed link): its status
 * and its parcel's step read together, since a confirmed order is on its way, handed over or back from a failed
 * delivery long before its cash is recorded.
 * - `waiting_call`: placed, waiting for the merchant's call
 * - `confirmed`: confirmed by phone, being prepared (no step yet, or packed)
 * - `on_its_way`: out for delivery; `ready_for_pickup`: at the counter
 * - `handed_over`: delivered (or picked up), its cash not recorded yet
 * - `delivery_failed`: the courier could not hand it over; it may go out again
 * - `paid`: the cash was collected
 * - `cancelled`: cancelled before it shipped; `returned`: came back to the shop, and cancelled with it
 * - `expired`: nobody confirmed it in time
 */
export type CashStanding =
  | "waiting_call"
  | "confirmed"
  | "on_its_way"
  | "ready_for_pickup"
  | "handed_over"
  | "delivery_failed"
  | "paid"
  | "cancelled"
  | "returned"
  | "expired";

/**
 * Where a cash order stands ({@link CashStanding}) by its status and step. A status a cash order never shows its
 * customer (`started`, or an online payment's) reads as waiting for the call.
 */
export function cashStanding(order: { status: OrderStatus; fulfilment: FulfilmentStep | null }): CashStanding {
  switch (order.status) {
    case "paid":
      return "paid";
    case "expired":
      return "expired";
    case "cancelled":
      return order.fulfilment === "returned" ? "returned" : "cancelled";
    case "confirmed":
      switch (order.fulfilment) {
        case "out_for_delivery":
          return "on_its_way";
        case "ready_for_pickup":
          return "ready_for_pickup";
        case "delivered":
        case "picked_up":
        case "fulfilled":
          return "handed_over";
        case "delivery_failed":
          return "delivery_failed";
        default:
          return "confirmed";
      }
    default:
      return "waiting_call";
  }
}

/** Whether the customer still has the order's cash to hand over: from placed until the goods reach them. */
export function cashStillToPay(standing: CashStanding): boolean {
  return ["waiting_call", "confirmed", "on_its_way", "ready_for_pickup", "delivery_failed"].includes(standing);
}

/**
 * What the delivery note tells the courier about a cash order's money: `collect` its total (confirmed by phone, not
 * collected yet), `collected` (nothing more to take), `not_confirmed` (placed: not to be sent before the merchant's
 * call), `cancelled` (cancelled, returned or expired: not to be handed over). Only `collect` and `collected` may be
 * handed over.
 */
export function courierCash(status: OrderStatus): "collect" | "collected" | "not_confirmed" | "cancelled" {
  if (status === "confirmed") return "collect";
  if (status === "paid") return "collected";
  if (status === "placed" || status === "started") return "not_confirmed";
  return "cancelled";
}
