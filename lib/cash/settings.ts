import { eq } from "drizzle-orm";
import type { DbOrTx } from "../db/client";
import { cashOnDelivery, type CashOnDeliveryRow } from "../db/schema";
import { sum, type MinorUnits } from "../money";

/**
 * Cash on delivery as the checkout reads it: the merchant's settings (one row, edited in the back office) and the one
 * rule that says whether a checkout may be paid in cash, and what paying in cash adds.
 */

/** The merchant's cash-on-delivery settings: on/off, at pickup, the highest total, the fee, the call's deadline. */
export type CashSettings = Pick<
  CashOnDeliveryRow,
  "enabled" | "atPickup" | "maxTotalMinor" | "feeMinor" | "confirmWithinHours"
>;

/** What a new database has: cash off. */
const OFF: CashSettings = { enabled: false, atPickup: false, maxTotalMinor: null, feeMinor: 0, confirmWithinHours: 48 };

/**
 * Reads the merchant's cash-on-delivery settings (cash off when the row is missing).
 * @throws the database's error when it cannot read.
 */
export async function readCashSettings(db: DbOrTx): Promise<CashSettings> {
  const [row] = await db
    .select({
      enabled: cashOnDelivery.enabled,
      atPickup: cashOnDelivery.atPickup,
      maxTotalMinor: cashOnDelivery.maxTotalMinor,
      feeMinor: cashOnDelivery.feeMinor,
      confirmWithinHours: cashOnDelivery.confirmWithinHours,
    })
    .from(cashOnDelivery)
    .where(eq(cashOnDelivery.id, 1));
  return row ?? OFF;
}

/** What a checkout is, as the cash rule reads it. */
export interface CashCheckout {
  /** The delivery zone chosen; absent or null when none is (pickup, no city chosen yet, nothing to deliver). */
  zone?: { cashOnDelivery: boolean } | null;
  /** The customer collects at the shop. */
  pickup: boolean;
  /** The cart holds goods (a cart of digital products only is never paid in cash: there is no door to pay at). */
  physical: boolean;
  /** What the checkout costs before any cash fee: the lines and delivery, in minor units. */
  totalMinor: MinorUnits;
}

/**
 * Why a checkout may not be paid in cash: cash is `off`; the chosen `zone` does not take it; `pickup` is not paid at
 * the counter; the cart is `digital` only; or its total with the cash fee is `over_max`, the highest the merchant takes
 * in cash.
 */
export type CashRefusal = "off" | "zone" | "pickup" | "digital" | "over_max";

/** Whether a checkout may be paid in cash: when it may, the fee paying in cash adds (minor units, 0: none). */
export type CashOffer = { offered: true; feeMinor: MinorUnits } | { offered: false; why: CashRefusal };

/**
 * The cash rule, pure: whether `checkout` may be paid in cash under `settings`, and its fee. The highest total is the
 * amount the courier would collect: the checkout's total with the cash fee. A delivery with no zone chosen yet is
 * offered (each zone is decided once it is chosen).
 */
export function cashOffer(settings: CashSettings, checkout: CashCheckout): CashOffer {
  if (!settings.enabled) return { offered: false, why: "off" };
  if (!checkout.physical) return { offered: false, why: "digital" };
  if (checkout.pickup && !settings.atPickup) return { offered: false, why: "pickup" };
  if (!checkout.pickup && checkout.zone && !checkout.zone.cashOnDelivery) return { offered: false, why: "zone" };
  const collected = sum([checkout.totalMinor, settings.feeMinor]);
  if (settings.maxTotalMinor !== null && collected > settings.maxTotalMinor) return { offered: false, why: "over_max" };
  return { offered: true, feeMinor: settings.feeMinor };
}
