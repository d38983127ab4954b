import { beforeAll, describe, expect, it } from "vitest";
import { listOrders } from "../admin/orders";
import { setUpTestDatabase } from "../../testing/db";
import { storeOrder } from "../../testing/orders";
import { dayRange } from "../time";
import { UNKNOWN_GATEWAY } from "./conditions";
import { loadDashboard } from "./figures";

/**
 * Cash on delivery on the merchant's home, against orders whose answers are worked out by hand below: a cash order is
 * a sale once, on the Tripoli day its cash was collected; paid online and cash collected are apart; confirmed cash
 * orders are cash still to collect. "Now" is Wednesday 25 November 2026, 10:00 in Tripoli (08:00 UTC): today began at
 * 24 November 22:00 UTC. The cash orders' columns are set directly (the moves are lib/cash/'s).
 */

const t = setUpTestDatabase();
const NOW = new Date("2026-11-25T08:00:00Z");
const at = (iso: string) => new Date(iso);
const ADMIN = "owner@medina.example";

const ids = {
  online: "ord_aaaaaaaaaaaaaaaa",
  collectedToday: "ord_bbbbbbbbbbbbbbbb",
  collectedYesterday: "ord_cccccccccccccccc",
  confirmed: "ord_dddddddddddddddd",
  delivered: "ord_eeeeeeeeeeeeeeee",
  failed: "ord_ffffffffffffffff",
  placedLater: "ord_gggggggggggggggg",
  placedSooner: "ord_hhhhhhhhhhhhhhhh",
  returned: "ord_jjjjjjjjjjjjjjjj",
  expired: "ord_kkkkkkkkkkkkkkkk",
};

/** A cash order, delivered (at `collectedAt` minus an hour) and its cash collected at `collectedAt`. */
function collected(id: string, placed: string, collectedAt: string, amountMinor: number) {
  const time = at(collectedAt);
  return storeOrder(t.db, {
    id,
    paymentMethod: "cash",
    status: "paid",
    amountMinor,
    createdAt: at(placed),
    confirmBy: null,
    fulfilment: "delivered",
    fulfilledAt: new Date(time.getTime() - 3_600_000),
    collectedMinor: amountMinor,
    collectedBy: ADMIN,
    paidAt: time,
  });
}

/** A cash order the merchant confirmed, placed at `placed`, its parcel at `fulfilment`. */
function confirmed(id: string, placed: string, amountMinor: number, more: Parameters<typeof storeOrder>[1] = {}) {
  return storeOrder(t.db, {
    id,
    paymentMethod: "cash",
    status: "confirmed",
    amountMinor,
    createdAt: at(placed),
    confirmBy: null,
    ...more,
  });
}

beforeAll(async () => {
  // Paid online at 00:01 today.
  await storeOrder(t.db, {
    id: ids.online,
    status: "paid",
    amountMinor: 2_500,
    paidGateway: "sadad",
    createdAt: at("2026-11-24T21:51:00Z"),
    paidAt: at("2026-11-24T22:01:00Z"),
  });
  // Placed on the 22nd; its cash collected at 00:30 today (22:30 UTC yesterday): today's sale, not the 22nd's.
  await collected(ids.collectedToday, "2026-11-22T10:00:00Z", "2026-11-24T22:30:00Z", 7_750);
  // Collected at 23:50 yesterday in Tripoli (21:50 UTC): yesterday's.
  await collected(ids.collectedYesterday, "2026-11-23T10:00:00Z", "2026-11-24T21:50:00Z", 1_000);
  // Confirmed, not yet shipped: to fulfil, and its cash to collect.
  await confirmed(ids.confirmed, "2026-11-23T10:00:00Z", 3_000);
  // Confirmed and delivered, the cash not yet recorded: to collect, nothing more to fulfil.
  await confirmed(ids.delivered, "2026-11-24T09:00:00Z", 4_000, {
    fulfilment: "delivered",
    fulfilledAt: at("2026-11-25T07:00:00Z"),
  });
  // Refused at the door: to go out again (to fulfil), its cash still to collect.
  await confirmed(ids.failed, "2026-11-22T08:00:00Z", 500, { fulfilment: "delivery_failed" });
  // Waiting for the merchant's call: the later one placed has the sooner deadline.
  await storeOrder(t.db, {
    id: ids.placedSooner,
    paymentMethod: "cash",
    status: "placed",
    amountMinor: 2_000,
    createdAt: at("2026-11-25T07:00:00Z"),
    confirmBy: at("2026-11-25T20:00:00Z"),
  });
  await storeOrder(t.db, {
    id: ids.placedLater,
    paymentMethod: "cash",
    status: "placed",
    amountMinor: 1_500,
    createdAt: at("2026-11-25T06:00:00Z"),
    confirmBy: at("2026-11-26T08:00:00Z"),
  });
  // Came back to the shop, and one never confirmed: neither sales nor cash to collect.
  await confirmed(ids.returned, "2026-11-21T10:00:00Z", 6_000, { status: "cancelled", fulfilment: "returned" });
  await storeOrder(t.db, {
    id: ids.expired,
    paymentMethod: "cash",
    status: "expired",
    amountMinor: 9_000,
    createdAt: at("2026-11-20T10:00:00Z"),
  });
});

describe("cash on delivery on the merchant's home", () => {
  it("counts a cash order as a sale once, on the Tripoli day its cash was collected, apart from paid online", async () => {
    const today = await loadDashboard(t.db, "today", NOW);
    // Today: 2,500 online + 7,750 cash collected at 00:30. Yesterday: 1,000 collected at 23:50.
    expect(today.sales).toEqual({
      current: { salesMinor: 10_250, orders: 2, averageMinor: 5_125 },
      previous: { salesMinor: 1_000, orders: 1, averageMinor: 1_000 },
    });
    // Cash to collect: the confirmed 3,000, the delivered 4,000 and the failed 500; never the returned or expired.
    expect(today.money).toEqual({
      online: { amountMinor: 2_500, orders: 1 },
      cashCollected: { amountMinor: 7_750, orders: 1 },
      cashToCollect: { amountMinor: 7_500, orders: 3 },
    });
    expect(today.gateways).toEqual([
      { way: "cash", gateway: null, orders: 1, salesMinor: 7_750 },
      { way: "online", gateway: "sadad", orders: 1, salesMinor: 2_500 },
    ]);

    const week = await loadDashboard(t.db, "7d", NOW);
    // Placed on the 22nd and the 23rd, collected on the 24th and 25th: counted on those days only, once each.
    expect(week.sales.current).toEqual({ salesMinor: 11_250, orders: 3, averageMinor: 3_750 });
    expect(week.money.cashCollected).toEqual({ amountMinor: 8_750, orders: 2 });
    expect(week.days.filter((day) => day.orders > 0)).toEqual([
      { day: "2026-11-24", salesMinor: 1_000, orders: 1 },
      { day: "2026-11-25", salesMinor: 10_250, orders: 2 },
    ]);
  });

  it("puts the cash orders to confirm first, nearest deadline first, and the confirmed ones among those to fulfil", async () => {
    const { toConfirm, toFulfil } = await loadDashboard(t.db, "today", NOW);
    expect(toConfirm.count).toBe(2);
    expect(toConfirm.oldest.map(({ id, confirmBy }) => ({ id, confirmBy }))).toEqual([
      { id: ids.placedSooner, confirmBy: at("2026-11-25T20:00:00Z") },
      { id: ids.placedLater, confirmBy: at("2026-11-26T08:00:00Z") },
    ]);
    // The paid online order (since paid), the confirmed and the failed cash orders (since placed); not the delivered
    // ones, collected or not.
    expect(toFulfil.count).toBe(3);
    expect(toFulfil.oldest.map(({ id, way }) => ({ id, way }))).toEqual([
      { id: ids.failed, way: "cash" },
      { id: ids.confirmed, way: "cash" },
      { id: ids.online, way: "online" },
    ]);
  });

  it("links to lists that hold exactly its numbers, by way of paying and by where a cash order stands", async () => {
    const today = dayRange("2026-11-25", "2026-11-25");
    const listed = async (query: Parameters<typeof listOrders>[1]) => {
      const page = await listOrders(t.db, query);
      return { ids: page.orders.map((order) => order.id).sort(), totalMinor: page.totalMinor };
    };
    expect(await listed({ paid: today, pay: "online" })).toEqual({ ids: [ids.online], totalMinor: 2_500 });
    expect(await listed({ paid: today, pay: "cash" })).toEqual({ ids: [ids.collectedToday], totalMinor: 7_750 });
    // A collected cash order names no gateway, and is not among the orders paid online without one.
    expect((await listOrders(t.db, { paid: today, gateway: UNKNOWN_GATEWAY })).count).toBe(0);
    expect((await listOrders(t.db, { pay: "cash" })).count).toBe(9);
    expect((await listed({ cash: "to_confirm" })).ids).toEqual([ids.placedLater, ids.placedSooner]);
    expect((await listed({ cash: "confirmed" })).ids).toEqual([ids.confirmed, ids.delivered, ids.failed]);
    expect(await listed({ cash: "collected" })).toEqual({
      ids: [ids.collectedToday, ids.collectedYesterday],
      totalMinor: 8_750,
    });
    expect((await listed({ cash: "delivery_failed" })).ids).toEqual([ids.failed]);
    expect((await listed({ cash: "cancelled" })).ids).toEqual([ids.returned]);
    expect((await listed({ status: "to_fulfil" })).ids).toEqual([ids.online, ids.confirmed, ids.failed].sort());
  });
});
