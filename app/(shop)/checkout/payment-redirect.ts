import "server-only";
import type { NextRequest } from "next/server";
import { newCart } from "@/lib/cart";
import { getDb } from "@/lib/db/client";
import { describeDbFailure } from "@/lib/db/errors";
import { logger } from "@/lib/log";
import { returnFromPaymentPage, type ReturnOutcome } from "@/lib/orders/customer-return";
import type { RedirectType } from "@/lib/orders/settle";
import { getSession } from "@/lib/session";

/**
 * The GET handler behind the return URL (`success`) and the cancel URL (`cancel`) (docs/payment-service.md, "Return
 * and cancel redirects"): settles this
 * session's order through `returnFromPaymentPage` (one-way, bound to the order's own payment token), empties the
 * cart once the payment is reported or confirmed, and answers 303 to the order page, which says what happened. A
 * route handler, because Server Components cannot set the session cookie.
 */
export function paymentRedirectHandler(expected: RedirectType) {
  return async function GET(request: NextRequest): Promise<Response> {
    const session = await getSession();
    let orderId = session.orderId;
    let outcome: ReturnOutcome | "not_recorded";
    try {
      const result = await returnFromPaymentPage(getDb(), session.id, expected, request.nextUrl.searchParams);
      outcome = result.outcome;
      orderId = result.orderId ?? orderId;
      // The goods are bought once the customer reports paying (or the service already confirmed it); a cancelled
      // order leaves the cart as it was, ready to try again.
      if (expected === "success" && (result.status === "awaiting_confirmation" || result.status === "paid")) {
        session.cart = newCart();
      }
    } catch (error) {
      // The database is down: the order stays as it was, and the order page says so. The error's code only: its
      // message quotes the query's parameters, this payment token and session id.
      logger.error({ event: "payment_redirect_failed", expected, ...describeDbFailure(error) });
      outcome = "not_recorded";
    }
    session.orderId = orderId;
    await session.save();
    logger.info({ event: "payment_redirect", expected, outcome, orderId });
    const location = `/orders/${encodeURIComponent(orderId ?? "unknown")}?outcome=${outcome}`;
    return new Response(null, { status: 303, headers: { Location: location, "Cache-Control": "no-store" } });
  };
}
