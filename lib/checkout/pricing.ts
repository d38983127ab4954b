import { sum, type MinorUnits } from "../money";
import type { PromoCodeRow } from "../db/schema";

/**
 * The one home of what a checkout costs, in integer minor units (1/100 LYD): the lines, then each line of the price
 * that is not a product — the delivery fee, the fee of paying in cash on delivery, and a promo code's discount — here,
 * and nowhere else. Pure and free of server code, so the checkout's claim (which charges it), the checkout page (which
 * offers each city with its fee) and the order summary in the browser (which shows the total for the city being
 * chosen) all compute the same amount from the same function.
 */

/** How a delivery zone prices delivery: its fee, and the lines' total from which it is free (null: never free). */
export interface ZonePrice {
  feeMinor: MinorUnits;
  freeAboveMinor: MinorUnits | null;
}

/** What a checkout costs, line by line. */
export interface CheckoutPrice {
  /** The goods: unit price × quantity, summed. */
  linesMinor: MinorUnits;
  /** What delivery adds: the zone's fee, or 0 (free above the zone's threshold, pickup, or nothing to deliver). */
  deliveryFeeMinor: MinorUnits;
  /**
   * What paying in cash adds (the merchant's cash fee, lib/cash/settings.ts); present only when the checkout is paid
   * in cash, so an online checkout's price is exactly what it was before cash existed.
   */
  cashFeeMinor?: MinorUnits;
  /** What a promo code takes off, and the code (upper case); present only when the checkout carries a code. */
  discountMinor?: MinorUnits;
  promoCode?: string;
  /** What the customer pays: the lines and every line after them. */
  totalMinor: MinorUnits;
}

/**
 * A promo code as pricing reads it (lib/promo-codes/; a code's row is one): its code, and what it takes off — for
 * `percent` 1–100 % of the lines, for `amount` minor units off the lines.
 */
export type PromoPrice = Pick<PromoCodeRow, "code" | "kind" | "percent" | "amountMinor">;

/** The least a checkout with a discount may cost: 1.00 LYD, so a code never makes an order free (or unpayable online). */
const MIN_PAYABLE_MINOR: MinorUnits = 100;

/**
 * Prices a checkout.
 * @param linesMinor the lines' total as the catalogue prices them now (lib/cart.ts, `priceCart`).
 * @param zone the delivery zone chosen, as the database has it; absent for pickup or a cart with nothing to deliver.
 * @param cashFeeMinor the cash fee, when the checkout is paid in cash (lib/cash/settings.ts, `cashOffer`); absent for
 *   online payment.
 * @param promo the promo code the checkout carries, already found valid for it (lib/promo-codes/); absent without one.
 *   Its discount is {@link discount}'s.
 * @throws RangeError when an amount is not a valid number of minor units (lib/money.ts).
 */
export function priceCheckout(
  linesMinor: MinorUnits,
  zone?: ZonePrice,
  cashFeeMinor?: MinorUnits,
  promo?: PromoPrice,
): CheckoutPrice {
  const deliveryFeeMinor = zone ? deliveryFee(zone, linesMinor) : 0;
  const cash = cashFeeMinor === undefined ? {} : { cashFeeMinor };
  const beforeMinor = sum([linesMinor, deliveryFeeMinor, cashFeeMinor ?? 0]);
  if (!promo) return { linesMinor, deliveryFeeMinor, ...cash, totalMinor: beforeMinor };
  const discountMinor = discount(promo, linesMinor, deliveryFeeMinor, beforeMinor);
  return {
    linesMinor,
    deliveryFeeMinor,
    ...cash,
    discountMinor,
    promoCode: promo.code,
    totalMinor: beforeMinor - discountMinor,
  };
}

/**
 * What a promo code takes off, in minor units — the one rounding rule: a percentage of the lines is **rounded down**
 * to a whole minor unit (10 % of 42.55 is 4.25, never 4.26: the customer gets at most the percentage the merchant
 * set). A fixed amount takes at most the lines (never below zero); free delivery takes the delivery fee (nothing on
 * pickup). Whatever the code, the payable total stays at least {@link MIN_PAYABLE_MINOR} when it was that much before;
 * the discount is lowered to keep it there. The delivery fee's free-above total is the lines' before the discount.
 */
function discount(
  promo: PromoPrice,
  linesMinor: MinorUnits,
  deliveryFeeMinor: MinorUnits,
  beforeMinor: MinorUnits,
): MinorUnits {
  const off =
    promo.kind === "percent"
      ? Math.floor((linesMinor * (promo.percent ?? 0)) / 100)
      : promo.kind === "amount"
        ? Math.min(promo.amountMinor ?? 0, linesMinor)
        : deliveryFeeMinor;
  return Math.max(0, Math.min(off, beforeMinor - MIN_PAYABLE_MINOR));
}

/** What delivering to `zone` costs for lines worth `linesMinor`: its fee, or nothing from its free-above total on. */
function deliveryFee(zone: ZonePrice, linesMinor: MinorUnits): MinorUnits {
  return zone.freeAboveMinor !== null && linesMinor >= zone.freeAboveMinor ? 0 : zone.feeMinor;
}
