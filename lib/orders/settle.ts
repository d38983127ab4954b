import "server-only";
import { and, eq, isNull, lt, not, or, sql, type SQL } from "drizzle-orm";
import { PgTransaction } from "drizzle-orm/pg-core";
import { z } from "zod";
import type { Db, DbOrTx } from "../db/client";
import {
  orderEvents,
  orders,
  type EmailReason,
  type OrderEventType,
  type OrderFlag,
  type OrderRow,
  type OrderStatus,
} from "../db/schema";
import { queueOrderEmails } from "../email/outbox";
import { ACCESS_TOKEN_LIFETIME_MS } from "../payments";

/**
 * How orders move: the one home of every write to an order. Each write is a change and the event that records it,
 * made together by {@link recordOrderEvent} (the checkout's claim and payment, settlement, expiry, fulfilment and
 * flags all use it), so the history in `order_events` is complete by construction.
 *
 * Settlement: once its payment exists, the customer's return, the payment service's verified webhook, expiry and the
 * merchant's mark all go through {@link settle}, which applies this table in one transaction with the order row
 * locked, and writes what arrived and the move as one event, so each move happens once however requests race.
 *
 * | status \ what arrives   | customer returns `success` | customer returns `cancel` | verified payment              | payment page died | no confirmation (grace over) | merchant marks paid |
 * |-------------------------|----------------------------|---------------------------|-------------------------------|-------------------|------------------------------|---------------------|
 * | pending                 | awaiting_confirmation      | cancelled                 | paid                          | expired           | —                            | paid, paid_manually |
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
  | { kind: "payment_confirmed"; paymentToken: string; delivery: Record<string, unknown> }
  | { kind: "expired" }
  | { kind: "confirmation_overdue" }
  | {
      kind: "marked_paid";
      by: string;
      reference: string;
      note?: string;
      /** The merchant dashboard's list this mark comes from (lib/admin/reconcile.ts), when it is not the order page. */
      list?: string;
    };

/**
 * How long an order the customer reported paid waits for the service's webhook before the merchant is asked to
 * look: 24 hours, well past the webhook's retries (minutes) and any outage worth waiting out.
 */
export const CONFIRMATION_GRACE_MS = 24 * 60 * 60_000;

/**
 * The spec's redirect types (docs/payment-service.md, "Return and cancel redirects"): `success` at the return URL,
 * `cancel` at the cancel URL.
 */
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
      return canMarkPaid(status) ? { to: "paid", flag: "paid_manually" } : undefined;
  }
}

/**
 * Whether the merchant may mark an order in `status` paid by hand (the table's last column): any order whose payment
 * exists and is not confirmed. The merchant holds the dashboard's transaction reference: proof enough, also for a
 * payment whose page the scheduled job has not yet expired (a page shows such an order as expired: effectiveStatus).
 */
export function canMarkPaid(status: OrderStatus): boolean {
  return status === "pending" || status === "awaiting_confirmation" || status === "expired" || status === "cancelled";
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
} as const satisfies Record<SettlementInput["kind"], OrderEventType>;

/**
 * The merchant's notice a flag calls for when it is raised without a move to paid (the notice of a paid order spells
 * its flags out already): every flag the scheduled job raises. `lib/orders/settle.test.ts` checks that every such
 * flag of {@link nextMove} is here, so a new one cannot be raised in silence.
 */
export const FLAG_NOTICES = {
  unconfirmed_report: "unconfirmed_report",
} as const satisfies Partial<Record<OrderFlag, EmailReason>>;

function flagNotice(flag: OrderFlag): EmailReason | undefined {
  return (FLAG_NOTICES as Partial<Record<OrderFlag, EmailReason>>)[flag];
}

/**
 * Whether an input that moves nothing is still worth an event. Every delivery, return and mark from the order page
 * is on the record. A second run of the scheduled job is not news, nor is a mark from a dashboard list for an order
 * already paid: the list itself is the record, and applying it twice must change nothing.
 */
function recordedWhenNothingMoves(input: SettlementInput): boolean {
  if (input.kind === "expired" || input.kind === "confirmation_overdue") return false;
  return !(input.kind === "marked_paid" && input.list);
}

/**
 * Applies one input to an order, once: locks the row, looks the move up in {@link nextMove}, and records what
 * arrived with the move it made ({@link recordOrderEvent}) — also when nothing moved, unless that is not news
 * ({@link recordedWhenNothingMoves}); a flag the order already has is not news either. The e-mails a move calls
 * for are queued in the same transaction: the receipt and the merchant's notice of a move to paid, and the
 * merchant's notice of a flag raised on its own ({@link FLAG_NOTICES}).
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
      .select({ status: orders.status, flags: orders.flags, paymentToken: orders.paymentToken })
      .from(orders)
      .where(eq(orders.id, orderId))
      .for("update");
    if (!order) return undefined;
    const from = order.status;
    const move = nextMove(from, input);
    const to = move?.to ?? from;
    const newFlag = move?.flag && !order.flags.includes(move.flag) ? move.flag : undefined;
    const news = move ? to !== from || newFlag : recordedWhenNothingMoves(input);
    if (!news) return { from, to, changed: false };

    const details =
      input.kind === "customer_returned"
        ? { returnType: input.type }
        : input.kind === "payment_confirmed"
          ? { verified: true, ...input.delivery }
          : input.kind === "marked_paid"
            ? {
                by: input.by,
                reference: input.reference,
                ...(input.note ? { note: input.note } : {}),
                ...(input.list ? { list: input.list } : {}),
              }
            : {};
    const set = {
      status: to,
      ...(to === "awaiting_confirmation" ? { customerReturnedAt: now } : {}),
      ...(newFlag ? { flags: withFlag(newFlag) } : {}),
      // A payment whose creating server died before storing it: the delivery (matched by `custom`) names its token.
      ...(input.kind === "payment_confirmed" && order.paymentToken === null
        ? { paymentToken: input.paymentToken }
        : {}),
    };
    await recordOrderEvent(
      tx,
      orderId,
      {
        type: EVENT_TYPE[input.kind],
        at: now,
        data: { ...details, from, to, ...(move?.flag ? { flag: move.flag } : {}) },
      },
      move ? { set } : undefined,
    );
    // A move writes its e-mails in its own transaction: never lost, never sent twice. The move to paid: the receipt
    // and the merchant's notice; a flag raised on its own: the merchant's notice.
    const emails = to === "paid" && from !== "paid" ? "paid" : newFlag && flagNotice(newFlag);
    if (emails) await queueOrderEmails(tx, orderId, emails, now);
    return { from, to, changed: Boolean(move), ...(move?.flag ? { flag: move.flag } : {}) };
  });
}

/** One entry of an order's history (`order_events`): what happened, its details, and when (default: now). */
export interface OrderEvent {
  type: OrderEventType;
  /** Details for the merchant's audit: the status before and after, a payment token, an error kind… Never secrets. */
  data?: Record<string, unknown>;
  at?: Date;
}

/** A change to an order's row: the columns to set (`updatedAt` is set for you) and, optionally, a condition. */
export interface OrderChange {
  set: Omit<Parameters<ReturnType<Db["update"]>["set"]>[0], "id" | "updatedAt">;
  /** The change applies only while this also holds (e.g. "the claim is still ours"); otherwise nothing is written. */
  where?: SQL;
}

/**
 * Records an event on an order together with the change it stands for, in one transaction (the caller's, when it
 * passes one), so neither is ever written without the other. Without a change, only the event is written.
 * @param orderId the order, or `null` for an event about no order we know (a delivery for an unknown token).
 * @returns whether it wrote: `false` when the change's condition (or the order's id) matched no row.
 * @throws TypeError for a change without an order; the database's error when it cannot write.
 */
export async function recordOrderEvent(
  db: DbOrTx,
  orderId: string | null,
  event: OrderEvent,
  change?: OrderChange,
): Promise<boolean> {
  const at = event.at ?? new Date();
  const write = async (tx: DbOrTx) => {
    if (change) {
      if (orderId === null) throw new TypeError("A change needs the order it changes.");
      const [changed] = await tx
        .update(orders)
        .set({ ...change.set, updatedAt: at })
        .where(and(eq(orders.id, orderId), change.where))
        .returning({ id: orders.id });
      if (!changed) return false;
    }
    await tx.insert(orderEvents).values({ orderId, type: event.type, data: event.data ?? {}, at });
    return true;
  };
  return !change || db instanceof PgTransaction ? write(db) : db.transaction(write);
}

/** The order's flags with `flag` added, unless it is there already: for an {@link OrderChange}'s `set.flags`. */
export function withFlag(flag: OrderFlag): SQL<OrderFlag[]> {
  return sql`case when ${flag} = any(${orders.flags}) then ${orders.flags} else array_append(${orders.flags}, ${flag}) end`;
}

/**
 * Marks a paid order as fulfilled (the goods are on their way), once, and records who did it.
 * @returns `fulfilled`, or why not: `not_paid` (only a confirmed payment may be shipped), `already_fulfilled`,
 *   `not_found`.
 */
export async function fulfilOrder(
  db: Db,
  id: string,
  adminEmail: string,
): Promise<"fulfilled" | "not_paid" | "already_fulfilled" | "not_found"> {
  const now = new Date();
  const fulfilled = await recordOrderEvent(
    db,
    id,
    { type: "fulfilled", at: now, data: { by: adminEmail } },
    { set: { fulfilledAt: now }, where: and(eq(orders.status, "paid"), isNull(orders.fulfilledAt)) },
  );
  if (fulfilled) return "fulfilled";
  const [order] = await db
    .select({ status: orders.status, fulfilledAt: orders.fulfilledAt })
    .from(orders)
    .where(eq(orders.id, id));
  return !order ? "not_found" : order.fulfilledAt ? "already_fulfilled" : "not_paid";
}

/**
 * When a payment's page stops working: 600 s after its access token was issued (docs/payment-service.md, "The
 * payment page and its lifetime"), not after create. The one place this rule lives, with its SQL twin
 * {@link paymentPageDead}.
 * @returns the time (ms since epoch), or `null` for an order that has no payment.
 */
function paymentPageDiesAt(order: Pick<OrderRow, "accessTokenIssuedAt">): number | null {
  return order.accessTokenIssuedAt ? order.accessTokenIssuedAt.getTime() + ACCESS_TOKEN_LIFETIME_MS : null;
}

/** {@link paymentPageDiesAt} in SQL: whether an order's payment page is dead at `now`. */
function paymentPageDead(now: Date): SQL {
  const cutoff = new Date(now.getTime() - ACCESS_TOKEN_LIFETIME_MS);
  return sql`coalesce(${orders.accessTokenIssuedAt} <= ${cutoff.toISOString()}::timestamptz, true)`;
}

/** Whether a pending order's payment page still works (at `now`, ms), so the customer can go back to it. */
export function isPaymentPageOpen(order: Pick<OrderRow, "status" | "accessTokenIssuedAt">, now = Date.now()): boolean {
  const dies = paymentPageDiesAt(order);
  return order.status === "pending" && dies !== null && now < dies;
}

/**
 * The status a page shows: a pending payment whose page died reads as `expired` before the scheduled job has
 * written it. Pages read, events write: computing this never touches the database.
 */
export function effectiveStatus(
  order: Pick<OrderRow, "status" | "accessTokenIssuedAt">,
  now = Date.now(),
): OrderStatus {
  return order.status === "pending" && !isPaymentPageOpen(order, now) ? "expired" : order.status;
}

/** {@link effectiveStatus} as an SQL condition, for lists and filters: orders that read as `status` at `now`. */
export function effectiveStatusIs(status: OrderStatus, now = new Date()): SQL {
  if (status === "expired") {
    return or(eq(orders.status, "expired"), and(eq(orders.status, "pending"), paymentPageDead(now)))!;
  }
  if (status === "pending") return and(eq(orders.status, "pending"), not(paymentPageDead(now)))!;
  return eq(orders.status, status);
}

/**
 * The scheduled job: expires every pending order whose payment page has died, flags orders the customer reported
 * paid that stayed unconfirmed past {@link CONFIRMATION_GRACE_MS} (each flag queues the merchant's notice with it,
 * {@link FLAG_NOTICES}), and gives up claims whose server died long ago. Safe to run concurrently and repeatedly: each
 * order is settled once, each flag raised and e-mailed once.
 * @returns how many orders it expired.
 */
export async function expireDueOrders(db: Db, now = new Date()): Promise<number> {
  const due = await db
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.status, "pending"), paymentPageDead(now)))
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
  const dead = new Date(now.getTime() - ACCESS_TOKEN_LIFETIME_MS);
  const stillDead = and(eq(orders.status, "started"), lt(orders.claimExpiresAt, dead));
  const abandoned = await db.select({ id: orders.id }).from(orders).where(stillDead).limit(1_000);
  for (const { id } of abandoned) {
    const set = { status: "failed", failure: "abandoned" } as const;
    await recordOrderEvent(db, id, { type: "claim_abandoned", at: now }, { set, where: stillDead });
  }
  return expired;
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
 * The customer's browser coming back from the payment page (docs/payment-service.md, "Return and cancel redirects") to
 * the return URL (`success`) or the cancel URL (`cancel`). The move is bound to the payment token of an order of
 * **this** browser session; a token of another session, a `type` that does not belong to the URL, or a replay changes
 * nothing. A success only records that the customer reports paying: the verified webhook confirms it.
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
