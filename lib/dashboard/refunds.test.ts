import { parse } from "csv-parse/sync";
import { beforeAll, describe, expect, it } from "vitest";
import { exportOrdersCsv, listOrders } from "../admin/orders";
import { cancelOrder } from "../refunds/cancel";
import { openRefund, recordRefund } from "../refunds/refunds";
import { setUpTestDatabase } from "../../testing/db";
import { storeOrder } from "../../testing/orders";
import { dayRange } from "../time";
import { loadDashboard } from "./figures";

/**
 * The home's sales net of refunds, against orders and refunds worked out by hand below. "Now" is Wednesday
 * 25 November 2026, 10:00 in Tripoli (08:00 UTC); the last 7 days are 19–25 November, Tripoli's days (each begins at
 * 22:00 UTC the day before). A sale is counted on the day it was paid, a refund on the day it was recorded as made.
 */

const t = setUpTestDatabase();
const NOW = new Date("2026-11-25T08:00:00Z");
const at = (iso: string) => new Date(iso);
const ADMIN = "owner@medina.example";
const acting = { by: ADMIN, notify: false };

const ids = {
  /** 100.00 paid on the 20th; 25.00 of it refunded on the 21st. */
  partly: "ord_aaaaaaaaaaaaaaaa",
  /** 40.00 paid on the 22nd, cancelled by the merchant on the 23rd: its 40.00 refund is still to make. */
  cancelled: "ord_bbbbbbbbbbbbbbbb",
  /** 60.00 paid on 10 November (before both periods), all refunded on the 24th. */
  oldSale: "ord_cccccccccccccccc",
  /** 30.00 paid on the 23rd, a 10.00 refund opened on the 24th and not yet made. */
  due: "ord_dddddddddddddddd",
  /** 20.00 in cash collected on the 24th, 5.00 handed back today (07:00 UTC, 09:00 in Tripoli). */
  cash: "ord_eeeeeeeeeeeeeeee",
  /** 15.00 paid on the 15th, refunded at 21:30 UTC on the 18th: 23:30 in Tripoli, the day before the 7 days. */
  lastWeek: "ord_ffffffffffffffff",
};

/** An online order paid at `paidAt` for `amountMinor`, its checkout started ten minutes earlier. */
const paid = (id: string, paidAt: string, amountMinor: number) =>
  storeOrder(t.db, {
    id,
    status: "paid",
    amountMinor,
    paidAt: at(paidAt),
    createdAt: new Date(at(paidAt).getTime() - 10 * 60_000),
  });

/** A refund of `amountMinor` opened and recorded as made at `when`, with reference `reference`. */
async function refunded(id: string, amountMinor: number, when: string, reference: string) {
  const opened = await openRefund(t.db, id, { ...acting, amountMinor, key: `k-${reference}`, now: at(when) });
  if (opened.result !== "done") throw new Error(`refund of ${id}: ${opened.result}`);
  expect(await recordRefund(t.db, opened.refundId, { ...acting, reference, now: at(when) })).toMatchObject({
    result: "done",
  });
}

beforeAll(async () => {
  await paid(ids.partly, "2026-11-20T10:00:00Z", 10_000);
  await refunded(ids.partly, 2_500, "2026-11-21T10:00:00Z", "RF-A");
  await paid(ids.cancelled, "2026-11-22T10:00:00Z", 4_000);
  expect(
    await cancelOrder(t.db, ids.cancelled, { ...acting, reason: "customer_asked", now: at("2026-11-23T10:00:00Z") }),
  ).toMatchObject({ result: "done" });
  await paid(ids.oldSale, "2026-11-10T10:00:00Z", 6_000);
  await refunded(ids.oldSale, 6_000, "2026-11-24T10:00:00Z", "RF-C");
  await paid(ids.due, "2026-11-23T10:00:00Z", 3_000);
  await openRefund(t.db, ids.due, { ...acting, amountMinor: 1_000, key: "k-due", now: at("2026-11-24T09:00:00Z") });
  await storeOrder(t.db, {
    id: ids.cash,
    paymentMethod: "cash",
    status: "paid",
    amountMinor: 2_000,
    collectedMinor: 2_000,
    collectedBy: ADMIN,
    paidAt: at("2026-11-24T12:00:00Z"),
    createdAt: at("2026-11-23T12:00:00Z"),
  });
  // Opened and recorded at once, with the cash handed back's receipt as its reference.
  await openRefund(t.db, ids.cash, {
    ...acting,
    amountMinor: 500,
    reference: "CASH-E",
    key: "k-cash",
    now: at("2026-11-25T07:00:00Z"),
  });
  await paid(ids.lastWeek, "2026-11-15T10:00:00Z", 1_500);
  await refunded(ids.lastWeek, 1_500, "2026-11-18T21:30:00Z", "RF-F");
});

describe("the books after the sale", () => {
  it("the week's net sales are its sales less its refunds, worked out by hand", async () => {
    const week = await loadDashboard(t.db, "7d", NOW);
    // Sales paid 19–25 November: 10,000 (20th) + 4,000 (22nd, cancelled later: a sale all the same) + 3,000 (23rd)
    // + 2,000 (cash, 24th) = 19,000 in 4 orders. The old sale (10th) and last week's (15th) are not the week's.
    expect(week.sales.current).toEqual({ salesMinor: 19_000, orders: 4, averageMinor: 4_750 });
    // Refunds made 19–25 November: 2,500 (21st) + 6,000 (24th, of the old sale) + 500 (today) = 9,000 in 3; last
    // week's 1,500 was made on the 18th in Tripoli. The cancel's 4,000 and the 1,000 opened are not made yet.
    // Net: 19,000 − 9,000 = 10,000.
    expect(week.refunds).toEqual({ refundedMinor: 9_000, refundCount: 3, netSalesMinor: 10_000 });
    // To make, whatever the period: 4,000 (opened by the cancel, 23rd) + 1,000 (24th) = 5,000 in 2, oldest first.
    expect(week.refundsToMake).toEqual({ count: 2, minor: 5_000, orders: [ids.cancelled, ids.due] });

    // Today (from 22:00 UTC on the 24th): no sale, the cash refund of 500: net −500.
    const today = await loadDashboard(t.db, "today", NOW);
    expect(today.sales.current.salesMinor).toBe(0);
    expect(today.refunds).toEqual({ refundedMinor: 500, refundCount: 1, netSalesMinor: -500 });
  });

  it("the orders list filters by refunds, and its paid total agrees with the home", async () => {
    const idsOf = async (status: "refund_due" | "refunded" | "partly_refunded" | "cancelled") =>
      (await listOrders(t.db, { status })).orders.map((order) => order.id).sort();
    expect(await idsOf("refund_due")).toEqual([ids.cancelled, ids.due]);
    // Each row says what is still to refund, for its badge: the cancel's 4,000 and the 1,000 opened.
    const due = (await listOrders(t.db, { status: "refund_due" })).orders;
    expect(new Map(due.map((order) => [order.id, order.pendingRefundMinor]))).toEqual(
      new Map([
        [ids.cancelled, 4_000],
        [ids.due, 1_000],
      ]),
    );
    expect(await idsOf("refunded")).toEqual([ids.oldSale, ids.lastWeek].sort());
    expect(await idsOf("partly_refunded")).toEqual([ids.partly, ids.cash].sort());
    expect(await idsOf("cancelled")).toEqual([ids.cancelled]);
    expect(await listOrders(t.db, { paid: dayRange("2026-11-19", "2026-11-25") })).toMatchObject({
      count: 4,
      totalMinor: 19_000,
    });
  });

  it("the CSV ends with what was refunded, the refunds' references and the cancel's reason", async () => {
    const [header, ...rows] = parse(await new Response(exportOrdersCsv(t.db, {})).text()) as string[][];
    expect(header!.slice(-3)).toEqual(["refunded", "refund_references", "cancel_reason"]);
    const tail = new Map(rows.map((row) => [row[0], row.slice(-3)]));
    expect(tail.get(ids.partly)).toEqual(["25.00", "RF-A", ""]);
    expect(tail.get(ids.cancelled)).toEqual(["0.00", "", "customer_asked"]);
    expect(tail.get(ids.due)).toEqual(["0.00", "", ""]);
    expect(tail.get(ids.cash)).toEqual(["5.00", "CASH-E", ""]);
  });
});
