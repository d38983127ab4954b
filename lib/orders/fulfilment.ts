import "server-only";
import { and, eq, inArray, isNull } from "drizzle-orm";
import type { Db } from "../db/client";
import {
  orders,
  PARCEL_STEPS,
  type DeliveryMethod,
  type FulfilmentStep,
  type OrderRow,
  type OrderStatus,
  type ParcelStep,
} from "../db/schema";
import { queueOrderEmails } from "./outbox";
import { queueOrderSms } from "./sms-outbox";
import { changeOrder } from "./events";

/**
 * The goods' way, as the merchant records it on the order's page (docs/order-states.md, "Fulfilment"): a delivery is
 * packed, out for delivery, then delivered; a pickup is packed, ready for pickup, then picked up; an order with nothing
 * to deliver (no delivery method: digital goods, or placed before delivery existed) is simply fulfilled. Each step is
 * one conditional update of a paid order (or a cash order the merchant confirmed) that is exactly at the step before,
 * written with its event (and, when the merchant asks, the customer's e-mail) in one transaction: two clicks racing on
 * two server instances make one step.
 */

/**
 * The orders whose goods may move: a paid one, and a cash order the merchant confirmed (its cash is collected at the
 * door, after delivery: lib/cash/). Collecting it (→ paid) leaves its step as it is.
 */
const FULFILLED_STATUSES = ["paid", "confirmed"] as const satisfies readonly OrderStatus[];

/** Whether an order in `status` may take the steps of its way ({@link FULFILLED_STATUSES}). */
export function mayBeFulfilled(status: OrderStatus): boolean {
  return (FULFILLED_STATUSES as readonly OrderStatus[]).includes(status);
}

/** The steps of each way, in order; `none` is an order without a delivery method. */
const FULFILMENT_WAYS = {
  delivery: ["packed", "out_for_delivery", "delivered"],
  pickup: ["packed", "ready_for_pickup", "picked_up"],
  none: ["fulfilled"],
} as const satisfies Record<DeliveryMethod | "none", readonly FulfilmentStep[]>;

/** The steps of an order with `method` (null: nothing to deliver), in order. */
export function fulfilmentSteps(method: DeliveryMethod | null): readonly FulfilmentStep[] {
  return FULFILMENT_WAYS[method ?? "none"];
}

/**
 * The step an order takes next: the first of its way when it has none yet, the one after its current step, or `null`
 * when it is at its last (or at a step that is not of its way, which the database's rules never let happen).
 */
export function nextFulfilmentStep(order: Pick<OrderRow, "deliveryMethod" | "fulfilment">): FulfilmentStep | null {
  const steps = fulfilmentSteps(order.deliveryMethod);
  const index = order.fulfilment === null ? -1 : steps.indexOf(order.fulfilment);
  if (order.fulfilment !== null && index < 0) return null;
  return steps[index + 1] ?? null;
}

/** A step's customer e-mail: the steps of a parcel's way each have one; plain `fulfilled` has none. */
function stepEmailsCustomer(step: FulfilmentStep): step is ParcelStep {
  return (PARCEL_STEPS as readonly string[]).includes(step);
}

/**
 * What {@link recordFulfilmentStep} did: `done` (the step and its event written, and `emailed` when the customer's
 * e-mail was queued with it), or why not: `not_found`, `not_paid` (only a confirmed payment, or a confirmed cash
 * order, is sent), `already` (the order is at this step or past it), `skipped` (the step before it is not done yet),
 * `wrong_way` (not a step of this order's way: pickup's steps on a delivery, a parcel's steps on an order with nothing
 * to deliver, or the reverse).
 */
export type FulfilmentResult =
  { result: "done"; emailed: boolean } | { result: "not_found" | "not_paid" | "already" | "skipped" | "wrong_way" };

/**
 * Records that a paid order (or a confirmed cash order) took `step`, once, as admin `by`; the last step of its way
 * also sets `fulfilledAt`. With `notify` (the merchant's choice, per step), the customer's e-mail for the step is
 * queued in the same transaction (lib/orders/outbox.ts, reason = the step: one per order and step, however often
 * asked); the caller sends it after its response. An order without an e-mail address, or e-mail switched off, is
 * moved without one.
 * @param now the step's time (tests pass one). @returns what happened ({@link FulfilmentResult}).
 * @throws the database's error when it cannot write.
 */
export async function recordFulfilmentStep(
  db: Db,
  id: string,
  step: FulfilmentStep,
  { by, notify, now = new Date() }: { by: string; notify: boolean; now?: Date },
): Promise<FulfilmentResult> {
  const ways = (Object.keys(FULFILMENT_WAYS) as (keyof typeof FULFILMENT_WAYS)[]).filter((way) =>
    (FULFILMENT_WAYS[way] as readonly FulfilmentStep[]).includes(step),
  );
  // The step before, in the ways that have this step (`packed` begins both a delivery's and a pickup's, so the step
  // before is the same in each).
  const steps: readonly FulfilmentStep[] = FULFILMENT_WAYS[ways[0]!];
  const previous = steps[steps.indexOf(step) - 1] ?? null;
  const methods = ways.filter((way) => way !== "none");
  const last = ways.some((way) => FULFILMENT_WAYS[way].at(-1) === step);
  const done = await db.transaction(async (tx) => {
    const changed = await changeOrder(
      tx,
      id,
      {
        set: { fulfilment: step, ...(last ? { fulfilledAt: now } : {}) },
        where: and(
          inArray(orders.status, FULFILLED_STATUSES),
          methods.length === 0 ? isNull(orders.deliveryMethod) : inArray(orders.deliveryMethod, methods),
          previous === null ? isNull(orders.fulfilment) : eq(orders.fulfilment, previous),
        ),
      },
      { type: step, at: now, data: { by, ...(stepEmailsCustomer(step) ? { notify } : {}) } },
    );
    if (!changed) return null;
    const queued = notify && stepEmailsCustomer(step) ? await queueOrderEmails(tx, id, step, now) : [];
    if (notify && stepEmailsCustomer(step)) await queueOrderSms(tx, id, step, { now });
    return { emailed: queued.length > 0 };
  });
  if (done) return { result: "done", ...done };

  // Nothing changed: say why, from the order as it is now.
  const [order] = await db
    .select({ status: orders.status, deliveryMethod: orders.deliveryMethod, fulfilment: orders.fulfilment })
    .from(orders)
    .where(eq(orders.id, id));
  if (!order) return { result: "not_found" };
  if (!mayBeFulfilled(order.status)) return { result: "not_paid" };
  const way = fulfilmentSteps(order.deliveryMethod);
  const wanted = way.indexOf(step);
  if (wanted < 0) return { result: "wrong_way" };
  const current = order.fulfilment === null ? -1 : way.indexOf(order.fulfilment);
  return { result: current >= wanted ? "already" : "skipped" };
}
