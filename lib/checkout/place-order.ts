import "server-only";
import { and, eq } from "drizzle-orm";
import type { PricedCart } from "../cart";
import type { Db } from "../db/client";
import { describeDbFailure } from "../db/errors";
import { orders, type OrderRow, type PaymentMethodName, type PromoCodeRow } from "../db/schema";
import type { DeliveryZone } from "../delivery/zones";
import { getEnv, paymentServiceConfig } from "../env";
import type { Locale } from "../i18n/config";
import { logger } from "../log";
import { changeOrder } from "../orders/events";
import { queueOrderEmails } from "../orders/outbox";
import { queueOrderSms } from "../orders/sms-outbox";
import { PAYMENT_METHODS, type PaymentStart } from "../payment-methods";
import { isPaymentErrorKind, newCallContext, PaymentError, requestAccessToken } from "../payments";
import type { MinorUnits } from "../money";
import type { CashBudget } from "../cash/budget";
import { startClaim } from "./claim";
import { CLAIM_MS, type ClaimedOrder } from "./new-order";
import { OrderStoreError, throwIfRefused } from "./errors";
import { checkoutFingerprint } from "./fingerprint";
import type { CheckoutDetails } from "./form";
import { priceCheckout } from "./pricing";
import { priceChanges, PriceChangedError, type ShownPrices } from "./shown-prices";

/**
 * One checkout, one payment — on any number of server instances. {@link placeOrder} is the whole of it, in four
 * steps: **price** (./pricing.ts), **claim** (./claim.ts: one transaction decides whether this is a new checkout and
 * stores it), **pay** (by the order's payment method, lib/payment-methods/), **record** (the payment's start, before
 * the customer is sent anywhere). The order is written before any payment is started: if the database is down,
 * nothing is charged.
 *
 * A checkout is recognised by its **fingerprint** (./fingerprint.ts): two submissions of one browser session with the
 * same one are the same checkout (a double click, a second tab, back + submit); any change is another one.
 */

/** How often a waiting submission looks at the claim it waits for. */
const POLL_MS = 100;

/**
 * Where to send the customer: to a payment URL (a new payment, this checkout's pending one, or the one a racing
 * submission made), or — when this cart is already paid for or reported paid (`paid`), or placed to be paid in cash
 * (`placed`) — to its order, emptying the cart.
 */
export type PlacedOrder =
  { kind: "pay"; id: string; paymentUrl: string } | { kind: "paid"; id: string } | { kind: "placed"; id: string };

export interface PlaceOrderInput {
  /** The browser session placing the order (lib/session.ts). */
  sessionId: string;
  /** The session cart's id (lib/cart.ts): another id is another checkout. */
  cartId: string;
  /** The cart priced from the catalogue on the server (lib/cart.ts, `priceCart`), in minor units. */
  cart: PricedCart;
  /** The checkout form, validated (./form.ts). */
  details: CheckoutDetails;
  /** What the checkout form showed the customer (./shown-prices.ts): the order is placed at those prices only. */
  shown: ShownPrices;
  /** The delivery zone of `details.delivery`, as the database offers it now; absent for pickup or nothing to deliver. */
  zone?: DeliveryZone;
  /** The way to pay (lib/payment-methods/). Default `online`. */
  paymentMethod?: PaymentMethodName;
  /** For cash: the cash fee (lib/cash/settings.ts, `cashOffer`), and the budget of open cash orders (./claim.ts). */
  cashFeeMinor?: MinorUnits;
  cashBudget?: CashBudget;
  /**
   * The promo code the customer gave, found valid for this checkout (lib/promo-codes/check.ts, `checkPromoCode`):
   * priced as a discount line, part of the fingerprint, its use held by the claim. Absent without a code.
   */
  promo?: PromoCodeRow;
  /** The shopper's language: the lines' names are stored in it, and the service localises its page by it. */
  locale: Locale;
  /** The shop's public origin, for the return URL and cancel URL. */
  siteUrl: string;
  /** Where the checkout came from (lib/client-address.ts), for the budget of new payments per address. */
  clientAddress: string;
}

/**
 * Places the order for a validated checkout, priced on the server, and says where to send the customer: this cart's
 * paid order; else the same checkout's pending payment; else the one a racing submission is starting; else a new one.
 * @param options.paymentsPerAddress the budget of new payments per client address (default: PAYMENTS_PER_ADDRESS).
 * @param options.heldPerAddress the most units of counted stock a client address's open checkouts may hold (default:
 *   HELD_UNITS_PER_ADDRESS).
 * @throws PriceChangedError when a price or the delivery fee is not what the form showed; OverMostError when a line
 *   has more than its product's most per order; OutOfStockError when the stock cannot cover the cart;
 *   PaymentBudgetError when the client address may start no new payment now; HeldTooMuchError when its open checkouts
 *   would hold too many units; CashRefusedError when a cash order's phone is blocked from cash or it or the address
 *   has its open cash orders' budget; PromoCodeError when the promo code has no uses left, in all or for this customer
 *   (counted by the claim; a resubmission going to its own order is never refused); PaymentError when the service did
 *   not create the payment (docs/payment-service.md, "Errors and what the shop does"), also when a racing submission
 *   of the same checkout failed that way; OrderStoreError when the database failed; EnvError.
 */
export async function placeOrder(
  db: Db,
  input: PlaceOrderInput,
  {
    paymentsPerAddress = getEnv().PAYMENTS_PER_ADDRESS,
    heldPerAddress = getEnv().HELD_UNITS_PER_ADDRESS,
  }: { paymentsPerAddress?: number; heldPerAddress?: number } = {},
): Promise<PlacedOrder> {
  const { paymentMethod = "online" } = input;
  // 1. Price: the lines as the catalogue has them, then the chosen zone's fee, the cash fee and the code's discount;
  // refused unless the form showed the lines and the fees.
  const price = priceCheckout(input.cart.totalMinor, input.zone, input.cashFeeMinor, input.promo);
  const changes = priceChanges(input.cart, input.zone, price, input.shown);
  if (changes.length > 0) throw new PriceChangedError(changes);
  const request = { ...input, paymentMethod, fingerprint: await checkoutFingerprint(input, price), price };
  const config = paymentServiceConfig();
  const method = PAYMENT_METHODS[paymentMethod];

  for (;;) {
    // 2. Claim: this checkout's order to go to, or a new one stored as `started`. Once it has decided on a new order
    // that pays through the service, the token (3.) is asked for while it writes the order (docs/performance.md).
    const claimCtx = newCallContext({ locale: input.locale });
    const claiming = startClaim(db, { ...request, budget: paymentsPerAddress, heldPerAddress });
    const early =
      method.needsAccessToken && (await claiming.newOrder) ? requestAccessToken(config, claimCtx) : undefined;
    early?.catch(() => {}); // awaited once the claim has committed; dropped unused if the claim fails
    const claim = await storeStep(() => claiming.claim);
    throwIfRefused(claim);
    const next = claim.kind === "existing" ? await goTo(db, claim.order) : claim;
    if (next.kind !== "claimed" && next.kind !== "taken_over") return next;
    const { order } = next; // a new order, or a claim taken over (its server died) for this submission to pay for

    // 3. Pay, by the payment method (the fingerprint's: the same for a claim taken over), outside any transaction.
    // One that pays through the service gets a fresh access token for this order, asked for here and not by a wrapper:
    // from the action to `fetch` it is 4 calls.
    let start: PaymentStart;
    try {
      if (method.needsAccessToken) {
        const ctx = early ? claimCtx : newCallContext({ locale: order.locale });
        const accessToken = await (early ?? requestAccessToken(config, ctx));
        start = await method.pay(order, input, { config, ctx, accessToken });
      } else {
        start = await method.pay(order, input);
      }
    } catch (error) {
      await markFailed(db, order, error);
      throw error;
    }

    // 4. Record it before anyone is redirected. If another server took the claim over meanwhile, go round and follow
    // that one (the payment started here is left unpaid, and its page dies).
    if (await storeStep(() => recordStart(db, order, start))) {
      logger.info({ event: "checkout_started", orderId: order.id, amountMinor: order.amountMinor, way: start.kind });
      return start.kind === "payment_page"
        ? { kind: "pay", id: order.id, paymentUrl: start.paymentUrl }
        : { kind: "placed", id: order.id };
    }
  }
}

/** Only while the claim is still this submission's: started, with the deadline it was claimed (or taken over) with. */
const stillOurs = (order: ClaimedOrder) =>
  and(eq(orders.status, "started"), eq(orders.claimExpiresAt, order.claimExpiresAt));

/**
 * Records how paying started, on its order: a payment page makes it `pending`, with the payment token, URL and the
 * page's death; a cash order is `placed`, waiting for the merchant's call (its deadline was stored by the claim), and
 * its e-mails — the customer's "we will call you", the merchant's notice — are queued in the same transaction.
 */
function recordStart(db: Db, order: ClaimedOrder, start: PaymentStart): Promise<boolean> {
  if (start.kind === "cash_order") {
    return db.transaction(async (tx) => {
      const placed = { set: { status: "placed" }, where: stillOurs(order) } as const;
      if (!(await changeOrder(tx, order.id, placed, { type: "cash_order_placed" }))) return false;
      await queueOrderEmails(tx, order.id, "cash_placed");
      await queueOrderSms(tx, order.id, "cash_placed");
      return true;
    });
  }
  const { paymentToken, paymentUrl, paymentExpiresAt } = start;
  return changeOrder(
    db,
    order.id,
    { set: { status: "pending", paymentToken, paymentUrl, paymentExpiresAt }, where: stillOurs(order) },
    { type: "payment_created", data: { paymentToken } },
  );
}

/** Marks a claimed order `failed` with why its payment could not be started; a database failure is only logged. */
async function markFailed(db: Db, order: ClaimedOrder, error: unknown): Promise<void> {
  const failure = error instanceof PaymentError ? error.kind : "unexpected";
  const failed = { set: { status: "failed", failure }, where: stillOurs(order) } as const;
  await changeOrder(db, order.id, failed, { type: "payment_failed", data: { failure } }).catch((storeError: unknown) =>
    logger.error({ event: "order_not_marked_failed", orderId: order.id, ...describeDbFailure(storeError) }),
  );
}

/**
 * Where a submission goes when its checkout already has an order: a paid or reported-paid order, a pending payment,
 * a placed cash order, or — while another submission is still paying for it (`started`) — wherever that one goes. When that claim outlives
 * its deadline (its server died), takes it over and returns it for this submission to pay.
 * @throws PaymentError when the racing submission failed to start its payment.
 */
async function goTo(db: Db, found: OrderRow): Promise<PlacedOrder | { kind: "taken_over"; order: ClaimedOrder }> {
  let order: OrderRow | undefined = found;
  for (;;) {
    if (order?.status === "paid" || order?.status === "awaiting_confirmation") {
      logger.info({ event: "checkout_already_paid", orderId: order.id });
      return { kind: "paid", id: order.id };
    }
    if (order?.status === "pending") {
      logger.info({ event: "checkout_resumed", orderId: order.id });
      return { kind: "pay", id: order.id, paymentUrl: order.paymentUrl! };
    }
    if (order?.status === "placed" || order?.status === "confirmed") return { kind: "placed", id: order.id };
    if (order?.status !== "started") {
      const kind = order?.failure;
      throw isPaymentErrorKind(kind)
        ? new PaymentError(kind, "a racing submission of the same checkout failed", { requestId: crypto.randomUUID() })
        : new Error(`a racing submission of the same checkout ended as ${order?.status ?? "missing"}`);
    }
    if (order.claimExpiresAt.getTime() < Date.now()) {
      const taken = { ...order, claimExpiresAt: new Date(Date.now() + CLAIM_MS) };
      const renew = { set: { claimExpiresAt: taken.claimExpiresAt }, where: stillOurs(order) };
      if (await storeStep(() => changeOrder(db, taken.id, renew, { type: "claim_taken_over" })))
        return { kind: "taken_over", order: taken };
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    const id: string = order.id;
    order = await storeStep(() => db.query.orders.findFirst({ where: eq(orders.id, id) }));
  }
}

/** Runs a database step; any failure of it becomes an {@link OrderStoreError}. */
async function storeStep<T>(step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    throw new OrderStoreError(error);
  }
}
