import { paymentRedirectHandler } from "../payment-redirect";

/**
 * `cancel_url`: the payment service sends the customer here with `type=cancel&token=…` (docs/payment-service.md,
 * "Return and cancel redirects").
 */
export const GET = paymentRedirectHandler("cancel");
