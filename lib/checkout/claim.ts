import "server-only";
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import type { Product } from "../catalog/products";
import { holdStock } from "../catalog/stock";
import { refuseCashOrder, type CashBudget, type CashOrderRefusal } from "../cash/budget";
import type { Db } from "../db/client";
import { orders, type OrderRow, type OrderStatus } from "../db/schema";
import { isPaymentPageOpen } from "../payment-page";
import { holdPromoUse, type PromoHoldRefusal } from "../promo-codes/uses";
import { ACCESS_TOKEN_LIFETIME_MS } from "../payments";
import { minutesUntil } from "../time";
import { insertOrder, type ClaimedOrder, type NewOrder } from "./new-order";

/**
 * The claim: the one database transaction that decides whether a submission is a new checkout, and stores it when it
 * is — so that of racing submissions, on any number of server instances, exactly one pays. It holds two advisory
 * locks, always in this order: the checkout's (browser session and fingerprint) and the client address's; a cash
 * order takes a third after them, its phone number's. Then rows, in this order too: the promo code's (when the
 * checkout carries one), then the products'.
 *
 * 1. The checkout's newest order to go to, if it has one: paid or reported paid, started (another submission is
 *    paying for it), pending with a payment page that has a while to live, or a placed (or confirmed) cash order.
 *    Then nothing else happens.
 * 2. The address's budget of new payments: at most `budget` online payments within a payment page's life. Each
 *    payment costs two of the calls a minute the service allows the whole shop (docs/payment-service.md, "Rate
 *    limit"), so one address flooding the checkout cannot spend them all. Going to an existing order is free.
 *    A cash order costs the service nothing, but a fake one costs the merchant a call and a courier's trip: its phone
 *    must not be blocked (`cash_blocked_phones`), and it has its own budget, of open cash orders (being placed, or
 *    placed and not yet called about) per phone number and per client address.
 * 3. The promo code's uses, when the checkout carries a code, with the code's row locked (lib/promo-codes/uses.ts): in
 *    all and for this customer. A submission going to its checkout's order (1.) is never refused for its own use.
 * 4. The stock, with the products' rows locked (lib/catalog/stock.ts, `holdStock`): the lines it cannot cover, and the
 *    address's budget of held units: its open checkouts may hold at most `heldPerAddress` units of counted stock, so
 *    one address cannot make a product unavailable to everyone by starting checkouts it never pays for.
 * 5. The order as `started` (the claim, owned until `claimExpiresAt`), its lines — which hold their stock from the
 *    commit on — and its `created` event; a cash order with its fee and the deadline of the merchant's call
 *    (`confirmBy`, the settings' `confirmWithinHours` from now), until which, once placed, it holds its units.
 *
 * No lock is held across a call to the payment service: the claim commits before the order is paid for.
 */

/** A pending payment is resumed only while its payment page has at least this long left to live. */
const RESUME_MARGIN_MS = 120_000;
/** The window of the budget of new payments per client address: a payment page's life. */
const PAYMENTS_WINDOW_MS = ACCESS_TOKEN_LIFETIME_MS;

/** A checkout to claim: a new order as it would be stored (./new-order.ts), and the budgets it is checked against. */
export interface ClaimRequest extends NewOrder {
  /** The most new payments the address may start within a payment page's life. */
  budget: number;
  /** The most units of counted stock the address's open checkouts may hold at once, this one's included. */
  heldPerAddress: number;
  /** The budget of open cash orders per phone number and per client address (default: CASH_ORDERS_PER_PHONE and CASH_ORDERS_PER_ADDRESS). */
  cashBudget?: CashBudget;
}

/**
 * What the claim decided:
 * - `claimed`: a new order, `started`, for this submission to pay for;
 * - `existing`: this checkout's order to go to instead (see the module's comment);
 * - `out_of_stock`: the lines the stock cannot cover, how many are left of each, and — when other checkouts' holds are
 *   why (on hand would cover it) — when the earliest of those holds ends;
 * - `over_budget`: the address may start no new payment for this many minutes;
 * - `too_much_held`: the address's open checkouts hold `held` units, and this cart would take them past `max`; the
 *   earliest of their holds ends in `retryAfterMinutes`;
 * - `over_most`: lines with more units than their product's most per order (the merchant's `maxPerOrder`);
 * - `cash_refused`: a cash order from a phone the merchant blocked from cash, or over the open cash orders' budget of
 *   its phone or client address (`max`);
 * - `promo_refused`: the checkout's promo code has no uses left, in all or for this customer (`why`).
 */
export type Claim =
  | { kind: "claimed"; order: ClaimedOrder }
  | { kind: "existing"; order: OrderRow }
  | { kind: "out_of_stock"; lines: ShortLine[] }
  | { kind: "over_budget"; retryAfterMinutes: number }
  | { kind: "too_much_held"; held: number; max: number; retryAfterMinutes: number }
  | { kind: "over_most"; lines: { name: Product["name"]; most: number }[] }
  | ({ kind: "cash_refused" } & CashOrderRefusal)
  | { kind: "promo_refused"; why: PromoHoldRefusal };

/** A cart line the stock cannot cover: how many are left to buy, and when other checkouts' holds on it end, if they are why. */
export interface ShortLine {
  name: Product["name"];
  available: number;
  freeAt?: Date;
}

/** The statuses of a checkout's order that a submission goes to rather than paying again. */
const GO_TO: readonly OrderStatus[] = ["started", "pending", "awaiting_confirmation", "paid", "placed", "confirmed"];

/**
 * Claims a checkout, in one transaction (see the module's comment).
 * @throws the database's error when it cannot read or write: nothing is stored then.
 */
export function claimCheckout(db: Db, request: ClaimRequest): Promise<Claim> {
  return startClaim(db, request).claim;
}

/**
 * A claim under way. `newOrder` settles while its transaction still runs: `true` once every check has passed and
 * the new order is being written (the checkout asks for its access token then, in parallel with the write and the
 * commit); `false` for any other outcome, or when the transaction fails. `claim` is what it decided, once committed.
 */
export interface Claiming {
  newOrder: Promise<boolean>;
  claim: Promise<Claim>;
}

/**
 * Starts {@link claimCheckout}'s transaction and returns it under way ({@link Claiming}). `claim` rejects with the
 * database's error when it cannot read or write: nothing is stored then.
 */
export function startClaim(db: Db, request: ClaimRequest): Claiming {
  const { sessionId, fingerprint, clientAddress, budget, heldPerAddress, cart } = request;
  let decided!: (isNew: boolean) => void;
  const newOrder = new Promise<boolean>((resolve) => (decided = resolve));
  const claim = db.transaction(async (tx): Promise<Claim> => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`checkout:${sessionId}:${fingerprint}`}, 0)),
      pg_advisory_xact_lock(hashtextextended(${`payments:${clientAddress}`}, 0))`);

    // 1. This checkout's order to go to, and 2. the address's budget: one read, under both locks. `budgetFull` is null
    // while the address may start another payment on the service; else when the oldest of its last `budget` online
    // orders was started (cash orders ask nothing of the service: they have a budget of their own, below).
    const now = new Date();
    const since = new Date(now.getTime() - PAYMENTS_WINDOW_MS).toISOString();
    const [read] = await tx
      .select({
        existing: orders,
        budgetFull: sql`(select min(recent.created_at) from (select created_at from orders
          where client_address = ${clientAddress} and payment_method = 'online' and created_at > ${since}::timestamptz
          order by created_at desc limit ${budget}) recent having count(*) >= ${budget})`.mapWith(orders.createdAt),
      })
      .from(sql`(select) as claim`)
      .leftJoin(
        orders,
        and(eq(orders.sessionId, sessionId), eq(orders.fingerprint, fingerprint), inArray(orders.status, GO_TO)),
      )
      .orderBy(desc(orders.createdAt))
      .limit(1);
    const existing = read?.existing;
    if (existing && (existing.status !== "pending" || canResume(existing)))
      return { kind: "existing", order: existing };

    // The merchant's most per order of each product: a cart over it (one posted by hand, or added before the merchant
    // lowered it) is never held.
    const overMost = cart.lines.filter((line) => line.quantity > line.product.maxPerOrder);
    if (overMost.length > 0) {
      return {
        kind: "over_most",
        lines: overMost.map((line) => ({ name: line.product.name, most: line.product.maxPerOrder })),
      };
    }

    // 2. The address's budget: of new payments on the service, or for a cash order, of open cash orders.
    if (request.paymentMethod === "cash") {
      const phone = request.details.phone;
      if (!phone) throw new Error("a cash order needs a phone number (lib/checkout/form.ts requires it)");
      const refused = await refuseCashOrder(tx, { phone, clientAddress, budget: request.cashBudget }, now);
      if (refused) return { kind: "cash_refused", ...refused };
    } else {
      const budgetFull: Date | null = read?.budgetFull ?? null; // null from the database: mapWith decodes only a value
      // Free again once the oldest of the last `budget` leaves the window.
      if (budgetFull) {
        const freeAt = budgetFull.getTime() + PAYMENTS_WINDOW_MS;
        return { kind: "over_budget", retryAfterMinutes: minutesUntil(freeAt, now.getTime()) };
      }
    }

    // 3. The promo code's uses: only when the checkout carries one (no statement otherwise).
    if (request.promo) {
      const customer = { phone: request.details.phone, email: request.details.email };
      const held = await holdPromoUse(tx, request.promo, customer, now, { sessionId, fingerprint });
      if (held !== "ok") return { kind: "promo_refused", why: held };
    }

    // 4. The stock, and the address's held units.
    const check = await holdStock(
      tx,
      cart.lines.map((line) => ({ productId: line.product.id, quantity: line.quantity })),
      { clientAddress, max: heldPerAddress },
      now,
    );
    if (check.kind === "short") {
      const names = new Map(cart.lines.map((line) => [line.product.id, line.product.name]));
      const lines = check.lines.map(({ productId, available, freeAt }) => ({
        name: names.get(productId)!,
        available,
        ...(freeAt ? { freeAt } : {}),
      }));
      return { kind: "out_of_stock", lines };
    }
    if (check.kind === "over_budget") {
      const retryAfterMinutes = check.freeAt ? minutesUntil(check.freeAt, now.getTime()) : 1;
      return { kind: "too_much_held", held: check.held, max: heldPerAddress, retryAfterMinutes };
    }

    // 5. The order, its lines and its event.
    decided(true);
    const order = await insertOrder(tx, request, now);
    return { kind: "claimed", order };
  });
  // Settles `newOrder` for every other outcome: resolving it again once it is settled changes nothing.
  return { newOrder, claim: claim.finally(() => decided(false)) };
}

/** Whether a pending order's payment page has long enough left to send the customer back to it. */
export function canResume(order: Pick<OrderRow, "status" | "paymentExpiresAt">, now = Date.now()): boolean {
  return isPaymentPageOpen(order, now + RESUME_MARGIN_MS);
}
