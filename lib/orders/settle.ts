import "server-only";
import { and, eq, lt, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db, Tx } from "../db/client";
import { orderEvents, orders, type OrderFlag, type OrderRow, type OrderStatus } from "../db/schema";
import { queueOrderEmails } from "../email/outbox";
import { ACCESS_TOKEN_LIFETIME_MS } from "../payments";

/**
 * Settlement: how an order moves once its payment exists. The customer's return, the payment service's verified
 * webhook and expiry all go through {@link settle}, which applies this table in one transaction with the order row
 * locked, and writes what arrived and the move as one event, so each move happens once however requests race.
 *
 * | status \ what arrives   | customer returns `success` | customer returns `cancel` | verified payment              | payment page died | no confirmation (grace over) | merchant marks paid |
 * |-------------------------|----------------------------|---------------------------|-------------------------------|-------------------|------------------------------|---------------------|
 * | pending                 | awaiting_confirmation      | cancelled                 | paid                          | expired           | —                            | —                   |
 * | awaiting_confirmation   | —                          | —                         | paid                          | —                 | flag unconfirmed_report      | paid, paid_manually |
 * | paid                    | —                          | —                         | — (a repeated delivery)       | —                 | —                            | —                   |
 * | cancelled               | —                          | —                         | paid, flag paid_after_cancel  | —                 | —                            | paid, paid_manually |
 * | expired                 | —                          | —                         | paid, flag paid_after_expiry  | —                 | —                            | paid, paid_manually |
 * | started, failed         | —                          | —                         | paid, flag paid_after_failure | —                 | —                            | —                   |
 *
 * Only a verified payment makes an order `paid`: the browser's redirect can be typed by anyone, so it only records
 * that the customer *reports* paying. Money wins: a verified payment for an order that was cancelled, expired or
 * never got its payment recorded still marks it paid, and flags it for the merchant. A customer who reported paying
 * is never expired silently: the service has no status endpoint to ask, and its webhook may have been lost (all
 * retries failed while the shop's database was down). The order stays awaiting confirmation, and after
 * {@link CONFIRMATION_GRACE_MS} it is flagged for the merchant, who checks the merchant dashboard and marks it paid
 * with the transaction reference there. A genuine webhook that arrives later is then a repeated delivery.
 */
export type SettlementInput =
  | { kind: "customer_returned"; type: RedirectType }
  | { kind: "payment_confirmed"; delivery: Record<string, unknown> }
  | { kind: "expired" }
  | { kind: "confirmation_overdue" }
  | { kind: "marked_paid"; by: string; reference: string; note?: string };

/**
 * How long an order the customer reported paid waits for the service's webhook before the merchant is asked to
 * look: 24 hours, well past the webhook's retries (minutes) and any outage worth waiting out.
 */
export const CONFIRMATION_GRACE_MS = 24 * 60 * 60_000;

/** The spec's redirect types (docs/payment-service.md, "Return and cancel redirects"): `success` at the return URL, `cancel` at the cancel URL. */
export type RedirectType = "success" | "cancel";

type Move = { to: OrderStatus; flag?: OrderFlag };

/** The table above, as code: the move for a status and an input, or `undefined` for "nothing changes". */
export function nextMove(status: OrderStatus, input: SettlementInput): Move | undefined {
  switch (input.kind) {
    case "customer_returned":
      if (status !== "pending") return undefined;
      return { to: input.type === "success" ? "awaiting_confirmation" : "cancelled" };
    case "payment_confirmed":
      if (status === "pending" || status === "awaiting_confirmation") return { to: "paid" };
      if (status === "cancelled") return { to: "paid", flag: "paid_after_cancel" };
      if (status === "expired") return { to: "paid", flag: "paid_after_expiry" };
      if (status === "started" || status === "failed") return { to: "paid", flag: "paid_after_failure" };
      return undefined;
    case "expired":
      return status === "pending" ? { to: "expired" } : undefined;
    case "confirmation_overdue":
      return status === "awaiting_confirmation"
        ? { to: "awaiting_confirmation", flag: "unconfirmed_report" }
        : undefined;
    case "marked_paid":
      return status === "awaiting_confirmation" || status === "expired" || status === "cancelled"
        ? { to: "paid", flag: "paid_manually" }
        : undefined;
  }
}

/** What {@link settle} did: the status before and after (equal when nothing changed), and any flag it raised. */
export interface Settlement {
  from: OrderStatus;
  to: OrderStatus;
  changed: boolean;
  flag?: OrderFlag;
}

/** The event type each input is recorded as. */
const EVENT_TYPE = {
  customer_returned: "customer_returned",
  payment_confirmed: "webhook_received",
  expired: "expired",
  confirmation_overdue: "confirmation_overdue",
  marked_paid: "marked_paid",
} as const;

/**
 * Applies one input to an order, once: locks the row, looks the move up in {@link nextMove}, writes the new status
 * (and flag) and one event with what arrived and the move — also when nothing moved (except for expiry), so every
 * delivery and every return is on the record.
 * @returns the move, or `undefined` when there is no such order.
 */
export async function settle(
  db: Db,
  orderId: string,
  input: SettlementInput,
  now = new Date(),
): Promise<Settlement | undefined> {
  return db.transaction(async (tx) => {
    const [order] = await tx
      .select({ status: orders.status, flags: orders.flags })
      .from(orders)
      .where(eq(orders.id, orderId))
      .for("update");
    if (!order) return undefined;
    const from = order.status;
    const move = nextMove(from, input);
    const to = move?.to ?? from;
    // A return, a delivery or a merchant's mark is on the record even when it changes nothing; a second run of the
    // scheduled job is not news, nor is a flag the order already has.
    if (
      (!move && (input.kind === "expired" || input.kind === "confirmation_overdue")) ||
      (move && from === move.to && move.flag && order.flags.includes(move.flag))
    ) {
      return { from, to, changed: false };
    }
    if (move) {
      await tx
        .update(orders)
        .set({
          status: to,
          updatedAt: now,
          ...(to === "awaiting_confirmation" ? { customerReturnedAt: now } : {}),
          ...(move.flag && !order.flags.includes(move.flag) ? { flags: [...order.flags, move.flag] } : {}),
        })
        .where(eq(orders.id, orderId));
    }
    const details =
      input.kind === "customer_returned"
        ? { returnType: input.type }
        : input.kind === "payment_confirmed"
          ? { verified: true, ...input.delivery }
          : input.kind === "marked_paid"
            ? { by: input.by, reference: input.reference, ...(input.note ? { note: input.note } : {}) }
            : {};
    await tx.insert(orderEvents).values({
      orderId,
      type: EVENT_TYPE[input.kind],
      at: now,
      data: { ...details, from, to, ...(move?.flag ? { flag: move.flag } : {}) },
    });
    if (to === "paid" && from !== "paid") await queueOrderEmails(tx, orderId, "paid", now); // receipt + notice
    return { from, to, changed: Boolean(move), ...(move?.flag ? { flag: move.flag } : {}) };
  });
}

/**
 * The scheduled job: expires every pending order whose payment page has died (600 s after its access token), flags
 * orders the customer reported paid that stayed unconfirmed past {@link CONFIRMATION_GRACE_MS}, and gives up claims
 * whose server died long ago. Safe to run concurrently and repeatedly: each order is settled once.
 * @returns how many orders it expired.
 */
export async function expireDueOrders(db: Db, now = new Date()): Promise<number> {
  const dead = new Date(now.getTime() - ACCESS_TOKEN_LIFETIME_MS);
  const due = await db
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.status, "pending"), lt(orders.accessTokenIssuedAt, dead)))
    .limit(1_000);
  let expired = 0;
  for (const { id } of due) if ((await settle(db, id, { kind: "expired" }, now))?.changed) expired++;

  // Reported paid, never confirmed: flag for the merchant once the grace period is over (never expire silently).
  const overdue = await db
    .select({ id: orders.id })
    .from(orders)
    .where(
      and(
        eq(orders.status, "awaiting_confirmation"),
        lt(orders.customerReturnedAt, new Date(now.getTime() - CONFIRMATION_GRACE_MS)),
        sql`not ('unconfirmed_report' = any(${orders.flags}))`,
      ),
    )
    .limit(1_000);
  for (const { id } of overdue) await settle(db, id, { kind: "confirmation_overdue" }, now);

  // A claim nobody took over within the payment page's lifetime never became a payment.
  const abandoned = await db
    .update(orders)
    .set({ status: "failed", failure: "abandoned", updatedAt: now })
    .where(and(eq(orders.status, "started"), lt(orders.claimExpiresAt, dead)))
    .returning({ id: orders.id });
  if (abandoned.length > 0) {
    await db.insert(orderEvents).values(abandoned.map(({ id }) => ({ orderId: id, type: "claim_abandoned", at: now })));
  }
  return expired;
}

/**
 * When a payment's page stops working: 600 s after its access token was issued (docs/payment-service.md, "The payment page and its lifetime"), not after create.
 * The one place this rule lives; `expireDueOrders` says the same in SQL.
 * @returns the time, or `null` for an order that has no payment.
 */
function paymentPageDiesAt(order: Pick<OrderRow, "accessTokenIssuedAt">): number | null {
  return order.accessTokenIssuedAt ? order.accessTokenIssuedAt.getTime() + ACCESS_TOKEN_LIFETIME_MS : null;
}

/** Whether a pending order's payment page still works (at `now`), so the customer can go back to it. */
export function isPaymentPageOpen(order: Pick<OrderRow, "status" | "accessTokenIssuedAt">, now = Date.now()): boolean {
  const dies = paymentPageDiesAt(order);
  return order.status === "pending" && dies !== null && now < dies;
}

/**
 * Expires one order on read when its time is up, so a page never shows a dead payment as pending even when the
 * expiry job has not run yet.
 * @returns whether it expired the order.
 */
export async function expireIfDue(
  db: Db,
  order: { id: string; status: OrderStatus; accessTokenIssuedAt: Date | null },
  now = new Date(),
): Promise<boolean> {
  if (order.status !== "pending") return false;
  const dies = paymentPageDiesAt(order);
  if (dies === null || dies > now.getTime()) return false;
  return Boolean((await settle(db, order.id, { kind: "expired" }, now))?.changed);
}

/** What a redirect back did, for the order page to explain. */
export type ReturnOutcome = "reported" | "cancelled" | "already_settled" | "token_mismatch" | "invalid_redirect";

const returnQuerySchema = z.object({
  type: z.enum(["success", "cancel"]),
  token: z.string().min(1).max(512),
});

/**
 * Reads `type` and `token` from a redirect's query string. The platform may add parameters of its own; those are
 * ignored. A parameter given twice with different values is refused rather than guessed at.
 * @returns the pair, or `null` when missing, repeated, unknown (`type=error` included) or too long.
 */
export function parseReturnQuery(params: URLSearchParams): { type: RedirectType; token: string } | null {
  const single = (name: string) => {
    const values = params.getAll(name);
    return values.length > 0 && values.every((value) => value === values[0]) ? values[0] : undefined;
  };
  const parsed = returnQuerySchema.safeParse({ type: single("type"), token: single("token") });
  return parsed.success ? parsed.data : null;
}

/**
 * The customer's browser coming back from the payment page (docs/payment-service.md, "Return and cancel redirects") to the return URL (`success`) or the
 * cancel URL (`cancel`). The move is bound to the payment token of an order of **this** browser session; a token
 * of another session, a `type` that does not belong to the URL, or a replay changes nothing. A success only records
 * that the customer reports paying: the verified webhook confirms it.
 * @param expected the type the URL stands for. @param params the redirect's query string.
 * @returns the order the redirect was about (if any), its status now, and what happened.
 */
export async function returnFromPaymentPage(
  db: Db,
  sessionId: string,
  expected: RedirectType,
  params: URLSearchParams,
): Promise<{ orderId?: string; status?: OrderStatus; outcome: ReturnOutcome }> {
  const query = parseReturnQuery(params);
  if (!query || query.type !== expected) return { outcome: "invalid_redirect" };
  const [order] = await db
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.paymentToken, query.token), eq(orders.sessionId, sessionId)));
  if (!order) return { outcome: "token_mismatch" };
  const settlement = await settle(db, order.id, { kind: "customer_returned", type: query.type });
  if (!settlement) return { outcome: "token_mismatch" };
  // A success that finds the order already paid (the webhook came first) is the customer's own return, not a replay.
  const confirmedFirst = query.type === "success" && settlement.to === "paid" && settlement.from === "paid";
  const outcome = confirmedFirst
    ? "reported"
    : !settlement.changed
      ? "already_settled"
      : settlement.to === "cancelled"
        ? "cancelled"
        : "reported";
  return { orderId: order.id, status: settlement.to, outcome };
}

/** Raises a flag on an order for the merchant (once), without moving it. */
export async function flagOrder(db: Db | Tx, orderId: string, flag: OrderFlag): Promise<void> {
  await db
    .update(orders)
    .set({ flags: sql`array_append(${orders.flags}, ${flag})`, updatedAt: new Date() })
    .where(and(eq(orders.id, orderId), sql`not (${flag} = any(${orders.flags}))`));
}
