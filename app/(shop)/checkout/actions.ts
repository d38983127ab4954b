"use server";

import { refresh } from "next/cache";
import { redirect } from "next/navigation";
import { getLocale, getTranslations } from "next-intl/server";
import { z } from "zod";
import { cashOffer, readCashSettings } from "@/lib/cash/settings";
import { clientIp } from "@/lib/client-address";
import { newCart, priceCart, type PricedCart } from "@/lib/cart";
import {
  CHECKOUT_FIELDS,
  checkoutFormSchema,
  readCheckoutValues,
  type CheckoutField,
  type CheckoutValues,
} from "@/lib/checkout/form";
import { CashRefusedError } from "@/lib/checkout/errors";
import { placeOrder, type PlacedOrder } from "@/lib/checkout/place-order";
import { priceCheckout } from "@/lib/checkout/pricing";
import { PriceChangedError } from "@/lib/checkout/shown-prices";
import { cashRefusalProblem, describeCheckoutFailure } from "@/lib/checkout/problems";
import { SHOWN_PRICES_FIELD, shownPricesSchema } from "@/lib/checkout/shown-prices";
import { getDb } from "@/lib/db/client";
import { listDeliveryZones, readPickup, type DeliveryZone } from "@/lib/delivery/zones";
import { sendPendingEmailsAfterResponse } from "@/lib/email/sender";
import { getEnv } from "@/lib/env";
import { logger } from "@/lib/log";
import { isPaymentPageOpen } from "@/lib/payment-page";
import { findCustomerOrder } from "@/lib/orders/store";
import { PaymentError } from "@/lib/payments";
import { translateProblem, type ProblemKey } from "@/lib/problems";
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
 * The checkout (README, "How a checkout works"): 1. price the cart on the server, with the delivery the merchant
 * offers now, 2. parse the form (what it asks depends on the cart: delivery for goods, a way to reach the customer
 * for digital products only; and the prices the form showed; for cash on delivery, whether this checkout may be paid
 * in cash, lib/cash/settings.ts), 3. place the order (lib/checkout/place-order.ts: priced, and refused when that is
 * not what the form showed; claimed, paid for by its payment method, recorded; or this checkout's pending payment
 * resumed), 4. keep the order in the session and redirect to the payment URL — or, for a cash order, empty the cart
 * and show the order. Every failure returns to the form with a message and the customer's input, and keeps the cart.
 * A cart that is already paid for (another tab paid it, or the customer paid and closed the payment page) is not paid
 * again: the customer is sent to its order, and the cart is emptied as after paying.
 */
export async function startCheckout(_previous: CheckoutState, form: FormData): Promise<CheckoutState> {
  // 1. Price, from the database as it is now: the catalogue's prices, the zones and pickup offered.
  const values = readCheckoutValues(form);
  const { PAYMENT_GATEWAYS, SITE_URL } = getEnv();
  const session = await getSession();
  let cart: PricedCart;
  let zones: DeliveryZone[];
  let pickup: boolean;
  try {
    [cart, zones, { enabled: pickup }] = await Promise.all([
      priceCart(getDb(), session.cart),
      listDeliveryZones(getDb(), { enabledOnly: true }),
      readPickup(getDb()),
    ]);
  } catch {
    return { values, message: await translateProblem({ key: "orderNotSaved" }) };
  }
  if (cart.lines.length === 0) {
    // Another tab of this session already checked this cart out and came back paid (which empties the cart): send
    // this tab where that order stands — its payment page while it is open, else its order page — not to an error.
    const placed = session.orderId
      ? await findCustomerOrder(getDb(), session.orderId, session.id).catch(() => undefined)
      : undefined;
    if (placed)
      redirect(
        isPaymentPageOpen(placed) && placed.paymentUrl ? placed.paymentUrl : `/orders/${encodeURIComponent(placed.id)}`,
      );
    return { values, message: await translateProblem({ key: "cartEmpty" }) };
  }

  // 2. Parse, by what this cart needs and what the merchant offers.
  const physical = cart.lines.some((line) => line.product.kind === "physical");
  const needs = { physical, pickup, zones: zones.map((zone) => zone.id) };
  const parsed = checkoutFormSchema(PAYMENT_GATEWAYS, needs).safeParse(values);
  if (!parsed.success) {
    // The schema's messages are problem keys (lib/checkout/form.ts); each field shows its first.
    const issues: Partial<Record<string, string[]>> = z.flattenError(parsed.error).fieldErrors;
    const fieldErrors: CheckoutState["fieldErrors"] = {};
    for (const field of CHECKOUT_FIELDS) {
      const key = issues[field]?.[0] as ProblemKey | undefined;
      if (key) fieldErrors[field] = await translateProblem({ key });
    }
    return { values, fieldErrors, message: (await getTranslations("checkout"))("fixFields") };
  }
  const details = parsed.data;
  const shown = shownPricesSchema.safeParse(form.get(SHOWN_PRICES_FIELD));
  if (!shown.success) {
    refresh();
    return { values, message: await translateProblem({ key: "shownPricesInvalid" }) };
  }

  const locale = await getLocale();
  const zone = zones.find((each) => details.delivery?.method === "delivery" && each.id === details.delivery.zoneId);
  // Cash on delivery: only where the merchant takes it for this cart, zone or pickup, and total; refused on its field.
  let cashFeeMinor: number | undefined;
  if (details.payment_method === "cash") {
    let settings;
    try {
      settings = await readCashSettings(getDb());
    } catch {
      return { values, message: await translateProblem({ key: "orderNotSaved" }) };
    }
    const totalMinor = priceCheckout(cart.totalMinor, zone).totalMinor;
    const pickup = details.delivery?.method === "pickup";
    const offer = cashOffer(settings, { zone, pickup, physical, totalMinor });
    if (!offer.offered) {
      const amounts = { maxMinor: settings.maxTotalMinor ?? 0, totalMinor: totalMinor + settings.feeMinor };
      const refusal = await translateProblem(cashRefusalProblem(offer.why, locale, amounts));
      return { values, fieldErrors: { payment_method: refusal }, message: refusal };
    }
    cashFeeMinor = offer.feeMinor;
  }

  // 3. Place the order.
  let order: PlacedOrder;
  try {
    order = await placeOrder(getDb(), {
      sessionId: session.id,
      cartId: session.cart.id,
      cart,
      details,
      shown: shown.data,
      zone,
      ...(cashFeeMinor === undefined ? {} : { paymentMethod: "cash", cashFeeMinor }),
      locale,
      siteUrl: SITE_URL,
      clientAddress: await clientIp(),
    });
  } catch (error) {
    const reason =
      error instanceof PaymentError
        ? { kind: error.kind, requestId: error.requestId }
        : { kind: error instanceof Error ? error.name : "unknown" };
    logger.warn({ event: "checkout_failed", ...reason });
    // The page shows the new prices (and its form posts them) for the customer to check and submit again.
    if (error instanceof PriceChangedError) refresh();
    const message = await describeCheckoutFailure(error, locale);
    // A cash order refused for its phone, or its network's open cash orders, says so on the field to change.
    if (error instanceof CashRefusedError)
      return { values, message, fieldErrors: { [error.why === "address" ? "payment_method" : "phone"]: message } };
    return { values, message };
  }

  // 4. Keep the order in the session (emptying a cart already paid for, or placed to be paid in cash), and redirect —
  // outside any try/catch: redirect() works by throwing, and a catch would swallow it.
  session.orderId = order.id;
  if (order.kind === "paid" || order.kind === "placed") session.cart = newCart();
  await session.save();
  // A cash order's e-mails (we will call you; a new cash order to confirm) go out once the customer has their page.
  if (order.kind === "placed") sendPendingEmailsAfterResponse();
  redirect(order.kind === "pay" ? order.paymentUrl : `/orders/${encodeURIComponent(order.id)}`);
}
