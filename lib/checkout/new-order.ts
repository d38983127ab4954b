import "server-only";
import type { PricedCart } from "../cart";
import { confirmByFrom } from "../cash/budget";
import type { Tx } from "../db/client";
import { orderLines, orders, type OrderRow, type PaymentMethodName, type PromoCodeRow } from "../db/schema";
import type { DeliveryZone } from "../delivery/zones";
import type { Locale } from "../i18n/config";
import { newOrderId } from "../ids";
import { CURRENCY } from "../money";
import { writeOrder } from "../orders/events";
import { CHECKOUT_DEADLINE_MS } from "../payments";
import type { CheckoutDetails } from "./form";
import type { CheckoutPrice } from "./pricing";

/**
 * A new order as the claim (./claim.ts) stores it, `started`: its row, its lines as sold and its `created` event, in
 * one statement, inside the claim's transaction.
 */

/** How long a claim is its creator's: the whole checkout's deadline plus time to write the answer down. */
export const CLAIM_MS = CHECKOUT_DEADLINE_MS + 5_000;
/** What paying for a claimed order needs to know of it. */
export type ClaimedOrder = Pick<
  OrderRow,
  "id" | "amountMinor" | "currency" | "locale" | "paymentMethod" | "claimExpiresAt"
>;

/** A new order: who submits it, what it is, and what it costs. */
export interface NewOrder {
  /** The browser session submitting it (lib/session.ts). */
  sessionId: string;
  /** The checkout's fingerprint (./fingerprint.ts): the same checkout submitted again has the same one. */
  fingerprint: string;
  /** Where the submission came from, for the budgets per client address. */
  clientAddress: string;
  /** The shopper's language: the lines' names are stored in it. */
  locale: Locale;
  paymentMethod: PaymentMethodName;
  details: CheckoutDetails;
  /** The delivery zone the customer chose, as it was priced; absent for pickup or nothing to deliver. */
  zone?: DeliveryZone;
  cart: PricedCart;
  /** What it costs (./pricing.ts), with `promo`'s discount when it carries a code. */
  price: CheckoutPrice;
  /** The promo code it was priced with (lib/promo-codes/check.ts found it valid); absent without one. */
  promo?: Pick<PromoCodeRow, "id" | "code">;
}

/** Where the goods go, as the order's columns: the zone's names as they are now, the address as the customer gave it. */
function shipping(delivery: CheckoutDetails["delivery"], zone: DeliveryZone | undefined): Partial<OrderInsert> {
  if (delivery?.method === "pickup") return { deliveryMethod: "pickup" };
  if (delivery?.method !== "delivery" || !zone) return {};
  return {
    deliveryMethod: "delivery",
    deliveryZoneId: zone.id,
    deliveryCityEn: zone.name.en,
    deliveryCityAr: zone.name.ar,
    deliveryAddress: delivery.address,
    deliveryLandmark: delivery.landmark,
    secondPhone: delivery.secondPhone,
  };
}

type OrderInsert = typeof orders.$inferInsert;

/** Inserts a claimed order as `started`, with its lines and its `created` event, in one statement. */
export async function insertOrder(tx: Tx, request: NewOrder, now: Date): Promise<ClaimedOrder> {
  const { sessionId, fingerprint, clientAddress, locale, paymentMethod, details, zone, cart, price, promo } = request;
  // A cash order waits for the merchant's call until the deadline the merchant set (lib/cash/settings.ts).
  const cash =
    paymentMethod === "cash" ? { cashFeeMinor: price.cashFeeMinor ?? 0, confirmBy: await confirmByFrom(tx, now) } : {};
  // The code as priced: its id for its uses, its text as it was then, and what it took off (already off the total).
  const discount = promo
    ? { promoCodeId: promo.id, promoCode: promo.code, discountMinor: price.discountMinor ?? 0 }
    : {};
  const order: ClaimedOrder = {
    id: newOrderId(),
    amountMinor: price.totalMinor,
    currency: CURRENCY,
    locale,
    paymentMethod,
    claimExpiresAt: new Date(now.getTime() + CLAIM_MS),
  };
  const insert = tx
    .insert(orders)
    .values({
      ...order,
      sessionId,
      fingerprint,
      clientAddress,
      status: "started",
      fullName: details.full_name,
      email: details.email,
      phone: details.phone,
      smsUpdates: details.sms_updates,
      paymentGateway: details.payment_gateway,
      ...shipping(details.delivery, zone),
      deliveryFeeMinor: price.deliveryFeeMinor,
      ...cash,
      ...discount,
      createdAt: now,
      updatedAt: now,
    })
    // The unique index on started orders is the second line of defence: the checkout's lock is the first.
    .onConflictDoNothing()
    .returning({ id: orders.id });
  const lines = tx.insert(orderLines).values(
    cart.lines.map((line, position) => ({
      orderId: order.id,
      position,
      productId: line.product.id,
      productSlug: line.product.slug,
      name: line.product.name[locale],
      unitMinor: line.product.priceMinor,
      quantity: line.quantity,
    })),
  );
  const created = {
    type: "created",
    at: now,
    data: {
      amountMinor: order.amountMinor,
      deliveryFeeMinor: price.deliveryFeeMinor,
      ...(promo ? { promoCode: promo.code, discountMinor: price.discountMinor ?? 0 } : {}),
    },
  } as const;
  if (!(await writeOrder(tx, insert, created, lines)))
    throw new Error("a started order of this checkout exists although its lock was held");
  return order;
}
