"use server";

import { redirect } from "next/navigation";
import { getLocale, getTranslations } from "next-intl/server";
import { priceCart } from "@/lib/cart";
import {
  buildPaymentRequest,
  canResume,
  checkoutFingerprint,
  checkoutFormSchema,
  newOrderId,
  readCheckoutValues,
  type CheckoutField,
  type CheckoutValues,
  type Order,
} from "@/lib/checkout";
import { describeCheckoutFailure } from "@/lib/checkout-errors";
import { coalesce, forget } from "@/lib/coalesce";
import { getEnv, paymentServiceConfig } from "@/lib/env";
import { logger } from "@/lib/log";
import { translateProblem } from "@/lib/i18n/translate";
import { initiatePayment, newCallContext } from "@/lib/payments";
import type { ProblemKey } from "@/lib/problems";
import { getSession } from "@/lib/session";

/** How long a started checkout is handed to identical submissions of the same session that raced with it. */
const COALESCE_WINDOW_MS = 10_000;

/**
 * What the checkout form shows after a failed submission: what went wrong (in the shopper's language), and what
 * the customer had typed.
 */
export interface CheckoutState {
  message?: string;
  fieldErrors?: Partial<Record<CheckoutField, string>>;
  values: CheckoutValues;
}

/**
 * The checkout (DESIGN.md, "The flow"): validate the form, price the cart on the server, create the payment with a
 * fresh access token, store the order in the session and send the customer to the payment URL.
 * A resubmission of the same cart and details resumes the session's pending payment instead of creating another.
 * Every failure returns to the form with a message and the customer's input; the cart is never touched here.
 */
export async function startCheckout(_previous: CheckoutState, form: FormData): Promise<CheckoutState> {
  const values = readCheckoutValues(form);
  const session = await getSession();
  const cart = priceCart(session.cart);
  if (cart.lines.length === 0) return { values, message: await translateProblem({ key: "cartEmpty" }) };

  let env;
  try {
    env = getEnv();
  } catch (error) {
    logger.error({ event: "checkout_config_error", err: error instanceof Error ? error.message : String(error) });
    return { values, message: await translateProblem(describeCheckoutFailure(error)) };
  }

  const parsed = checkoutFormSchema(env.PAYMENT_GATEWAYS).safeParse(values);
  if (!parsed.success) {
    const fieldErrors: CheckoutState["fieldErrors"] = {};
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] as CheckoutField;
      fieldErrors[field] ??= await translateProblem({ key: issue.message as ProblemKey });
    }
    return { values, fieldErrors, message: (await getTranslations("checkout"))("fixFields") };
  }

  const fingerprint = await checkoutFingerprint(cart, parsed.data);
  let order: Order;
  const pending = session.order;
  if (pending && canResume(pending, fingerprint)) {
    order = pending;
    logger.info({ event: "checkout_resumed", orderId: order.id });
  } else {
    // Simultaneous submissions of the same checkout (a double click, two tabs) share one payment, including one
    // that left the browser before the first answer arrived and so carries the old cookie without the order.
    const key = `${session.id}:${fingerprint}`;
    const start = () =>
      coalesce(
        key,
        async (): Promise<Order> => {
          const orderId = newOrderId();
          const request = buildPaymentRequest(orderId, cart, parsed.data, env.SITE_URL);
          // The shopper's language travels as Accept-Language: the payment page and the service's messages follow it.
          const payment = await initiatePayment(paymentServiceConfig(), request, newCallContext({ locale: await getLocale() }));
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
        },
        { reuseForMs: COALESCE_WINDOW_MS },
      );
    try {
      order = await start();
      // An order this session already settled is never handed out again (paid, then the same cart right away).
      if (session.order?.id === order.id && session.order.status !== "pending") {
        forget(key);
        order = await start();
      }
    } catch (error) {
      logger.warn({ event: "checkout_failed", kind: (error as { kind?: string }).kind ?? "unexpected", requestId: (error as { requestId?: string }).requestId });
      return { values, message: await translateProblem(describeCheckoutFailure(error)) };
    }
    session.order = order;
    await session.save();
  }

  // Outside any try/catch: redirect() works by throwing, and a catch would swallow it.
  redirect(order.paymentUrl);
}
