import { paymentRedirectHandler } from "../payment-redirect";

/** `return_url`: the payment service sends the customer here with `type=success&token=…` (spec §4.3). */
export const GET = paymentRedirectHandler("success");
