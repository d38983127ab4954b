import { createHmac } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { Pool } from "pg";
import { describe, expect, it } from "vitest";
import { setUpTestDatabase } from "../../testing/db";
import { storeOrder } from "../../testing/orders";
import { createDb } from "../db/client";
import { orderEvents } from "../db/schema";
import { noteUnrecordedDelivery, recordUnrecordedDeliveries, rememberedDeliveries } from "./unseen";
import { receiveWebhook } from "./webhook";

/** A server that could not record the service's webhook while its database was down (lib/orders/unseen.ts). */

const t = setUpTestDatabase();
const SECRET = "whsec-unseen-test-0123456789";

const signed = (token: string, custom?: string) => {
  const raw = JSON.stringify({
    event: "payment.success",
    status: "success",
    token,
    amount: 18.75,
    currency: "LYD",
    custom,
  });
  return { raw: Buffer.from(raw), signature: createHmac("sha256", SECRET).update(raw).digest("hex") };
};
const unrecordedOf = (id: string) =>
  t.db
    .select({ data: orderEvents.data })
    .from(orderEvents)
    .where(and(eq(orderEvents.orderId, id), eq(orderEvents.type, "webhook_unrecorded")));

describe("a verified delivery the database could not take", () => {
  it("is remembered, kept while the database still fails, and written on its order once it answers", async () => {
    const { id, paymentToken } = await storeOrder(t.db);
    // Nothing listens there: every query fails as it does while the database is down.
    const down = new Pool({ connectionString: "postgres://shop:shop@127.0.0.1:1/shop", connectionTimeoutMillis: 500 });
    const downDb = createDb(down);
    try {
      const delivery = signed(paymentToken);
      for (let attempt = 0; attempt < 2; attempt++) {
        const error = await receiveWebhook(downDb, delivery.raw, delivery.signature, SECRET).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(Error);
        noteUnrecordedDelivery(t.db, delivery.raw, delivery.signature, SECRET, error);
      }
      expect(rememberedDeliveries()).toBe(1);
      expect(await recordUnrecordedDeliveries(downDb)).toBe(0);
      expect(rememberedDeliveries()).toBe(1);
    } finally {
      await down.end();
    }
    expect(await recordUnrecordedDeliveries(t.db)).toBe(1);
    expect(rememberedDeliveries()).toBe(0);
    expect(await unrecordedOf(id)).toEqual([
      { data: expect.objectContaining({ attempts: 2, code: expect.any(String) }) },
    ]);
    expect(await recordUnrecordedDeliveries(t.db)).toBe(0);
  });

  it("finds an order whose token was never stored by the order number in `custom`", async () => {
    const { id } = await storeOrder(t.db);
    const delivery = signed("pt-never-stored", id);
    noteUnrecordedDelivery(t.db, delivery.raw, delivery.signature, SECRET, new Error("down"));
    expect(await recordUnrecordedDeliveries(t.db)).toBe(1);
    expect(await unrecordedOf(id)).toHaveLength(1);
  });

  it("remembers nothing of a delivery that is not signed with the merchant's secret", () => {
    const delivery = signed("pt-forged");
    noteUnrecordedDelivery(t.db, delivery.raw, "0".repeat(64), SECRET, new Error("down"));
    noteUnrecordedDelivery(t.db, delivery.raw, null, SECRET, new Error("down"));
    expect(rememberedDeliveries()).toBe(0);
  });
});
