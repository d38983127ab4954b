import { asc, eq } from "drizzle-orm";
import { Pool } from "pg";
import { beforeEach, describe, expect, it } from "vitest";
import { createDb } from "../db/client";
import { orderEvents, refunds, smsOutbox, type SmsReason } from "../db/schema";
import type { SmsSettings } from "../env";
import { setUpTestDatabase } from "../../testing/db";
import { storeOrder } from "../../testing/orders";
import { claimNextSms, deliverPendingSms, LEASE_MS, MAX_ATTEMPTS, recordSmsReport, retryDelayMs } from "./delivery";
import { queueOrderSms } from "./outbox";
import { SmsSendError, type SmsMessage, type SmsSender } from "./sender";

/** The SMS outbox against a real database, with a sender that stands in for the provider (lib/sms/sender.ts's seam). */

const t = setUpTestDatabase();
const settings: SmsSettings = {
  smppUrl: "smpp://127.0.0.1:2775",
  systemId: "medina-test",
  password: "",
  senderName: "Medina",
  siteUrl: "https://shop.example.ly",
  orderLinkSecret: "an-order-link-secret-of-32-characters-at-least",
};

/** A provider that accepts every message after `delayMs`, gives each part an id, and remembers what it was given. */
function fakeProvider({ delayMs = 0 } = {}) {
  const sent: SmsMessage[] = [];
  let failure: SmsSendError | null = null;
  let next = 0;
  const sender: SmsSender = {
    async send(message) {
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      if (failure) throw failure;
      sent.push(message);
      return [`msg-${++next}-${crypto.randomUUID()}`];
    },
    close: async () => {},
  };
  return { sender, sent, fail: (error: SmsSendError | null) => void (failure = error) };
}

beforeEach(async () => {
  // Each test starts with nothing due, so one test's leftovers are never another's to send.
  await t.db.update(smsOutbox).set({ status: "accepted" }).where(eq(smsOutbox.status, "pending"));
});

const smsOrder = (overrides: Parameters<typeof storeOrder>[1] = {}) =>
  storeOrder(t.db, { status: "paid", phone: "091 234 5678", smsUpdates: true, locale: "ar", ...overrides });
const queue = (orderId: string, reason: SmsReason = "paid", refundId?: number) =>
  t.db.transaction((tx) => queueOrderSms(tx, orderId, reason, { settings, ...(refundId ? { refundId } : {}) }));
const outboxOf = (id: string) =>
  t.db.select().from(smsOutbox).where(eq(smsOutbox.orderId, id)).orderBy(asc(smsOutbox.id));
const smsEventsOf = async (id: string) =>
  (await t.db.select().from(orderEvents).where(eq(orderEvents.orderId, id)).orderBy(asc(orderEvents.id)))
    .map((event) => event.type)
    .filter((type) => type.startsWith("sms_"));
const later = (ms: number) => () => new Date(Date.now() + ms);

describe("queueing", () => {
  it("writes one message per order and reason, to the Libyan mobile, in the order's language, however often asked", async () => {
    const order = await smsOrder();
    expect(await queue(order.id)).toMatchObject({ phone: "+218912345678", parts: 3 });
    expect(await queue(order.id)).toBeNull(); // a replayed webhook, a second instance
    await Promise.all([queue(order.id), queue(order.id)]);
    const [row, ...others] = await outboxOf(order.id);
    expect(others).toEqual([]);
    expect(row).toMatchObject({ reason: "paid", locale: "ar", status: "pending" });
    expect(row!.body).toContain(order.id);
    expect(row!.body).toContain("تم دفع الطلب");
    expect(await smsEventsOf(order.id)).toEqual(["sms_queued"]);
    // A step is one more.
    await queue(order.id, "out_for_delivery");
    expect(await outboxOf(order.id)).toHaveLength(2);
  });

  it("writes nothing when the customer did not ask, the phone is no Libyan mobile, or text messages are off", async () => {
    const notAsked = await smsOrder({ smsUpdates: false });
    const landline = await smsOrder({ phone: "021 333 4444" });
    const noPhone = await smsOrder({ phone: null });
    for (const order of [notAsked, landline, noPhone]) expect(await queue(order.id)).toBeNull();
    const order = await smsOrder();
    expect(await t.db.transaction((tx) => queueOrderSms(tx, order.id, "paid", { settings: null }))).toBeNull();
    for (const { id } of [notAsked, landline, noPhone, order]) expect(await outboxOf(id)).toEqual([]);
  });

  it("is part of the move's transaction: a move rolled back leaves no message", async () => {
    const order = await smsOrder();
    await expect(
      t.db.transaction(async (tx) => {
        await queueOrderSms(tx, order.id, "paid", { settings });
        throw new Error("the move failed");
      }),
    ).rejects.toThrow("the move failed");
    expect(await outboxOf(order.id)).toEqual([]);
    expect(await smsEventsOf(order.id)).toEqual([]);
  });

  it("writes a refund's message once per refund, with its amount", async () => {
    const order = await smsOrder({ locale: "en" });
    const [first, second] = await t.db
      .insert(refunds)
      .values(
        [1_000, 500].map((amountMinor) => ({
          orderId: order.id,
          amountMinor,
          cause: "merchant" as const,
          createdBy: "a@b.ly",
        })),
      )
      .returning({ id: refunds.id });
    await queue(order.id, "refunded", first!.id);
    await queue(order.id, "refunded", first!.id);
    await queue(order.id, "refunded", second!.id);
    expect((await outboxOf(order.id)).map((row) => row.body.split(" refunded")[0])).toEqual([
      "Medina Market: LYD 10.00",
      "Medina Market: LYD 5.00",
    ]);
  });
});

describe("delivery", () => {
  it("hands a message to the provider once and records it accepted, with its parts' ids", async () => {
    const order = await smsOrder({ locale: "en" });
    await queue(order.id);
    const provider = fakeProvider();
    expect(await deliverPendingSms(t.db, provider.sender)).toEqual({ accepted: 1, failed: 0, retrying: 0 });
    expect(await deliverPendingSms(t.db, provider.sender)).toEqual({ accepted: 0, failed: 0, retrying: 0 });
    expect(provider.sent).toEqual([{ to: "+218912345678", text: expect.stringContaining(order.id) }]);
    const [row] = await outboxOf(order.id);
    expect(row).toMatchObject({ status: "accepted", attempts: 1, lockedUntil: null });
    expect(row!.providerIds).toHaveLength(1);
    expect(await smsEventsOf(order.id)).toEqual(["sms_queued", "sms_sent"]);
  });

  it("two senders racing, on two connection pools, hand each message over exactly once", async () => {
    const orders = await Promise.all(Array.from({ length: 10 }, () => smsOrder()));
    for (const order of orders) await queue(order.id);
    const provider = fakeProvider({ delayMs: 15 }); // each takes a moment, so the two senders overlap all along
    const other = new Pool({ connectionString: t.url, max: 5 });
    try {
      const reports = await Promise.all([
        deliverPendingSms(t.db, provider.sender, { limit: 100 }),
        deliverPendingSms(createDb(other), provider.sender, { limit: 100 }),
      ]);
      expect(reports[0]!.accepted + reports[1]!.accepted).toBe(10);
      expect(Math.min(reports[0]!.accepted, reports[1]!.accepted)).toBeGreaterThan(0); // both did work
    } finally {
      await other.end();
    }
    const texts = provider.sent.map((message) => message.text);
    expect(texts).toHaveLength(10);
    expect(new Set(texts).size).toBe(10);
    for (const order of orders) expect(await outboxOf(order.id)).toMatchObject([{ status: "accepted", attempts: 1 }]);
  });

  it("with the provider down, stops after one attempt; every message goes once when it is back", async () => {
    const orders = await Promise.all(Array.from({ length: 3 }, () => smsOrder()));
    for (const order of orders) await queue(order.id);
    const provider = fakeProvider();
    provider.fail(new SmsSendError("connect ECONNREFUSED 127.0.0.1:2775", false, true));
    const down = await deliverPendingSms(t.db, provider.sender);
    expect(down).toMatchObject({ accepted: 0, stopped: "provider_unreachable" });
    expect(down.retrying).toBeGreaterThanOrEqual(1);
    provider.fail(null);
    // Nothing is due again before its retry; then everything goes, once.
    expect((await deliverPendingSms(t.db, provider.sender)).accepted).toBe(3 - down.retrying);
    expect((await deliverPendingSms(t.db, provider.sender, { now: later(retryDelayMs(1) + 1) })).accepted).toBe(
      down.retrying,
    );
    expect(provider.sent).toHaveLength(3);
    for (const order of orders) expect(await outboxOf(order.id)).toMatchObject([{ status: "accepted" }]);
  });

  it("gives up on a message the provider refuses for good, or after the last attempt", async () => {
    const refused = await smsOrder();
    await queue(refused.id);
    const provider = fakeProvider();
    provider.fail(new SmsSendError("submit_sm: ESME_RINVDSTADR", true, false));
    expect(await deliverPendingSms(t.db, provider.sender)).toEqual({ accepted: 0, failed: 1, retrying: 0 });
    expect(await outboxOf(refused.id)).toMatchObject([{ status: "failed", lastError: "submit_sm: ESME_RINVDSTADR" }]);

    const tired = await smsOrder();
    await queue(tired.id);
    await t.db
      .update(smsOutbox)
      .set({ attempts: MAX_ATTEMPTS - 1 })
      .where(eq(smsOutbox.orderId, tired.id));
    provider.fail(new SmsSendError("submit_sm: ESME_RTHROTTLED", false, false));
    expect(await deliverPendingSms(t.db, provider.sender)).toEqual({ accepted: 0, failed: 1, retrying: 0 });
    expect(await smsEventsOf(tired.id)).toEqual(["sms_queued", "sms_failed"]);
  });
});

describe("a sender that died", () => {
  it("holds its message until the lease ends; then another sender sends it (the documented second copy)", async () => {
    const order = await smsOrder();
    await queue(order.id);
    // A sender claimed it, handed it over perhaps, and died before recording the answer.
    expect(await claimNextSms(t.db, new Date())).toMatchObject({ orderId: order.id, attempts: 1 });
    const provider = fakeProvider();
    expect((await deliverPendingSms(t.db, provider.sender)).accepted).toBe(0);
    expect((await deliverPendingSms(t.db, provider.sender, { now: later(LEASE_MS - 60_000) })).accepted).toBe(0);
    expect((await deliverPendingSms(t.db, provider.sender, { now: later(LEASE_MS + 1) })).accepted).toBe(1);
    expect(await outboxOf(order.id)).toMatchObject([{ status: "accepted", attempts: 2 }]);
  });
});

describe("delivery reports", () => {
  it("makes a message delivered once every part is, counting a repeated report once", async () => {
    const order = await smsOrder();
    await queue(order.id);
    await t.db
      .update(smsOutbox)
      .set({ status: "accepted", parts: 2, providerIds: ["p-1", "p-2"] })
      .where(eq(smsOutbox.orderId, order.id));
    const report = (providerId: string) => recordSmsReport(t.db, { providerId, delivered: true, state: "DELIVRD" });
    expect(await report("p-1")).toBe(true);
    expect(await report("p-1")).toBe(true);
    expect(await outboxOf(order.id)).toMatchObject([{ status: "accepted", deliveredIds: ["p-1"] }]);
    await report("p-2");
    expect(await outboxOf(order.id)).toMatchObject([{ status: "delivered" }]);
    expect(await report("someone-else's")).toBe(false);
  });

  it("makes a message undelivered when a part never arrives, and says why", async () => {
    const order = await smsOrder();
    await queue(order.id);
    await t.db
      .update(smsOutbox)
      .set({ status: "accepted", providerIds: ["q-1"] })
      .where(eq(smsOutbox.orderId, order.id));
    await recordSmsReport(t.db, { providerId: "q-1", delivered: false, state: "EXPIRED" });
    expect(await outboxOf(order.id)).toMatchObject([{ status: "undelivered", lastError: "delivery report: EXPIRED" }]);
    expect(await smsEventsOf(order.id)).toEqual(["sms_queued", "sms_report"]);
  });
});
