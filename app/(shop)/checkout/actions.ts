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
  typedPromoCode,
  type CheckoutField,
  type CheckoutValues,
} from "@/lib/checkout/form";
import { CashRefusedError, PromoCodeError } from "@/lib/checkout/errors";
import { placeOrder, type PlacedOrder } from "@/lib/checkout/place-order";
import { priceCheckout, type PromoPrice } from "@/lib/checkout/pricing";
import { PriceChangedError } from "@/lib/checkout/shown-prices";
import { cashRefusalProblem, describeCheckoutFailure, describePromoRefusal } from "@/lib/checkout/problems";
import { SHOWN_PRICES_FIELD, shownPricesSchema } from "@/lib/checkout/shown-prices";
import { getDb } from "@/lib/db/client";
import { listDeliveryZones, readPickup, type DeliveryZone } from "@/lib/delivery/zones";
import { sendPendingEmailsAfterResponse } from "@/lib/email/sender";
import { sendPendingSmsAfterResponse } from "@/lib/sms/delivery";
import { getEnv } from "@/lib/env";
import { logger } from "@/lib/log";
import { isPaymentPageOpen } from "@/lib/payment-page";
import { findCustomerOrder } from "@/lib/orders/store";
import { PaymentError } from "@/lib/payments";
import { translateProblem, type ProblemKey } from "@/lib/problems";
import { normaliseLibyanMobile } from "@/lib/phone";
import { checkPromoCode, type PromoCheck } from "@/lib/promo-codes/check";
import { getSession } from "@/lib/session";

/**
 * What the checkout form shows after a submission that placed no order: what went wrong (in the shopper's language),
 * what the customer had typed, and the promo code it carries when the code was found valid for this cart — its terms,
 * which the order summary prices (lib/checkout/pricing.ts) and the form posts back as shown
 * (lib/checkout/shown-prices.ts).
 */
export interface CheckoutState {
  message?: string;
  fieldErrors?: Partial<Record<CheckoutField, string>>;
  values: CheckoutValues;
  promo?: PromoPrice;
}

/**
 * The checkout (README, "How a checkout works"): 1. price the cart on the server, with the delivery the merchant
 * offers now, 2. check the promo code typed (below), 3. parse the form (what it asks depends on the cart: delivery
 * for goods, a way to reach the customer for digital products only; and the prices the form showed; for cash on
 * delivery, whether this checkout may be paid in cash, lib/cash/settings.ts), 4. place the order
 * (lib/checkout/place-order.ts: priced, and refused when that is not what the form showed; claimed, paid for by its
 * payment method, recorded; or this checkout's pending payment resumed), 5. keep the order in the session and
 * redirect to the payment URL — or, for a cash order, empty the cart and show the order. Every failure returns to the
 * form with a message and the customer's input, and keeps the cart.
 * A cart that is already paid for (another tab paid it, or the customer paid and closed the payment page) is not paid
 * again: the customer is sent to its order, and the cart is emptied as after paying.
 *
 * A promo code is checked at every submission that carries one (lib/promo-codes/check.ts): refused on its field,
 * saying why; taken, it comes back in the state for the summary. The form's "Apply" button (`intent=apply`)
 * stops there — the form again, with the discount, and no question asked of the other fields — so it works without
 * JavaScript; paying with a code applies it too, and the claim decides its use (lib/checkout/place-order.ts).
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

  // 2. The promo code, when one is typed: taken for this cart, or refused on its field. "Apply" ends here.
  const locale = await getLocale();
  const code = typedPromoCode(values);
  const clientAddress = await clientIp();
  let promo: PromoCheck | undefined;
  if (code) {
    const customer = { phone: normaliseLibyanMobile(values.phone ?? ""), email: values.email?.trim() || null };
    try {
      promo = await checkPromoCode(getDb(), code, {
        linesMinor: cart.totalMinor,
        clientAddress,
        customer,
        sessionId: session.id,
      });
    } catch {
      return { values, message: await translateProblem({ key: "orderNotSaved" }) };
    }
  }
  const taken = promo?.ok ? { promo: promoPrice(promo.code) } : {};
  const promoError = promo && !promo.ok ? await describePromoRefusal(promo, code!, locale) : undefined;
  // The form's "Apply" button (components/checkout-form.tsx) posts intent=apply.
  if (form.get("intent") === "apply") {
    if (promoError) return { values, fieldErrors: { promo_code: promoError }, message: promoError };
    if (!code) {
      const empty = (await getTranslations("checkout.promo"))("empty");
      return { values, fieldErrors: { promo_code: empty }, message: empty };
    }
    return { values, ...taken };
  }

  // 3. Parse, by what this cart needs and what the merchant offers.
  const physical = cart.lines.some((line) => line.product.kind === "physical");
  const needs = { physical, pickup, zones: zones.map((zone) => zone.id) };
  const parsed = checkoutFormSchema(PAYMENT_GATEWAYS, needs).safeParse(values);
  if (!parsed.success || promoError) {
    // The schema's messages are problem keys (lib/checkout/form.ts); each field shows its first.
    const issues: Partial<Record<string, string[]>> = parsed.success ? {} : z.flattenError(parsed.error).fieldErrors;
    const fieldErrors: CheckoutState["fieldErrors"] = {};
    for (const field of CHECKOUT_FIELDS) {
      const key = issues[field]?.[0] as ProblemKey | undefined;
      if (key) fieldErrors[field] = await translateProblem({ key });
    }
    if (promoError) fieldErrors.promo_code = promoError;
    const message = parsed.success ? promoError : (await getTranslations("checkout"))("fixFields");
    return { values, fieldErrors, message, ...taken };
  }
  const details = parsed.data;
  const shown = shownPricesSchema.safeParse(form.get(SHOWN_PRICES_FIELD));
  if (!shown.success) {
    refresh();
    return { values, message: await translateProblem({ key: "shownPricesInvalid" }), ...taken };
  }

  const zone = zones.find((each) => details.delivery?.method === "delivery" && each.id === details.delivery.zoneId);
  // Cash on delivery: only where the merchant takes it for this cart, zone or pickup, and total; refused on its field.
  // The highest total the merchant takes in cash is compared with what the courier would collect: the lines, the
  // delivery and the cash fee, less the code's discount.
  let cashFeeMinor: number | undefined;
  if (details.payment_method === "cash") {
    let settings;
    try {
      settings = await readCashSettings(getDb());
    } catch {
      return { values, message: await translateProblem({ key: "orderNotSaved" }), ...taken };
    }
    const collectedMinor = priceCheckout(cart.totalMinor, zone, settings.feeMinor, taken.promo).totalMinor;
    const pickup = details.delivery?.method === "pickup";
    const offer = cashOffer(settings, { zone, pickup, physical, totalMinor: collectedMinor - settings.feeMinor });
    if (!offer.offered) {
      const amounts = { maxMinor: settings.maxTotalMinor ?? 0, totalMinor: collectedMinor };
      const refusal = await translateProblem(cashRefusalProblem(offer.why, locale, amounts));
      return { values, fieldErrors: { payment_method: refusal }, message: refusal, ...taken };
    }
    cashFeeMinor = offer.feeMinor;
  }

  // 4. Place the order.
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
      ...(promo?.ok ? { promo: promo.code } : {}),
      locale,
      siteUrl: SITE_URL,
      clientAddress,
    });
  } catch (error) {
    const reason =
      error instanceof PaymentError
        ? { kind: error.kind, requestId: error.requestId }
        : { kind: error instanceof Error ? error.name : "unknown" };
    logger.warn({ event: "checkout_failed", ...reason });
    // The page shows the new prices (and its form posts them) for the customer to check and submit again.
    if (error instanceof PriceChangedError) refresh();
    // The code's last use went to another checkout meanwhile (the claim decides): said on its field, the code dropped
    // from the summary.
    if (error instanceof PromoCodeError) {
      const message = await describePromoRefusal({ ok: false, why: error.why }, code!, locale);
      return { values, message, fieldErrors: { promo_code: message } };
    }
    const message = await describeCheckoutFailure(error, locale);
    // A cash order refused for its phone, or its network's open cash orders, says so on the field to change.
    if (error instanceof CashRefusedError)
      return {
        values,
        message,
        fieldErrors: { [error.why === "address" ? "payment_method" : "phone"]: message },
        ...taken,
      };
    return { values, message, ...taken };
  }

  // 5. Keep the order in the session (emptying a cart already paid for, or placed to be paid in cash), and redirect —
  // outside any try/catch: redirect() works by throwing, and a catch would swallow it.
  session.orderId = order.id;
  if (order.kind === "paid" || order.kind === "placed") session.cart = newCart();
  await session.save();
  // A cash order's e-mails (we will call you; a new cash order to confirm) go out once the customer has their page.
  if (order.kind === "placed") sendPendingEmailsAfterResponse();
  if (order.kind === "placed") sendPendingSmsAfterResponse();
  redirect(order.kind === "pay" ? order.paymentUrl : `/orders/${encodeURIComponent(order.id)}`);
}

/** A code's terms as the summary prices them: its row, minus what the browser need not see. */
function promoPrice({ code, kind, percent, amountMinor }: PromoPrice): PromoPrice {
  return { code, kind, percent, amountMinor };
}
