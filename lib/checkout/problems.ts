import { EnvError } from "../env";
import { PaymentError } from "../payments";
import { problem, type Problem } from "../problems";
import { OrderStoreError, PaymentBudgetError } from "./place-order";

/**
 * Turns a checkout failure into what the customer is told: what happened and what to do, as a {@link Problem} the
 * page translates. The cart is always kept, and the customer is told so where it matters. Details for the
 * merchant go to the log, never to the page.
 */
export function checkoutProblem(error: unknown): Problem {
  if (error instanceof PaymentError) {
    switch (error.kind) {
      case "rate_limited":
        return problem("rateLimited", { seconds: error.retryAfterSeconds ?? 30 });
      case "timeout":
        return problem("timeout");
      case "unavailable":
        return problem("unavailable");
      case "rejected":
        // The service's own reasons, already in the shopper's language (the request carried Accept-Language).
        return error.messages.length > 0
          ? problem("rejected", { reasons: error.messages.join(" ") })
          : problem("rejectedNoReason");
      case "conflict":
        return problem("conflict");
      case "bad_response":
        return problem("badResponse");
      case "invalid_credentials":
      case "unauthorized":
        return problem("setup");
    }
  }
  if (error instanceof OrderStoreError) return problem("orderNotSaved");
  if (error instanceof PaymentBudgetError) return problem("tooManyPayments", { minutes: error.retryAfterMinutes });
  if (error instanceof EnvError) return problem("notConfigured");
  return problem("unexpected");
}
