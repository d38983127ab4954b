import type { OrderRow } from "../db/schema";
import type { CUSTOMER_FIELDS } from "../payments";

/**
 * The seam between the checkout and the ways to pay. The checkout prices and claims an order the same way whatever
 * its payment method; it starts the order's method as soon as the submission may start a payment
 * ({@link PaymentMethod.start}), so what the method asks of others runs alongside the claim, then asks it to pay for
 * the claimed order ({@link StartedPayment.pay}) and records what it answers. A way to pay is one file in this folder
 * and one entry in `PAYMENT_METHODS` (./index.ts): the checkout (lib/checkout/place-order.ts) and every other method
 * stay as they are.
 */

/** The checkout a payment is for: the customer's details under the spec's names, their language, the shop's origin. */
interface CheckoutToPay {
  details: Partial<Record<(typeof CUSTOMER_FIELDS)[number], string>>;
  /** The shopper's language (`en`, `ar`). */
  locale: string;
  /** The shop's public origin (`SITE_URL`), for the URLs the customer comes back to. */
  siteUrl: string;
}

/** A claimed order, as a payment method sees it: what to charge, in integer minor units (1/100 LYD). */
type OrderToPay = Pick<OrderRow, "id" | "amountMinor" | "currency">;

/**
 * What a method answers once it has done its part: where the customer goes next, and what the order records.
 * - `payment_page`: a payment exists on the service; the customer pays on its page, which dies at `paymentExpiresAt`.
 */
export type PaymentStart = {
  kind: "payment_page";
  paymentToken: string;
  paymentUrl: string;
  paymentExpiresAt: Date;
};

/** A way to pay. */
export interface PaymentMethod {
  /**
   * Starts paying for a checkout that may start a payment, before its order exists: online, the access token is asked
   * for at once. Never throws; a failure here is reported by {@link StartedPayment.pay}. When the checkout then goes to
   * an existing order instead, the started payment is dropped unused.
   */
  start(checkout: CheckoutToPay): StartedPayment;
}

/** A payment started for a checkout, waiting for its order. */
interface StartedPayment {
  /**
   * Pays for the claimed order, outside any database transaction; called at most once.
   * @throws PaymentError (lib/payments.ts) when the payment could not be started: the order is marked failed.
   */
  pay(order: OrderToPay): Promise<PaymentStart>;
}
