import "server-only";
import { and, asc, eq } from "drizzle-orm";
import type { DbOrTx } from "../db/client";
import { deliveryZones, storePickup, type DeliveryZoneRow, type StorePickupRow } from "../db/schema";
import type { Locale } from "../i18n/config";
import type { MinorUnits } from "../money";

/**
 * Delivery as the checkout reads it: the zones the merchant delivers to (a city and its fee) and in-store pickup, read
 * from the database on every request (the back office edits them; lib/delivery/editing.ts). Money in integer minor
 * units (1/100 LYD).
 */

/** A delivery zone: a city, its names in both languages, and what delivering there costs. */
export interface DeliveryZone {
  id: number;
  name: Record<Locale, string>;
  /** What delivering there costs (lib/checkout/pricing.ts prices it). */
  feeMinor: MinorUnits;
  /** Delivery is free when the lines come to at least this much; null: never free. */
  freeAboveMinor: MinorUnits | null;
  enabled: boolean;
  /** Whether a customer here may pay cash on delivery, while the shop takes cash at all (lib/cash/settings.ts). */
  cashOnDelivery: boolean;
}

/** In-store pickup: whether it is offered, and where and when the customer collects, in both languages. */
export interface Pickup {
  enabled: boolean;
  address: Record<Locale, string>;
  hours: Record<Locale, string>;
}

const toZone = (row: DeliveryZoneRow): DeliveryZone => ({
  id: row.id,
  name: { en: row.nameEn, ar: row.nameAr },
  feeMinor: row.feeMinor,
  freeAboveMinor: row.freeAboveMinor,
  enabled: row.enabled,
  cashOnDelivery: row.cashOnDelivery,
});

const toPickup = (row: StorePickupRow | undefined): Pickup => ({
  enabled: row?.enabled ?? false,
  address: { en: row?.addressEn ?? "", ar: row?.addressAr ?? "" },
  hours: { en: row?.hoursEn ?? "", ar: row?.hoursAr ?? "" },
});

/**
 * The delivery zones in the merchant's order (sort order, then id).
 * @param options.enabledOnly only those the checkout offers (the back office lists all).
 */
export async function listDeliveryZones(
  db: DbOrTx,
  { enabledOnly }: { enabledOnly: boolean },
): Promise<DeliveryZone[]> {
  const rows = await db
    .select()
    .from(deliveryZones)
    .where(enabledOnly ? eq(deliveryZones.enabled, true) : undefined)
    .orderBy(asc(deliveryZones.sortOrder), asc(deliveryZones.id));
  return rows.map(toZone);
}

/** An enabled zone by id, as the checkout prices it; `undefined` when there is none or the merchant turned it off. */
export async function findEnabledZone(db: DbOrTx, id: number): Promise<DeliveryZone | undefined> {
  const [row] = await db
    .select()
    .from(deliveryZones)
    .where(and(eq(deliveryZones.id, id), eq(deliveryZones.enabled, true)));
  return row && toZone(row);
}

/** Pickup's settings (off when the row is missing). */
export async function readPickup(db: DbOrTx): Promise<Pickup> {
  const [row] = await db.select().from(storePickup).where(eq(storePickup.id, 1));
  return toPickup(row);
}
