import { paymentRedirectHandler } from "../payment-redirect";

/**
 * `return_url`: the payment service sends the customer here with `type=success&token=…` (docs/payment-service.md,
 * "Return and cancel redirects").
 */
export const GET = paymentRedirectHandler("success");
