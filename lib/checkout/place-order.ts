import "server-only";
import { and, desc, eq, inArray } from "drizzle-orm";
import type { PricedCart } from "../cart";
import type { Db } from "../db/client";
import { describeDbFailure } from "../db/errors";
import { orderLines, orders, type OrderRow } from "../db/schema";
import { paymentServiceConfig } from "../env";
import type { Locale } from "../i18n/config";
import { logger } from "../log";
import { CURRENCY } from "../money";
import { isPaymentPageOpen, recordOrderEvent } from "../orders/settle";
import { newOrderId } from "../orders/store";
import {
  CHECKOUT_DEADLINE_MS,
  createPayment,
  newCallContext,
  PAYMENT_ERROR_KINDS,
  PaymentError,
  requestAccessToken,
  type CreatedPayment,
  type PaymentErrorKind,
  type PaymentRequest,
} from "../payments";
import type { CheckoutDetails } from "./form";

/**
 * One checkout, one payment — on any number of server instances. Everything that decides whether a submission is
 * a new checkout or the same one again lives here:
 *
 * - The **fingerprint** of a checkout is a digest of its lines, prices and customer details. Two submissions of one
 *   browser session with the same fingerprint are the same checkout (a double click, a second tab, back + submit).
 * - The **claim**: before calling the service, the order is inserted as `started`. A unique index allows one
 *   `started` order per session and fingerprint, so of two racing submissions exactly one inserts; the other waits
 *   for that order's payment URL, whichever instance it reached.
 * - **Resume**: a `pending` order of the same checkout whose payment page still has a while to live is handed out
 *   again instead of creating another payment.
 * - **Take-over**: a claim older than the checkout's deadline belongs to an instance that died; the next submission
 *   takes it over and creates the payment itself.
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

/** The database could not be read or written: nothing was charged, and the customer can try again. */
export class OrderStoreError extends Error {
  constructor(cause: unknown) {
    super("the order store could not be reached or refused the write", { cause });
    this.name = "OrderStoreError";
  }
}

/** Where to send the customer: the order's id and the payment URL. */
export interface PlacedOrder {
  id: string;
  paymentUrl: string;
}

export interface PlaceOrderInput {
  /** The browser session placing the order (lib/session.ts). */
  sessionId: string;
  /** The cart priced on the server, in minor units. */
  cart: PricedCart;
  details: CheckoutDetails;
  /** The shopper's language: the lines' names are stored in it, and the service localises its page by it. */
  locale: Locale;
  /** The shop's public origin, for the return URL and cancel URL. */
  siteUrl: string;
}

/**
 * Places the order for a validated, priced checkout and returns the payment URL to send the customer to: the
 * same checkout's pending payment when there is one, else the one a racing submission is creating, else a new one.
 * A new one is the order stored (`started`, the claim), then a fresh access token and the create call, then the
 * payment token and payment URL stored (`pending`) — or the failure (`failed`).
 * @throws PaymentError when the service did not create the payment (docs/payment-service.md, "Errors and what the
 *   shop does"), also when a racing submission of the same checkout failed that way; OrderStoreError when the
 *   database failed; EnvError.
 */
export async function placeOrder(db: Db, input: PlaceOrderInput): Promise<PlacedOrder> {
  const config = paymentServiceConfig();
  let ctx = newCallContext({ locale: input.locale });
  // An access token creates nothing, so it is requested while the order is looked up and stored; only the create
  // waits for the stored order. A checkout that resumes or follows another submission leaves it unused.
  let accessToken = requestAccessToken(config, ctx);
  accessToken.catch(() => {}); // its failure is the create's to report, if a create needs it
  const fingerprint = await checkoutFingerprint(input.cart, input.details);

  for (;;) {
    // 1. This checkout's payment, if it exists or another submission is creating it; else claim the checkout.
    const open = await storeStep(() => findOpenCheckout(db, input.sessionId, fingerprint));
    if (open && canResume(open)) {
      logger.info({ event: "checkout_resumed", orderId: open.id });
      return { id: open.id, paymentUrl: open.paymentUrl! };
    }
    let order: Claim | null;
    if (open?.status === "started") {
      const followed = await follow(db, open);
      if (!("takenOver" in followed)) return followed;
      // Its server died and this submission took the claim over: a checkout of its own, with its own access token.
      order = followed.takenOver;
      ctx = newCallContext({ locale: input.locale });
      accessToken = requestAccessToken(config, ctx);
    } else {
      order = await storeStep(() => claim(db, input, fingerprint));
      if (!order) continue; // another submission claimed it between our look and our insert: follow it
    }

    // 2. Create the payment. Every write below holds only while the claim is still ours.
    const ours = and(eq(orders.status, "started"), eq(orders.claimExpiresAt, order.claimExpiresAt));
    let payment: CreatedPayment;
    try {
      payment = await createPayment(config, await accessToken, paymentRequest(order, input), ctx);
    } catch (error) {
      const failure: PaymentErrorKind | "unexpected" = error instanceof PaymentError ? error.kind : "unexpected";
      const failed = { set: { status: "failed", failure }, where: ours } as const;
      await storeStep(() =>
        recordOrderEvent(db, order.id, { type: "payment_failed", data: { failure } }, failed),
      ).catch((storeError: unknown) =>
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
        accessTokenIssuedAt: new Date(payment.accessTokenIssuedAt),
      },
      where: ours,
    } as const;
    const event = { type: "payment_created", data: { paymentToken: payment.paymentToken } } as const;
    if (await storeStep(() => recordOrderEvent(db, order.id, event, pending))) {
      logger.info({ event: "checkout_started", orderId: order.id, amountMinor: order.amountMinor });
      return { id: order.id, paymentUrl: payment.paymentUrl };
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
    ...input.details,
  };
}

/**
 * A digest of everything a payment is made of — lines, prices, total and the customer's details — so a double
 * click, a second tab, or the back button and submit again can be recognised as the same checkout.
 */
export async function checkoutFingerprint(cart: PricedCart, details: CheckoutDetails): Promise<string> {
  const material = JSON.stringify([
    cart.lines.map((line) => [line.product.slug, line.quantity, line.product.priceMinor]),
    cart.totalMinor,
    details.full_name ?? "",
    details.email ?? "",
    details.phone ?? "",
    details.payment_gateway ?? "",
  ]);
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(material));
  return Buffer.from(digest).toString("base64url");
}

/** Whether a pending order's payment page has long enough left to send the customer back to it. */
export function canResume(order: Pick<OrderRow, "status" | "accessTokenIssuedAt">, now = Date.now()): boolean {
  return isPaymentPageOpen(order, now + RESUME_MARGIN_MS);
}

/** The newest `started` or `pending` order of this session's checkout, if any. */
async function findOpenCheckout(db: Db, sessionId: string, fingerprint: string): Promise<OrderRow | undefined> {
  return db.query.orders.findFirst({
    where: and(
      eq(orders.sessionId, sessionId),
      eq(orders.fingerprint, fingerprint),
      inArray(orders.status, ["started", "pending"]),
    ),
    orderBy: desc(orders.createdAt),
  });
}

/** What paying for a claimed order needs to know of it. */
type Claim = Pick<OrderRow, "id" | "amountMinor" | "currency" | "claimExpiresAt">;

/**
 * Inserts the order as `started`, its lines as sold and its `created` event, in one transaction: all or nothing.
 * `null` when this checkout is already claimed (the unique index on started orders refused the insert).
 */
async function claim(db: Db, input: PlaceOrderInput, fingerprint: string): Promise<Claim | null> {
  const { cart, details, locale, sessionId } = input;
  const order: Claim = {
    id: newOrderId(),
    amountMinor: cart.totalMinor,
    currency: CURRENCY,
    claimExpiresAt: new Date(Date.now() + CLAIM_MS),
  };
  return db.transaction(async (tx) => {
    const [claimed] = await tx
      .insert(orders)
      .values({
        ...order,
        sessionId,
        fingerprint,
        status: "started",
        locale,
        fullName: details.full_name,
        email: details.email,
        phone: details.phone,
        paymentGateway: details.payment_gateway,
      })
      .onConflictDoNothing()
      .returning({ id: orders.id });
    if (!claimed) return null;
    await tx.insert(orderLines).values(
      cart.lines.map((line, position) => ({
        orderId: order.id,
        position,
        productSlug: line.product.slug,
        name: line.product.name[locale],
        unitMinor: line.product.priceMinor,
        quantity: line.quantity,
      })),
    );
    await recordOrderEvent(tx, order.id, { type: "created", data: { amountMinor: order.amountMinor } });
    return order;
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
    if (current?.status === "pending") return { id: current.id, paymentUrl: current.paymentUrl! };
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
      if (await storeStep(() => recordOrderEvent(db, id, { type: "claim_taken_over" }, renew)))
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
