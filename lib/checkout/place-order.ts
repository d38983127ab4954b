import "server-only";
import { and, desc, eq, gt, inArray, sql } from "drizzle-orm";
import type { PricedCart } from "../cart";
import type { Product } from "../catalog/products";
import { holdStock } from "../catalog/stock";
import type { Db } from "../db/client";
import { describeDbFailure } from "../db/errors";
import { orderLines, orders, type OrderRow, type OrderStatus } from "../db/schema";
import { getEnv, paymentServiceConfig } from "../env";
import type { Locale } from "../i18n/config";
import { logger } from "../log";
import { CURRENCY, sum } from "../money";
import { deliveryFeeMinor, findEnabledZone, readPickup } from "../delivery/zones";
import { changeOrder, recordOrderEvent } from "../orders/events";
import { isPaymentPageOpen } from "../orders/payment-page";
import { newOrderId } from "../ids";
import {
  ACCESS_TOKEN_LIFETIME_MS,
  CHECKOUT_DEADLINE_MS,
  createPayment,
  CUSTOMER_FIELDS,
  newCallContext,
  PAYMENT_ERROR_KINDS,
  PaymentError,
  requestAccessToken,
  type AccessToken,
  type CreatedPayment,
  type PaymentErrorKind,
  type PaymentRequest,
} from "../payments";
import type { CheckoutDetails, Delivery } from "./form";

/**
 * One checkout, one payment — on any number of server instances. Everything that decides whether a submission is
 * a new checkout or the same one again lives here:
 *
 * - The **fingerprint** of a checkout is a digest of the cart (its id, lines and prices), the customer's details and
 *   the delivery chosen (method, city, address, landmark, second phone): another city is another payment.
 *   Two submissions of one browser session with the same fingerprint are the same checkout (a double click, a second
 *   tab, back + submit). A cart gets a new id when it is bought (lib/cart.ts), so buying the same things again later
 *   is a new checkout.
 * - The **claim**: in one transaction that holds this checkout's lock, the newest order of the checkout is looked up,
 *   and only when there is none to go to is a new one inserted as `started`, before the service is called. So of
 *   racing submissions exactly one claims; the others go where that one went, whichever instance they reached.
 * - Where a submission goes when the checkout has an order: **paid** or reported paid (`awaiting_confirmation`) — to
 *   that order, never to a second payment; **pending** with a payment page that has a while to live — back to it
 *   (resume); **started** — it waits for that claim's payment URL; and when the claim outlived its deadline, its server
 *   died: it takes the claim over and creates the payment itself. A cancelled, expired or failed order is no obstacle
 *   to paying again.
 * - The **stock**: the claim checks, with the products locked, that the stock can cover the cart, and its lines hold
 *   it from then on (lib/catalog/stock.ts); a cart it cannot cover goes back to the form saying which lines and how
 *   many are left.
 * - The **delivery fee** is priced in the claim's transaction from the zone as the database has it then
 *   (lib/delivery/zones.ts): a zone turned off or gone, or pickup no longer offered, is refused
 *   ({@link DeliveryUnavailableError}) before anything is stored; the amount is the lines plus the fee.
 * - The **budget**: a client address may start at most `PAYMENTS_PER_ADDRESS` new payments within
 *   {@link PAYMENTS_WINDOW_MS}. Each one costs two of the calls a minute the service allows the whole shop
 *   (docs/payment-service.md, "Rate limit"), so one address flooding the checkout cannot spend them all. It is
 *   counted in the claim's transaction, under the address's lock; a submission that goes to an existing order is free.
 *
 * The order and its lines are written before the service is called, and the payment token and payment URL before
 * the customer is redirected: if the database is down, no payment is created.
 */

/** How long a claim is its creator's: the whole checkout's deadline plus time to write the answer down. */
const CLAIM_MS = CHECKOUT_DEADLINE_MS + 5_000;
/** A pending payment is resumed only while its payment page has at least this long left to live. */
const RESUME_MARGIN_MS = 120_000;
/** How often a waiting submission looks at the claim it waits for. */
const POLL_MS = 100;
/** The window of the budget of new payments per client address: a payment page's life. */
const PAYMENTS_WINDOW_MS = ACCESS_TOKEN_LIFETIME_MS;

/** The database could not be read or written: nothing was charged, and the customer can try again. */
export class OrderStoreError extends Error {
  constructor(cause: unknown) {
    super("the order store could not be reached or refused the write", { cause });
    this.name = "OrderStoreError";
  }
}

/** The stock cannot cover the cart now: nothing was held, nothing asked of the service; the cart is kept. */
export class OutOfStockError extends Error {
  constructor(readonly lines: { name: Product["name"]; available: number }[]) {
    super("the stock cannot cover the cart");
    this.name = "OutOfStockError";
  }
}

/**
 * The delivery chosen is no longer offered: the zone was turned off or deleted, or pickup turned off, since the form
 * was shown. Nothing was stored or asked of the service; the cart is kept.
 */
export class DeliveryUnavailableError extends Error {
  constructor(readonly method: Delivery["method"]) {
    super(`the ${method === "delivery" ? "delivery zone" : "pickup"} chosen is no longer offered`);
    this.name = "DeliveryUnavailableError";
  }
}

/** The client address started its budget of new payments: nothing was asked of the service. */
export class PaymentBudgetError extends Error {
  constructor(readonly retryAfterMinutes: number) {
    super("this client address has started as many new payments as it may for now");
    this.name = "PaymentBudgetError";
  }
}

/**
 * Where to send the customer: to a payment URL (a new payment, this checkout's pending one, or the one a racing
 * submission made), or — when this cart is already paid for or reported paid — to its order, emptying the cart.
 */
export type PlacedOrder = { kind: "pay"; id: string; paymentUrl: string } | { kind: "paid"; id: string };

export interface PlaceOrderInput {
  /** The browser session placing the order (lib/session.ts). */
  sessionId: string;
  /** The session cart's id (lib/cart.ts): another id is another checkout. */
  cartId: string;
  /** The cart priced on the server, in minor units. */
  cart: PricedCart;
  details: CheckoutDetails;
  /** The shopper's language: the lines' names are stored in it, and the service localises its page by it. */
  locale: Locale;
  /** The shop's public origin, for the return URL and cancel URL. */
  siteUrl: string;
  /** Where the checkout came from (`clientIp()`), for the budget of new payments per address. */
  clientAddress: string;
}

/**
 * Places the order for a validated, priced checkout and says where to send the customer: this cart's paid order;
 * else the same checkout's pending payment; else the one a racing submission is creating; else a new one. A new one
 * is the order stored (`started`, the claim), then a fresh access token and the create call, then the payment token
 * and payment URL stored (`pending`) — or the failure (`failed`).
 * @throws PaymentError when the service did not create the payment (docs/payment-service.md, "Errors and what the
 *   shop does"), also when a racing submission of the same checkout failed that way; OutOfStockError when the stock
 *   cannot cover the cart; PaymentBudgetError when the client address may start no new payment now; OrderStoreError
 *   when the database failed; EnvError.
 * @param options.paymentsPerAddress the budget of new payments per client address (default: PAYMENTS_PER_ADDRESS).
 */
export async function placeOrder(
  db: Db,
  input: PlaceOrderInput,
  { paymentsPerAddress = getEnv().PAYMENTS_PER_ADDRESS }: { paymentsPerAddress?: number } = {},
): Promise<PlacedOrder> {
  const config = paymentServiceConfig();
  const fingerprint = await checkoutFingerprint(input);

  for (;;) {
    // 1. This checkout's order, if it has one to go to; else this submission claims it. An access token creates
    // nothing, so a claim asks for one at once, while the claim's lines are still being written.
    let ctx = newCallContext({ locale: input.locale });
    let accessToken: Promise<AccessToken> | undefined;
    const startTokenRequest = () => {
      accessToken = requestAccessToken(config, ctx);
      accessToken.catch(() => {}); // its failure is the create's to report
    };
    const found = await storeStep(() => claim(db, input, fingerprint, paymentsPerAddress, startTokenRequest));
    if ("refused" in found) throw new PaymentBudgetError(found.refused.retryAfterMinutes);
    if ("short" in found) throw new OutOfStockError(found.short);
    if ("unavailable" in found) throw new DeliveryUnavailableError(found.unavailable);
    let order: Claim;
    if ("existing" in found) {
      const existing = found.existing;
      if (existing.status === "paid" || existing.status === "awaiting_confirmation") {
        logger.info({ event: "checkout_already_paid", orderId: existing.id });
        return { kind: "paid", id: existing.id };
      }
      if (existing.status === "pending") {
        logger.info({ event: "checkout_resumed", orderId: existing.id });
        return { kind: "pay", id: existing.id, paymentUrl: existing.paymentUrl! };
      }
      const followed = await follow(db, existing);
      if (!("takenOver" in followed)) return followed;
      // Its server died and this submission took the claim over: a checkout of its own, with its own access token.
      order = followed.takenOver;
      ctx = newCallContext({ locale: input.locale });
      startTokenRequest();
    } else {
      order = found.claimed;
    }

    // 2. Create the payment. Every write below holds only while the claim is still ours.
    const ours = and(eq(orders.status, "started"), eq(orders.claimExpiresAt, order.claimExpiresAt));
    let payment: CreatedPayment;
    try {
      payment = await createPayment(config, await accessToken!, paymentRequest(order, input), ctx);
    } catch (error) {
      const failure: PaymentErrorKind | "unexpected" = error instanceof PaymentError ? error.kind : "unexpected";
      const failed = { set: { status: "failed", failure }, where: ours } as const;
      await storeStep(() => changeOrder(db, order.id, failed, { type: "payment_failed", data: { failure } })).catch(
        (storeError: unknown) =>
          logger.error({ event: "order_not_marked_failed", orderId: order.id, ...describeDbFailure(storeError) }),
      );
      throw error;
    }

    // 3. Record it before anyone is redirected. If another server took the claim over meanwhile, go round and
    // follow that one (the payment made here is left unpaid, and its page dies).
    const pending = {
      set: {
        status: "pending",
        paymentToken: payment.paymentToken,
        paymentUrl: payment.paymentUrl,
        paymentExpiresAt: new Date(payment.paymentExpiresAt),
      },
      where: ours,
    } as const;
    const event = { type: "payment_created", data: { paymentToken: payment.paymentToken } } as const;
    if (await storeStep(() => changeOrder(db, order.id, pending, event))) {
      logger.info({ event: "checkout_started", orderId: order.id, amountMinor: order.amountMinor });
      return { kind: "pay", id: order.id, paymentUrl: payment.paymentUrl };
    }
  }
}

/** The create call's fields for a claimed order: its amount, our order id as `custom`, and the customer's details. */
function paymentRequest(order: Claim, input: PlaceOrderInput): PaymentRequest {
  return {
    amountMinor: order.amountMinor,
    currency: order.currency,
    return_url: new URL("/checkout/return", input.siteUrl).href,
    cancel_url: new URL("/checkout/cancel", input.siteUrl).href,
    custom: order.id,
    ...Object.fromEntries(CUSTOMER_FIELDS.map((field) => [field, input.details[field]])),
  };
}

/**
 * A digest of everything a payment is made of — the cart's id, its lines, prices and total, the customer's details
 * and the delivery chosen (every field of the checkout form) — so a double click, a second tab, or the back button
 * and submit again can be recognised as the same checkout, and any change is another one.
 */
export async function checkoutFingerprint({
  cartId,
  cart,
  details,
}: Pick<PlaceOrderInput, "cartId" | "cart" | "details">): Promise<string> {
  const material = JSON.stringify([
    cartId,
    cart.lines.map((line) => [line.product.id, line.quantity, line.product.priceMinor]),
    cart.totalMinor,
    CUSTOMER_FIELDS.map((field) => details[field] ?? ""),
    deliveryMaterial(details.delivery),
  ]);
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(material));
  return Buffer.from(digest).toString("base64url");
}

/** The delivery's part of the fingerprint: every field the customer chose, in a fixed order. */
function deliveryMaterial(delivery: Delivery | undefined): string[] {
  if (!delivery) return [];
  if (delivery.method === "pickup") return ["pickup"];
  const { zoneId, address, landmark = "", secondPhone = "" } = delivery;
  return ["delivery", String(zoneId), address, landmark, secondPhone];
}

/** Whether a pending order's payment page has long enough left to send the customer back to it. */
export function canResume(order: Pick<OrderRow, "status" | "paymentExpiresAt">, now = Date.now()): boolean {
  return isPaymentPageOpen(order, now + RESUME_MARGIN_MS);
}

/** What paying for a claimed order needs to know of it. */
type Claim = Pick<OrderRow, "id" | "amountMinor" | "currency" | "claimExpiresAt">;

/** The statuses of a checkout's order that a submission goes to rather than paying again. */
const GO_TO: readonly OrderStatus[] = ["started", "pending", "awaiting_confirmation", "paid"];

/**
 * Claims this checkout, in one transaction under two advisory locks — the checkout's (session and fingerprint) and
 * the client address's, always in that order — so that on any number of instances one claim decision is made at a
 * time for each: finds the checkout's newest order to go to (a pending one only while it can be resumed); if there
 * is none, the delivery chosen is still offered (its fee priced from the zone as it is now), the address's budget
 * allows and the stock covers the lines (lib/catalog/stock.ts, `holdStock`: the products' rows are locked for the rest
 * of this transaction), inserts the order as `started` with its lines as sold — which
 * holds their stock from the commit on — and its `created` event. `onClaimed` runs as soon as the order's row is in
 * (the access token is requested meanwhile).
 * @returns the order to go to, the new claim, the delivery method no longer offered, the minutes until the address
 *   may start a payment again, or the lines the stock cannot cover.
 */
async function claim(
  db: Db,
  input: PlaceOrderInput,
  fingerprint: string,
  budget: number,
  onClaimed: () => void,
): Promise<
  | { existing: OrderRow }
  | { claimed: Claim }
  | { unavailable: Delivery["method"] }
  | { refused: { retryAfterMinutes: number } }
  | { short: OutOfStockError["lines"] }
> {
  const { cart, details, locale, sessionId, clientAddress } = input;
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`checkout:${sessionId}:${fingerprint}`}, 0)),
      pg_advisory_xact_lock(hashtextextended(${`payments:${clientAddress}`}, 0))`);
    const existing = await tx.query.orders.findFirst({
      where: and(eq(orders.sessionId, sessionId), eq(orders.fingerprint, fingerprint), inArray(orders.status, GO_TO)),
      orderBy: desc(orders.createdAt),
    });
    if (existing && (existing.status !== "pending" || canResume(existing))) return { existing };

    // The fee as the zone is priced now, in this transaction: what the form showed may have changed since.
    const { delivery } = details;
    let feeMinor = 0;
    let shipping: Partial<typeof orders.$inferInsert> = {};
    if (delivery?.method === "delivery") {
      const zone = await findEnabledZone(tx, delivery.zoneId);
      if (!zone) return { unavailable: "delivery" };
      shipping = {
        deliveryMethod: "delivery",
        deliveryZoneId: zone.id,
        deliveryCityEn: zone.name.en,
        deliveryCityAr: zone.name.ar,
        deliveryAddress: delivery.address,
        deliveryLandmark: delivery.landmark,
        secondPhone: delivery.secondPhone,
      };
      feeMinor = deliveryFeeMinor(zone, cart.totalMinor);
    } else if (delivery?.method === "pickup") {
      if (!(await readPickup(tx)).enabled) return { unavailable: "pickup" };
      shipping = { deliveryMethod: "pickup" };
    }

    const now = new Date();
    const windowStart = new Date(now.getTime() - PAYMENTS_WINDOW_MS);
    const recent = await tx
      .select({ createdAt: orders.createdAt })
      .from(orders)
      .where(and(eq(orders.clientAddress, clientAddress), gt(orders.createdAt, windowStart)))
      .orderBy(desc(orders.createdAt))
      .limit(budget);
    if (recent.length >= budget) {
      // Free again once the oldest of the last `budget` leaves the window.
      const freeAt = recent.at(-1)!.createdAt.getTime() + PAYMENTS_WINDOW_MS;
      return { refused: { retryAfterMinutes: Math.max(1, Math.ceil((freeAt - now.getTime()) / 60_000)) } };
    }

    const shortfall = await holdStock(
      tx,
      cart.lines.map((line) => ({ productId: line.product.id, quantity: line.quantity })),
      now,
    );
    if (shortfall.length > 0) {
      const byId = new Map(cart.lines.map((line) => [line.product.id, line.product.name]));
      return { short: shortfall.map(({ productId, available }) => ({ name: byId.get(productId)!, available })) };
    }

    const order: Claim = {
      id: newOrderId(),
      amountMinor: sum([cart.totalMinor, feeMinor]),
      currency: CURRENCY,
      claimExpiresAt: new Date(now.getTime() + CLAIM_MS),
    };
    const [claimed] = await tx
      .insert(orders)
      .values({
        ...order,
        sessionId,
        fingerprint,
        clientAddress,
        status: "started",
        locale,
        fullName: details.full_name,
        email: details.email,
        phone: details.phone,
        paymentGateway: details.payment_gateway,
        ...shipping,
        deliveryFeeMinor: feeMinor,
        createdAt: now,
        updatedAt: now,
      })
      // The unique index on started orders is the second line of defence: the lock above is the first.
      .onConflictDoNothing()
      .returning({ id: orders.id });
    if (!claimed) throw new Error("a started order of this checkout exists although its lock was held");
    onClaimed();
    await tx.insert(orderLines).values(
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
    await recordOrderEvent(tx, order.id, {
      type: "created",
      data: { amountMinor: order.amountMinor, deliveryFeeMinor: feeMinor },
    });
    return { claimed: order };
  });
}

/**
 * Waits for a `started` order that another submission of the same checkout is paying for, and hands out its
 * payment URL, or throws its failure. When the claim outlives its deadline (its server died), takes it over and
 * returns the renewed claim for this submission to pay.
 */
async function follow(db: Db, order: Pick<OrderRow, "id">): Promise<PlacedOrder | { takenOver: Claim }> {
  for (;;) {
    const current = await storeStep(() => db.query.orders.findFirst({ where: eq(orders.id, order.id) }));
    if (current?.status === "pending") return { kind: "pay", id: current.id, paymentUrl: current.paymentUrl! };
    if (current?.status === "paid" || current?.status === "awaiting_confirmation")
      return { kind: "paid", id: current.id };
    if (current?.status !== "started") {
      const kind = current?.failure;
      throw isPaymentErrorKind(kind)
        ? new PaymentError(kind, "a racing submission of the same checkout failed", { requestId: crypto.randomUUID() })
        : new Error(`a racing submission of the same checkout ended as ${current?.status ?? "missing"}`);
    }
    if (current.claimExpiresAt.getTime() < Date.now()) {
      const { id, amountMinor, currency } = current;
      const renewed = { id, amountMinor, currency, claimExpiresAt: new Date(Date.now() + CLAIM_MS) };
      const renew = {
        set: { claimExpiresAt: renewed.claimExpiresAt },
        where: and(eq(orders.status, "started"), eq(orders.claimExpiresAt, current.claimExpiresAt)),
      };
      if (await storeStep(() => changeOrder(db, id, renew, { type: "claim_taken_over" })))
        return { takenOver: renewed };
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

const isPaymentErrorKind = (kind: string | null | undefined): kind is PaymentErrorKind =>
  (PAYMENT_ERROR_KINDS as readonly (string | null | undefined)[]).includes(kind);

/** Runs a database step; any failure of it becomes an {@link OrderStoreError}. */
async function storeStep<T>(step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    throw new OrderStoreError(error);
  }
}
