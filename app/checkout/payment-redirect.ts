import "server-only";
import type { NextRequest } from "next/server";
import { EMPTY_CART } from "@/lib/cart";
import { applyReturn, type ReturnRoute } from "@/lib/checkout";
import { logger } from "@/lib/log";
import { getSession } from "@/lib/session";

/**
 * The GET handler behind the return URL and the cancel URL (spec §4.3): settles the session's order through
 * `applyReturn` (one-way, bound to the order's own payment token), empties the cart once an order is paid, and
 * answers 303 to the order page, which says what happened. Unknown parameters are ignored; nothing here throws.
 */
export function paymentRedirectHandler(route: ReturnRoute) {
  return async function GET(request: NextRequest): Promise<Response> {
    const session = await getSession();
    const { order, outcome } = applyReturn(session.order, route, request.nextUrl.searchParams);
    if (outcome === "paid" || outcome === "cancelled") {
      session.order = order;
      // A paid order's goods are bought; a cancelled order leaves the cart as it was, ready to try again.
      if (outcome === "paid") session.cart = { ...EMPTY_CART };
      await session.save();
    }
    logger.info({ event: "payment_redirect", route, outcome, orderId: order?.id });
    const location = `/orders/${encodeURIComponent(order?.id ?? "unknown")}?outcome=${outcome}`;
    return new Response(null, { status: 303, headers: { Location: location, "Cache-Control": "no-store" } });
  };
}
