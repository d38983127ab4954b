import { z } from "zod";
import type { PricedCart } from "../cart";
import { MAX_LINES, MAX_QUANTITY } from "../cart-limits";
import type { Product } from "../catalog/products";
import type { DeliveryZone } from "../delivery/zones";
import { PROMO_CODE_KINDS } from "../db/schema";
import type { MinorUnits } from "../money";
import { priceCheckout, type CheckoutPrice, type ZonePrice } from "./pricing";

/**
 * What the checkout form showed the customer, posted back with it, so the checkout never sends anyone to pay a total
 * other than the one on their screen: a price or a delivery fee raised between the form and the submit is refused,
 * naming the change, and the page shows the new one. The form carries its lines (product, quantity, unit price)
 * and the fee of every city it offers for those lines, so whichever city the customer picks — with or without
 * JavaScript — what was posted covers what was on screen; and, once the customer applied a promo code, the code's
 * terms as the summary priced them. It can only cause a refusal (the amount charged is always
 * priced on the server), so it is not signed; it is validated like any input.
 */

/** The name of the checkout form's hidden field that carries what it showed. */
export const SHOWN_PRICES_FIELD = "shown_prices";

const id = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const minor = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const shown = z.object({
  /** Each line: product id, quantity, unit price in minor units. */
  lines: z.array(z.tuple([id, z.number().int().min(1).max(MAX_QUANTITY), minor])).max(MAX_LINES),
  /** Each city offered: zone id, the delivery fee shown for these lines in minor units (0: free). */
  fees: z.array(z.tuple([id, minor])).max(1_000),
  /** The cash fee shown, in minor units, when the form offered paying in cash. */
  cash: minor.optional(),
  /** The promo code applied on the page (lib/checkout/pricing.ts `PromoPrice`): the summary took its discount off. */
  promo: z
    .object({
      code: z.string().max(32),
      kind: z.enum(PROMO_CODE_KINDS),
      percent: z.number().int().min(1).max(100).nullable(),
      amountMinor: minor.nullable(),
    })
    .optional(),
});

/** What the checkout form showed: its lines, each city's delivery fee, the cash fee (minor units), the code applied. */
export type ShownPrices = z.output<typeof shown>;

/**
 * The hidden field as posted: a JSON text of {@link ShownPrices}, at most 64 KB. A missing (not a string), malformed
 * or out-of-range one fails to parse.
 */
export const shownPricesSchema = z
  .string()
  .max(65_536)
  .transform((text, ctx): unknown => {
    try {
      return JSON.parse(text);
    } catch {
      ctx.addIssue({ code: "custom", message: "not JSON" });
      return z.NEVER;
    }
  })
  .pipe(shown);

/**
 * What the checkout page shows for a priced cart: each line at its unit price, and each zone's fee for these lines
 * (priced by lib/checkout/pricing.ts, as the summary and the claim price them). JSON-encode it into the hidden field.
 * @param zones the zones offered (none for a cart with nothing to deliver).
 * @param cashFeeMinor the cash fee, when the form offers paying in cash.
 */
export function shownPrices(
  cart: PricedCart,
  zones: readonly (ZonePrice & { id: number })[],
  cashFeeMinor?: MinorUnits,
): ShownPrices {
  return {
    lines: cart.lines.map((line) => [line.product.id, line.quantity, line.product.priceMinor]),
    fees: zones.map((zone) => [zone.id, priceCheckout(cart.totalMinor, zone).deliveryFeeMinor]),
    ...(cashFeeMinor === undefined ? {} : { cash: cashFeeMinor }),
  };
}

/**
 * A difference between what the form showed and what the checkout would charge now: a line's unit price, the chosen
 * city's delivery fee, the cash fee (for a checkout paid in cash), the discount of the promo code applied on the page
 * (its terms changed since), or `outdated` — the lines are not those shown
 * (changed in another tab, a product no longer sold), the city was not offered on the page, or cash was not.
 */
export type PriceChange =
  | { kind: "line"; name: Product["name"]; fromMinor: MinorUnits; toMinor: MinorUnits }
  | { kind: "delivery"; city: DeliveryZone["name"]; fromMinor: MinorUnits; toMinor: MinorUnits }
  | { kind: "cash_fee"; fromMinor: MinorUnits; toMinor: MinorUnits }
  | { kind: "discount"; code: string; fromMinor: MinorUnits; toMinor: MinorUnits }
  | { kind: "outdated" };

/**
 * Compares a checkout as priced now with what its form showed.
 * @param cart the cart priced from the catalogue now; `zone` the city chosen (absent for pickup or nothing to
 *   deliver); `price` what the checkout charges (priceCheckout of these, with the cash fee when paid in cash),
 *   `shown` the form's hidden field.
 * @returns the changes, in the cart's order; empty when the customer would pay exactly the total shown.
 */
export function priceChanges(
  cart: PricedCart,
  zone: (ZonePrice & Pick<DeliveryZone, "id" | "name">) | undefined,
  price: CheckoutPrice,
  shown: ShownPrices,
): PriceChange[] {
  const changes: PriceChange[] = [];
  let outdated = cart.lines.length !== shown.lines.length;
  for (const line of cart.lines) {
    const seen = shown.lines.find(([productId]) => productId === line.product.id);
    if (!seen || seen[1] !== line.quantity) outdated = true;
    else if (seen[2] !== line.product.priceMinor)
      changes.push({ kind: "line", name: line.product.name, fromMinor: seen[2], toMinor: line.product.priceMinor });
  }
  if (zone) {
    const fee = shown.fees.find(([zoneId]) => zoneId === zone.id)?.[1];
    if (fee === undefined) outdated = true;
    else if (fee !== price.deliveryFeeMinor)
      changes.push({ kind: "delivery", city: zone.name, fromMinor: fee, toMinor: price.deliveryFeeMinor });
  }
  if (price.cashFeeMinor !== undefined) {
    if (shown.cash === undefined) outdated = true;
    else if (shown.cash !== price.cashFeeMinor)
      changes.push({ kind: "cash_fee", fromMinor: shown.cash, toMinor: price.cashFeeMinor });
  }
  // The code applied on the page, submitted as it was: its discount as the summary priced it, for this checkout. A code
  // typed and submitted without being applied was never on screen, so it can only take off more than was shown.
  if (price.promoCode !== undefined && shown.promo?.code === price.promoCode) {
    const seen = priceCheckout(price.linesMinor, zone, price.cashFeeMinor, shown.promo).discountMinor!;
    if (seen !== price.discountMinor)
      changes.push({ kind: "discount", code: price.promoCode, fromMinor: seen, toMinor: price.discountMinor ?? 0 });
  }
  return outdated ? [...changes, { kind: "outdated" }] : changes;
}

/** The checkout would charge other than what its form showed: nothing was stored or asked of the service. */
export class PriceChangedError extends Error {
  constructor(readonly changes: PriceChange[]) {
    super("the checkout costs other than what its form showed");
    this.name = "PriceChangedError";
  }
}
