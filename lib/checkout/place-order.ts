import "server-only";
import { and, desc, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { PricedCart } from "../cart";
import type { Db } from "../db/client";
import { describeDbFailure } from "../db/errors";
import { orderEvents, orderLines, orders, type OrderRow } from "../db/schema";
import { paymentServiceConfig } from "../env";
import type { Locale } from "../i18n/config";
import { logger } from "../log";
import { CURRENCY } from "../money";
import { isPaymentPageOpen } from "../orders/settle";
import { newOrderId } from "../orders/store";
import {
  CHECKOUT_DEADLINE_MS,
  initiatePayment,
  newCallContext,
  requestAccessToken,
  type AccessToken,
  type CallContext,
  PAYMENT_ERROR_KINDS,
  PaymentError,
  type PaymentErrorKind,
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

/** Where to send the customer: the order's id and the payment URL. `resumed` when no new payment was made. */
export interface PlacedOrder {
  id: string;
  paymentUrl: string;
  resumed: boolean;
}

export interface CheckoutInput {
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
 * same checkout's pending payment when there is one, else the one a racing submission is creating, else a new one
 * (order stored, then a fresh access token and `POST /payment/create`, then the payment token and URL stored).
 * @throws PaymentError when the service did not create the payment (docs/payment-service.md, "Errors and what the
 * shop does"), also when a racing
 *   submission of the same checkout failed that way; OrderStoreError when the database failed; EnvError.
 */
export async function placeOrder(db: Db, input: CheckoutInput): Promise<PlacedOrder> {
  const ctx = newCallContext({ locale: input.locale });
  // An access token creates nothing, so it is requested while the order is looked up and stored; only the create
  // waits for the stored order. A checkout that resumes or follows another submission leaves it unused.
  let accessToken: Promise<AccessToken> | undefined;
  const requestToken = () => {
    accessToken = requestAccessToken(paymentServiceConfig(), ctx);
    accessToken.catch(() => {}); // its failure is the create's to report, if a create needs it
    return accessToken;
  };
  requestToken();
  const fingerprint = await checkoutFingerprint(input.cart, input.details);
  for (;;) {
    const open = await store(() => findOpenCheckout(db, input.sessionId, fingerprint));
    if (open && canResume(open)) {
      logger.info({ event: "checkout_resumed", orderId: open.id });
      return { id: open.id, paymentUrl: open.paymentUrl!, resumed: true };
    }
    if (open?.status === "started") return follow(db, open, input);
    const claimed = await store(() => claim(db, input, fingerprint));
    if (claimed) return pay(db, claimed, input, ctx, accessToken ?? requestToken());
    // Another submission of this checkout claimed it between our look and our insert: go round and follow it.
  }
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
 * Inserts the order as `started`, its lines as sold and its `created` event, in one statement: all or nothing, and
 * one round trip on the checkout's hot path. `null` when this checkout is already claimed (the unique index on
 * started orders refused the insert, so nothing else was written either).
 */
async function claim(db: Db, input: CheckoutInput, fingerprint: string): Promise<Claim | null> {
  const { cart, details, locale, sessionId } = input;
  const order: Claim = {
    id: newOrderId(),
    amountMinor: cart.totalMinor,
    currency: CURRENCY,
    claimExpiresAt: new Date(Date.now() + CLAIM_MS),
  };
  const insertOrder = db
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
  const lines = cart.lines.map((line, position) => ({
    position,
    product_slug: line.product.slug,
    name: line.product.name[locale],
    unit_minor: line.product.priceMinor,
    quantity: line.quantity,
  }));
  const { rows } = await db.execute(sql`
    with claimed as (${insertOrder.getSQL()}),
    lines as (
      insert into ${orderLines} (order_id, position, product_slug, name, unit_minor, quantity)
      select claimed.id, line.position, line.product_slug, line.name, line.unit_minor, line.quantity
      from claimed, jsonb_to_recordset(${JSON.stringify(lines)}::jsonb)
        as line(position int, product_slug text, name text, unit_minor int, quantity int)
    )
    insert into ${orderEvents} (order_id, type, data)
    select id, 'created', ${JSON.stringify({ amountMinor: order.amountMinor })}::jsonb from claimed
    returning order_id`);
  return rows.length > 0 ? order : null;
}

/**
 * Creates the payment of a claimed order and records it: `pending` with its payment token and URL, or `failed`
 * with the reason. Writes only while the claim is still ours; if another instance took it over meanwhile, follows
 * that one instead (the payment made here is left unpaid and expires).
 */
async function pay(
  db: Db,
  order: Claim,
  input: CheckoutInput,
  ctx: CallContext,
  accessToken: Promise<AccessToken>,
): Promise<PlacedOrder> {
  const ours = and(
    eq(orders.id, order.id),
    eq(orders.status, "started"),
    eq(orders.claimExpiresAt, order.claimExpiresAt),
  );
  let payment;
  try {
    payment = await initiatePayment(
      paymentServiceConfig(),
      {
        amountMinor: order.amountMinor,
        currency: order.currency,
        return_url: new URL("/checkout/return", input.siteUrl).href,
        cancel_url: new URL("/checkout/cancel", input.siteUrl).href,
        custom: order.id,
        ...input.details,
      },
      ctx,
      accessToken,
    );
  } catch (error) {
    const failure: PaymentErrorKind | "unexpected" = error instanceof PaymentError ? error.kind : "unexpected";
    const failed = db
      .update(orders)
      .set({ status: "failed", failure, updatedAt: new Date() })
      .where(ours)
      .returning({ id: orders.id });
    await store(() => changeWithEvent(db, failed, "payment_failed", { failure })).catch((storeError: unknown) =>
      logger.error({ event: "order_not_marked_failed", orderId: order.id, ...describeDbFailure(storeError) }),
    );
    throw error;
  }

  const pending = db
    .update(orders)
    .set({
      status: "pending",
      paymentToken: payment.paymentToken,
      paymentUrl: payment.paymentUrl,
      accessTokenIssuedAt: new Date(payment.accessTokenIssuedAt),
      updatedAt: new Date(),
    })
    .where(ours)
    .returning({ id: orders.id });
  if (!(await store(() => changeWithEvent(db, pending, "payment_created", { paymentToken: payment.paymentToken }))))
    return follow(db, order, input);
  logger.info({ event: "checkout_started", orderId: order.id, amountMinor: order.amountMinor });
  return { id: order.id, paymentUrl: payment.paymentUrl, resumed: false };
}

/**
 * Waits for a `started` order that another submission of the same checkout is paying for, and hands out its
 * payment URL, or its failure. Takes the claim over when it outlives its deadline (its instance died).
 */
async function follow(db: Db, order: Pick<OrderRow, "id">, input: CheckoutInput): Promise<PlacedOrder> {
  for (;;) {
    const current = await store(() => db.query.orders.findFirst({ where: eq(orders.id, order.id) }));
    if (current?.status === "pending") return { id: current.id, paymentUrl: current.paymentUrl!, resumed: false };
    if (current?.status !== "started") {
      const kind = current?.failure;
      throw isPaymentErrorKind(kind)
        ? new PaymentError(kind, "a racing submission of the same checkout failed", { requestId: crypto.randomUUID() })
        : new Error(`a racing submission of the same checkout ended as ${current?.status ?? "missing"}`);
    }
    if (current.claimExpiresAt.getTime() < Date.now()) {
      const taken = await store(() => takeOver(db, current));
      if (taken) {
        // A checkout of its own: its own deadline and access token.
        const ctx = newCallContext({ locale: input.locale });
        return pay(db, taken, input, ctx, requestAccessToken(paymentServiceConfig(), ctx));
      }
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** Renews an expired claim for this instance; `null` when another instance renewed it first. */
async function takeOver(db: Db, order: Claim): Promise<Claim | null> {
  const renewed = { ...order, claimExpiresAt: new Date(Date.now() + CLAIM_MS) };
  const renew = db
    .update(orders)
    .set({ claimExpiresAt: renewed.claimExpiresAt, updatedAt: new Date() })
    .where(and(eq(orders.id, order.id), eq(orders.status, "started"), eq(orders.claimExpiresAt, order.claimExpiresAt)))
    .returning({ id: orders.id });
  return (await changeWithEvent(db, renew, "claim_taken_over")) ? renewed : null;
}

/**
 * Writes a change to one order and the event that records it, in one statement: all or nothing, one round trip.
 * `change` is a Drizzle update of `orders` returning the order's `id`; when its condition matches no row (the claim
 * is no longer ours), nothing is written.
 * @returns whether the order changed.
 */
async function changeWithEvent(
  db: Db,
  change: { getSQL(): SQL },
  type: string,
  data: Record<string, unknown> = {},
): Promise<boolean> {
  const { rows } = await db.execute(sql`
    with changed as (${change.getSQL()})
    insert into ${orderEvents} (order_id, type, data)
    select id, ${type}, ${JSON.stringify(data)}::jsonb from changed
    returning order_id`);
  return rows.length > 0;
}

const isPaymentErrorKind = (kind: string | null | undefined): kind is PaymentErrorKind =>
  (PAYMENT_ERROR_KINDS as readonly (string | null | undefined)[]).includes(kind);

/** Runs a database step; any failure of it becomes an {@link OrderStoreError}. */
async function store<T>(step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    throw new OrderStoreError(error);
  }
}
