import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { deliveryEvents, deliveryZones, orders, storePickup } from "../db/schema";
import { newOrderId } from "../ids";
import { setUpTestDatabase } from "../../testing/db";
import { findEnabledZone, listDeliveryZones, readPickup } from "./zones";

/** Delivery's zones and pickup as a new database has them, and as the checkout reads them. */

const t = setUpTestDatabase();

const CITIES = [
  "Tripoli", "Benghazi", "Misrata", "Zawiya", "Zliten", "Khoms", "Gharyan", "Zuwara", "Sabratha", "Sirte", "Ajdabiya",
  "Bayda", "Marj", "Derna", "Tobruk", "Sabha", "Bani Walid", "Tarhuna", "Kufra", "Ubari",
]; // prettier-ignore

describe("delivery zones", () => {
  it("a new database delivers to Libya's main cities, named in both languages, with a fee each; pickup is off", async () => {
    const zones = await listDeliveryZones(t.db, { enabledOnly: true });
    expect(zones.map((zone) => zone.name.en)).toEqual(CITIES);
    expect(zones.find((zone) => zone.name.en === "Benghazi")).toMatchObject({ name: { ar: "بنغازي" }, feeMinor: 3500 });
    for (const zone of zones) {
      expect(zone.name.ar).toMatch(/^[\u0600-\u06FF ]+$/);
      expect(zone.feeMinor).toBeGreaterThan(0);
    }
    expect(await readPickup(t.db)).toMatchObject({ enabled: false });
  });

  it("the checkout finds only enabled zones, and lists them in the merchant's order", async () => {
    const [tripoli] = await t.db.select().from(deliveryZones).where(eq(deliveryZones.nameEn, "Tripoli"));
    await t.db.update(deliveryZones).set({ enabled: false }).where(eq(deliveryZones.id, tripoli!.id));
    expect(await findEnabledZone(t.db, tripoli!.id)).toBeUndefined();
    expect((await listDeliveryZones(t.db, { enabledOnly: true })).map((zone) => zone.name.en)).not.toContain("Tripoli");
    expect((await listDeliveryZones(t.db, { enabledOnly: false })).map((zone) => zone.name.en)).toContain("Tripoli");
    await t.db.update(deliveryZones).set({ enabled: true }).where(eq(deliveryZones.id, tripoli!.id));
    expect(await findEnabledZone(t.db, tripoli!.id)).toMatchObject({ name: { en: "Tripoli" } });
  });

  it("the database refuses a negative fee, a second city of the same name, pickup without an address, and rewriting the audit", async () => {
    await expect(t.db.insert(deliveryZones).values({ nameEn: "Ghat", nameAr: "غات", feeMinor: -1 })).rejects.toThrow();
    await expect(
      t.db.insert(deliveryZones).values({ nameEn: "benghazi", nameAr: "بنغازي ٢", feeMinor: 1 }),
    ).rejects.toThrow();
    await expect(t.db.update(storePickup).set({ enabled: true })).rejects.toThrow();
    await t.db.insert(deliveryEvents).values({ type: "pickup_edited", by: "owner@example.com" });
    await expect(t.db.execute(sql`update delivery_events set by = 'someone@else'`)).rejects.toThrow(/P0001/); // raise_exception: the trigger;
  });

  it("an order's delivery is complete, and only a delivery costs a fee", async () => {
    const [zone] = await t.db.select().from(deliveryZones).limit(1);
    const base = {
      sessionId: "s",
      fingerprint: "f",
      status: "started" as const,
      amountMinor: 5000,
      currency: "LYD",
      locale: "en",
      claimExpiresAt: new Date(),
    };
    // A delivery without its address, and a pickup with a fee, are refused.
    await expect(
      t.db.insert(orders).values({ ...base, id: newOrderId(), deliveryMethod: "delivery", deliveryZoneId: zone!.id }),
    ).rejects.toThrow();
    await expect(
      t.db.insert(orders).values({ ...base, id: newOrderId(), deliveryMethod: "pickup", deliveryFeeMinor: 100 }),
    ).rejects.toThrow();
    await expect(t.db.insert(orders).values({ ...base, id: newOrderId(), deliveryFeeMinor: 100 })).rejects.toThrow();
    await t.db.insert(orders).values({
      ...base,
      id: newOrderId(),
      deliveryMethod: "delivery",
      deliveryZoneId: zone!.id,
      deliveryCityEn: zone!.nameEn,
      deliveryCityAr: zone!.nameAr,
      deliveryAddress: "Hay Al-Andalus, Gergarish Road",
      deliveryFeeMinor: zone!.feeMinor,
    });
  });
});
