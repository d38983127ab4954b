import "server-only";
import { and, desc, eq, getTableColumns, inArray, isNull, or, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { orderEvents, orders, paymentLists, type OrderStatus, type PaymentListRow } from "../db/schema";
import { isStorableText } from "../db/text";
import { readUpload, type UploadProblem } from "../csv";
import { idPattern, newId } from "../ids";
import { TIME_ZONE } from "../time";
import { effectiveStatus } from "../payment-page";
import { canMarkPaid, settle } from "../orders/settle";
import { MAX_LIST_BYTES, readPaymentList, type ListedPayment, type ListProblem } from "./payment-list";

/**
 * Reconciliation: the merchant dashboard's list of payments against the shop's orders, so that no paid order is lost.
 * The payment service has no call to ask about a payment, and its webhook can be lost (every delivery failed while
 * the shop's database was down, then the order expired): the merchant's own records close the loop.
 *
 * An admin gives a list (pasted or uploaded, lib/admin/payment-list.ts reads it); it is stored as given
 * ({@link storePaymentList}) and checked ({@link planReconciliation}, a read: the dry run). Applying it
 * ({@link applyPaymentList}) marks each matching order paid through the one settlement function, as "mark as paid"
 * on an order's page does (`marked_paid`: flag `paid_manually`, who, the list's reference, an order event, the
 * receipt and the merchant's notice queued in the same transaction). Matching, per payment of the list:
 *
 * | the shop has                                                 | outcome          | applying it                  |
 * |--------------------------------------------------------------|------------------|------------------------------|
 * | no order with that payment token (or order number)           | `no_order`       | nothing: listed for a look   |
 * | the order, pending, awaiting confirmation, expired, cancelled | `mark_paid`      | paid, flagged `paid_manually`|
 * | …but for another amount                                      | `amount_differs` | nothing: refused, says both  |
 * | the order, paid already (by the webhook, by hand)            | `already_paid`   | nothing                      |
 * | the order, paid then cancelled by the merchant (its refund)  | `already_paid`   | nothing: expected            |
 * | the order, paid by this list                                 | `marked_paid`    | nothing (applied before)     |
 * | an order whose payment the shop never recorded               | `cannot_mark`    | nothing: open the order      |
 * | a token and an order number that name two orders             | `conflict`       | nothing                      |
 * | the same order listed again in a later row                   | `listed_twice`   | nothing: check the dashboard |
 * | a payment the list's status says is not completed            | `not_completed`  | nothing: skipped             |
 *
 * Applying twice changes nothing: paid orders are not marked again, and a mark that finds its order already paid (a
 * racing apply, a webhook meanwhile) writes nothing ({@link settle}). The page also lists the paid orders within the
 * list's days that the list lacks.
 *
 * Cash-on-delivery orders never reach the payment service, so its list never holds them: a payment naming one by its
 * order number matches nothing (`no_order`, never a mark that would call cash paid), and a collected cash order is
 * never among the paid orders the list lacks.
 */

/** List ids: `lst_` and 16 base-32 characters, checked before any query. */
export const LIST_ID = idPattern("lst");

/**
 * Stores a list an admin gave: the uploaded file when there is one, else the pasted text (read by `readUpload`,
 * lib/csv.ts). Stored even when it has problems, so the page can name them.
 * @param input.by the admin's e-mail. @returns the list's id, or why it was not stored.
 */
export async function storePaymentList(
  db: Db,
  input: { pasted?: string; file?: { name: string; bytes: Uint8Array }; by: string },
): Promise<{ id: string } | { error: UploadProblem }> {
  const upload = readUpload(input, MAX_LIST_BYTES);
  if ("error" in upload) return upload;
  // Pasted text has not been through a decoder: it may hold what PostgreSQL cannot store.
  if (!isStorableText(upload.content)) return { error: "not_text" };
  const id = newId("lst");
  await db.insert(paymentLists).values({ id, createdBy: input.by, ...upload });
  return { id };
}

/** The lists given lately, newest first, without their content: for the page to come back to one. */
export async function recentPaymentLists(db: Db, limit = 10): Promise<Omit<PaymentListRow, "content">[]> {
  const { content, ...listed } = getTableColumns(paymentLists);
  return db.select(listed).from(paymentLists).orderBy(desc(paymentLists.createdAt)).limit(limit);
}

/**
 * When a payment list was last applied (the newest `appliedAt`), or `null` when none ever was: the merchant's home
 * shows it, since an order flagged `check_payment_list` is only settled by a list (lib/orders/unseen.ts).
 */
export async function lastReconciledAt(db: Db): Promise<Date | null> {
  const [row] = await db
    .select({ at: sql<Date | null>`max(${paymentLists.appliedAt})`.mapWith(paymentLists.appliedAt) })
    .from(paymentLists);
  return row?.at ?? null;
}

export type RowOutcome =
  | "mark_paid"
  | "marked_paid"
  | "already_paid"
  | "amount_differs"
  | "cannot_mark"
  | "conflict"
  | "no_order"
  | "listed_twice"
  | "not_completed";

/** The order a payment of the list matched, as the page shows it. */
interface MatchedOrder {
  id: string;
  /** Its effective status (a pending payment whose page died reads as expired). */
  status: OrderStatus;
  amountMinor: number;
}

/** One payment of the list and what applying the list does with it. */
export interface PlanRow {
  payment: ListedPayment;
  outcome: RowOutcome;
  order?: MatchedOrder;
  /** For `listed_twice`: the row that listed the order first. */
  firstRow?: number;
}

/** A paid order the list does not hold, though it was paid within the list's days. */
interface MissingOrder {
  id: string;
  paymentToken: string | null;
  amountMinor: number;
  paidAt: Date;
}

/** The most paid orders the list lacks that a plan names (the page says when there are more). */
const MISSING_LIMIT = 500;

/** A stored list checked against the orders as they are now: the dry run, and what the page shows. */
export interface ReconciliationPlan {
  list: Omit<PaymentListRow, "content">;
  /** Problems of the list itself; a list with any is not applied. */
  problems: ListProblem[];
  rows: PlanRow[];
  /** The merchant's days the list covers (its first and last date), or `null` when it has no dates. */
  days: { from: string; to: string } | null;
  /** Paid orders within {@link days} the list lacks (at most {@link MISSING_LIMIT}); `moreMissing` when cut short. */
  missing: MissingOrder[];
  moreMissing: boolean;
  /** How many orders applying the list would mark paid now. */
  toApply: number;
}

/**
 * Checks a stored list against the orders: for each payment, which order it names and what applying the list would
 * do (the table above); and the paid orders the list lacks. Reads only.
 * @returns the plan, or `undefined` when there is no such list.
 */
export async function planReconciliation(db: Db, listId: string): Promise<ReconciliationPlan | undefined> {
  if (!LIST_ID.test(listId)) return undefined;
  const [stored] = await db.select().from(paymentLists).where(eq(paymentLists.id, listId));
  if (!stored) return undefined;
  const { content, ...list } = stored;
  const { payments, problems, hasDates } = readPaymentList(content);

  const tokens = [...new Set(payments.flatMap((payment) => (payment.paymentToken ? [payment.paymentToken] : [])))];
  const ids = [...new Set(payments.flatMap((payment) => (payment.orderId ? [payment.orderId] : [])))];
  const found =
    tokens.length + ids.length === 0
      ? []
      : await db
          .select({
            id: orders.id,
            paymentToken: orders.paymentToken,
            status: orders.status,
            paymentExpiresAt: orders.paymentExpiresAt,
            amountMinor: orders.amountMinor,
            cancelledAt: orders.cancelledAt,
          })
          .from(orders)
          .where(
            and(eq(orders.paymentMethod, "online"), or(inArray(orders.paymentToken, tokens), inArray(orders.id, ids))),
          );
  const byToken = new Map(found.flatMap((order) => (order.paymentToken ? [[order.paymentToken, order]] : [])));
  const byId = new Map(found.map((order) => [order.id, order]));
  // Orders this list has marked paid already: their mark names it.
  const markedByList = new Set(
    found.length === 0
      ? []
      : (
          await db
            .select({ orderId: orderEvents.orderId })
            .from(orderEvents)
            .where(
              and(
                inArray(
                  orderEvents.orderId,
                  found.map((order) => order.id),
                ),
                eq(orderEvents.type, "marked_paid"),
                sql`${orderEvents.data}->>'list' = ${listId}`,
              ),
            )
        ).map((event) => event.orderId),
  );

  const firstRowOf = new Map<string, number>();
  const rows: PlanRow[] = payments.map((payment) => {
    if (payment.notCompleted !== null) return { payment, outcome: "not_completed" };
    const byPaymentToken = payment.paymentToken ? byToken.get(payment.paymentToken) : undefined;
    const byOrderId = payment.orderId ? byId.get(payment.orderId) : undefined;
    const stored = byPaymentToken ?? byOrderId;
    if (!stored) return { payment, outcome: "no_order" };
    const order: MatchedOrder = { id: stored.id, status: effectiveStatus(stored), amountMinor: stored.amountMinor };
    if (byPaymentToken && payment.orderId && payment.orderId !== stored.id)
      return { payment, outcome: "conflict", order };
    const firstRow = firstRowOf.get(stored.id);
    if (firstRow !== undefined) return { payment, outcome: "listed_twice", order, firstRow };
    firstRowOf.set(stored.id, payment.row);
    // An order the merchant cancelled after it was paid was paid: its payment is expected in the list, and its money
    // goes back as a refund (lib/refunds/), never by marking it paid again.
    if (stored.status === "paid" || stored.cancelledAt)
      return { payment, outcome: markedByList.has(stored.id) ? "marked_paid" : "already_paid", order };
    if (!canMarkPaid(stored.status, stored.cancelledAt)) return { payment, outcome: "cannot_mark", order };
    if (payment.amountMinor !== stored.amountMinor) return { payment, outcome: "amount_differs", order };
    return { payment, outcome: "mark_paid", order };
  });

  const listed = payments.flatMap((payment) => (payment.day ? [payment.day] : [])).sort();
  const days = hasDates && listed.length > 0 ? { from: listed[0]!, to: listed.at(-1)! } : null;
  const missing = days ? await paidOrdersNotListed(db, days, [...firstRowOf.keys()]) : [];
  return {
    list,
    problems,
    rows,
    days,
    missing: missing.slice(0, MISSING_LIMIT),
    moreMissing: missing.length > MISSING_LIMIT,
    toApply: problems.length === 0 ? rows.filter((row) => row.outcome === "mark_paid").length : 0,
  };
}

/**
 * Orders paid online whose payment was confirmed (or marked) on the merchant's days `from`–`to` (lib/time.ts), other than
 * `listed`: at most {@link MISSING_LIMIT} + 1, oldest first. The day is the move to paid's, from the order's events.
 */
async function paidOrdersNotListed(
  db: Db,
  days: { from: string; to: string },
  listed: string[],
): Promise<MissingOrder[]> {
  const zone = sql.raw(`'${TIME_ZONE}'`);
  const { rows } = await db.execute<{
    id: string;
    payment_token: string | null;
    amount_minor: number;
    paid_at: Date;
  }>(sql`
    select o.id, o.payment_token, o.amount_minor, paid.at as paid_at
    from ${orders} o
    cross join lateral (
      select min(e.at) as at from ${orderEvents} e
      where e.order_id = o.id and e.data->>'to' = 'paid' and e.data->>'from' <> 'paid'
    ) paid
    where (o.status = 'paid' or o.cancelled_at is not null) and o.payment_method = 'online'
      -- An order is placed at most a payment page's lifetime before it is paid, but a late confirmation can come
      -- days later: the bounds on created_at narrow, the move's own day decides. A paid order the merchant cancelled
      -- was paid: its payment belongs in the list too.
      and o.created_at >= (${days.from}::date - 31)::timestamp at time zone ${zone}
      and o.created_at < (${days.to}::date + 1)::timestamp at time zone ${zone}
      and (paid.at at time zone ${zone})::date between ${days.from}::date and ${days.to}::date
      and o.id <> all(${sql.param(listed)}::text[])
    order by paid.at, o.id
    limit ${MISSING_LIMIT + 1}`);
  return rows.map((row) => ({
    id: row.id,
    paymentToken: row.payment_token,
    amountMinor: Number(row.amount_minor),
    paidAt: new Date(row.paid_at),
  }));
}

/** What {@link applyPaymentList} did. */
export type ApplyOutcome = "applied" | "nothing_to_apply" | "has_problems" | "not_found";

/**
 * Applies a stored list as the admin `by`: checks it again against the orders as they are now, then marks each
 * `mark_paid` order paid through {@link settle} (`marked_paid` with the list's reference and id), each in its own
 * transaction with its e-mails. Safe to run twice and concurrently: each order moves once.
 * @returns `applied` with how many orders it marked paid, or why it marked none.
 */
export async function applyPaymentList(
  db: Db,
  listId: string,
  by: string,
): Promise<{ outcome: ApplyOutcome; marked: number }> {
  const plan = await planReconciliation(db, listId);
  if (!plan) return { outcome: "not_found", marked: 0 };
  if (plan.problems.length > 0) return { outcome: "has_problems", marked: 0 };
  let marked = 0;
  for (const row of plan.rows) {
    if (row.outcome !== "mark_paid") continue;
    const input = { kind: "marked_paid", by, reference: row.payment.reference, list: listId } as const;
    if ((await settle(db, row.order!.id, input))?.changed) marked++;
  }
  await db
    .update(paymentLists)
    .set({ appliedAt: new Date(), appliedBy: by })
    .where(and(eq(paymentLists.id, listId), isNull(paymentLists.appliedAt)));
  return { outcome: marked > 0 ? "applied" : "nothing_to_apply", marked };
}
