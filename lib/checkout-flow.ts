import "server-only";
import type { PricedCart } from "./cart";
import { buildPaymentRequest, canResume, checkoutFingerprint, newOrderId, type CheckoutDetails, type Order } from "./checkout";
import { coalesce, forget } from "./coalesce";
import { paymentServiceConfig } from "./env";
import { logger } from "./log";
import { initiatePayment, newCallContext } from "./payments";

/** How long a started checkout is handed to identical submissions of the same session that raced with it. */
const COALESCE_WINDOW_MS = 10_000;

/**
 * The payment for a validated checkout: the session's pending payment when this is the same checkout again (back
 * button, second tab), else a new one — shared with identical submissions of the same session that race with it
 * (a double click, two tabs; the second may carry the old cookie without the order). One checkout, one payment.
 * @param input `sessionId` and `current` (the session's order) identify what this shopper already started; `cart`
 *   is priced on the server (minor units); `siteUrl` builds the return URL and cancel URL; `locale` is sent as
 *   Accept-Language so the payment page and the service's messages follow the shopper's language.
 * @returns the order to store in the session and redirect to (`order.paymentUrl`); `resumed` when no call was made.
 * @throws PaymentError from `initiatePayment` (spec §4.1, §4.2), EnvError when the environment is unusable.
 */
export async function startOrResumePayment(input: {
  sessionId: string;
  current: Order | undefined;
  cart: PricedCart;
  details: CheckoutDetails;
  siteUrl: string;
  locale: string;
}): Promise<{ order: Order; resumed: boolean }> {
  const { sessionId, current, cart, details, siteUrl, locale } = input;
  const fingerprint = await checkoutFingerprint(cart, details);
  if (current && canResume(current, fingerprint)) {
    logger.info({ event: "checkout_resumed", orderId: current.id });
    return { order: current, resumed: true };
  }

  const key = `${sessionId}:${fingerprint}`;
  const start = () => coalesce(key, () => createOrder(cart, details, siteUrl, locale, fingerprint), { reuseForMs: COALESCE_WINDOW_MS });
  let order = await start();
  // An order this session already settled is never handed out again (paid, then the same cart right away).
  if (current?.id === order.id && current.status !== "pending") {
    forget(key);
    order = await start();
  }
  return { order, resumed: false };
}

/** Creates the payment with a fresh access token and returns the pending order that records it. */
async function createOrder(cart: PricedCart, details: CheckoutDetails, siteUrl: string, locale: string, fingerprint: string): Promise<Order> {
  const orderId = newOrderId();
  const request = buildPaymentRequest(orderId, cart, details, siteUrl);
  const payment = await initiatePayment(paymentServiceConfig(), request, newCallContext({ locale }));
  logger.info({ event: "checkout_started", orderId, amountMinor: cart.totalMinor });
  return {
    id: orderId,
    lines: cart.lines.map((line) => ({ slug: line.product.slug, quantity: line.quantity, unitMinor: line.product.priceMinor })),
    amountMinor: cart.totalMinor,
    currency: request.currency,
    paymentToken: payment.paymentToken,
    paymentUrl: payment.paymentUrl,
    status: "pending",
    createdAt: Date.now(),
    accessTokenIssuedAt: payment.accessTokenIssuedAt,
    fingerprint,
  };
}
