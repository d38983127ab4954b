import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { setUpTestDatabase } from "../../testing/db";
import { storeOrder } from "../../testing/orders";
import { deliveryZones, orderLines } from "../db/schema";
import { findOrderByLink, orderLinkKey, orderLinkUrl, verifyOrderLinkKey } from "./order-link";

const t = setUpTestDatabase();

const SECRET = "an-order-link-secret-of-32-characters-or-more";
const ID = "ord_0123456789abcdef";
const OTHER_ID = "ord_0123456789abcdeg";
const key = orderLinkKey(ID, SECRET);
const BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

describe("the signed order link", () => {
  it("is the order id and a 43-character base64url signature, nothing else", () => {
    expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(orderLinkUrl("https://shop.example.ly", ID, SECRET)).toBe(`https://shop.example.ly/orders/${ID}?key=${key}`);
    expect(verifyOrderLinkKey(ID, key, SECRET)).toBe(true);
  });

  it("refuses every changed character, at every position, even one that decodes to the same bytes", () => {
    // 43 characters carry 258 bits for 256: the last one has two spare bits, so comparing decoded bytes would take
    // three other characters there. The link is compared as written.
    let tried = 0;
    for (let position = 0; position < key.length; position++) {
      for (const character of BASE64URL) {
        if (character === key[position]) continue;
        const changed = key.slice(0, position) + character + key.slice(position + 1);
        expect(verifyOrderLinkKey(ID, changed, SECRET), changed).toBe(false);
        tried++;
      }
    }
    expect(tried).toBe(43 * 63);
  });

  it("refuses a truncated, extended or padded signature", () => {
    for (let length = 0; length < key.length; length++)
      expect(verifyOrderLinkKey(ID, key.slice(0, length), SECRET)).toBe(false);
    expect(verifyOrderLinkKey(ID, `${key}A`, SECRET)).toBe(false);
    expect(verifyOrderLinkKey(ID, `${key}=`, SECRET)).toBe(false);
    expect(verifyOrderLinkKey(ID, ` ${key}`, SECRET)).toBe(false);
  });

  it("refuses another order's signature, and another key's", () => {
    expect(verifyOrderLinkKey(OTHER_ID, key, SECRET)).toBe(false);
    expect(verifyOrderLinkKey(ID, orderLinkKey(OTHER_ID, SECRET), SECRET)).toBe(false);
    expect(verifyOrderLinkKey(ID, key, `${SECRET}-rotated`)).toBe(false);
    expect(verifyOrderLinkKey(ID, orderLinkKey(ID, `${SECRET}-rotated`), SECRET)).toBe(false);
  });

  it("refuses what is not a signature, or an id that is not an order id, without throwing", () => {
    for (const value of [undefined, null, 42, ["a"], "", key.replace(/./, "+"), key.replace(/./, "/")])
      expect(verifyOrderLinkKey(ID, value, SECRET)).toBe(false);
    const forId = (id: string) => verifyOrderLinkKey(id, orderLinkKey(id, SECRET), SECRET);
    expect(forId("ord_../../admin")).toBe(false);
    expect(forId(ID.toUpperCase())).toBe(false);
  });
});

describe("the order a link opens", () => {
  /** A paid delivery to Benghazi, out for delivery, with every detail that names or reaches its customer. */
  async function deliveredOrder() {
    const [zone] = await t.db.select().from(deliveryZones).where(eq(deliveryZones.nameEn, "Benghazi"));
    const { id, paymentToken } = await storeOrder(t.db, {
      status: "paid",
      amountMinor: 8500 + zone!.feeMinor,
      fullName: "Aisha Ben Ali",
      email: "aisha@example.ly",
      phone: "0912345678",
      secondPhone: "0923456789",
      deliveryMethod: "delivery",
      deliveryZoneId: zone!.id,
      deliveryCityEn: zone!.nameEn,
      deliveryCityAr: zone!.nameAr,
      deliveryAddress: "Dubai Street, near the roundabout",
      deliveryLandmark: "Opposite Al-Nour mosque",
      deliveryFeeMinor: zone!.feeMinor,
      fulfilment: "out_for_delivery",
    });
    await t.db
      .insert(orderLines)
      .values({ orderId: id, position: 0, productSlug: "olive-oil", name: "Olive oil", unitMinor: 4250, quantity: 2 });
    return { id, paymentToken, zone: zone! };
  }

  it("says a cash order is paid in cash, with its fee and the deadline of the merchant's call", async () => {
    const confirmBy = new Date("2026-11-27T10:00:00Z");
    const { id } = await storeOrder(t.db, {
      paymentMethod: "cash",
      status: "placed",
      amountMinor: 7750,
      cashFeeMinor: 250,
      confirmBy,
    });
    expect(await findOrderByLink(t.db, id, orderLinkKey(id, SECRET), SECRET)).toMatchObject({
      status: "placed",
      paymentMethod: "cash",
      cashFeeMinor: 250,
      confirmBy,
    });
  });

  it("shows the promo code it was priced with and what it took off", async () => {
    const { id } = await storeOrder(t.db, {
      status: "paid",
      amountMinor: 3825,
      promo: { code: "EID10", discountMinor: 425 },
    });
    expect(await findOrderByLink(t.db, id, orderLinkKey(id, SECRET), SECRET)).toMatchObject({
      amountMinor: 3825,
      promoCode: "EID10",
      discountMinor: 425,
    });
  });

  it("shows its status, lines, total, city and step, and nothing that names or reaches the customer", async () => {
    const { id, paymentToken, zone } = await deliveredOrder();
    const order = await findOrderByLink(t.db, id, orderLinkKey(id, SECRET), SECRET);
    expect(order).toEqual({
      id,
      status: "paid",
      amountMinor: 8500 + zone.feeMinor,
      customerReturnedAt: null,
      deliveryMethod: "delivery",
      deliveryCityEn: "Benghazi",
      deliveryCityAr: zone.nameAr,
      deliveryFeeMinor: zone.feeMinor,
      fulfilment: "out_for_delivery",
      paymentMethod: "online",
      cashFeeMinor: 0,
      confirmBy: null,
      promoCode: null,
      discountMinor: 0,
      cancelledAt: null,
      refundedMinor: 0,
      pendingRefundMinor: 0,
      lines: [{ name: "Olive oil", unitMinor: 4250, quantity: 2 }],
    });
    const shown = JSON.stringify(order);
    for (const secret of [
      "Aisha",
      "aisha@",
      "0912345678",
      "0923456789",
      "Dubai Street",
      "Al-Nour",
      paymentToken,
      "session-a",
    ])
      expect(shown).not.toContain(secret);
  });

  it("is not found with a changed, truncated, another order's or another key's signature, or for an order never paid for", async () => {
    const { id } = await deliveredOrder();
    const other = await deliveredOrder();
    const key = orderLinkKey(id, SECRET);
    const changed = `${key.slice(0, 10)}${key[10] === "A" ? "B" : "A"}${key.slice(11)}`;
    for (const wrong of [
      changed,
      key.slice(0, 42),
      orderLinkKey(other.id, SECRET),
      orderLinkKey(id, `${SECRET}-x`),
      undefined,
      [key, key],
    ])
      expect(await findOrderByLink(t.db, id, wrong, SECRET)).toBeUndefined();
    const started = await storeOrder(t.db, { status: "started" });
    expect(await findOrderByLink(t.db, started.id, orderLinkKey(started.id, SECRET), SECRET)).toBeUndefined();
  });
});
