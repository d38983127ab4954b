import { asc, eq } from "drizzle-orm";
import { Pool } from "pg";
import { describe, expect, it } from "vitest";
import { createDb } from "../db/client";
import { deliveryEvents, orderEvents } from "../db/schema";
import { setUpTestDatabase } from "../../testing/db";
import { storeOrder } from "../../testing/orders";
import { blockPhone, phoneHistory, unblockPhone } from "./phones";

/** A phone's record with the shop, and the merchant's block against fake cash orders. */

const t = setUpTestDatabase();
const ADMIN = "owner@medina.example";

const audit = async () =>
  (await t.db.select().from(deliveryEvents).orderBy(asc(deliveryEvents.id))).map(({ type, by, data }) => ({
    type,
    by,
    data,
  }));

describe("a phone's history", () => {
  it("counts its orders by way of paying and status, lists its failed deliveries and returns, and marks it for a look", async () => {
    const phone = "0921111111";
    const clean = await phoneHistory(t.db, phone);
    expect(clean).toMatchObject({ orders: [], counts: [], failedDeliveries: [], returned: 0, markedForLook: false });

    await storeOrder(t.db, { phone, status: "paid" });
    await storeOrder(t.db, { phone, status: "failed" }); // a claim that never became an order: not history
    await storeOrder(t.db, { phone, paymentMethod: "cash", status: "placed" });
    await storeOrder(t.db, { phone, paymentMethod: "cash", status: "placed" });
    await storeOrder(t.db, { phone: "0929999999", paymentMethod: "cash", status: "placed" }); // someone else
    const history = await phoneHistory(t.db, phone);
    expect(history.orders).toHaveLength(3);
    expect(history.counts).toEqual([
      { paymentMethod: "cash", status: "placed", count: 2 },
      { paymentMethod: "online", status: "paid", count: 1 },
    ]);
    expect(history.markedForLook).toBe(false);

    // One delivery refused at the door is enough for a look.
    const { id: refused } = await storeOrder(t.db, {
      phone,
      paymentMethod: "cash",
      status: "confirmed",
      fulfilment: "delivery_failed",
      deliveryMethod: "pickup",
    });
    await t.db.insert(orderEvents).values({ orderId: refused, type: "delivery_failed", data: { reason: "refused" } });
    const looked = await phoneHistory(t.db, phone);
    expect(looked.failedDeliveries).toEqual([{ orderId: refused, at: expect.any(Date), reason: "refused" }]);
    expect(looked.markedForLook).toBe(true);

    // A parcel that came back, alone, is enough too.
    const other = "0922222222";
    await storeOrder(t.db, {
      phone: other,
      paymentMethod: "cash",
      status: "cancelled",
      fulfilment: "returned",
      deliveryMethod: "pickup",
    });
    expect(await phoneHistory(t.db, other)).toMatchObject({ returned: 1, failedDeliveries: [], markedForLook: true });
  });
});

describe("blocking a phone from paying cash", () => {
  it("blocks once and unblocks once, in any writing of the number, each audited with who and why", async () => {
    const before = await audit();
    const second = new Pool({ connectionString: t.url, max: 2 });
    try {
      const results = await Promise.all([
        blockPhone(t.db, "091 234 5678", { by: ADMIN, note: "Refused twice at the door" }),
        blockPhone(createDb(second), "+218 91-234-5678", { by: "two@medina.example", note: "Fake" }),
      ]);
      expect(results.sort()).toEqual(["already", "done"]);
    } finally {
      await second.end();
    }
    const { blocked } = await phoneHistory(t.db, "0912345678");
    expect(blocked).toMatchObject({ phone: "0912345678", blockedAt: expect.any(Date) });
    expect(await unblockPhone(t.db, "0912345678", { by: ADMIN, note: "She paid online since" })).toBe("done");
    expect(await unblockPhone(t.db, "0912345678", { by: ADMIN })).toBe("already");
    expect((await phoneHistory(t.db, "0912345678")).blocked).toBeNull();

    const written = (await audit()).slice(before.length);
    expect(written).toEqual([
      {
        type: "phone_blocked",
        by: blocked!.blockedBy,
        data: { phone: "0912345678", note: blocked!.note },
      },
      {
        type: "phone_unblocked",
        by: ADMIN,
        data: {
          phone: "0912345678",
          note: "She paid online since",
          blockedBy: blocked!.blockedBy,
          blockNote: blocked!.note,
          blockedAt: blocked!.blockedAt.toISOString(),
        },
      },
    ]);
  });

  it("refuses a number that is not a Libyan mobile, writing nothing", async () => {
    const before = await audit();
    expect(await blockPhone(t.db, "12345", { by: ADMIN })).toBe("invalid");
    expect(await unblockPhone(t.db, "not a phone", { by: ADMIN })).toBe("invalid");
    expect(await audit()).toEqual(before);
    expect(await t.db.query.cashBlockedPhones.findMany({ where: (row) => eq(row.phone, "12345") })).toEqual([]);
  });
});
