"use server";

import { redirect } from "next/navigation";
import { getLocale, getTranslations } from "next-intl/server";
import { priceCart } from "@/lib/cart";
import { checkoutFormSchema, readCheckoutValues, type CheckoutField, type CheckoutValues, type Order } from "@/lib/checkout";
import { describeCheckoutFailure } from "@/lib/checkout-errors";
import { startOrResumePayment } from "@/lib/checkout-flow";
import { getEnv } from "@/lib/env";
import { translateProblem } from "@/lib/i18n/translate";
import { logger } from "@/lib/log";
import type { ProblemKey } from "@/lib/problems";
import { getSession } from "@/lib/session";

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
 * fresh access token (or resume this checkout's pending one), store the order in the session and send the customer
 * to the payment URL. Every failure returns to the form with a message and the customer's input; the cart is never
 * touched here.
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

  let order: Order;
  try {
    const started = await startOrResumePayment({
      sessionId: session.id,
      current: session.order,
      cart,
      details: parsed.data,
      siteUrl: env.SITE_URL,
      locale: await getLocale(),
    });
    order = started.order;
    if (!started.resumed) {
      session.order = order;
      await session.save();
    }
  } catch (error) {
    logger.warn({ event: "checkout_failed", kind: (error as { kind?: string }).kind ?? "unexpected", requestId: (error as { requestId?: string }).requestId });
    return { values, message: await translateProblem(describeCheckoutFailure(error)) };
  }

  // Outside any try/catch: redirect() works by throwing, and a catch would swallow it.
  redirect(order.paymentUrl);
}
