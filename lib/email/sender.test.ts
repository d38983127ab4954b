import { asc, eq } from "drizzle-orm";
import { Pool } from "pg";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createDb } from "../db/client";
import { emailOutbox, orderEvents, orderLines, refunds, storePickup, type OrderFlag } from "../db/schema";
import { formatMoney } from "../money";
import { settle } from "../orders/settle";
import { setUpTestDatabase } from "../../testing/db";
import { storeOrder } from "../../testing/orders";
import { startTestSmtpServer, type TestSmtpServer } from "../../testing/smtp";
import { queueAfterSaleEmail, queueOrderEmails } from "../orders/outbox";
import { deliverPendingEmails, LEASE_MS, MAX_ATTEMPTS, retryDelayMs } from "./sender";
import type { EmailSettings } from "../env";
import { SMTP_TIMEOUTS } from "./settings";

/** The sender against a real SMTP server (smtp-server) and a real database: what arrives, once, and what is kept. */

const t = setUpTestDatabase();
let smtp: TestSmtpServer;
let settings: EmailSettings;
beforeAll(async () => {
  smtp = await startTestSmtpServer();
  settings = {
    smtpUrl: smtp.url,
    from: "Medina Market <shop@medina.example>",
    merchantEmail: "owner@medina.example",
    merchantLocale: "en",
    siteUrl: "https://shop.example.ly",
  };
});
afterAll(() => smtp.stop());
beforeEach(async () => {
  smtp.messages.length = 0;
  smtp.refuse(null);
  smtp.delayMs = 0;
  // Each test starts with an empty outbox, so one test's leftovers are never another's to send.
  await t.db.update(emailOutbox).set({ status: "sent" }).where(eq(emailOutbox.status, "pending"));
});

/** A paid order of 2 × olive oil and 1 × saffron (103.75 LYD), its e-mails queued as the move to paid queues them. */
async function paidOrder({
  locale = "en",
  email = "aisha@example.ly",
  flags = [] as OrderFlag[],
}: { locale?: string; email?: string | null; flags?: OrderFlag[] } = {}) {
  const order = await storeOrder(t.db, {
    status: "awaiting_confirmation",
    amountMinor: 10375,
    locale,
    email,
    fullName: "Aisha Ben Ali",
    flags,
    paymentToken: `pt-${crypto.randomUUID()}`,
  });
  await t.db.insert(orderLines).values([
    { orderId: order.id, position: 0, productSlug: "olive-oil", name: "Olive oil", unitMinor: 3250, quantity: 2 },
    { orderId: order.id, position: 1, productSlug: "saffron", name: "زعفران", unitMinor: 3875, quantity: 1 },
  ]);
  await settle(t.db, order.id, { kind: "payment_confirmed", paymentToken: "pt", delivery: { gateway: "sadad" } });
  await t.db.transaction((tx) => queueOrderEmails(tx, order.id, "paid", new Date(), settings));
  return order;
}
const outboxOf = (id: string) =>
  t.db.select().from(emailOutbox).where(eq(emailOutbox.orderId, id)).orderBy(asc(emailOutbox.id));
const emailEventsOf = async (id: string) =>
  (await t.db.select().from(orderEvents).where(eq(orderEvents.orderId, id)).orderBy(asc(orderEvents.id)))
    .filter((event) => event.type.startsWith("email_"))
    .map((event) => [event.type, event.data]);
const received = (orderId: string) => smtp.messages.filter((mail) => mail.subject?.includes(orderId));
const inMinutes = (minutes: number) => () => new Date(Date.now() + minutes * 60_000);

describe("delivery", () => {
  it("sends a pickup's step with the shop's pickup address and hours as they are set now, in the order's language", async () => {
    await t.db
      .update(storePickup)
      .set({ enabled: true, addressEn: "12 Omar Al-Mukhtar St.", addressAr: "12 شارع عمر المختار", hoursAr: "9–21" })
      .where(eq(storePickup.id, 1));
    const order = await storeOrder(t.db, {
      status: "paid",
      locale: "ar",
      email: "aisha@example.ly",
      deliveryMethod: "pickup",
    });
    await t.db.insert(orderLines).values({
      orderId: order.id,
      position: 0,
      productSlug: "olive-oil",
      name: "Olive oil",
      unitMinor: 1875,
      quantity: 1,
    });
    await t.db.transaction((tx) => queueOrderEmails(tx, order.id, "ready_for_pickup", new Date(), settings));
    expect(await deliverPendingEmails(t.db, settings)).toMatchObject({ sent: 1 });
    const [mail] = received(order.id);
    expect(mail!.to).toMatchObject({ text: "aisha@example.ly" });
    expect(mail!.subject).toBe(`طلبك ${order.id} جاهز للاستلام`);
    expect(mail!.text).toContain("12 شارع عمر المختار");
    expect(mail!.text).toContain("9–21");
    expect(mail!.text).not.toContain("Omar Al-Mukhtar");
  });

  it("sends the receipt to the customer in the order's language and the notice to the merchant, once", async () => {
    const order = await paidOrder({ locale: "ar" });
    expect(await deliverPendingEmails(t.db, settings)).toEqual({ sent: 2, failed: 0, retrying: 0 });

    const mails = received(order.id);
    const receipt = mails.find((mail) => mail.to && "text" in mail.to && mail.to.text === "aisha@example.ly");
    const notice = mails.find((mail) => mail !== receipt);
    expect(receipt!.to).toMatchObject({ text: "aisha@example.ly" });
    expect(receipt!.from).toMatchObject({ text: '"Medina Market" <shop@medina.example>' });
    expect(receipt!.subject).toBe(`إيصال الطلب ${order.id}: تم دفع ${formatMoney(10375, "ar")}`);
    expect(receipt!.html).toContain('dir="rtl"');
    expect(receipt!.html).toContain(`https://shop.example.ly/orders/${order.id}`);
    expect(receipt!.text).toContain("سداد"); // paid with, as the webhook said, in Arabic
    expect(notice!.to).toMatchObject({ text: "owner@medina.example" });
    expect(notice!.subject).toBe(`New paid order ${order.id}: ${formatMoney(10375, "en")}`);
    expect(notice!.text).toContain(`https://shop.example.ly/admin/orders/${order.id}`);
    // No payment token, no secret: the order number and links to pages that check who is asking.
    for (const mail of [receipt!, notice!]) expect(`${mail.html}${mail.text}`).not.toContain(order.paymentToken);

    const rows = await outboxOf(order.id);
    expect(rows.map((row) => [row.status, row.attempts, row.lockedUntil])).toEqual([
      ["sent", 1, null],
      ["sent", 1, null],
    ]);
    expect([receipt!.messageId, notice!.messageId]).toEqual(rows.map((row) => row.messageId));
    // Sent side by side: the two `email_sent` events come in whichever order the relay answered.
    const events = await emailEventsOf(order.id);
    expect(events.slice(0, 2)).toEqual([
      ["email_queued", expect.objectContaining({ kind: "receipt" })],
      ["email_queued", expect.objectContaining({ kind: "merchant_notice" })],
    ]);
    expect(events.slice(2)).toEqual(
      expect.arrayContaining([
        ["email_sent", expect.objectContaining({ kind: "receipt", attempt: 1, recipient: "aisha@example.ly" })],
        ["email_sent", expect.objectContaining({ kind: "merchant_notice", attempt: 1 })],
      ]),
    );

    // Nothing left: a second run sends nothing.
    expect(await deliverPendingEmails(t.db, settings)).toEqual({ sent: 0, failed: 0, retrying: 0 });
    expect(received(order.id)).toHaveLength(2);
  });

  it("sends a refund's news with its amount and reference, read from the refund it names", async () => {
    const order = await paidOrder();
    await deliverPendingEmails(t.db, settings);
    const [refund] = await t.db
      .insert(refunds)
      .values({
        orderId: order.id,
        amountMinor: 1250,
        cause: "merchant",
        createdBy: "owner@medina.example",
        status: "refunded",
        reference: "RF-7001",
        recordedBy: "owner@medina.example",
        recordedAt: new Date(),
      })
      .returning({ id: refunds.id });
    await t.db.transaction((tx) =>
      queueAfterSaleEmail(tx, order.id, { reason: "refunded", refundId: refund!.id }, new Date(), settings),
    );
    expect(await deliverPendingEmails(t.db, settings)).toEqual({ sent: 1, failed: 0, retrying: 0 });
    const [mail] = received(order.id).filter((each) => each.subject?.includes("refunded"));
    expect(mail!.subject).toBe(`We refunded ${formatMoney(1250, "en")} for order ${order.id}`);
    expect(mail!.text).toContain("RF-7001");
  });

  it("spells out a flagged order's flags in the merchant's notice", async () => {
    const order = await paidOrder({ flags: ["paid_after_cancel"] });
    await deliverPendingEmails(t.db, settings);
    const notice = received(order.id).find((mail) => mail.subject?.startsWith("Paid order"))!;
    expect(notice.subject).toBe(`Paid order ${order.id} needs a look: ${formatMoney(10375, "en")}`);
    expect(notice.text).toContain(
      "Paid after a cancel or decline: the payment page had sent the customer back without a payment",
    );
  });

  it("two senders racing, on two connection pools, send each e-mail exactly once", async () => {
    const orders = await Promise.all(Array.from({ length: 10 }, () => paidOrder()));
    smtp.delayMs = 15; // each message takes a moment, so the two senders overlap all along
    const other = new Pool({ connectionString: t.url, max: 5 });
    try {
      const reports = await Promise.all([
        deliverPendingEmails(t.db, settings, { limit: 100 }),
        deliverPendingEmails(createDb(other), settings, { limit: 100 }),
      ]);
      expect(reports[0]!.sent + reports[1]!.sent).toBe(20);
      expect(Math.min(reports[0]!.sent, reports[1]!.sent)).toBeGreaterThan(0); // both did work
    } finally {
      await other.end();
    }
    const ids = smtp.messages.map((mail) => mail.messageId);
    expect(ids).toHaveLength(20);
    expect(new Set(ids).size).toBe(20);
    for (const order of orders) expect((await outboxOf(order.id)).every((row) => row.attempts === 1)).toBe(true);
  });
});

describe("a failing SMTP server", () => {
  it("down: the e-mails stay pending with their attempts recorded, the run stops, and they are sent when the server is back", async () => {
    const orders = [await paidOrder(), await paidOrder(), await paidOrder()];
    await smtp.stop();
    let report;
    try {
      report = await deliverPendingEmails(t.db, settings);
    } finally {
      await smtp.start();
    }
    // One attempt per lane that was sending when the server turned out to be down, not one per e-mail.
    expect(report).toMatchObject({ sent: 0, failed: 0, stopped: "server_unreachable" });
    const rows = (await Promise.all(orders.map((order) => outboxOf(order.id)))).flat();
    const tried = rows.filter((row) => row.attempts === 1);
    expect(tried).toHaveLength(report.retrying);
    expect(report.retrying).toBeLessThan(rows.length);
    for (const row of tried) {
      expect(row).toMatchObject({ status: "pending", lockedUntil: null });
      expect(row.lastError).toMatch(/ECONNREFUSED/);
      expect(row.nextAttemptAt.getTime()).toBeGreaterThan(Date.now() + 50_000); // a minute's backoff
    }
    const first = tried[0]!;
    const failedEvent = (await emailEventsOf(first.orderId)).find(
      ([type, data]) => type === "email_failed" && (data as { outboxId?: number }).outboxId === first.id,
    );
    expect(failedEvent).toEqual([
      "email_failed",
      expect.objectContaining({
        kind: first.kind,
        attempt: 1,
        final: false,
        retryAt: first.nextAttemptAt.toISOString(),
      }),
    ]);

    // Back, but before the backoff is over: only the e-mails never tried go.
    expect((await deliverPendingEmails(t.db, settings)).sent).toBe(rows.length - tried.length);
    // A minute later (the scheduled job, or the next request's sender): the others go too, once each.
    expect(await deliverPendingEmails(t.db, settings, { now: inMinutes(2) })).toEqual({
      sent: tried.length,
      failed: 0,
      retrying: 0,
    });
    for (const order of orders) expect(received(order.id)).toHaveLength(2);
  });

  it("a relay slow to acknowledge: the sender waits for it, nobody sends that e-mail again meanwhile, and the other e-mails go", async () => {
    // A relay that takes its time to answer the end of the receipt (it took 25 s in an outside test, where a 10 s
    // timeout made the sender count it failed and send it again: three copies).
    const order = await paidOrder({ email: "slow@example.ly" });
    const release = smtp.hold("slow@example.ly");
    const run = deliverPendingEmails(t.db, settings);
    // The merchant's notice is not held behind the receipt.
    await expect
      .poll(() => received(order.id).map((mail) => mail.subject))
      .toEqual([`New paid order ${order.id}: ${formatMoney(10375, "en")}`]);
    // Another sender meanwhile (the scheduled job, another instance) leaves the receipt to the one waiting for it.
    expect(await deliverPendingEmails(t.db, settings, { now: inMinutes(LEASE_MS / 60_000 - 1) })).toEqual({
      sent: 0,
      failed: 0,
      retrying: 0,
    });
    release();
    expect(await run).toEqual({ sent: 2, failed: 0, retrying: 0 });
    expect(received(order.id)).toHaveLength(2);
    expect((await outboxOf(order.id)).map((row) => [row.status, row.attempts])).toEqual([
      ["sent", 1],
      ["sent", 1],
    ]);
    // The lease outlasts the longest wait SMTP allows a relay (lib/email/settings.ts), with room to record the answer.
    expect(LEASE_MS).toBeGreaterThan(
      SMTP_TIMEOUTS.connectionTimeout + SMTP_TIMEOUTS.greetingTimeout + SMTP_TIMEOUTS.socketTimeout,
    );
  });

  it("answering 451 (try later): pending and retried; 550 for the recipient (never): failed at once", async () => {
    const order = await paidOrder();
    smtp.refuse({ code: 451, text: "4.3.0 Mailbox temporarily unavailable" });
    expect(await deliverPendingEmails(t.db, settings)).toEqual({ sent: 0, failed: 0, retrying: 2 });
    expect((await outboxOf(order.id)).map((row) => [row.status, row.lastError])).toEqual([
      ["pending", expect.stringContaining("451 4.3.0 Mailbox temporarily unavailable")],
      ["pending", expect.stringContaining("451")],
    ]);

    smtp.refuse({ code: 550, text: "5.1.1 No such user" });
    expect(await deliverPendingEmails(t.db, settings, { now: inMinutes(2) })).toEqual({
      sent: 0,
      failed: 2,
      retrying: 0,
    });
    expect((await outboxOf(order.id)).map((row) => row.status)).toEqual(["failed", "failed"]);
    expect((await emailEventsOf(order.id)).at(-1)).toEqual([
      "email_failed",
      expect.objectContaining({ final: true, error: expect.stringContaining("550 5.1.1 No such user") }),
    ]);
    expect(received(order.id)).toEqual([]);
  });

  it(`gives up after ${MAX_ATTEMPTS} attempts`, async () => {
    const order = await paidOrder({ email: null });
    await t.db
      .update(emailOutbox)
      .set({ attempts: MAX_ATTEMPTS - 1 })
      .where(eq(emailOutbox.orderId, order.id));
    smtp.refuse({ code: 451, text: "4.3.0 Try later" });
    expect(await deliverPendingEmails(t.db, settings)).toMatchObject({ failed: 1 });
    expect(await outboxOf(order.id)).toMatchObject([{ status: "failed", attempts: MAX_ATTEMPTS }]);
  });

  it("waits 1, 2, 4 … minutes between attempts, an hour at most", () => {
    expect([1, 2, 3, 4, 7, 8, 10].map((attempt) => retryDelayMs(attempt) / 60_000)).toEqual([1, 2, 4, 8, 60, 60, 60]);
  });
});

describe("a sender that died", () => {
  it("holds its e-mail until the lease ends; then another sender takes it over", async () => {
    const order = await paidOrder({ email: null });
    // Claimed a moment ago by a sender that then crashed (before or after talking to SMTP).
    await t.db
      .update(emailOutbox)
      .set({ attempts: 1, lockedUntil: new Date(Date.now() + LEASE_MS) })
      .where(eq(emailOutbox.orderId, order.id));
    expect((await deliverPendingEmails(t.db, settings)).sent).toBe(0);
    expect(await deliverPendingEmails(t.db, settings, { now: () => new Date(Date.now() + LEASE_MS + 1) })).toEqual({
      sent: 1,
      failed: 0,
      retrying: 0,
    });
    expect(await outboxOf(order.id)).toMatchObject([{ status: "sent", attempts: 2 }]);
  });
});
