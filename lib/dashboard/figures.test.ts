import { beforeAll, describe, expect, it } from "vitest";
import { listOrders } from "../admin/orders";
import { listProductsForAdmin } from "../catalog/back-office";
import { emailOutbox, orderLines, products, smsDays, smsOutbox } from "../db/schema";
import { setUpTestDatabase } from "../../testing/db";
import { storeOrder } from "../../testing/orders";
import { loadDashboard } from "./figures";
import { UNKNOWN_GATEWAY } from "./conditions";
import { dayRange } from "../time";

/**
 * The dashboard's figures against a set of orders whose answers are worked out by hand below. "Now" is Wednesday
 * 25 November 2026, 10:00 in Tripoli (08:00 UTC): today is 25 November, which began at 24 November 22:00 UTC.
 */

const t = setUpTestDatabase();
const NOW = new Date("2026-11-25T08:00:00Z");
const at = (iso: string) => new Date(iso);

/** A paid order: paid at `paidAt`, its checkout started ten minutes earlier. */
function paid(id: string, paidAt: string, amountMinor: number, more: Parameters<typeof storeOrder>[1] = {}) {
  const time = at(paidAt);
  return storeOrder(t.db, {
    id,
    status: "paid",
    amountMinor,
    paidAt: time,
    createdAt: new Date(time.getTime() - 10 * 60_000),
    ...more,
  });
}

const ids = {
  lateYesterday: "ord_aaaaaaaaaaaaaaaa",
  earlyToday: "ord_bbbbbbbbbbbbbbbb",
  fulfilledToday: "ord_cccccccccccccccc",
  markedByHand: "ord_dddddddddddddddd",
  flagged: "ord_eeeeeeeeeeeeeeee",
  cancelled: "ord_ffffffffffffffff",
  expired: "ord_gggggggggggggggg",
  deadPage: "ord_hhhhhhhhhhhhhhhh",
  overdue: "ord_jjjjjjjjjjjjjjjj",
  failed: "ord_kkkkkkkkkkkkkkkk",
  open: "ord_mmmmmmmmmmmmmmmm",
  mailFailed: "ord_nnnnnnnnnnnnnnnn",
  longAgo: "ord_pppppppppppppppp",
};

beforeAll(async () => {
  // 21:59 UTC is 23:59 in Tripoli: yesterday's (24 November) sale. 22:01 UTC is 00:01: today's, though its checkout
  // started yesterday (21:51 UTC).
  // Amounts are what was paid: a code's discount is already taken off them.
  await paid(ids.lateYesterday, "2026-11-24T21:59:00Z", 1_000, {
    paidGateway: "sadad",
    promo: { code: "EID10", discountMinor: 111 },
  });
  await paid(ids.earlyToday, "2026-11-24T22:01:00Z", 2_500, {
    paidGateway: "sadad",
    promo: { code: "EID10", discountMinor: 278 },
  });
  await paid(ids.fulfilledToday, "2026-11-25T06:00:00Z", 1_250, {
    promo: { code: "RAMADAN", discountMinor: 150 },
    paidGateway: "moamalat",
    fulfilment: "fulfilled",
    fulfilledAt: at("2026-11-25T07:00:00Z"),
  });
  // Marked paid by hand (no gateway named), its own flag resolved by the mark: needs no look.
  await paid(ids.markedByHand, "2026-11-20T10:00:00Z", 4_000, {
    flags: ["paid_manually"],
    resolvedFlags: ["paid_manually"],
  });
  // 21:30 UTC on 18 November is 23:30 in Tripoli: the 18th, the last day of the 7 days before the last 7.
  await paid(ids.flagged, "2026-11-18T21:30:00Z", 3_000, { paidGateway: "edfali", flags: ["paid_after_expiry"] });
  // A free-delivery code on a pickup: a use, nothing taken off.
  await paid(ids.mailFailed, "2026-11-22T12:00:00Z", 500, {
    paidGateway: "moamalat",
    promo: { code: "FREESHIP", discountMinor: 0 },
  });
  await paid(ids.longAgo, "2026-10-01T12:00:00Z", 1_000, { paidGateway: "sadad" });
  // Checkouts started today (from 22:00 UTC yesterday) that are not sales.
  await storeOrder(t.db, {
    id: ids.cancelled,
    status: "cancelled",
    amountMinor: 9_999,
    promo: { code: "EID10", discountMinor: 999 },
    createdAt: at("2026-11-25T06:00:00Z"),
  });
  await storeOrder(t.db, {
    id: ids.expired,
    status: "expired",
    amountMinor: 8_888,
    createdAt: at("2026-11-24T23:00:00Z"),
  });
  // Pending, but its payment page died at 05:10: it reads as expired.
  await storeOrder(t.db, {
    id: ids.deadPage,
    amountMinor: 7_777,
    createdAt: at("2026-11-25T05:00:00Z"),
    paymentExpiresAt: at("2026-11-25T05:10:00Z"),
  });
  await storeOrder(t.db, {
    id: ids.failed,
    status: "failed",
    amountMinor: 6_666,
    createdAt: at("2026-11-25T07:30:00Z"),
  });
  // Its payment page is alive at 08:00: still open, and its line holds a unit of the "few left" product.
  await storeOrder(t.db, {
    id: ids.open,
    amountMinor: 5_555,
    promo: { code: "EID10", discountMinor: 555 },
    createdAt: at("2026-11-25T07:55:00Z"),
    paymentExpiresAt: at("2026-11-25T08:05:00Z"),
  });
  // Reported paid on the 23rd at 07:00 UTC, more than 24 hours before now, and never confirmed.
  await storeOrder(t.db, {
    id: ids.overdue,
    status: "awaiting_confirmation",
    amountMinor: 4_444,
    createdAt: at("2026-11-23T06:50:00Z"),
    customerReturnedAt: at("2026-11-23T07:00:00Z"),
    paymentExpiresAt: at("2026-11-23T07:00:00Z"),
  });
  await t.db.insert(emailOutbox).values({
    orderId: ids.mailFailed,
    kind: "receipt",
    reason: "paid",
    recipient: "customer@example.ly",
    locale: "en",
    messageId: "<failed@medina.example>",
    status: "failed",
    attempts: 5,
  });

  const product = (slug: string, stock: number | null) => ({
    slug,
    nameEn: slug,
    nameAr: slug,
    priceMinor: 1_000,
    stock,
  });
  const [, fewLeft] = await t.db
    .insert(products)
    .values([
      product("sold-out", 0),
      product("few-left", 3),
      product("three-left", 3),
      product("plenty", 10),
      product("not-counted", null),
    ])
    .returning({ id: products.id });
  await t.db.insert(orderLines).values({
    orderId: ids.open,
    position: 0,
    productId: fewLeft!.id,
    productSlug: "few-left",
    name: "few-left",
    unitMinor: 1_000,
    quantity: 1,
  });
});

describe("the dashboard's figures", () => {
  it("counts today's sales by Tripoli's day: 22:01 UTC is today, 21:59 UTC yesterday", async () => {
    const today = await loadDashboard(t.db, "today", NOW);
    expect(today.bounds.current).toMatchObject({
      from: "2026-11-25",
      to: "2026-11-25",
      start: at("2026-11-24T22:00:00Z"),
    });
    // Today: 2,500 (00:01) + 1,250 (08:00) = 3,750 in 2 orders, 1,875 each. Yesterday: 1,000 (23:59), 1 order.
    expect(today.sales).toEqual({
      current: { salesMinor: 3_750, orders: 2, averageMinor: 1_875 },
      previous: { salesMinor: 1_000, orders: 1, averageMinor: 1_000 },
    });
    expect(today.days).toEqual([{ day: "2026-11-25", salesMinor: 3_750, orders: 2 }]);
  });

  it("adds up the last 7 days against the 7 before, never counting cancelled, expired or unconfirmed orders", async () => {
    const week = await loadDashboard(t.db, "7d", NOW);
    expect(week.bounds.current).toMatchObject({ from: "2026-11-19", to: "2026-11-25" });
    // 19–25 November: 4,000 (20th) + 500 (22nd) + 1,000 (24th, 23:59) + 2,500 + 1,250 (25th) = 9,250 in 5 orders,
    // 1,850 on average. 12–18 November: the flagged 3,000, paid at 23:30 on the 18th.
    expect(week.sales).toEqual({
      current: { salesMinor: 9_250, orders: 5, averageMinor: 1_850 },
      previous: { salesMinor: 3_000, orders: 1, averageMinor: 3_000 },
    });
    expect(week.days).toEqual([
      { day: "2026-11-19", salesMinor: 0, orders: 0 },
      { day: "2026-11-20", salesMinor: 4_000, orders: 1 },
      { day: "2026-11-21", salesMinor: 0, orders: 0 },
      { day: "2026-11-22", salesMinor: 500, orders: 1 },
      { day: "2026-11-23", salesMinor: 0, orders: 0 },
      { day: "2026-11-24", salesMinor: 1_000, orders: 1 },
      { day: "2026-11-25", salesMinor: 3_750, orders: 2 },
    ]);
    // By gateway, most sales first: none named 4,000 (1), Sadad 3,500 (2), MOAMALAT 1,750 (2).
    expect(week.gateways).toEqual([
      { way: "online", gateway: null, orders: 1, salesMinor: 4_000 },
      { way: "online", gateway: "sadad", orders: 2, salesMinor: 3_500 },
      { way: "online", gateway: "moamalat", orders: 2, salesMinor: 1_750 },
    ]);
    const month = await loadDashboard(t.db, "30d", NOW);
    // 27 October – 25 November: the week's 9,250 and the flagged 3,000; 1 October is before it.
    expect(month.sales.current).toEqual({ salesMinor: 12_250, orders: 6, averageMinor: 2_042 });
    expect(month.days).toHaveLength(30);
  });

  it("lists the paid orders to fulfil, oldest payment first, and what needs a look with its reasons", async () => {
    const { toFulfil, attention } = await loadDashboard(t.db, "today", NOW);
    // Every paid order but the fulfilled one: 6.
    expect(toFulfil.count).toBe(6);
    expect(toFulfil.oldest.map((order) => order.id)).toEqual([
      ids.longAgo,
      ids.flagged,
      ids.markedByHand,
      ids.mailFailed,
      ids.lateYesterday,
    ]);
    // The flagged order, the unconfirmed report past its grace, the failed receipt; not the mark's resolved flag.
    expect(attention.count).toBe(3);
    expect(attention.byReason).toEqual({ paid_after_expiry: 1, confirmation_overdue: 1, email_failed: 1 });
    expect(attention.orders.map(({ id, reasons }) => ({ id, reasons }))).toEqual([
      { id: ids.overdue, reasons: ["confirmation_overdue"] },
      { id: ids.mailFailed, reasons: ["email_failed"] },
      { id: ids.flagged, reasons: ["paid_after_expiry"] },
    ]);
  });

  it("adds up the discounts of the period's paid orders, in all and per code, by the Tripoli day they were paid", async () => {
    // Today: EID10's 2.78 (00:01) and RAMADAN's 1.50; yesterday's 23:59 EID10 order is not today's. The cancelled and
    // the open order carry EID10 too, and gave nothing.
    expect((await loadDashboard(t.db, "today", NOW)).discounts).toEqual({
      discountMinor: 428,
      orders: 2,
      codes: [
        { code: "EID10", orders: 1, discountMinor: 278 },
        { code: "RAMADAN", orders: 1, discountMinor: 150 },
      ],
    });
    // 19–25 November: EID10 1.11 + 2.78, RAMADAN 1.50, and FREESHIP's use that took nothing off (a pickup).
    const week = await loadDashboard(t.db, "7d", NOW);
    expect(week.discounts).toEqual({
      discountMinor: 539,
      orders: 4,
      codes: [
        { code: "EID10", orders: 2, discountMinor: 389 },
        { code: "RAMADAN", orders: 1, discountMinor: 150 },
        { code: "FREESHIP", orders: 1, discountMinor: 0 },
      ],
    });
    // Sales stay what was paid: the discounts are not added back.
    expect(week.sales.current.salesMinor).toBe(9_250);
    // Each code's number links to the list of exactly those orders.
    const days = dayRange("2026-11-19", "2026-11-25");
    expect(await listOrders(t.db, { paid: days, promo: "EID10" })).toMatchObject({ count: 2, totalMinor: 3_500 });
    expect((await listOrders(t.db, { paid: days, promo: "FREESHIP" })).orders.map((o) => o.id)).toEqual([
      ids.mailFailed,
    ]);
  });

  it("follows today's checkouts from started to where they are now", async () => {
    const { funnel } = await loadDashboard(t.db, "today", NOW);
    // Started today (from 22:00 UTC): the paid-and-fulfilled one (05:50), cancelled, expired (23:00 UTC the day before
    // is 01:00 today), the dead page (expired), failed (no payment) and the open one. The 00:01 sale started at
    // 23:51 yesterday.
    expect(funnel).toEqual({ started: 6, paymentCreated: 5, paid: 1, cancelled: 1, expired: 2, failed: 1, open: 1 });
  });

  it("names the sold-out and low products, by what is available now", async () => {
    const { stock } = await loadDashboard(t.db, "today", NOW);
    // sold-out: 0; few-left: 3 on hand, 1 held by the open checkout, 2 available; three-left: 3. Plenty and the
    // uncounted one are fine.
    expect(stock.soldOut).toBe(1);
    expect(stock.low).toBe(2);
    expect(stock.products.map(({ nameEn, available }) => [nameEn, available])).toEqual([
      ["sold-out", 0],
      ["few-left", 2],
      ["three-left", 3],
    ]);
  });

  it("links to lists that hold exactly its numbers", async () => {
    const week = dayRange("2026-11-19", "2026-11-25");
    expect(await listOrders(t.db, { paid: week })).toMatchObject({ count: 5, totalMinor: 9_250 });
    expect(await listOrders(t.db, { paid: week, gateway: "sadad" })).toMatchObject({ count: 2, totalMinor: 3_500 });
    expect(await listOrders(t.db, { paid: week, gateway: UNKNOWN_GATEWAY })).toMatchObject({ count: 1 });
    expect((await listOrders(t.db, { status: "to_fulfil" })).count).toBe(6);
    expect((await listOrders(t.db, { flag: "paid_after_expiry" })).orders.map((o) => o.id)).toEqual([ids.flagged]);
    expect((await listOrders(t.db, { flag: "paid_manually" })).count).toBe(0);
    expect((await listOrders(t.db, { status: "email_failed" })).orders.map((o) => o.id)).toEqual([ids.mailFailed]);
    expect((await listOrders(t.db, { status: "confirmation_overdue" })).orders.map((o) => o.id)).toEqual([ids.overdue]);
    const today = dayRange("2026-11-25", "2026-11-25");
    expect((await listOrders(t.db, { created: today })).count).toBe(6);
    expect((await listOrders(t.db, { created: today, status: "payment_created" })).count).toBe(5);
    expect((await listOrders(t.db, { created: today, status: "cancelled" })).count).toBe(1);
    expect((await listProductsForAdmin(t.db, { filter: "low_stock" }, NOW)).total).toBe(2);
    expect((await listProductsForAdmin(t.db, { filter: "sold_out" }, NOW)).total).toBe(1);
  });

  // Last: it adds text messages to the orders above.
  it("needs a look at an order whose text message failed or was not delivered, and says when today's cap was reached", async () => {
    expect((await loadDashboard(t.db, "today", NOW)).smsLimitReachedAt).toBeNull();
    const sms = { reason: "paid" as const, phone: "+218912345678", locale: "en" as const };
    await t.db.insert(smsOutbox).values([
      { ...sms, orderId: ids.lateYesterday, status: "failed", attempts: 10, lastError: "submit_sm: ESME_RINVDSTADR" },
      { ...sms, orderId: ids.mailFailed, status: "undelivered", lastError: "delivery report: EXPIRED" },
      { ...sms, orderId: ids.earlyToday, status: "delivered" },
    ]);
    // Reached yesterday (Tripoli), and today at 09:30 Tripoli: the home shows today's.
    await t.db.insert(smsDays).values([
      { day: "2026-11-24", parts: 500, limitReachedAt: at("2026-11-24T20:00:00Z") },
      { day: "2026-11-25", parts: 500, limitReachedAt: at("2026-11-25T07:30:00Z") },
    ]);
    const { attention, smsLimitReachedAt } = await loadDashboard(t.db, "today", NOW);
    expect(attention.byReason).toMatchObject({ email_failed: 1, sms_failed: 2 });
    expect(attention.count).toBe(4);
    expect(attention.orders.find((order) => order.id === ids.mailFailed)?.reasons).toEqual([
      "email_failed",
      "sms_failed",
    ]);
    expect(smsLimitReachedAt).toEqual(at("2026-11-25T07:30:00Z"));
    expect((await loadDashboard(t.db, "today", at("2026-11-25T22:00:00Z"))).smsLimitReachedAt).toBeNull();
    expect((await listOrders(t.db, { status: "sms_failed" })).orders.map((o) => o.id).sort()).toEqual(
      [ids.lateYesterday, ids.mailFailed].sort(),
    );
  });
});
