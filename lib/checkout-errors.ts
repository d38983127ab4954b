import { EnvError } from "./env";
import { PaymentError } from "./payments";

/**
 * Turns a checkout failure into one sentence for the customer: what happened and what to do. The cart is always
 * kept, and the customer is told so where it matters. Details for the merchant go to the log, not the page.
 */
export function describeCheckoutFailure(error: unknown): string {
  if (error instanceof PaymentError) {
    switch (error.kind) {
      case "rate_limited":
        return `The payment service is busy right now. Please try again in ${error.retryAfterSeconds ?? 30} seconds; your cart is saved.`;
      case "timeout":
        return "The payment service took too long to answer. You have not been charged; please try again in a moment.";
      case "unavailable":
        return "We could not reach the payment service. You have not been charged; please try again in a moment.";
      case "rejected":
        return error.messages.length > 0
          ? `The payment service did not accept this payment: ${error.messages.join(" ")}`
          : "The payment service did not accept this payment. Please check your details and try again.";
      case "conflict":
        return "This payment had already been started. Please submit again to start a fresh one; you have not been charged.";
      case "bad_response":
        return "The payment service sent an answer we could not use, so we did not send you on. Please try again.";
      case "invalid_credentials":
      case "unauthorized":
        return "Online payment is unavailable because of a problem with this shop's payment setup. Please try again later; your cart is saved.";
    }
  }
  if (error instanceof EnvError) {
    return "Online payment is unavailable because this shop is not fully configured. Please try again later; your cart is saved.";
  }
  return "Something went wrong while starting your payment. You have not been charged; please try again.";
}
