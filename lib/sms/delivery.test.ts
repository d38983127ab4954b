import { asc, eq } from "drizzle-orm";
import { Pool } from "pg";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { createDb } from "../db/client";
import { orderEvents, refunds, smsDays, smsOutbox, type SmsReason } from "../db/schema";
import type { SmsSettings } from "../env";
import { logger } from "../log";
import { setUpTestDatabase } from "../../testing/db";
import { storeOrder } from "../../testing/orders";
import { queueOrderSms, resendSms } from "../orders/sms-outbox";
import { settle } from "../orders/settle";
import { confirmCashOrder } from "../cash/moves";
import {
  claimNextSms,
  deliverPendingSms,
  LEASE_MS,
  MAX_ATTEMPTS,
  recordSmsReport,
  retryDelayMs,
  sendPendingSms,
} from "./delivery";
import { SmsSendError, type SmsMessage, type SmsSender } from "./sender";

/** The SMS outbox against a real database, with a sender that stands in for the provider (lib/sms/sender.ts's seam). */

// Text messages on, as the shop's environment turns them on: sendPendingSms reads these through lib/env.ts.
vi.stubEnv("SMPP_URL", "smpp://127.0.0.1:2775");
vi.stubEnv("SMPP_SYSTEM_ID", "medina-test");
vi.stubEnv("SMS_SENDER_NAME", "Medina");

const t = setUpTestDatabase();
const settings: SmsSettings = {
  smppUrl: "smpp://127.0.0.1:2775",
  systemId: "medina-test",
  password: "",
  senderName: "Medina",
  siteUrl: "https://shop.example.ly",
  orderLinkSecret: "an-order-link-secret-of-32-characters-at-least",
  dailyLimit: 500,
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
    expect(await queue(order.id)).toMatchObject({ phone: "+218912345678" });
    expect(await queue(order.id)).toBeNull(); // a replayed webhook, a second instance
    await Promise.all([queue(order.id), queue(order.id)]);
    const [row, ...others] = await outboxOf(order.id);
    expect(others).toEqual([]);
    expect(row).toMatchObject({ reason: "paid", locale: "ar", status: "pending", phone: "+218912345678" });
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

  it("writes a refund's message once per refund, with its amount when it is sent", async () => {
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
    expect(await outboxOf(order.id)).toHaveLength(2);
    const provider = fakeProvider();
    await deliverPendingSms(t.db, provider.sender, settings);
    expect(provider.sent.map((message) => message.text.split(" refunded")[0]).sort()).toEqual([
      "Medina Market: LYD 10.00",
      "Medina Market: LYD 5.00",
    ]);
  });
});

describe("the moves that write them", () => {
  it("a confirmed payment writes the receipt once, however often the webhook is replayed", async () => {
    const order = await smsOrder({ status: "awaiting_confirmation", paymentToken: `pt-${crypto.randomUUID()}` });
    const confirmed = { kind: "payment_confirmed", paymentToken: "pt", delivery: { gateway: "sadad" } } as const;
    await settle(t.db, order.id, confirmed);
    await settle(t.db, order.id, confirmed);
    expect(await outboxOf(order.id)).toMatchObject([{ reason: "paid", phone: "+218912345678" }]);
  });

  it("a cash order confirmed by the merchant writes its message", async () => {
    const order = await smsOrder({ status: "placed", paymentMethod: "cash" });
    expect(await confirmCashOrder(t.db, order.id, { by: "owner@medina.example" })).toEqual({ result: "done" });
    expect(await outboxOf(order.id)).toMatchObject([{ reason: "cash_confirmed" }]);
  });
});

describe("delivery", () => {
  it("hands a message to the provider once and records it accepted, with its parts' ids", async () => {
    const order = await smsOrder({ locale: "en" });
    await queue(order.id);
    const provider = fakeProvider();
    expect(await deliverPendingSms(t.db, provider.sender, settings)).toEqual({
      accepted: 1,
      failed: 0,
      retrying: 0,
      overLimit: 0,
    });
    expect(await deliverPendingSms(t.db, provider.sender, settings)).toEqual({
      accepted: 0,
      failed: 0,
      retrying: 0,
      overLimit: 0,
    });
    expect(provider.sent).toEqual([
      {
        to: "+218912345678",
        text: expect.stringMatching(new RegExp(`^Medina Market: thank you, order ${order.id} is paid`)),
      },
    ]);
    const [row] = await outboxOf(order.id);
    expect(row).toMatchObject({ status: "accepted", attempts: 1, lockedUntil: null });
    expect(row!.providerIds).toHaveLength(1);
    expect(await smsEventsOf(order.id)).toEqual(["sms_queued", "sms_sent"]);
  });

  it("two senders racing, on two connection pools, hand each message over exactly once", async () => {
    const orders = await Promise.all(Array.from({ length: 20 }, () => smsOrder()));
    for (const order of orders) await queue(order.id);
    const provider = fakeProvider({ delayMs: 30 }); // each takes a moment, so the two senders overlap all along
    const other = new Pool({ connectionString: t.url, max: 5 });
    try {
      const reports = await Promise.all([
        deliverPendingSms(t.db, provider.sender, settings, { limit: 100 }),
        deliverPendingSms(createDb(other), provider.sender, settings, { limit: 100 }),
      ]);
      expect(reports[0]!.accepted + reports[1]!.accepted).toBe(20);
      expect(Math.min(reports[0]!.accepted, reports[1]!.accepted)).toBeGreaterThan(0); // both did work
    } finally {
      await other.end();
    }
    const texts = provider.sent.map((message) => message.text);
    expect(texts.every((text) => text.includes("تم دفع الطلب"))).toBe(true); // in the order's language
    expect(texts).toHaveLength(20);
    expect(new Set(texts).size).toBe(20);
    for (const order of orders) expect(await outboxOf(order.id)).toMatchObject([{ status: "accepted", attempts: 1 }]);
  });

  it("with the provider down, stops after one attempt; every message goes once when it is back", async () => {
    const orders = await Promise.all(Array.from({ length: 3 }, () => smsOrder()));
    for (const order of orders) await queue(order.id);
    const provider = fakeProvider();
    provider.fail(new SmsSendError("connect ECONNREFUSED 127.0.0.1:2775", false, true));
    const down = await deliverPendingSms(t.db, provider.sender, settings);
    expect(down).toMatchObject({ accepted: 0, stopped: "provider_unreachable" });
    expect(down.retrying).toBeGreaterThanOrEqual(1);
    provider.fail(null);
    // Nothing is due again before its retry; then everything goes, once.
    expect((await deliverPendingSms(t.db, provider.sender, settings)).accepted).toBe(3 - down.retrying);
    expect(
      (await deliverPendingSms(t.db, provider.sender, settings, { now: later(retryDelayMs(1) + 1) })).accepted,
    ).toBe(down.retrying);
    expect(provider.sent).toHaveLength(3);
    for (const order of orders) expect(await outboxOf(order.id)).toMatchObject([{ status: "accepted" }]);
  });

  it("gives up on a message the provider refuses for good, or after the last attempt", async () => {
    const refused = await smsOrder();
    await queue(refused.id);
    const provider = fakeProvider();
    provider.fail(new SmsSendError("submit_sm: ESME_RINVDSTADR", true, false));
    expect(await deliverPendingSms(t.db, provider.sender, settings)).toEqual({
      accepted: 0,
      failed: 1,
      retrying: 0,
      overLimit: 0,
    });
    expect(await outboxOf(refused.id)).toMatchObject([{ status: "failed", lastError: "submit_sm: ESME_RINVDSTADR" }]);

    const tired = await smsOrder();
    await queue(tired.id);
    await t.db
      .update(smsOutbox)
      .set({ attempts: MAX_ATTEMPTS - 1 })
      .where(eq(smsOutbox.orderId, tired.id));
    provider.fail(new SmsSendError("submit_sm: ESME_RTHROTTLED", false, false));
    expect(await deliverPendingSms(t.db, provider.sender, settings)).toEqual({
      accepted: 0,
      failed: 1,
      retrying: 0,
      overLimit: 0,
    });
    expect(await smsEventsOf(tired.id)).toEqual(["sms_queued", "sms_failed"]);
  });
});

describe("the daily cap (SMS_DAILY_LIMIT)", () => {
  // Ten parts a day: three Arabic messages of three parts each fit, a fourth does not. Each test has a Tripoli day of
  // its own, far from today's, so the other tests' parts are not counted.
  const capped = { ...settings, dailyLimit: 10 };
  const dayOf = async (day: string) => (await t.db.select().from(smsDays).where(eq(smsDays.day, day)))[0];

  it("holds under two senders racing on two pools: exactly the parts that fit are sent, the rest wait unspent", async () => {
    const orders = await Promise.all(Array.from({ length: 8 }, () => smsOrder()));
    for (const order of orders) await queue(order.id);
    const provider = fakeProvider({ delayMs: 20 });
    const other = new Pool({ connectionString: t.url, max: 5 });
    const now = () => new Date("2031-03-10T10:00:00Z");
    try {
      const reports = await Promise.all([
        deliverPendingSms(t.db, provider.sender, capped, { limit: 100, now }),
        deliverPendingSms(createDb(other), provider.sender, capped, { limit: 100, now }),
      ]);
      expect(reports.map((report) => report.accepted).reduce((a, b) => a + b)).toBe(3);
      expect(reports.map((report) => report.overLimit).reduce((a, b) => a + b)).toBe(5);
    } finally {
      await other.end();
    }
    expect(provider.sent).toHaveLength(3);
    expect(await dayOf("2031-03-10")).toMatchObject({ parts: 9 });
    const rows = (await Promise.all(orders.map((order) => outboxOf(order.id)))).flat();
    expect(rows.filter((row) => row.status === "pending")).toHaveLength(5);
    for (const row of rows.filter((each) => each.status === "pending"))
      expect(row).toMatchObject({ attempts: 0, lockedUntil: null, lastError: null });
  });

  it("sends a message it held when the next Tripoli day begins, and marks the day reached once, with one warning", async () => {
    const warn = vi.spyOn(logger, "warn");
    try {
      const orders = await Promise.all(Array.from({ length: 4 }, () => smsOrder()));
      for (const order of orders) await queue(order.id);
      const provider = fakeProvider();
      const at = (iso: string) => () => new Date(iso);
      expect(await deliverPendingSms(t.db, provider.sender, capped, { now: at("2031-04-10T09:00:00Z") })).toEqual({
        accepted: 3,
        failed: 0,
        retrying: 0,
        overLimit: 1,
      });
      const reached = (await dayOf("2031-04-10"))!.limitReachedAt;
      expect(reached).toEqual(new Date("2031-04-10T09:00:00Z"));
      // Later that day: nothing is due (the held message waits for midnight in Tripoli, 22:00 UTC).
      const evening = await deliverPendingSms(t.db, provider.sender, capped, { now: at("2031-04-10T21:59:00Z") });
      expect(evening).toMatchObject({ accepted: 0, overLimit: 0 });
      const held = (await Promise.all(orders.map((order) => outboxOf(order.id)))).flat().find((row) => !row.acceptedAt);
      expect(held).toMatchObject({ status: "pending", attempts: 0, nextAttemptAt: new Date("2031-04-10T22:00:00Z") });
      // A message refused again the same day changes nothing of the mark, and warns no more.
      await queue((await smsOrder()).id);
      expect(await deliverPendingSms(t.db, provider.sender, capped, { now: at("2031-04-10T21:59:30Z") })).toMatchObject(
        { overLimit: 1 },
      );
      expect((await dayOf("2031-04-10"))!.limitReachedAt).toEqual(reached);
      expect(
        warn.mock.calls.filter(([entry]) => (entry as { event?: string }).event === "sms_daily_limit_reached"),
      ).toHaveLength(1);
      // The next Tripoli day: both go, once.
      expect(await deliverPendingSms(t.db, provider.sender, capped, { now: at("2031-04-10T22:00:01Z") })).toMatchObject(
        { accepted: 2, overLimit: 0 },
      );
      expect(await outboxOf(held!.orderId)).toMatchObject([{ status: "accepted", attempts: 1 }]);
      expect(provider.sent).toHaveLength(5);
      expect(await dayOf("2031-04-11")).toMatchObject({ parts: 6, limitReachedAt: null });
    } finally {
      warn.mockRestore();
    }
  });

  it("gives back the parts of a message the provider did not take", async () => {
    const order = await smsOrder();
    await queue(order.id);
    const provider = fakeProvider();
    provider.fail(new SmsSendError("submit_sm: ESME_RTHROTTLED", false, false));
    await deliverPendingSms(t.db, provider.sender, capped, { now: () => new Date("2031-05-10T09:00:00Z") });
    expect(await dayOf("2031-05-10")).toMatchObject({ parts: 0 });
  });
});

describe("the merchant's resend", () => {
  it("puts a failed or undelivered message back on its way, once, as the same row; anything else is left as it is", async () => {
    const order = await smsOrder();
    await queue(order.id);
    const provider = fakeProvider();
    provider.fail(new SmsSendError("submit_sm: ESME_RINVDSTADR", true, false));
    await deliverPendingSms(t.db, provider.sender, settings);
    const [failed] = await outboxOf(order.id);
    expect(failed).toMatchObject({ status: "failed", attempts: 1 });
    const resend = (id = failed!.id, orderId = order.id) =>
      resendSms(t.db, orderId, id, "owner@medina.example", { settings });

    expect(await resend()).toBe("queued");
    expect(await resend()).toBe("not_failed"); // a second press: it is already on its way
    expect(await outboxOf(order.id)).toMatchObject([{ status: "pending", attempts: 0, lastError: null }]);
    provider.fail(null);
    expect(await deliverPendingSms(t.db, provider.sender, settings)).toMatchObject({ accepted: 1 });
    expect(provider.sent).toHaveLength(1);

    // Accepted, then reported undelivered: sent again, with new part ids.
    const [accepted] = await outboxOf(order.id);
    await recordSmsReport(t.db, { providerId: accepted!.providerIds[0]!, delivered: false, state: "EXPIRED" });
    expect(await resend()).toBe("queued");
    expect(await outboxOf(order.id)).toMatchObject([{ status: "pending", providerIds: [], deliveredIds: [] }]);
    expect(await deliverPendingSms(t.db, provider.sender, settings)).toMatchObject({ accepted: 1 });
    expect(await outboxOf(order.id)).toMatchObject([{ status: "accepted", attempts: 1 }]);
    expect(provider.sent).toHaveLength(2);

    expect(await resend(failed!.id, (await smsOrder()).id)).toBe("not_found"); // another order's message
    expect(await resendSms(t.db, order.id, failed!.id, "owner@medina.example", { settings: null })).toBe("sms_off");
    expect(await smsEventsOf(order.id)).toEqual([
      "sms_queued",
      "sms_failed",
      "sms_resent",
      "sms_sent",
      "sms_report",
      "sms_resent",
      "sms_sent",
    ]);
  });
});

describe("a sender that died", () => {
  it("holds its message until the lease ends; then another sender sends it (the documented second copy)", async () => {
    const order = await smsOrder();
    await queue(order.id);
    // A sender claimed it, handed it over perhaps, and died before recording the answer.
    expect(await claimNextSms(t.db, new Date())).toMatchObject({ orderId: order.id, attempts: 1 });
    const provider = fakeProvider();
    expect((await deliverPendingSms(t.db, provider.sender, settings)).accepted).toBe(0);
    expect((await deliverPendingSms(t.db, provider.sender, settings, { now: later(LEASE_MS - 60_000) })).accepted).toBe(
      0,
    );
    expect((await deliverPendingSms(t.db, provider.sender, settings, { now: later(LEASE_MS + 1) })).accepted).toBe(1);
    expect(await outboxOf(order.id)).toMatchObject([{ status: "accepted", attempts: 2 }]);
  });
});

describe("delivery reports", () => {
  it("makes a message delivered once every part is, counting a repeated report once", async () => {
    const order = await smsOrder();
    await queue(order.id);
    await t.db
      .update(smsOutbox)
      .set({ status: "accepted", providerIds: ["p-1", "p-2"] })
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

describe("a run after a move (sendPendingSms)", () => {
  it("connects only when a message is due, and with the provider down leaves every message for the next run, unspent", async () => {
    const open = vi.fn(async () => fakeProvider().sender);
    expect(await sendPendingSms({ db: t.db, open })).toEqual({ accepted: 0, failed: 0, retrying: 0, overLimit: 0 });
    expect(open).not.toHaveBeenCalled();

    const orders = await Promise.all(Array.from({ length: 2 }, () => smsOrder()));
    for (const order of orders) await queue(order.id);
    const down = async (): Promise<SmsSender> => {
      throw new SmsSendError("SMPP smpp://127.0.0.1:2775: connect ECONNREFUSED", false, true);
    };
    expect(await sendPendingSms({ db: t.db, open: down })).toMatchObject({
      accepted: 0,
      stopped: "provider_unreachable",
    });
    for (const order of orders) expect(await outboxOf(order.id)).toMatchObject([{ status: "pending", attempts: 0 }]);

    const provider = fakeProvider();
    expect(await sendPendingSms({ db: t.db, open: async () => provider.sender, reportWaitMs: 0 })).toMatchObject({
      accepted: 2,
    });
    expect(provider.sent).toHaveLength(2);
    expect(await sendPendingSms({ db: t.db, open: async () => provider.sender, reportWaitMs: 0 })).toMatchObject({
      accepted: 0,
    });
  });
});
