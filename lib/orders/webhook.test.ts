import { createHmac } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { orderEvents, orders, type OrderStatus } from "../db/schema";
import { setUpTestDatabase } from "../../testing/db";
import { storeOrder } from "../../testing/orders";
import { receiveWebhook, rejectedDeliveries, REJECTED_SAMPLE_SIZE } from "./webhook";

/** Deliveries as the service sends them: JSON bytes signed with HMAC-SHA256, against a real database. */

const SECRET = "whsec-test-0123456789abcdef";
const t = setUpTestDatabase();

const storedOrder = (status: OrderStatus = "awaiting_confirmation", amountMinor = 10375) =>
  storeOrder(t.db, { status, amountMinor });

const body = (fields: Record<string, unknown>) =>
  JSON.stringify({
    event: "payment.success",
    status: "success",
    gateway: "sadad",
    currency: "LYD",
    timestamp: 1795460000,
    transaction_id: "TXN-1",
    ...fields,
  });
const sign = (raw: string, secret = SECRET) => createHmac("sha256", secret).update(raw).digest("hex");
const deliver = (raw: string, signature: string | null = sign(raw)) =>
  receiveWebhook(t.db, new TextEncoder().encode(raw), signature, SECRET);
const orderOf = async (id: string) => (await t.db.query.orders.findFirst({ where: eq(orders.id, id) }))!;
const eventsOf = async (id: string | null) =>
  (
    await t.db
      .select()
      .from(orderEvents)
      .where(id === null ? undefined : eq(orderEvents.orderId, id))
  ).filter((e) => e.type === "webhook_received");

describe("receiveWebhook", () => {
  it("confirms the order of a verified payment.success with its exact amount", async () => {
    const { id, paymentToken } = await storedOrder();
    expect(await deliver(body({ token: paymentToken, amount: 103.75 }))).toEqual({
      httpStatus: 200,
      outcome: "confirmed",
    });
    expect((await orderOf(id)).status).toBe("paid");
    const [event] = await eventsOf(id);
    expect(event!.data).toMatchObject({
      verified: true,
      from: "awaiting_confirmation",
      to: "paid",
      gateway: "sadad",
      transactionId: "TXN-1",
    });
  });

  it("changes nothing on a repeated delivery, and answers 2xx so the service stops", async () => {
    const { id, paymentToken } = await storedOrder("pending");
    const raw = body({ token: paymentToken, amount: "103.75" });
    expect(await deliver(raw)).toEqual({ httpStatus: 200, outcome: "confirmed" });
    expect(await deliver(raw)).toEqual({ httpStatus: 200, outcome: "duplicate" });
    expect(await deliver(raw)).toEqual({ httpStatus: 200, outcome: "duplicate" });
    const events = await eventsOf(id);
    expect(events.map((e) => [(e.data as { from: string }).from, (e.data as { to: string }).to])).toEqual([
      ["pending", "paid"],
      ["paid", "paid"],
      ["paid", "paid"],
    ]);
  });

  it.each([
    ["a wrong signature", (raw: string) => sign(raw, "another-secret-entirely"), "wrong_signature"],
    ["no signature", () => null, "no_signature"],
    ["an empty signature", () => "", "no_signature"],
    ["a signature of the wrong length", (raw: string) => sign(raw).slice(0, 40), "malformed_signature"],
    ["a signature that is not hex", () => "z".repeat(64), "malformed_signature"],
    [
      "the signature of other bytes (the body re-serialised)",
      (raw: string) => sign(JSON.stringify(JSON.parse(raw), null, 1)),
      "wrong_signature",
    ],
  ])("refuses %s with 401, writes nothing, and changes nothing", async (_name, signatureFor, reason) => {
    const { id, paymentToken } = await storedOrder();
    const raw = body({ token: paymentToken, amount: 103.75, custom: id });
    expect(await deliver(raw, signatureFor(raw))).toEqual({ httpStatus: 401, outcome: "rejected", rejected: reason });
    expect((await orderOf(id)).status).toBe("awaiting_confirmation");
    expect(await eventsOf(id)).toEqual([]);
    expect(rejectedDeliveries().sample.at(-1)).toEqual({
      at: expect.any(String),
      reason,
      bytes: Buffer.byteLength(raw),
    });
  });

  it("lets 2,000 unsigned deliveries naming an order write nothing: no row on the order, none anywhere", async () => {
    const { id, paymentToken } = await storedOrder();
    const rows = async () => Number((await t.pool.query("select count(*) from order_events")).rows[0].count);
    const before = { rows: await rows(), rejected: rejectedDeliveries().count };
    const raw = body({ token: paymentToken, custom: id, amount: 103.75, padding: "x".repeat(1_900) });
    for (let i = 0; i < 2_000; i++) {
      expect(await deliver(raw, i % 2 ? null : sign(raw, "a-guessed-secret"))).toMatchObject({
        httpStatus: 401,
        outcome: "rejected",
      });
    }
    expect(await eventsOf(id)).toEqual([]);
    expect(await rows()).toBe(before.rows);
    expect((await orderOf(id)).status).toBe("awaiting_confirmation");
    // Counted, and a bounded sample kept in memory without the body.
    const { count, sample } = rejectedDeliveries();
    expect(count).toBe(before.rejected + 2_000);
    expect(sample).toHaveLength(REJECTED_SAMPLE_SIZE);
    expect(JSON.stringify(sample)).not.toContain(paymentToken);
  });

  it("verifies nothing when the shop's secret is empty", async () => {
    const { id, paymentToken } = await storedOrder();
    const raw = body({ token: paymentToken, amount: 103.75 });
    expect(
      await receiveWebhook(t.db, new TextEncoder().encode(raw), createHmac("sha256", "").update(raw).digest("hex"), ""),
    ).toEqual({ httpStatus: 401, outcome: "rejected", rejected: "no_secret" });
    expect((await orderOf(id)).status).toBe("awaiting_confirmation");
  });

  it.each([
    ["an amount one dirham short", { amount: 103.74 }],
    ["an amount with three decimals", { amount: 103.755 }],
    ["another currency", { amount: 103.75, currency: "USD" }],
  ])("never marks paid for %s: records it and flags the order for the merchant", async (_name, fields) => {
    const { id, paymentToken } = await storedOrder();
    expect(await deliver(body({ token: paymentToken, ...fields }))).toEqual({
      httpStatus: 200,
      outcome: "amount_mismatch",
    });
    const order = await orderOf(id);
    expect(order.status).toBe("awaiting_confirmation");
    expect(order.flags).toEqual(["amount_mismatch"]);
    expect((await eventsOf(id))[0]!.data).toMatchObject({
      outcome: "amount_mismatch",
      expected: { amountMinor: 10375, currency: "LYD" },
    });
  });

  it("records a delivery for an unknown token and answers 2xx", async () => {
    const before = (await eventsOf(null)).length;
    expect(await deliver(body({ token: "pt-nobody-knows", amount: 1 }))).toEqual({
      httpStatus: 200,
      outcome: "unknown_order",
    });
    const events = await eventsOf(null);
    expect(events).toHaveLength(before + 1);
    expect(events.at(-1)).toMatchObject({
      orderId: null,
      data: { verified: true, token: "pt-nobody-knows", outcome: "unknown_order" },
    });
  });

  it("falls back to our order id in `custom` when the token is unknown, and keeps the token", async () => {
    const { id } = await storedOrder("started");
    expect(await deliver(body({ token: "pt-lost-answer", custom: id, amount: 103.75 }))).toEqual({
      httpStatus: 200,
      outcome: "confirmed",
    });
    expect(await orderOf(id)).toMatchObject({
      status: "paid",
      paymentToken: "pt-lost-answer",
      flags: ["paid_after_failure"],
    });
  });

  it("marks a cancelled order paid when the money arrives anyway, and flags it", async () => {
    const { id, paymentToken } = await storedOrder("cancelled");
    expect(await deliver(body({ token: paymentToken, amount: 103.75 }))).toEqual({
      httpStatus: 200,
      outcome: "confirmed",
    });
    expect(await orderOf(id)).toMatchObject({ status: "paid", flags: ["paid_after_cancel"] });
  });

  it.each([
    ["failed", { status: "failed" }],
    ["pending", { status: "pending" }],
    ["in another case", { status: "SUCCESS" }],
    ["missing", { status: undefined }],
  ])(
    "never marks paid a signed payment.success whose status is %s: records it and answers 2xx",
    async (_name, fields) => {
      const { id, paymentToken } = await storedOrder();
      expect(await deliver(body({ token: paymentToken, amount: 103.75, ...fields }))).toEqual({
        httpStatus: 200,
        outcome: "not_successful",
      });
      expect((await orderOf(id)).status).toBe("awaiting_confirmation");
      expect((await eventsOf(id)).map((e) => e.data)).toEqual([
        expect.objectContaining({ verified: true, outcome: "not_successful" }),
      ]);
    },
  );

  it("records other events without moving the order", async () => {
    const { id, paymentToken } = await storedOrder();
    expect(await deliver(body({ token: paymentToken, amount: 103.75, event: "payment.refunded" }))).toEqual({
      httpStatus: 200,
      outcome: "ignored_event",
    });
    expect((await orderOf(id)).status).toBe("awaiting_confirmation");
  });

  it.each([
    ["not JSON", "not json at all"],
    ["JSON without a token", JSON.stringify({ event: "payment.success", amount: 1, currency: "LYD" })],
    ["a token far too long", body({ token: "x".repeat(600), amount: 1 })],
  ])("answers 400 to a verified body that is %s, and records it", async (_name, raw) => {
    expect(await deliver(raw)).toEqual({ httpStatus: 400, outcome: "malformed" });
  });

  it("throws when the delivery cannot be recorded, so the route answers 5xx and the service retries", async () => {
    const { createDb } = await import("../db/client");
    const { Pool } = await import("pg");
    const down = createDb(
      new Pool({ connectionString: "postgresql://postgres@127.0.0.1:1/none", connectionTimeoutMillis: 500 }),
    );
    const raw = body({ token: "pt-x", amount: 1 });
    await expect(receiveWebhook(down, new TextEncoder().encode(raw), sign(raw), SECRET)).rejects.toThrow();
  });
});
