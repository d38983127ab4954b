import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { orderEvents, orders, type OrderStatus } from "../db/schema";
import { createTestDatabase, type TestDatabase } from "../testing/db";
import { newOrderId } from "./store";
import { parseReturnQuery, returnFromPaymentPage, settle } from "./settle";

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(() => t?.close());

/** A stored order with a payment, of session `session`, in `status`. */
async function storedOrder(status: OrderStatus = "pending", session = "session-a") {
  const id = newOrderId();
  const paymentToken = `pt-${id}`;
  await t.db.insert(orders).values({
    id,
    sessionId: session,
    fingerprint: id,
    status,
    amountMinor: 1875,
    currency: "LYD",
    locale: "en",
    paymentToken,
    paymentUrl: `https://pay.example.ly/pay/sandbox/v1/user/payment/preview/${paymentToken}`,
    accessTokenIssuedAt: new Date(),
    claimExpiresAt: new Date(),
  });
  return { id, paymentToken };
}
const statusOf = async (id: string) => (await t.db.query.orders.findFirst({ where: eq(orders.id, id) }))?.status;
const q = (s: string) => new URLSearchParams(s);

describe("coming back from the payment page (spec §4.3)", () => {
  it("moves pending → paid on success at the return URL, once", async () => {
    const { id, paymentToken } = await storedOrder();
    expect(await returnFromPaymentPage(t.db, "session-a", "success", q(`type=success&token=${paymentToken}`))).toEqual({ orderId: id, outcome: "paid" });
    expect(await statusOf(id)).toBe("paid");
    expect(await returnFromPaymentPage(t.db, "session-a", "success", q(`type=success&token=${paymentToken}`))).toEqual({ orderId: id, outcome: "already_settled" });
    expect(await returnFromPaymentPage(t.db, "session-a", "cancel", q(`type=cancel&token=${paymentToken}`))).toEqual({ orderId: id, outcome: "already_settled" });
    expect(await statusOf(id)).toBe("paid");
  });

  it("moves pending → cancelled at the cancel URL, and a later success changes nothing", async () => {
    const { id, paymentToken } = await storedOrder();
    expect((await returnFromPaymentPage(t.db, "session-a", "cancel", q(`type=cancel&token=${paymentToken}`))).outcome).toBe("cancelled");
    expect((await returnFromPaymentPage(t.db, "session-a", "success", q(`type=success&token=${paymentToken}`))).outcome).toBe("already_settled");
    expect(await statusOf(id)).toBe("cancelled");
  });

  it("changes nothing for another token, a type that does not fit the URL, type=error, or another session", async () => {
    const { id, paymentToken } = await storedOrder();
    expect(await returnFromPaymentPage(t.db, "session-a", "success", q("type=success&token=pt-other"))).toEqual({ outcome: "token_mismatch" });
    expect(await returnFromPaymentPage(t.db, "session-a", "success", q(`type=cancel&token=${paymentToken}`))).toEqual({ outcome: "invalid_redirect" });
    expect(await returnFromPaymentPage(t.db, "session-a", "cancel", q(`type=error&token=${paymentToken}`))).toEqual({ outcome: "invalid_redirect" });
    expect(await returnFromPaymentPage(t.db, "session-b", "success", q(`type=success&token=${paymentToken}`))).toEqual({ outcome: "token_mismatch" });
    expect(await statusOf(id)).toBe("pending");
  });

  it("ignores the platform's extra parameters but refuses conflicting repeats and huge tokens", () => {
    expect(parseReturnQuery(q("type=success&token=pt-1&message[code]=200&data[x]=1"))).toEqual({ type: "success", token: "pt-1" });
    expect(parseReturnQuery(q("type=success&token=pt-1&token=pt-1"))).toEqual({ type: "success", token: "pt-1" });
    expect(parseReturnQuery(q("type=success&token=pt-1&token=pt-2"))).toBeNull();
    expect(parseReturnQuery(q(`type=success&token=${"a".repeat(600)}`))).toBeNull();
    expect(parseReturnQuery(q("token=pt-1"))).toBeNull();
  });
});

describe("settle", () => {
  it("records every input as an event with the move, also when nothing moved", async () => {
    const { id } = await storedOrder();
    await settle(t.db, id, { kind: "customer_returned", type: "cancel" });
    await settle(t.db, id, { kind: "customer_returned", type: "success" });
    const events = await t.db.select().from(orderEvents).where(eq(orderEvents.orderId, id)).orderBy(orderEvents.id);
    expect(events.map((e) => e.data)).toEqual([
      { returnType: "cancel", from: "pending", to: "cancelled" },
      { returnType: "success", from: "cancelled", to: "cancelled" },
    ]);
  });

  it("moves an order once when two returns race", async () => {
    const { id } = await storedOrder();
    const moves = await Promise.all([
      settle(t.db, id, { kind: "customer_returned", type: "success" }),
      settle(t.db, id, { kind: "customer_returned", type: "cancel" }),
    ]);
    expect(moves.filter((move) => move?.changed)).toHaveLength(1);
  });

  it("answers undefined for an order that does not exist", async () => {
    expect(await settle(t.db, "ord_00000000000000zz", { kind: "customer_returned", type: "success" })).toBeUndefined();
  });
});
