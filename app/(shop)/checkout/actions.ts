"use server";

import { redirect } from "next/navigation";
import { getLocale, getTranslations } from "next-intl/server";
import { priceCart } from "@/lib/cart";
import { describeCheckoutFailure } from "@/lib/checkout-errors";
import { checkoutFormSchema, readCheckoutValues, type CheckoutField, type CheckoutValues } from "@/lib/checkout/form";
import { placeOrder, type PlacedOrder } from "@/lib/checkout/place-order";
import { getDb } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import type { Locale } from "@/lib/i18n/config";
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
 * The checkout (DESIGN.md, "The flow"): validate the form, price the cart on the server, place the order (stored,
 * then paid for with a fresh access token, or this checkout's pending payment resumed), remember it in the session
 * and send the customer to the payment URL. Every failure returns to the form with a message and the customer's
 * input; the cart is never touched here.
 */
export async function startCheckout(_previous: CheckoutState, form: FormData): Promise<CheckoutState> {
  const values = readCheckoutValues(form);
  const session = await getSession();
  const cart = priceCart(session.cart);
  if (cart.lines.length === 0) return { values, message: await translateProblem({ key: "cartEmpty" }) };

  const { PAYMENT_GATEWAYS, SITE_URL } = getEnv();
  const parsed = checkoutFormSchema(PAYMENT_GATEWAYS).safeParse(values);
  if (!parsed.success) {
    const fieldErrors: CheckoutState["fieldErrors"] = {};
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] as CheckoutField;
      fieldErrors[field] ??= await translateProblem({ key: issue.message as ProblemKey });
    }
    return { values, fieldErrors, message: (await getTranslations("checkout"))("fixFields") };
  }

  let order: PlacedOrder;
  try {
    const locale = (await getLocale()) as Locale;
    order = await placeOrder(getDb(), { sessionId: session.id, cart, details: parsed.data, locale, siteUrl: SITE_URL });
  } catch (error) {
    logger.warn({ event: "checkout_failed", kind: (error as { kind?: string }).kind ?? (error as Error).name, requestId: (error as { requestId?: string }).requestId });
    return { values, message: await translateProblem(describeCheckoutFailure(error)) };
  }
  if (session.orderId !== order.id) {
    session.orderId = order.id;
    await session.save();
  }

  // Outside any try/catch: redirect() works by throwing, and a catch would swallow it.
  redirect(order.paymentUrl);
}
