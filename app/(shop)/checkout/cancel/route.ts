import { paymentRedirectHandler } from "../payment-redirect";

/** `cancel_url`: the payment service sends the customer here with `type=cancel&token=…` (spec §4.3). */
export const GET = paymentRedirectHandler("cancel");
