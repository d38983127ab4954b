import { createHmac } from "node:crypto";
import { asc, eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { emailOutbox, orderEvents, orderLines, orders, products, type OrderStatus } from "../db/schema";
import { createTestProduct } from "../../testing/catalogue";
import { expireDueOrders } from "./expiry";
import { CONFIRMATION_GRACE_MS, settle } from "./settle";
import { ACCESS_TOKEN_LIFETIME_MS } from "../payments";
import { receiveWebhook } from "./webhook";
import { recordOrderEvent } from "./events";
import { setUpTestDatabase } from "../../testing/db";
import { storeOrder } from "../../testing/orders";
import { queueOrderEmails, resendEmail } from "./outbox";
import type { EmailSettings } from "../env";

// E-mail on, as the shop's environment turns it on: settle() and the webhook read these through lib/env.ts.
vi.stubEnv("SMTP_URL", "smtp://127.0.0.1:2525");
vi.stubEnv("MAIL_FROM", "Medina Market <shop@medina.example>");
vi.stubEnv("MERCHANT_EMAIL", "owner@medina.example");

const t = setUpTestDatabase();
const SECRET = "whsec-outbox-test-0123456789";

const storedOrder = (status: OrderStatus = "pending", email: string | null = "aisha@example.ly") =>
  storeOrder(t.db, { status, email, locale: "ar", paymentToken: `pt-${crypto.randomUUID()}` });
const outboxOf = (id: string) =>
  t.db.select().from(emailOutbox).where(eq(emailOutbox.orderId, id)).orderBy(asc(emailOutbox.id));
const eventsOf = async (id: string) =>
  (await t.db.select().from(orderEvents).where(eq(orderEvents.orderId, id)).orderBy(asc(orderEvents.id))).map(
    (event) => event.type,
  );
const statusOf = async (id: string) => (await t.db.query.orders.findFirst({ where: eq(orders.id, id) }))?.status;
const confirmed = { kind: "payment_confirmed", paymentToken: "pt", delivery: {} } as const;

/** Makes every insert into the outbox fail, as a database that fails between the two writes would. */
async function breakTheOutbox() {
  await t.pool.query(`
    create or replace function refuse_outbox() returns trigger language plpgsql as
      $$ begin raise exception 'the outbox is broken for this test'; end $$;
    create trigger refuse_outbox before insert on email_outbox for each row execute function refuse_outbox();`);
}
afterEach(async () => {
  await t.pool.query("drop trigger if exists refuse_outbox on email_outbox");
});

describe("the move to paid", () => {
  it("writes the receipt (order's language) and the merchant's notice in the same transaction, after its event", async () => {
    const { id } = await storedOrder();
    expect((await settle(t.db, id, confirmed))?.changed).toBe(true);
    expect(
      (await outboxOf(id)).map(({ kind, reason, recipient, locale, status }) => ({
        kind,
        reason,
        recipient,
        locale,
        status,
      })),
    ).toEqual([
      { kind: "receipt", reason: "paid", recipient: "aisha@example.ly", locale: "ar", status: "pending" },
      { kind: "merchant_notice", reason: "paid", recipient: "owner@medina.example", locale: "en", status: "pending" },
    ]);
    expect(await eventsOf(id)).toEqual(["webhook_received", "email_queued", "email_queued"]);
  });

  it("a payment held in time that the stock cannot cover (lowered under its hold): paid, flagged oversold, the merchant told", async () => {
    const lamp = await createTestProduct(t.db, { stock: 3 });
    const { id, paymentToken } = await storedOrder();
    await t.db.insert(orderLines).values({
      orderId: id,
      position: 0,
      productId: lamp,
      productSlug: "lamp",
      name: "Lamp",
      unitMinor: 625,
      quantity: 3,
    });
    // Stock lowered to 1 under the live hold of 3, past the back office's refusal (by hand in the database).
    await t.db.update(products).set({ stock: 1 }).where(eq(products.id, lamp));
    expect(await settle(t.db, id, { ...confirmed, paymentToken })).toMatchObject({ to: "paid", oversold: true });
    expect(await t.db.query.orders.findFirst({ where: eq(orders.id, id) })).toMatchObject({ flags: ["oversold"] });
    expect((await t.db.query.products.findFirst({ where: eq(products.id, lamp) }))?.stock).toBe(-2);
    expect((await outboxOf(id)).map((email) => email.kind)).toEqual(["receipt", "merchant_notice"]);
  });

  it("a failure writing the e-mails leaves neither them nor the move: the order stays pending, to be retried", async () => {
    const { id } = await storedOrder();
    await breakTheOutbox();
    await expect(settle(t.db, id, confirmed)).rejects.toThrow();
    expect(await statusOf(id)).toBe("pending");
    expect(await outboxOf(id)).toEqual([]);
    expect(await eventsOf(id)).toEqual([]);

    // The service retries the webhook once the database works again: the move and its e-mails, together, once.
    await t.pool.query("drop trigger refuse_outbox on email_outbox");
    expect((await settle(t.db, id, confirmed))?.changed).toBe(true);
    expect(await statusOf(id)).toBe("paid");
    expect(await outboxOf(id)).toHaveLength(2);
  });

  it("a repeated delivery queues nothing new", async () => {
    const { id } = await storedOrder();
    await settle(t.db, id, confirmed);
    expect((await settle(t.db, id, confirmed))?.changed).toBe(false);
    expect(await outboxOf(id)).toHaveLength(2);
    // And asking again by hand (two senders of one move) is refused by the database, not only by the state table.
    expect(await t.db.transaction((tx) => queueOrderEmails(tx, id, "paid"))).toEqual([]);
    expect(await outboxOf(id)).toHaveLength(2);
  });

  it.each<[OrderStatus, string]>([
    ["cancelled", "paid_after_cancel"],
    ["expired", "paid_after_expiry"],
  ])("money for a %s order: paid, flagged, and both e-mails queued", async (status, flag) => {
    const { id } = await storedOrder(status);
    expect(await settle(t.db, id, confirmed)).toMatchObject({ to: "paid", flag });
    expect((await outboxOf(id)).map((email) => email.kind)).toEqual(["receipt", "merchant_notice"]);
  });

  it("the merchant marking an order paid queues them too", async () => {
    const { id } = await storedOrder("awaiting_confirmation");
    await settle(t.db, id, { kind: "marked_paid", by: "owner@medina.example", reference: "TXN-9" });
    expect((await outboxOf(id)).map((email) => email.kind)).toEqual(["receipt", "merchant_notice"]);
  });

  it("no move to paid queues nothing (a cancel, a return, expiry)", async () => {
    const { id } = await storedOrder();
    await settle(t.db, id, { kind: "customer_returned", type: "cancel" });
    const other = await storedOrder();
    await settle(t.db, other.id, { kind: "customer_returned", type: "success" });
    expect([...(await outboxOf(id)), ...(await outboxOf(other.id))]).toEqual([]);
  });

  it("an order without an e-mail address gets the merchant's notice only", async () => {
    const { id } = await storedOrder("pending", null);
    await settle(t.db, id, confirmed);
    expect((await outboxOf(id)).map((email) => email.kind)).toEqual(["merchant_notice"]);
  });

  it("with e-mail off (no SMTP_URL) nothing is queued", async () => {
    const { id } = await storedOrder();
    expect(await t.db.transaction((tx) => queueOrderEmails(tx, id, "paid", new Date(), null))).toEqual([]);
    expect(await outboxOf(id)).toEqual([]);
  });

  it("each e-mail has a Message-ID of its own, on the sender's domain", async () => {
    const { id } = await storedOrder();
    await settle(t.db, id, confirmed);
    const [receipt, notice] = await outboxOf(id);
    expect(receipt!.messageId).toMatch(new RegExp(`^<[0-9a-f-]{36}\\.${id}@medina\\.example>$`));
    expect(notice!.messageId).not.toBe(receipt!.messageId);
  });
});

describe("a payment with another amount", () => {
  const deliver = (token: string, amount: number) => {
    const raw = JSON.stringify({ event: "payment.success", status: "success", token, amount, currency: "LYD" });
    return receiveWebhook(t.db, Buffer.from(raw), createHmac("sha256", SECRET).update(raw).digest("hex"), SECRET);
  };

  it("flags the order and queues the merchant's notice in one transaction, once however often it arrives", async () => {
    const { id, paymentToken } = await storedOrder();
    expect((await deliver(paymentToken, 1.0)).outcome).toBe("amount_mismatch");
    expect((await deliver(paymentToken, 2.0)).outcome).toBe("amount_mismatch");
    const order = await t.db.query.orders.findFirst({ where: eq(orders.id, id) });
    expect(order).toMatchObject({ status: "pending", flags: ["amount_mismatch"] });
    expect((await outboxOf(id)).map(({ kind, reason, recipient }) => ({ kind, reason, recipient }))).toEqual([
      { kind: "merchant_notice", reason: "amount_mismatch", recipient: "owner@medina.example" },
    ]);
  });

  it("a failure queueing the notice leaves the flag unraised and the delivery unacknowledged (the service retries)", async () => {
    const { id, paymentToken } = await storedOrder();
    await breakTheOutbox();
    await expect(deliver(paymentToken, 1.0)).rejects.toThrow();
    expect((await t.db.query.orders.findFirst({ where: eq(orders.id, id) }))?.flags).toEqual([]);
    await t.pool.query("drop trigger refuse_outbox on email_outbox");
    await deliver(paymentToken, 1.0);
    expect((await t.db.query.orders.findFirst({ where: eq(orders.id, id) }))?.flags).toEqual(["amount_mismatch"]);
    expect(await outboxOf(id)).toHaveLength(1);
  });
});

describe("a flag the scheduled job raises", () => {
  /** An order the customer reported paid a day and a minute ago, its webhook lost. */
  const reportedLongAgo = () => {
    const returned = new Date(Date.now() - CONFIRMATION_GRACE_MS - 60_000);
    return storeOrder(t.db, {
      status: "awaiting_confirmation",
      email: "aisha@example.ly",
      paymentExpiresAt: new Date(returned.getTime() + ACCESS_TOKEN_LIFETIME_MS),
      customerReturnedAt: returned,
      paymentToken: `pt-${crypto.randomUUID()}`,
    });
  };

  it("queues the merchant's notice with the flag, once however often and concurrently the job runs; no receipt", async () => {
    const { id } = await reportedLongAgo();
    await Promise.all([expireDueOrders(t.db), expireDueOrders(t.db)]);
    await expireDueOrders(t.db);
    expect((await t.db.query.orders.findFirst({ where: eq(orders.id, id) }))?.flags).toEqual(["unconfirmed_report"]);
    expect((await outboxOf(id)).map(({ kind, reason, recipient }) => ({ kind, reason, recipient }))).toEqual([
      { kind: "merchant_notice", reason: "unconfirmed_report", recipient: "owner@medina.example" },
    ]);
    expect(await eventsOf(id)).toEqual(["confirmation_overdue", "email_queued"]);

    // The merchant then marks it paid: that is news of its own, with the paid order's e-mails.
    await settle(t.db, id, { kind: "marked_paid", by: "owner@medina.example", reference: "TXN-5" });
    expect((await outboxOf(id)).map(({ kind, reason }) => `${kind}:${reason}`)).toEqual([
      "merchant_notice:unconfirmed_report",
      "receipt:paid",
      "merchant_notice:paid",
    ]);
  });

  it("a failure queueing the notice leaves the flag unraised, so the next run raises both", async () => {
    const { id } = await reportedLongAgo();
    await breakTheOutbox();
    await expect(expireDueOrders(t.db)).rejects.toThrow();
    expect((await t.db.query.orders.findFirst({ where: eq(orders.id, id) }))?.flags).toEqual([]);
    await t.pool.query("drop trigger refuse_outbox on email_outbox");
    await expireDueOrders(t.db);
    expect((await t.db.query.orders.findFirst({ where: eq(orders.id, id) }))?.flags).toEqual(["unconfirmed_report"]);
    expect(await outboxOf(id)).toHaveLength(1);
  });
});

describe("an expired order whose payment the shop may have missed", () => {
  /** A pending order whose payment page opened an hour ago and died 50 minutes ago, unpaid as far as the shop knows. */
  const diedUnpaid = () =>
    storeOrder(t.db, {
      email: "aisha@example.ly",
      createdAt: new Date(Date.now() - 3_600_000),
      paymentExpiresAt: new Date(Date.now() - 3_000_000),
      paymentToken: `pt-${crypto.randomUUID()}`,
    });
  const flagsOf = async (id: string) => (await t.db.query.orders.findFirst({ where: eq(orders.id, id) }))?.flags;
  const longAgo = new Date(Date.now() - 86_400_000);

  it("a webhook the shop could not record: expired, flagged 'check the payment list', the merchant told once", async () => {
    const { id } = await diedUnpaid();
    await recordOrderEvent(t.db, id, { type: "webhook_unrecorded", data: { attempts: 6, code: "ECONNREFUSED" } });
    await Promise.all([expireDueOrders(t.db, new Date(), longAgo), expireDueOrders(t.db, new Date(), longAgo)]);
    await expireDueOrders(t.db, new Date(), longAgo);
    expect(await statusOf(id)).toBe("expired");
    expect(await flagsOf(id)).toEqual(["check_payment_list"]);
    expect((await outboxOf(id)).map(({ kind, recipient }) => ({ kind, recipient }))).toEqual([
      { kind: "merchant_notice", recipient: "owner@medina.example" },
    ]);
    // Found in the merchant dashboard's list: the mark answers the flag.
    await settle(t.db, id, { kind: "marked_paid", by: "owner@medina.example", reference: "TXN-9", list: "lst_x" });
    expect(await t.db.query.orders.findFirst({ where: eq(orders.id, id) })).toMatchObject({
      status: "paid",
      resolvedFlags: ["check_payment_list", "paid_manually"],
    });
  });

  it("the database server restarted while its payment page was open: flagged too", async () => {
    const { id } = await diedUnpaid();
    await expireDueOrders(t.db, new Date(), new Date(Date.now() - 3_300_000));
    expect(await statusOf(id)).toBe("expired");
    expect(await flagsOf(id)).toEqual(["check_payment_list"]);
    expect(await outboxOf(id)).toHaveLength(1);
  });

  it("neither: expired quietly, as every abandoned payment page is", async () => {
    const { id } = await diedUnpaid();
    await expireDueOrders(t.db, new Date(), longAgo);
    expect(await statusOf(id)).toBe("expired");
    expect(await flagsOf(id)).toEqual([]);
    expect(await outboxOf(id)).toEqual([]);
    // By default the job asks PostgreSQL when it started: before this order, so no flag either.
    const other = await storeOrder(t.db, {
      paymentExpiresAt: new Date(Date.now() - 1_000),
      paymentToken: `pt-${crypto.randomUUID()}`,
    });
    await expireDueOrders(t.db);
    expect(await statusOf(other.id)).toBe("expired");
    expect(await flagsOf(other.id)).toEqual([]);
  });
});

describe("send the receipt again", () => {
  const settings: EmailSettings = {
    smtpUrl: "smtp://127.0.0.1:2525",
    from: "shop@medina.example",
    merchantEmail: "owner@medina.example",
    merchantLocale: "en",
    siteUrl: "https://shop.example.ly",
  };

  it.each([
    ["receipt", "receipt_resent"],
    ["merchant_notice", "notice_resent"],
  ] as const)(
    "queues the %s again for a paid order and records who asked; not while one is still waiting",
    async (kind, event) => {
      const { id } = await storedOrder();
      await settle(t.db, id, confirmed);
      expect(await resendEmail(t.db, id, kind, "owner@medina.example", new Date(), settings)).toBe("pending");
      await t.db.update(emailOutbox).set({ status: "sent" }).where(eq(emailOutbox.orderId, id));
      expect(await resendEmail(t.db, id, kind, "owner@medina.example", new Date(), settings)).toBe("queued");
      const queued = await outboxOf(id);
      expect(queued.filter((email) => email.kind === kind).map(({ reason, status }) => [reason, status])).toEqual([
        ["paid", "sent"],
        ["resend", "pending"],
      ]);
      expect(queued.filter((email) => email.kind !== kind).map(({ reason }) => reason)).toEqual(["paid"]);
      expect((await eventsOf(id)).slice(-2)).toEqual([event, "email_queued"]);
    },
  );

  it("says why not: not paid, no address, e-mail off, no such order", async () => {
    const pending = await storedOrder();
    const withoutAddress = await storedOrder("pending", null);
    await settle(t.db, withoutAddress.id, confirmed);
    const noMerchant = { ...settings, merchantEmail: undefined };
    expect(await resendEmail(t.db, pending.id, "receipt", "a@b.ly", new Date(), settings)).toBe("not_paid");
    expect(await resendEmail(t.db, withoutAddress.id, "receipt", "a@b.ly", new Date(), settings)).toBe("no_recipient");
    expect(await resendEmail(t.db, withoutAddress.id, "merchant_notice", "a@b.ly", new Date(), noMerchant)).toBe(
      "no_recipient",
    );
    expect(await resendEmail(t.db, pending.id, "receipt", "a@b.ly", new Date(), null)).toBe("email_off");
    expect(await resendEmail(t.db, "ord_0000000000000000", "receipt", "a@b.ly", new Date(), settings)).toBe(
      "not_found",
    );
  });
});
