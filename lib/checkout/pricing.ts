import { sum, type MinorUnits } from "../money";

/**
 * The one home of what a checkout costs, in integer minor units (1/100 LYD): the lines, then each line of the price
 * that is not a product — the delivery fee, and the fee of paying in cash on delivery; a discount is one more line
 * here, and nowhere else. Pure and free of server code, so the checkout's claim (which charges it), the checkout page (which
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
  /** What the customer pays: the lines and every line after them. */
  totalMinor: MinorUnits;
}

/**
 * Prices a checkout.
 * @param linesMinor the lines' total as the catalogue prices them now (lib/cart.ts, `priceCart`).
 * @param zone the delivery zone chosen, as the database has it; absent for pickup or a cart with nothing to deliver.
 * @param cashFeeMinor the cash fee, when the checkout is paid in cash (lib/cash/settings.ts, `cashOffer`); absent for
 *   online payment.
 * @throws RangeError when an amount is not a valid number of minor units (lib/money.ts).
 */
export function priceCheckout(linesMinor: MinorUnits, zone?: ZonePrice, cashFeeMinor?: MinorUnits): CheckoutPrice {
  const deliveryFeeMinor = zone ? deliveryFee(zone, linesMinor) : 0;
  if (cashFeeMinor === undefined)
    return { linesMinor, deliveryFeeMinor, totalMinor: sum([linesMinor, deliveryFeeMinor]) };
  return { linesMinor, deliveryFeeMinor, cashFeeMinor, totalMinor: sum([linesMinor, deliveryFeeMinor, cashFeeMinor]) };
}

/** What delivering to `zone` costs for lines worth `linesMinor`: its fee, or nothing from its free-above total on. */
function deliveryFee(zone: ZonePrice, linesMinor: MinorUnits): MinorUnits {
  return zone.freeAboveMinor !== null && linesMinor >= zone.freeAboveMinor ? 0 : zone.feeMinor;
}
