import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { ORDER_STATUSES, orderEvents, orders, type OrderStatus } from "../db/schema";
import { ACCESS_TOKEN_LIFETIME_MS } from "../payments";
import { setUpTestDatabase } from "../../testing/db";
import { storeOrder } from "../../testing/orders";
import { findOrderForAdmin, listOrders } from "../admin/orders";
import { parseReturnQuery, returnFromPaymentPage } from "./customer-return";
import { changeOrder } from "./events";
import { expireDueOrders } from "./expiry";
import { effectiveStatus } from "../payment-page";
import { CONFIRMATION_GRACE_MS, FLAG_NOTICES, nextMove, settle, type SettlementInput } from "./settle";
import { newOrderId } from "../ids";
import { findCustomerOrder, listCustomerOrders } from "./store";

const t = setUpTestDatabase();

/**
 * A stored order with a payment, of session `session`, in `status`, its payment page dying at `expiresAt` (default: in
 * 600 s). Started and failed orders get a token too: a verified payment for one arrives with it (settle() stores it
 * with the move).
 */
const storedOrder = (
  status: OrderStatus = "pending",
  session = "session-a",
  expiresAt = new Date(Date.now() + ACCESS_TOKEN_LIFETIME_MS),
) =>
  status === "placed" || status === "confirmed"
    ? storeOrder(t.db, { status, sessionId: session, paymentMethod: "cash" }) // no payment on the service
    : storeOrder(t.db, {
        status,
        sessionId: session,
        paymentExpiresAt: expiresAt,
        paymentToken: `pt-${crypto.randomUUID()}`,
      });
const statusOf = async (id: string) => (await t.db.query.orders.findFirst({ where: eq(orders.id, id) }))?.status;
const eventsOf = async (id: string) =>
  t.db.select().from(orderEvents).where(eq(orderEvents.orderId, id)).orderBy(orderEvents.id);
/** A payment page that died a minute ago (its access token was issued eleven minutes ago). */
const diedAMinuteAgo = () => new Date(Date.now() - 60_000);

describe("the state table", () => {
  const success: SettlementInput = { kind: "customer_returned", type: "success" };
  const cancel: SettlementInput = { kind: "customer_returned", type: "cancel" };
  const confirmed: SettlementInput = { kind: "payment_confirmed", paymentToken: "pt", delivery: {} };
  const expired: SettlementInput = { kind: "expired" };
  const overdue: SettlementInput = { kind: "confirmation_overdue" };
  const marked: SettlementInput = { kind: "marked_paid", by: "owner@shop.ly", reference: "TXN-77" };
  // Every cell: [status, success, cancel, verified payment, page died, no confirmation in the grace period, merchant
  // marks paid]; "-" is "nothing changes".
  const table: [OrderStatus, string, string, string, string, string, string][] = [
    ["pending", "awaiting_confirmation", "cancelled", "paid", "expired", "-", "paid+paid_manually"],
    ["awaiting_confirmation", "-", "-", "paid", "-", "awaiting_confirmation+unconfirmed_report", "paid+paid_manually"],
    ["paid", "-", "-", "-", "-", "-", "-"],
    ["cancelled", "-", "-", "paid+paid_after_cancel", "-", "-", "paid+paid_manually"],
    ["expired", "-", "-", "paid+paid_after_expiry", "-", "-", "paid+paid_manually"],
    ["started", "-", "-", "paid+paid_after_failure", "-", "-", "-"],
    ["failed", "-", "-", "paid+paid_after_failure", "-", "-", "-"],
    // A cash order has no payment on the service: nothing the service or its customer's browser says can move it.
    ["placed", "-", "-", "-", "-", "-", "-"],
    ["confirmed", "-", "-", "-", "-", "-", "-"],
  ];
  const inputs = [success, cancel, confirmed, expired, overdue, marked];
  const show = (move: ReturnType<typeof nextMove>) => (move ? `${move.to}${move.flag ? `+${move.flag}` : ""}` : "-");

  it("covers every status", () => {
    expect(table.map((row) => row[0]).sort()).toEqual([...ORDER_STATUSES].sort());
  });
  it.each(table)(
    "%s: success → %s, cancel → %s, verified payment → %s, page died → %s, unconfirmed → %s, marked paid → %s",
    (status, ...expected) => {
      expect(inputs.map((input) => show(nextMove(status, input)))).toEqual(expected);
    },
  );
  it.each(table)("%s: settle() applies the same moves to a stored order", async (status, ...expected) => {
    for (const [index, input] of inputs.entries()) {
      const { id } = await storedOrder(status);
      const move = await settle(t.db, id, input);
      const stored = await t.db.query.orders.findFirst({ where: eq(orders.id, id) });
      expect(`${stored!.status}${stored!.flags.length ? `+${stored!.flags.join(",")}` : ""}`).toBe(
        expected[index] === "-" ? status : expected[index]!,
      );
      expect(move?.changed).toBe(expected[index] !== "-");
    }
  });
});

describe("flags for the merchant", () => {
  it("every flag raised without a move to paid has a notice of its own (the paid notice spells out the others)", () => {
    const inputs: SettlementInput[] = [
      { kind: "customer_returned", type: "success" },
      { kind: "customer_returned", type: "cancel" },
      { kind: "payment_confirmed", paymentToken: "pt", delivery: {} },
      { kind: "expired" },
      { kind: "expired", unseen: true },
      { kind: "confirmation_overdue" },
      { kind: "marked_paid", by: "owner@shop.ly", reference: "TXN-1" },
    ];
    const silent = ORDER_STATUSES.flatMap((status) =>
      inputs.flatMap((input) => {
        const move = nextMove(status, input);
        return move?.flag && move.to !== "paid" ? [move.flag] : [];
      }),
    );
    expect(silent).toEqual(["check_payment_list", "unconfirmed_report"]);
    for (const flag of silent) expect(FLAG_NOTICES).toHaveProperty(flag);
  });
});

describe("a mark from a dashboard list", () => {
  it("moves like any mark and names its list; for an order already paid it writes nothing, unlike the order page's", async () => {
    const { id } = await storedOrder("expired");
    const fromList = { kind: "marked_paid", by: "owner@shop.ly", reference: "TXN-8", list: "lst_x" } as const;
    expect(await settle(t.db, id, fromList)).toMatchObject({ from: "expired", to: "paid", changed: true });
    expect(await settle(t.db, id, fromList)).toMatchObject({ from: "paid", to: "paid", changed: false });
    expect((await eventsOf(id)).map((e) => [e.type, e.data])).toEqual([
      [
        "marked_paid",
        {
          by: "owner@shop.ly",
          reference: "TXN-8",
          list: "lst_x",
          from: "expired",
          to: "paid",
          flag: "paid_manually",
          resolved: ["paid_manually"],
        },
      ],
    ]);
    await settle(t.db, id, { kind: "marked_paid", by: "owner@shop.ly", reference: "TXN-8" });
    expect(await eventsOf(id)).toHaveLength(2);
  });
});

describe("a customer who reported paying, and a webhook that never came", () => {
  it("is never expired; after the grace period the order is flagged once; the merchant marks it paid; the late webhook is a repeat", async () => {
    const issuedAt = new Date(Date.now() - 2 * CONFIRMATION_GRACE_MS);
    const { id } = await storeOrder(t.db, {
      status: "awaiting_confirmation",
      paymentExpiresAt: new Date(issuedAt.getTime() + ACCESS_TOKEN_LIFETIME_MS),
      customerReturnedAt: new Date(issuedAt.getTime() + 60_000),
    });
    // The expiry job and a read of the order both leave it awaiting confirmation, however late.
    await expireDueOrders(t.db);
    await expireDueOrders(t.db);
    expect((await findCustomerOrder(t.db, id, "session-a"))?.status).toBe("awaiting_confirmation");
    const flagged = await t.db.query.orders.findFirst({ where: eq(orders.id, id) });
    expect(flagged).toMatchObject({ status: "awaiting_confirmation", flags: ["unconfirmed_report"] });
    expect((await eventsOf(id)).map((e) => e.type)).toEqual(["confirmation_overdue"]);

    await settle(t.db, id, {
      kind: "marked_paid",
      by: "owner@shop.ly",
      reference: "TXN-77",
      note: "seen in the dashboard",
    });
    const late = await settle(t.db, id, {
      kind: "payment_confirmed",
      paymentToken: "pt",
      delivery: { outcome: "settled" },
    });
    expect(late).toMatchObject({ from: "paid", to: "paid", changed: false });
    // The mark answers the report and is its own record: both flags are resolved, and kept.
    expect(await t.db.query.orders.findFirst({ where: eq(orders.id, id) })).toMatchObject({
      status: "paid",
      flags: ["unconfirmed_report", "paid_manually"],
      resolvedFlags: ["unconfirmed_report", "paid_manually"],
    });
    expect((await eventsOf(id)).map((e) => [e.type, e.data])).toEqual([
      [
        "confirmation_overdue",
        { from: "awaiting_confirmation", to: "awaiting_confirmation", flag: "unconfirmed_report" },
      ],
      [
        "marked_paid",
        {
          by: "owner@shop.ly",
          reference: "TXN-77",
          note: "seen in the dashboard",
          from: "awaiting_confirmation",
          to: "paid",
          flag: "paid_manually",
          resolved: ["unconfirmed_report", "paid_manually"],
        },
      ],
      ["webhook_received", { verified: true, outcome: "settled", from: "paid", to: "paid" }],
    ]);
  });

  it("is left alone within the grace period", async () => {
    const issuedAt = new Date(Date.now() - 2 * ACCESS_TOKEN_LIFETIME_MS);
    const { id } = await storeOrder(t.db, {
      status: "awaiting_confirmation",
      paymentExpiresAt: new Date(issuedAt.getTime() + ACCESS_TOKEN_LIFETIME_MS),
      customerReturnedAt: issuedAt,
    });
    await expireDueOrders(t.db);
    expect(await t.db.query.orders.findFirst({ where: eq(orders.id, id) })).toMatchObject({
      status: "awaiting_confirmation",
      flags: [],
    });
  });
});

const q = (s: string) => new URLSearchParams(s);

describe("coming back from the payment page (docs: Return and cancel redirects)", () => {
  it("moves pending → awaiting confirmation on success at the return URL, once: the redirect is not proof of payment", async () => {
    const { id, paymentToken } = await storedOrder();
    const reported = { orderId: id, status: "awaiting_confirmation", outcome: "reported" };
    expect(await returnFromPaymentPage(t.db, "session-a", "success", q(`type=success&token=${paymentToken}`))).toEqual(
      reported,
    );
    expect(await statusOf(id)).toBe("awaiting_confirmation");
    const replay = { orderId: id, status: "awaiting_confirmation", outcome: "already_settled" };
    expect(await returnFromPaymentPage(t.db, "session-a", "success", q(`type=success&token=${paymentToken}`))).toEqual(
      replay,
    );
    expect(await returnFromPaymentPage(t.db, "session-a", "cancel", q(`type=cancel&token=${paymentToken}`))).toEqual(
      replay,
    );
    expect(await statusOf(id)).toBe("awaiting_confirmation");
  });

  it("keeps a payment the service confirmed first confirmed when the customer comes back", async () => {
    const { id, paymentToken } = await storedOrder("paid");
    expect(await returnFromPaymentPage(t.db, "session-a", "success", q(`type=success&token=${paymentToken}`))).toEqual({
      orderId: id,
      status: "paid",
      outcome: "reported",
    });
    expect(await statusOf(id)).toBe("paid");
  });

  it("moves pending → cancelled at the cancel URL, and a later success changes nothing", async () => {
    const { id, paymentToken } = await storedOrder();
    expect(
      (await returnFromPaymentPage(t.db, "session-a", "cancel", q(`type=cancel&token=${paymentToken}`))).outcome,
    ).toBe("cancelled");
    expect(
      (await returnFromPaymentPage(t.db, "session-a", "success", q(`type=success&token=${paymentToken}`))).outcome,
    ).toBe("already_settled");
    expect(await statusOf(id)).toBe("cancelled");
  });

  it("changes nothing for another token, a type that does not fit the URL, type=error, or another session", async () => {
    const { id, paymentToken } = await storedOrder();
    expect(await returnFromPaymentPage(t.db, "session-a", "success", q("type=success&token=pt-other"))).toEqual({
      outcome: "token_mismatch",
    });
    expect(await returnFromPaymentPage(t.db, "session-a", "success", q(`type=cancel&token=${paymentToken}`))).toEqual({
      outcome: "invalid_redirect",
    });
    expect(await returnFromPaymentPage(t.db, "session-a", "cancel", q(`type=error&token=${paymentToken}`))).toEqual({
      outcome: "invalid_redirect",
    });
    expect(await returnFromPaymentPage(t.db, "session-b", "success", q(`type=success&token=${paymentToken}`))).toEqual({
      outcome: "token_mismatch",
    });
    expect(await statusOf(id)).toBe("pending");
  });

  it("ignores the platform's extra parameters but refuses conflicting repeats and huge tokens", () => {
    expect(parseReturnQuery(q("type=success&token=pt-1&message[code]=200&data[x]=1"))).toEqual({
      type: "success",
      token: "pt-1",
    });
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
    await settle(t.db, id, {
      kind: "payment_confirmed",
      paymentToken: "pt",
      delivery: { token: "pt", outcome: "settled" },
    });
    const events = await eventsOf(id);
    expect(events.map((e) => [e.type, e.data])).toEqual([
      ["customer_returned", { returnType: "cancel", from: "pending", to: "cancelled" }],
      ["customer_returned", { returnType: "success", from: "cancelled", to: "cancelled" }],
      [
        "webhook_received",
        { verified: true, token: "pt", outcome: "settled", from: "cancelled", to: "paid", flag: "paid_after_cancel" },
      ],
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

describe("when and how an order became paid (orders.paid_at, orders.paid_gateway: the dashboard's sales)", () => {
  it("keeps the move to paid's time and the gateway the service named; a mark names none, a later delivery does", async () => {
    const paidOnce = await storedOrder();
    const at = new Date("2026-11-24T22:01:00Z");
    const delivery = { gateway: "sadad", transactionId: "TXN-9" };
    await settle(t.db, paidOnce.id, { kind: "payment_confirmed", paymentToken: paidOnce.paymentToken, delivery }, at);
    // A repeated delivery moves nothing, and the time stays the first one's.
    await settle(t.db, paidOnce.id, { kind: "payment_confirmed", paymentToken: paidOnce.paymentToken, delivery: {} });
    expect(await t.db.query.orders.findFirst({ where: eq(orders.id, paidOnce.id) })).toMatchObject({
      paidAt: at,
      paidGateway: "sadad",
    });

    const marked = await storedOrder("awaiting_confirmation");
    const markedAt = new Date("2026-11-25T09:00:00Z");
    await settle(t.db, marked.id, { kind: "marked_paid", by: "owner@medina.example", reference: "REF-1" }, markedAt);
    const columns = async () => {
      const order = await t.db.query.orders.findFirst({ where: eq(orders.id, marked.id) });
      return { paidAt: order?.paidAt, paidGateway: order?.paidGateway };
    };
    expect(await columns()).toEqual({ paidAt: markedAt, paidGateway: null });
    const late = { gateway: "edfali" };
    await settle(t.db, marked.id, { kind: "payment_confirmed", paymentToken: marked.paymentToken, delivery: late });
    expect(await columns()).toEqual({ paidAt: markedAt, paidGateway: "edfali" });

    const cancelled = await storedOrder("cancelled");
    await settle(t.db, cancelled.id, { kind: "customer_returned", type: "success" });
    expect((await t.db.query.orders.findFirst({ where: eq(orders.id, cancelled.id) }))?.paidAt).toBeNull();
  });
});

describe("expiry", () => {
  it("expires pending orders whose payment page died, once, however often and concurrently it runs", async () => {
    const dead = await storedOrder("pending", "session-x", diedAMinuteAgo());
    const reported = await storedOrder("awaiting_confirmation", "session-x", diedAMinuteAgo());
    const alive = await storedOrder("pending", "session-x");
    const paid = await storedOrder("paid", "session-x", diedAMinuteAgo());
    const runs = await Promise.all([expireDueOrders(t.db), expireDueOrders(t.db), expireDueOrders(t.db)]);
    expect(runs.reduce((a, b) => a + b, 0)).toBe(1);
    expect(await statusOf(dead.id)).toBe("expired");
    expect(await statusOf(reported.id)).toBe("awaiting_confirmation"); // reported paid: never expired (below)
    expect(await statusOf(alive.id)).toBe("pending");
    expect(await statusOf(paid.id)).toBe("paid");
    expect((await eventsOf(dead.id)).map((e) => [e.type, e.data])).toEqual([
      ["expired", { from: "pending", to: "expired" }],
    ]);
  });

  it("reads a dead payment as expired on every page, without writing: only the job writes the move", async () => {
    const dead = await storedOrder("pending", "session-y", diedAMinuteAgo());
    const alive = await storedOrder("pending", "session-y");
    expect((await findCustomerOrder(t.db, dead.id, "session-y"))?.status).toBe("expired");
    expect((await listCustomerOrders(t.db, "session-y")).map((order) => order.status).sort()).toEqual([
      "expired",
      "pending",
    ]);
    expect((await findOrderForAdmin(t.db, dead.id))?.status).toBe("expired");
    const listed = async (status: "expired" | "pending") =>
      (await listOrders(t.db, { status })).orders.filter((order) => order.sessionId === "session-y").map((o) => o.id);
    expect(await listed("expired")).toEqual([dead.id]);
    expect(await listed("pending")).toEqual([alive.id]);
    // Nothing was written by reading.
    expect(await statusOf(dead.id)).toBe("pending");
    expect(await eventsOf(dead.id)).toEqual([]);
    expect(effectiveStatus({ status: "pending", paymentExpiresAt: diedAMinuteAgo() })).toBe("expired");
    expect(effectiveStatus({ status: "pending", paymentExpiresAt: null })).toBe("expired");
    expect(effectiveStatus({ status: "awaiting_confirmation", paymentExpiresAt: diedAMinuteAgo() })).toBe(
      "awaiting_confirmation",
    );
  });

  it("gives up claims whose server died long ago", async () => {
    const id = newOrderId();
    await t.db.insert(orders).values({
      id,
      sessionId: "s",
      fingerprint: id,
      status: "started",
      amountMinor: 1,
      currency: "LYD",
      locale: "en",
      // Its deadline passed longer ago than a payment page lives: nobody took it over.
      claimExpiresAt: new Date(Date.now() - ACCESS_TOKEN_LIFETIME_MS - 60_000),
    });
    await expireDueOrders(t.db);
    expect(await t.db.query.orders.findFirst({ where: eq(orders.id, id) })).toMatchObject({
      status: "failed",
      failure: "abandoned",
    });
  });
});

describe("changeOrder: a change and its event, together or not at all", () => {
  it("writes both, or neither when the event cannot be stored", async () => {
    const { id } = await storedOrder("paid");
    const fulfil = { set: { fulfilledAt: new Date() } };
    // PostgreSQL cannot store U+0000 in jsonb: the event fails, so the change must not stay either.
    await expect(changeOrder(t.db, id, fulfil, { type: "fulfilled", data: { by: "a\u0000b" } })).rejects.toThrow();
    expect((await t.db.query.orders.findFirst({ where: eq(orders.id, id) }))?.fulfilledAt).toBeNull();
    expect(await eventsOf(id)).toEqual([]);

    expect(await changeOrder(t.db, id, fulfil, { type: "fulfilled", data: { by: "owner@shop.ly" } })).toBe(true);
    expect((await t.db.query.orders.findFirst({ where: eq(orders.id, id) }))?.fulfilledAt).toBeInstanceOf(Date);
    expect((await eventsOf(id)).map((e) => [e.type, e.data])).toEqual([["fulfilled", { by: "owner@shop.ly" }]]);
  });

  it("writes nothing when the change's condition no longer holds", async () => {
    const { id } = await storedOrder("cancelled");
    const onlyIfPaid = { set: { fulfilledAt: new Date() }, where: eq(orders.status, "paid") };
    expect(await changeOrder(t.db, id, onlyIfPaid, { type: "fulfilled" })).toBe(false);
    expect(await eventsOf(id)).toEqual([]);
  });
});
