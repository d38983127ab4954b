import type { OrderRow } from "../db/schema";
import type { CUSTOMER_FIELDS } from "../payments";

/**
 * The seam between the checkout and the ways to pay. The checkout prices and claims an order the same way whatever
 * its payment method; then it asks the order's method to start paying for it ({@link PaymentMethod.pay}), and records
 * what it answers. A way to pay is one file in this folder and one entry in `PAYMENT_METHODS` (./index.ts): the
 * checkout (lib/checkout/place-order.ts) and every other method stay as they are.
 */

/** A claimed order, as a payment method sees it: what to charge, in integer minor units (1/100 LYD). */
type OrderToPay = Pick<OrderRow, "id" | "amountMinor" | "currency" | "locale">;

/** The checkout the order comes from: the customer's details under the spec's names, and the shop's public origin. */
interface CheckoutToPay {
  details: Partial<Record<(typeof CUSTOMER_FIELDS)[number], string>>;
  /** The shop's public origin (`SITE_URL`), for the URLs the customer comes back to. */
  siteUrl: string;
}

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
   * Starts paying for a claimed order. Called outside any database transaction, at most once per claim.
   * @throws PaymentError (lib/payments.ts) when the payment could not be started: the order is marked failed.
   */
  pay(order: OrderToPay, checkout: CheckoutToPay): Promise<PaymentStart>;
}
