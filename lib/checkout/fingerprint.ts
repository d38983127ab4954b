import type { PricedCart } from "../cart";
import type { PaymentMethodName } from "../db/schema";
import { CUSTOMER_FIELDS } from "../payments";
import type { CheckoutDetails, Delivery } from "./form";
import type { CheckoutPrice } from "./pricing";

/** What a checkout is made of, as the fingerprint reads it. */
interface Checkout {
  /** The session cart's id: another id is another checkout. */
  cartId: string;
  cart: PricedCart;
  details: CheckoutDetails;
  paymentMethod?: PaymentMethodName;
}

/**
 * The fingerprint of a checkout. A cart gets a new id when it is bought (lib/cart.ts), so buying the same things again
 * later is a new checkout, while every tab and every resubmission of this cart is the same one.
 */

/**
 * A digest of everything a payment is made of — the cart's id, its lines and prices, what the checkout costs line by
 * line, the customer's details, the delivery chosen, the way to pay and the promo code with its discount (another
 * code is another payment; a checkout without one has the digest it had before codes existed) — so a double click, a second tab, or the back
 * button and submit again can be recognised as the same checkout, and any change is another one.
 */
export async function checkoutFingerprint(
  { cartId, cart, details, paymentMethod = "online" }: Checkout,
  price: CheckoutPrice,
): Promise<string> {
  const material = JSON.stringify([
    cartId,
    cart.lines.map((line) => [line.product.id, line.quantity, line.product.priceMinor]),
    [price.linesMinor, price.deliveryFeeMinor, price.totalMinor],
    CUSTOMER_FIELDS.map((field) => details[field] ?? ""),
    deliveryChosen(details.delivery),
    paymentMethod,
    ...(price.promoCode === undefined ? [] : [[price.promoCode, price.discountMinor ?? 0]]),
  ]);
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(material));
  return Buffer.from(digest).toString("base64url");
}

/** The delivery's part of the fingerprint: every field the customer chose, in a fixed order. */
function deliveryChosen(delivery: Delivery | undefined): string[] {
  if (!delivery) return [];
  if (delivery.method === "pickup") return ["pickup"];
  const { zoneId, address, landmark = "", secondPhone = "" } = delivery;
  return ["delivery", String(zoneId), address, landmark, secondPhone];
}
