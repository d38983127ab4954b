import type { OrderRow } from "../db/schema";
import type { CheckoutToCharge, CreatedPayment, ServiceAccess } from "../payments";

/**
 * The seam between the checkout and the ways to pay. The checkout prices and claims an order the same way whatever
 * its payment method; then it asks the order's method to start paying for it ({@link PaymentMethod}'s `pay`), and
 * records what it answers. A way to pay is one file in this folder and one entry in `PAYMENT_METHODS` (./index.ts): the
 * checkout (lib/checkout/place-order.ts) and every other method stay as they are.
 */

/** A claimed order, as a payment method sees it: what to charge, in integer minor units (1/100 LYD). */
type OrderToPay = Pick<OrderRow, "id" | "amountMinor" | "currency">;

/** The checkout the order comes from: the customer's details under the spec's names, and the shop's public origin. */
type CheckoutToPay = CheckoutToCharge;

/**
 * What a method answers once it has done its part: where the customer goes next, and what the order records.
 * - `payment_page`: a payment exists on the service; the customer pays on its page, which dies at `paymentExpiresAt`.
 * - `cash_order`: nothing to pay now; the order is placed and waits for the merchant's call (lib/cash/), and the
 *   customer is shown their order.
 */
export type PaymentStart = CreatedPayment | { kind: "cash_order" };

/**
 * A way to pay. `pay` starts paying for a claimed order; it is called outside any database transaction, at most once
 * per claim, and throws PaymentError (lib/payments.ts) when the payment could not be started: the order is marked
 * failed. A method that pays through the payment service says so (`needsAccessToken`): the checkout asks the service
 * for a fresh access token for this one order, once the claim has committed, and hands it over with the call's
 * context ("Access token" in docs/payment-service.md). A method that does not is never given one and never calls the
 * service.
 */
export type PaymentMethod =
  | {
      needsAccessToken: true;
      pay(order: OrderToPay, checkout: CheckoutToPay, service: ServiceAccess): Promise<PaymentStart>;
    }
  | {
      needsAccessToken: false;
      pay(order: OrderToPay, checkout: CheckoutToPay): Promise<PaymentStart>;
    };
