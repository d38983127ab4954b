import { asc, eq } from "drizzle-orm";
import { Pool } from "pg";
import { describe, expect, it } from "vitest";
import { createDb, type Db } from "../db/client";
import { orderEvents, orderLines, orders, products, type CancelReason, type DeliveryMethod } from "../db/schema";
import { expireDueOrders } from "../orders/expiry";
import { recordFulfilmentStep } from "../orders/fulfilment";
import { settle } from "../orders/settle";
import { cancelOrder } from "../refunds/cancel";
import { canCancel } from "../refunds/rules";
import { createTestProduct } from "../../testing/catalogue";
import { setUpTestDatabase } from "../../testing/db";
import { storeOrder } from "../../testing/orders";
import {
  cashMovesNow,
  collectCash,
  confirmCashOrder,
  recordDeliveryFailed,
  recordReturned,
  sendOutAgain,
  type CashMoveResult,
} from "./moves";

/**
 * A cash order's path, as the merchant walks it: each move once however often (and wherever) it is clicked, and the
 * stock sold when the order is confirmed, back exactly once when a confirmed order is cancelled or comes back.
 */

const t = setUpTestDatabase();
const ADMIN = "owner@medina.example";
const by = { by: ADMIN };

/**
 * The merchant cancels a cash order the one way every order is cancelled (lib/refunds/cancel.ts), without e-mailing:
 * its result as a move's, for the races and comparisons here.
 */
async function cancelCash(db: Db, id: string, options: { by: string; reason: CancelReason; note?: string }) {
  const { result, ...rest } = await cancelOrder(db, id, { ...options, notify: false });
  return result === "done" ? { result } : { result, ...rest };
}

/** A cash order of 2 units of a product with 5 on hand (a delivery unless said), `placed` unless said. */
async function cashOrder({
  method = "delivery",
  status = "placed",
  confirmBy = new Date(Date.now() + 48 * 3_600_000),
}: { method?: DeliveryMethod; status?: "placed" | "confirmed"; confirmBy?: Date } = {}) {
  const productId = await createTestProduct(t.db, { stock: 5 });
  const where =
    method === "delivery"
      ? {
          deliveryMethod: "delivery" as const,
          deliveryZoneId: Number(
            (await t.pool.query("select id from delivery_zones where name_en = 'Benghazi'")).rows[0].id,
          ),
          deliveryCityEn: "Benghazi",
          deliveryCityAr: "بنغازي",
          deliveryAddress: "Al-Fuwayhat, Gamal Abdel Nasser St.",
        }
      : { deliveryMethod: "pickup" as const };
  const { id } = await storeOrder(t.db, {
    paymentMethod: "cash",
    status,
    confirmBy,
    phone: "0912345678",
    amountMinor: 7750,
    ...where,
  });
  await t.db
    .insert(orderLines)
    .values({ orderId: id, position: 0, productId, productSlug: "lamp", name: "Lamp", unitMinor: 3500, quantity: 2 });
  return { id, productId };
}

const orderOf = async (id: string) => (await t.db.query.orders.findFirst({ where: eq(orders.id, id) }))!;
const stockOf = async (productId: number) =>
  (await t.db.query.products.findFirst({ where: eq(products.id, productId) }))!.stock;
const eventsOf = async (id: string) =>
  (await t.db.select().from(orderEvents).where(eq(orderEvents.orderId, id)).orderBy(asc(orderEvents.id))).map(
    ({ type, data }) => [type, data],
  );
const step = (
  db: Db,
  id: string,
  name: "packed" | "out_for_delivery" | "delivered" | "ready_for_pickup" | "picked_up",
) => recordFulfilmentStep(db, id, name, { by: ADMIN, notify: false });

/** Runs `move` on two server instances (two pools) at once: the results, sorted. */
async function race(move: (db: Db) => Promise<CashMoveResult | { result: string }>): Promise<string[]> {
  const second = new Pool({ connectionString: t.url, max: 2 });
  try {
    const results = await Promise.all([move(t.db), move(createDb(second))]);
    return results.map(({ result }) => result).sort();
  } finally {
    await second.end();
  }
}

describe("a delivered cash order", () => {
  it("goes confirmed → packed → out → failed → out again → delivered → collected, each once over two instances", async () => {
    const { id, productId } = await cashOrder();
    expect(cashMovesNow(await orderOf(id))).toEqual(["confirm"]);

    expect(await race((db) => confirmCashOrder(db, id, { ...by, note: "Reached her at 14:00" }))).toEqual([
      "already",
      "done",
    ]);
    // Sold on confirmation: 5 on hand, 2 taken, once.
    expect(await stockOf(productId)).toBe(3);
    expect(await orderOf(id)).toMatchObject({ status: "confirmed", fulfilment: null });
    expect(cashMovesNow(await orderOf(id))).toEqual([]);
    expect(canCancel(await orderOf(id))).toBe(true);

    for (const name of ["packed", "out_for_delivery"] as const)
      expect(await race((db) => step(db, id, name))).toEqual(["already", "done"]);
    expect(cashMovesNow(await orderOf(id))).toEqual(["delivery_failed", "returned"]);
    // Out of the shop: too late to cancel, and no cash before it is delivered.
    expect(await cancelCash(t.db, id, { ...by, reason: "customer_asked" })).toEqual({
      result: "not_allowed",
      status: "confirmed",
      fulfilment: "out_for_delivery",
    });
    expect(await collectCash(t.db, id, { ...by, amountMinor: 7750 })).toMatchObject({ result: "not_allowed" });

    expect(await race((db) => recordDeliveryFailed(db, id, { ...by, reason: "postponed" }))).toEqual([
      "already",
      "done",
    ]);
    expect(cashMovesNow(await orderOf(id))).toEqual(["out_again", "returned"]);
    expect(await race((db) => sendOutAgain(db, id, by))).toEqual(["already", "done"]);
    expect(await race((db) => step(db, id, "delivered"))).toEqual(["already", "done"]);
    expect(cashMovesNow(await orderOf(id))).toEqual(["collect"]);

    const at = new Date();
    expect(await race((db) => collectCash(db, id, { ...by, amountMinor: 7750, now: at }))).toEqual(["already", "done"]);
    // Delivered is not paid: collected is, once, with its amount, who and when; its parcel's step unchanged.
    expect(await orderOf(id)).toMatchObject({
      status: "paid",
      collectedMinor: 7750,
      collectedBy: ADMIN,
      paidAt: at,
      fulfilment: "delivered",
    });
    expect(await stockOf(productId)).toBe(3);
    expect(cashMovesNow(await orderOf(id))).toEqual([]);
    expect(await eventsOf(id)).toEqual([
      ["cash_confirmed", { by: ADMIN, note: "Reached her at 14:00", from: "placed", to: "confirmed" }],
      ["packed", { by: ADMIN, notify: false }],
      ["out_for_delivery", { by: ADMIN, notify: false }],
      ["delivery_failed", { by: ADMIN, reason: "postponed" }],
      ["out_for_delivery", { by: ADMIN, again: true }],
      ["delivered", { by: ADMIN, notify: false }],
      ["cash_collected", { by: ADMIN, collectedMinor: 7750, from: "confirmed", to: "paid" }],
    ]);
  });

  it("records a collection short of the total as said, the event keeping what was expected", async () => {
    const { id } = await cashOrder({ status: "confirmed" });
    for (const name of ["packed", "out_for_delivery", "delivered"] as const) await step(t.db, id, name);
    expect(await collectCash(t.db, id, { ...by, amountMinor: 7000, note: "Short 7.50" })).toEqual({ result: "done" });
    expect(await orderOf(id)).toMatchObject({ status: "paid", collectedMinor: 7000 });
    expect((await eventsOf(id)).at(-1)).toEqual([
      "cash_collected",
      { by: ADMIN, collectedMinor: 7000, expectedMinor: 7750, note: "Short 7.50", from: "confirmed", to: "paid" },
    ]);
  });
});

describe("a cash order paid at pickup", () => {
  it("goes packed → ready → picked up → collected, and may be cancelled while nobody came for it", async () => {
    const { id } = await cashOrder({ method: "pickup", status: "confirmed" });
    for (const name of ["packed", "ready_for_pickup", "picked_up"] as const)
      expect(await step(t.db, id, name)).toMatchObject({ result: "done" });
    expect(cashMovesNow(await orderOf(id))).toEqual(["collect"]);
    expect(await collectCash(t.db, id, { ...by, amountMinor: 7750 })).toEqual({ result: "done" });

    const waiting = await cashOrder({ method: "pickup", status: "confirmed" });
    for (const name of ["packed", "ready_for_pickup"] as const) await step(t.db, waiting.id, name);
    expect(cashMovesNow(await orderOf(waiting.id))).toEqual([]);
    expect(canCancel(await orderOf(waiting.id))).toBe(true);
    expect(await cancelCash(t.db, waiting.id, { ...by, reason: "unreachable" })).toEqual({ result: "done" });
    // A pickup has no courier: no failed delivery, no return.
    expect(await recordDeliveryFailed(t.db, waiting.id, { ...by, reason: "refused" })).toMatchObject({
      result: "not_allowed",
    });
  });
});

describe("the stock", () => {
  it("a placed order cancelled was never sold: nothing comes back, its hold just ends", async () => {
    const { id, productId } = await cashOrder();
    expect(await race((db) => cancelCash(db, id, { ...by, reason: "suspected_fraud", note: "No answer" }))).toEqual([
      "already",
      "done",
    ]);
    expect(await stockOf(productId)).toBe(5);
    expect(await orderOf(id)).toMatchObject({ status: "cancelled", fulfilment: null });
    expect(await eventsOf(id)).toEqual([
      [
        "order_cancelled",
        {
          by: ADMIN,
          reason: "suspected_fraud",
          note: "No answer",
          from: "placed",
          to: "cancelled",
          restockedUnits: 0,
        },
      ],
    ]);
    // Cancelled is the end: it cannot be confirmed after.
    expect(await confirmCashOrder(t.db, id, by)).toEqual({
      result: "not_allowed",
      status: "cancelled",
      fulfilment: null,
    });
  });

  it("a confirmed order cancelled while packed: its units back exactly once, its step kept", async () => {
    const { id, productId } = await cashOrder();
    await confirmCashOrder(t.db, id, by);
    await step(t.db, id, "packed");
    expect(await stockOf(productId)).toBe(3);
    expect(await race((db) => cancelCash(db, id, { ...by, reason: "customer_asked" }))).toEqual(["already", "done"]);
    expect(await stockOf(productId)).toBe(5);
    expect(await orderOf(id)).toMatchObject({ status: "cancelled", fulfilment: "packed" });
    expect(await cancelCash(t.db, id, { ...by, reason: "customer_asked" })).toEqual({ result: "already" });
    expect(await stockOf(productId)).toBe(5);
  });

  it("a returned parcel (after a failed delivery): cancelled, its units back exactly once", async () => {
    const { id, productId } = await cashOrder();
    await confirmCashOrder(t.db, id, by);
    for (const name of ["packed", "out_for_delivery"] as const) await step(t.db, id, name);
    await recordDeliveryFailed(t.db, id, { ...by, reason: "refused" });
    expect(await race((db) => recordReturned(db, id, { ...by, note: "Courier brought it back" }))).toEqual([
      "already",
      "done",
    ]);
    expect(await stockOf(productId)).toBe(5);
    expect(await orderOf(id)).toMatchObject({ status: "cancelled", fulfilment: "returned", collectedMinor: null });
    expect(cashMovesNow(await orderOf(id))).toEqual([]);
    expect(await collectCash(t.db, id, { ...by, amountMinor: 7750 })).toMatchObject({ result: "not_allowed" });
    // Come back is cancelled already: it cannot be cancelled again, nor its units come back twice.
    expect(await cancelCash(t.db, id, { ...by, reason: "customer_asked" })).toMatchObject({
      result: "not_allowed",
      status: "cancelled",
    });
    expect(await stockOf(productId)).toBe(5);
  });

  it("a return straight from out for delivery puts the units back too; a product not counted stays uncounted", async () => {
    const { id, productId } = await cashOrder();
    await t.db.update(products).set({ stock: null }).where(eq(products.id, productId));
    await confirmCashOrder(t.db, id, by);
    for (const name of ["packed", "out_for_delivery"] as const) await step(t.db, id, name);
    expect(await recordReturned(t.db, id, by)).toEqual({ result: "done" });
    expect(await stockOf(productId)).toBeNull();
  });
});

describe("the merchant's call", () => {
  it("is refused past confirm_by, and the expiry job expires it once however many run at once", async () => {
    const late = await cashOrder({ confirmBy: new Date(Date.now() - 60_000) });
    const onTime = await cashOrder();
    expect(cashMovesNow(await orderOf(late.id))).toEqual([]);
    expect(canCancel(await orderOf(late.id))).toBe(true);
    expect(await confirmCashOrder(t.db, late.id, by)).toEqual({ result: "too_late" });
    expect(await stockOf(late.productId)).toBe(5);

    const second = new Pool({ connectionString: t.url, max: 2 });
    try {
      await Promise.all([expireDueOrders(t.db), expireDueOrders(createDb(second))]);
    } finally {
      await second.end();
    }
    await expireDueOrders(t.db);
    expect(await orderOf(late.id)).toMatchObject({ status: "expired" });
    expect(await eventsOf(late.id)).toEqual([["cash_expired", { from: "placed", to: "expired" }]]);
    expect(await orderOf(onTime.id)).toMatchObject({ status: "placed" });
    expect(await eventsOf(onTime.id)).toEqual([]);
    expect(await confirmCashOrder(t.db, late.id, by)).toMatchObject({ result: "not_allowed", status: "expired" });
    expect(await stockOf(late.productId)).toBe(5);
  });

  it("is no move of an online order, nor of an order that does not exist", async () => {
    const { id } = await storeOrder(t.db, { status: "paid" });
    expect(await confirmCashOrder(t.db, id, by)).toEqual({ result: "not_allowed", status: "paid", fulfilment: null });
    expect(await collectCash(t.db, id, { ...by, amountMinor: 1875 })).toMatchObject({ result: "not_allowed" });
    expect(cashMovesNow(await orderOf(id))).toEqual([]);
    expect(await confirmCashOrder(t.db, "ord_0000000000000000", by)).toEqual({ result: "not_found" });
  });

  it("a cash order is never marked paid the online way: its cash is collected, nothing else moves it", async () => {
    const { id } = await cashOrder();
    await cancelCash(t.db, id, { ...by, reason: "customer_asked" });
    const marked = { kind: "marked_paid", by: ADMIN, reference: "TX-1" } as const;
    expect(await settle(t.db, id, marked)).toMatchObject({ from: "cancelled", to: "cancelled", changed: false });
    expect(await orderOf(id)).toMatchObject({ status: "cancelled", collectedMinor: null, paidAt: null });
  });

  it("a placed order takes no parcel's step before it is confirmed", async () => {
    const { id } = await cashOrder();
    expect(await step(t.db, id, "packed")).toEqual({ result: "not_paid" });
    expect((await orderOf(id)).fulfilment).toBeNull();
  });
});
