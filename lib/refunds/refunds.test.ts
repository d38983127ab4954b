import { and, asc, eq } from "drizzle-orm";
import { Pool } from "pg";
import { afterAll, describe, expect, it, vi } from "vitest";
import { createDb, type Db } from "../db/client";
import { emailOutbox, orderEvents, orderLines, orders, products } from "../db/schema";
import { confirmCashOrder } from "../cash/moves";
import { recordFulfilmentStep } from "../orders/fulfilment";
import { canMarkPaid, settle } from "../orders/settle";
import { findCustomerOrder, findLinkedOrder } from "../orders/store";
import { promoCodeUses } from "../promo-codes/uses";
import { createTestProduct } from "../../testing/catalogue";
import { setUpTestDatabase } from "../../testing/db";
import { storeOrder } from "../../testing/orders";
import { cancelOrder } from "./cancel";
import { openRefund, recordRefund, refundsOf } from "./refunds";
import { recordReturn } from "./returns";
import { afterSaleNow, pendingRefundMinor, refundStanding } from "./rules";

/**
 * Cancel, refund, return against a real database, two pools standing for two server instances: each move once
 * however often (and wherever) it is posted, the money never refunded beyond what came in, the stock back exactly once
 * per unit, the customer e-mailed once per cancel and once per refund.
 */

// E-mail on, as the shop's environment turns it on (lib/env.ts, `emailSettings`).
vi.stubEnv("SMTP_URL", "smtp://127.0.0.1:2525");
vi.stubEnv("MAIL_FROM", "Medina Market <shop@medina.example>");
vi.stubEnv("MERCHANT_EMAIL", "owner@medina.example");
afterAll(() => vi.unstubAllEnvs());

const t = setUpTestDatabase();
const ADMIN = "owner@medina.example";
const acting = { by: ADMIN, notify: true };

/**
 * An order of 2 lamps (35.00 LYD each) and 1 mug (7.50 LYD) for 77.50 LYD, picked up at the shop, from products with
 * 5 lamps and 4 mugs on hand: online it is paid by a verified webhook (which sells its units), cash it is `placed`.
 */
async function order({ cash = false, promo }: { cash?: boolean; promo?: string } = {}) {
  const lamp = await createTestProduct(t.db, { stock: 5 });
  const mug = await createTestProduct(t.db, { stock: 4 });
  const { id, paymentToken } = await storeOrder(t.db, {
    amountMinor: 7750,
    email: "aisha@example.ly",
    deliveryMethod: "pickup",
    ...(cash ? { paymentMethod: "cash" as const, status: "placed" as const, phone: "0912345678" } : {}),
    ...(promo ? { promo: { code: promo, discountMinor: 0 } } : {}),
  });
  await t.db.insert(orderLines).values([
    { orderId: id, position: 0, productId: lamp, productSlug: "lamp", name: "Lamp", unitMinor: 3500, quantity: 2 },
    { orderId: id, position: 1, productId: mug, productSlug: "mug", name: "Mug", unitMinor: 750, quantity: 1 },
  ]);
  if (!cash) await settle(t.db, id, { kind: "payment_confirmed", paymentToken, delivery: {} });
  return { id, paymentToken, lamp, mug };
}

/** The order picked up: packed → ready for pickup → picked up. */
async function pickedUp(id: string) {
  for (const name of ["packed", "ready_for_pickup", "picked_up"] as const)
    await recordFulfilmentStep(t.db, id, name, { by: ADMIN, notify: false });
}

const orderOf = async (id: string) => (await t.db.query.orders.findFirst({ where: eq(orders.id, id) }))!;
const stockOf = async (productId: number) =>
  (await t.db.query.products.findFirst({ where: eq(products.id, productId) }))!.stock;
const typesOf = async (id: string) =>
  (await t.db.select().from(orderEvents).where(eq(orderEvents.orderId, id)).orderBy(asc(orderEvents.id))).map(
    ({ type }) => type,
  );
const afterSaleMails = async (id: string) =>
  (
    await t.db
      .select({ reason: emailOutbox.reason, refundId: emailOutbox.refundId, recipient: emailOutbox.recipient })
      .from(emailOutbox)
      .where(and(eq(emailOutbox.orderId, id), eq(emailOutbox.kind, "after_sale")))
      .orderBy(asc(emailOutbox.id))
  ).map(({ reason, refundId, recipient }) => [reason, refundId, recipient]);
/** The order as the rules read it, its pending refunds summed. */
const standing = async (id: string) => {
  const row = await orderOf(id);
  return { ...row, pendingRefundMinor: pendingRefundMinor(await refundsOf(t.db, id)) };
};

/** Runs `move` on two server instances (two pools) at once: the results, sorted. */
async function race(move: (db: Db) => Promise<{ result: string }>): Promise<string[]> {
  const second = new Pool({ connectionString: t.url, max: 2 });
  try {
    const results = await Promise.all([move(t.db), move(createDb(second))]);
    return results.map(({ result }) => result).sort();
  } finally {
    await second.end();
  }
}

describe("cancel", () => {
  it("a paid online order: final, its units back once, a refund of all of it to make, one e-mail", async () => {
    const { id, paymentToken, lamp, mug } = await order({ promo: "SPRING" });
    expect([await stockOf(lamp), await stockOf(mug)]).toEqual([3, 3]);
    const [code] = await t.db.select({ id: orders.promoCodeId }).from(orders).where(eq(orders.id, id));
    expect((await promoCodeUses(t.db, [code!.id!])).get(code!.id!)).toEqual({ used: 1, held: 0 });

    expect(await race((db) => cancelOrder(db, id, { ...acting, reason: "out_of_stock", note: "Broken" }))).toEqual([
      "already",
      "done",
    ]);
    expect([await stockOf(lamp), await stockOf(mug)]).toEqual([5, 4]);
    const cancelled = await orderOf(id);
    expect(cancelled).toMatchObject({ status: "cancelled", cancelReason: "out_of_stock", refundedMinor: 0 });
    expect(cancelled.cancelledAt).toBeInstanceOf(Date);
    expect(await refundsOf(t.db, id)).toMatchObject([
      { amountMinor: 7750, status: "pending", cause: "cancel", reference: null, createdBy: ADMIN },
    ]);
    expect(afterSaleNow(await standing(id))).toEqual({ cancel: false, refund: null, return: false });
    expect(refundStanding(await standing(id))).toBe("pending");
    // Its promo code's use is given back.
    expect((await promoCodeUses(t.db, [code!.id!])).get(code!.id!)).toBeUndefined();
    expect(await afterSaleMails(id)).toEqual([["cancelled", null, "aisha@example.ly"]]);

    // Final: the service's webhook replayed moves nothing (on the record, as a repeated delivery), and no mark as paid.
    expect(await settle(t.db, id, { kind: "payment_confirmed", paymentToken, delivery: {} })).toMatchObject({
      from: "cancelled",
      to: "cancelled",
      changed: false,
    });
    expect(await settle(t.db, id, { kind: "marked_paid", by: ADMIN, reference: "T-1" })).toMatchObject({
      changed: false,
    });
    expect(canMarkPaid("cancelled", cancelled.cancelledAt)).toBe(false);
    expect(await orderOf(id)).toMatchObject({ status: "cancelled", flags: [] });
    expect([await stockOf(lamp), await stockOf(mug)]).toEqual([5, 4]);
    expect((await typesOf(id)).slice(-5)).toEqual([
      "refund_opened",
      "order_cancelled",
      "email_queued",
      "webhook_received",
      "marked_paid",
    ]);
  });

  it("cash: a placed order's hold just ends; a confirmed one's units come back once; no refund", async () => {
    const placed = await order({ cash: true });
    expect(await cancelOrder(t.db, placed.id, { ...acting, reason: "unreachable" })).toEqual({
      result: "done",
      restockedUnits: 0,
      refundId: null,
    });
    expect([await stockOf(placed.lamp), await stockOf(placed.mug)]).toEqual([5, 4]);

    const confirmed = await order({ cash: true });
    await confirmCashOrder(t.db, confirmed.id, { by: ADMIN });
    expect([await stockOf(confirmed.lamp), await stockOf(confirmed.mug)]).toEqual([3, 3]);
    expect(await race((db) => cancelOrder(db, confirmed.id, { ...acting, reason: "customer_asked" }))).toEqual([
      "already",
      "done",
    ]);
    expect(await cancelOrder(t.db, confirmed.id, { ...acting, reason: "other" })).toEqual({ result: "already" });
    expect([await stockOf(confirmed.lamp), await stockOf(confirmed.mug)]).toEqual([5, 4]);
    expect(await refundsOf(t.db, confirmed.id)).toEqual([]);
    expect(refundStanding(await standing(confirmed.id))).toBe("none");
  });

  it("not once the goods reached the customer, nor an order never paid", async () => {
    const delivered = await order();
    await pickedUp(delivered.id);
    expect(await cancelOrder(t.db, delivered.id, { ...acting, reason: "other" })).toEqual({
      result: "not_allowed",
      status: "paid",
      fulfilment: "picked_up",
    });
    const { id } = await storeOrder(t.db);
    expect(await cancelOrder(t.db, id, { ...acting, reason: "other" })).toMatchObject({ result: "not_allowed" });
    expect(await cancelOrder(t.db, "ord_nosuchorder0000", { ...acting, reason: "other" })).toEqual({
      result: "not_found",
    });
  });
});

describe("refunds", () => {
  it("part, then the rest: never above what was paid; two records of one refund make one; an e-mail each", async () => {
    const { id } = await order();
    const first = await openRefund(t.db, id, {
      ...acting,
      amountMinor: 750,
      lines: [{ position: 1, quantity: 1 }],
      note: "Mug chipped",
      key: "form-1",
    });
    expect(first).toMatchObject({ result: "done", status: "pending" });
    // The same form posted again (another tab) is the same refund.
    expect(await openRefund(t.db, id, { ...acting, amountMinor: 750, key: "form-1" })).toEqual({
      result: "already",
      refundId: first.result === "done" ? first.refundId : -1,
    });
    expect(afterSaleNow(await standing(id)).refund).toEqual({ leftMinor: 7000 });
    // More than is left, and a line's units beyond what was sold, are refused.
    expect(await openRefund(t.db, id, { ...acting, amountMinor: 7001, key: "form-2" })).toEqual({
      result: "over_limit",
      leftMinor: 7000,
    });
    expect(
      await openRefund(t.db, id, {
        ...acting,
        amountMinor: 100,
        lines: [
          { position: 1, quantity: 1 },
          { position: 7, quantity: 1 },
        ],
        key: "form-3",
      }),
    ).toEqual({
      result: "bad_lines",
      lines: [
        { position: 1, leftQuantity: 0 },
        { position: 7, leftQuantity: 0 },
      ],
    });

    const refundId = first.result === "done" ? first.refundId : -1;
    expect(await race((db) => recordRefund(db, refundId, { ...acting, reference: "RF-1001" }))).toEqual([
      "already",
      "done",
    ]);
    expect(await orderOf(id)).toMatchObject({ status: "paid", refundedMinor: 750 });
    expect(refundStanding(await standing(id))).toBe("partly_refunded");

    // The rest, with its reference at once: recorded as made straight away.
    expect(await openRefund(t.db, id, { ...acting, amountMinor: 7000, reference: "RF-1002", key: "form-4" })).toEqual(
      expect.objectContaining({ result: "done", status: "refunded" }),
    );
    expect(await orderOf(id)).toMatchObject({ refundedMinor: 7750 });
    expect(refundStanding(await standing(id))).toBe("refunded");
    expect(afterSaleNow(await standing(id)).refund).toBeNull();
    expect(await openRefund(t.db, id, { ...acting, amountMinor: 1, key: "form-5" })).toEqual({
      result: "over_limit",
      leftMinor: 0,
    });
    const mails = await afterSaleMails(id);
    expect(mails.map(([reason]) => reason)).toEqual(["refunded", "refunded"]);
    expect(new Set(mails.map(([, refund]) => refund)).size).toBe(2);
  });

  it("two instances opening refunds of one order at once: never more than was paid", async () => {
    const { id } = await order();
    const results = await race((db) =>
      openRefund(db, id, { ...acting, amountMinor: 5000, key: `key-${crypto.randomUUID()}` }),
    );
    expect(results).toEqual(["done", "over_limit"]);
    expect(pendingRefundMinor(await refundsOf(t.db, id))).toBe(5000);
  });

  it("a cancelled order's refund recorded: the customer's page and signed link read cancelled, then refunded", async () => {
    const { id } = await order();
    const cancelled = await cancelOrder(t.db, id, { ...acting, reason: "customer_asked" });
    const refundId = cancelled.result === "done" ? cancelled.refundId! : -1;
    // On its way: the customer's page (their session) and the signed link say so, with how much.
    expect(await findCustomerOrder(t.db, id, "session-a")).toMatchObject({
      status: "cancelled",
      cancelledAt: expect.any(Date),
      refundedMinor: 0,
      pendingRefundMinor: 7750,
    });
    expect(await recordRefund(t.db, refundId, { ...acting, reference: "RF-2001" })).toEqual({
      result: "done",
      orderId: id,
    });
    expect(await orderOf(id)).toMatchObject({ status: "cancelled", refundedMinor: 7750 });
    expect(await findLinkedOrder(t.db, id)).toMatchObject({
      status: "cancelled",
      cancelledAt: expect.any(Date),
      refundedMinor: 7750,
      pendingRefundMinor: 0,
    });
    expect(refundStanding(await standing(id))).toBe("refunded");
    expect((await afterSaleMails(id)).map(([reason]) => reason)).toEqual(["cancelled", "refunded"]);
  });

  it("nothing to refund on an order that received no money", async () => {
    const cash = await order({ cash: true });
    expect(await openRefund(t.db, cash.id, { ...acting, amountMinor: 100, key: "form-cash" })).toMatchObject({
      result: "not_allowed",
      status: "placed",
    });
  });
});

describe("returns", () => {
  it("after pickup: units back once per returned unit, damaged ones not; never more than was sold", async () => {
    const { id, lamp, mug } = await order();
    expect(
      await recordReturn(t.db, id, { ...acting, lines: [{ position: 0, quantity: 1, restock: true }], key: "r-0" }),
    ).toMatchObject({ result: "not_allowed", fulfilment: null });
    await pickedUp(id);
    expect(afterSaleNow(await standing(id)).return).toBe(true);

    // Lines never sold, and more units than were sold, are refused and move nothing.
    expect(
      await recordReturn(t.db, id, {
        ...acting,
        lines: [
          { position: 0, quantity: 3, restock: true },
          { position: 5, quantity: 1, restock: true },
        ],
        key: "r-1",
      }),
    ).toEqual({
      result: "bad_lines",
      lines: [
        { position: 0, leftQuantity: 2 },
        { position: 5, leftQuantity: 0 },
      ],
    });

    // One lamp back on the shelf, the mug damaged, with a refund for them: one return however often it is posted.
    const lines = [
      { position: 0, quantity: 1, restock: true },
      { position: 1, quantity: 1, restock: false },
    ];
    expect(
      await race((db) =>
        recordReturn(db, id, { ...acting, lines, refund: { amountMinor: 4250, reference: "RF-3001" }, key: "r-2" }),
      ),
    ).toEqual(["already", "done"]);
    expect([await stockOf(lamp), await stockOf(mug)]).toEqual([4, 3]);
    expect(await orderOf(id)).toMatchObject({ status: "paid", refundedMinor: 4250 });
    expect(await refundsOf(t.db, id)).toMatchObject([{ cause: "return", status: "refunded", amountMinor: 4250 }]);

    // A refund beyond what is left is refused with the return: nothing recorded.
    expect(
      await recordReturn(t.db, id, {
        ...acting,
        lines: [{ position: 0, quantity: 1, restock: true }],
        refund: { amountMinor: 3501 },
        key: "r-5",
      }),
    ).toEqual({ result: "over_limit", leftMinor: 3500 });
    expect([await stockOf(lamp), await stockOf(mug)]).toEqual([4, 3]);

    // The second lamp comes back later; a third is refused (the mug's too: it came back already).
    expect(
      await recordReturn(t.db, id, { ...acting, lines: [{ position: 0, quantity: 1, restock: true }], key: "r-3" }),
    ).toMatchObject({ result: "done", restockedUnits: 1, refundId: null });
    expect(
      await recordReturn(t.db, id, {
        ...acting,
        lines: [
          { position: 0, quantity: 1, restock: true },
          { position: 1, quantity: 1, restock: true },
        ],
        key: "r-4",
      }),
    ).toEqual({
      result: "bad_lines",
      lines: [
        { position: 0, leftQuantity: 0 },
        { position: 1, leftQuantity: 0 },
      ],
    });
    expect([await stockOf(lamp), await stockOf(mug)]).toEqual([5, 3]);
    expect((await typesOf(id)).filter((type) => type === "order_returned")).toHaveLength(2);
  });
});
