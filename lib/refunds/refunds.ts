import "server-only";
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Db, DbOrTx, Tx } from "../db/client";
import { orders, refundLines, refunds, type RefundCause, type RefundRow, type RefundStatus } from "../db/schema";
import { changeOrder, lockOrder, recordOrderEvent } from "../orders/events";
import { queueAfterSaleEmail } from "../orders/outbox";
import { queueOrderSms } from "../orders/sms-outbox";
import {
  lineProblems,
  linesSoFar,
  lockAfterSaleOrder,
  notAllowed,
  noted,
  type LockedOrder,
  type NotDone,
} from "./order";
import { receivedMinor, refundLeftMinor } from "./rules";

/**
 * Refunds, recorded by the shop: the payment service has no refund call, so the merchant makes a refund on the
 * service's dashboard (or hands cash back) and the shop is the record of it. A refund is opened `pending` (to make),
 * then recorded `refunded` with the reference the dashboard (or the cash receipt) gave — or recorded at once when
 * opened with its reference. The refunds of an order, pending and refunded together, never sum above what it received
 * (lib/refunds/rules.ts); `orders.refunded_minor` sums the recorded ones, written in the same transaction. Money is
 * integer minor units (1/100 LYD).
 */

/** A line a refund is for: the order line's `position` and how many of its units. */
interface RefundLine {
  position: number;
  quantity: number;
}

/**
 * A refund to write: its amount (minor units), the lines it is for (none: an amount alone), the reference it was made
 * with (none: pending), the merchant's note, and the request key of the form that asked for it.
 */
interface Refund {
  amountMinor: number;
  lines?: readonly RefundLine[];
  reference?: string;
  note?: string;
  key?: string;
}

/** Who acts, when, and whether the customer hears of it. */
interface Acting {
  /** The admin's e-mail. */
  by: string;
  /** E-mail the customer (when the order has an e-mail and e-mail is on). */
  notify: boolean;
  now?: Date;
}

/** What {@link openRefund} did: `done` with the refund and its status (`refunded` when a reference came with it). */
export type OpenRefundResult =
  | { result: "done"; refundId: number; status: RefundStatus }
  | Exclude<NotDone, { result: "already" }>
  | { result: "already"; refundId: number };

/** What {@link recordRefund} did. */
export type RecordRefundResult =
  { result: "done"; orderId: string } | { result: "already"; orderId: string } | { result: "not_found" };

/** A refund as the order page lists it: the row and its lines (empty when it is for an amount alone). */
export type RefundView = RefundRow & { lines: RefundLine[] };

/**
 * Opens a refund of an order that received money: `amountMinor` (≤ what is left to refund), optionally for `lines`
 * (each of the order's lines, for no more units than were sold on it less those already refunded). Without a
 * `reference` it is `pending`, to make on the service's dashboard; with one it is recorded as made at once (and the
 * customer e-mailed when `notify`). `key` is the form's request key: the same form posted again (another tab,
 * another instance) answers `already` with the refund it opened.
 * @param amountMinor a positive integer, minor units. @param reference trimmed by the caller; empty or absent: pending.
 * @returns `done` (the refund's id and status), `already`, `not_allowed` (the order received nothing), `over_limit`
 *   (with what is left), `bad_lines` (which lines, and how many units are left on each), or `not_found`.
 * @throws RangeError for an amount or a quantity that is not a positive integer; the database's error when it cannot
 *   write.
 */
export function openRefund(
  db: Db,
  orderId: string,
  request: Acting & Refund & { key: string },
): Promise<OpenRefundResult> {
  const { amountMinor, lines = [], key } = request;
  if (!Number.isInteger(amountMinor) || amountMinor <= 0) throw new RangeError(`refund amount ${amountMinor}`);
  return db.transaction(async (tx) => {
    const order = await lockAfterSaleOrder(tx, orderId);
    if (!order) return { result: "not_found" };
    // The order's lock orders two posts of one form: the second sees the first's refund.
    const [made] = await tx.select({ id: refunds.id }).from(refunds).where(eq(refunds.requestKey, key));
    if (made) return { result: "already", refundId: made.id };
    if (receivedMinor(order) === 0) return notAllowed(order);
    const leftMinor = refundLeftMinor(order);
    if (amountMinor > leftMinor) return { result: "over_limit", leftMinor };
    if (lines.length > 0) {
      const problems = lineProblems(lines, await linesSoFar(tx, orderId), (line) => line.quantity - line.refunded);
      if (problems.length > 0) return { result: "bad_lines", lines: problems };
    }
    const refund = await writeRefund(tx, order, { ...request, cause: "merchant" });
    return { result: "done", ...refund };
  });
}

/**
 * Writes a refund of `order` (its row locked by the caller, who checked the amount and the lines) with its events — and
 * when `reference` is given, records it as made (`orders.refunded_minor`, the customer's e-mail when `notify`). The
 * one writer of refunds: openRefund's, the cancel's and the return's.
 * @returns the refund's id and status.
 */
export async function writeRefund(
  tx: Tx,
  order: LockedOrder,
  {
    amountMinor,
    lines = [],
    reference,
    note,
    key,
    by,
    notify,
    now = new Date(),
    cause,
    returnId,
  }: Acting & Refund & { cause: RefundCause; returnId?: number },
): Promise<{ refundId: number; status: RefundStatus }> {
  const [refund] = await tx
    .insert(refunds)
    .values({
      orderId: order.id,
      amountMinor,
      cause,
      returnId: returnId ?? null,
      requestKey: key ?? null,
      note: note ?? "",
      createdBy: by,
      createdAt: now,
      ...(reference ? { status: "refunded" as const, reference, recordedBy: by, recordedAt: now } : {}),
    })
    .returning({ id: refunds.id });
  const refundId = refund!.id;
  if (lines.length > 0) {
    await tx
      .insert(refundLines)
      .values(lines.map(({ position, quantity }) => ({ refundId, orderId: order.id, position, quantity })));
  }
  await recordOrderEvent(tx, order.id, {
    type: "refund_opened",
    at: now,
    data: { refundId, amountMinor, cause, by, ...(lines.length > 0 ? { lines } : {}), ...noted(note) },
  });
  if (!reference) return { refundId, status: "pending" };
  await markRefunded(tx, order.id, { refundId, amountMinor, reference, by, notify, now });
  return { refundId, status: "refunded" };
}

/**
 * Records a pending refund as made, with the reference the service's dashboard (or the cash handed back) gave: pending
 * → refunded in one conditional update, `orders.refunded_minor` raised by its amount with the `refund_recorded` event,
 * and the customer's e-mail when `notify` — all in one transaction. A second record (another tab, another instance)
 * answers `already`.
 * @param reference trimmed by the caller, not empty.
 * @throws RangeError for an empty reference; the database's error when it cannot write.
 */
export function recordRefund(
  db: Db,
  refundId: number,
  { reference, by, notify, now = new Date() }: Acting & { reference: string },
): Promise<RecordRefundResult> {
  if (!reference.trim()) throw new RangeError("a refund is recorded with its reference");
  return db.transaction(async (tx) => {
    const [refund] = await tx.select({ orderId: refunds.orderId }).from(refunds).where(eq(refunds.id, refundId));
    if (!refund) return { result: "not_found" };
    // The order's lock first, as every move of the room takes it: then the refund's row as it stands.
    await lockOrder(tx, refund.orderId);
    const [pending] = await tx
      .update(refunds)
      .set({ status: "refunded", reference, recordedBy: by, recordedAt: now })
      .where(and(eq(refunds.id, refundId), eq(refunds.status, "pending")))
      .returning({ amountMinor: refunds.amountMinor });
    if (!pending) return { result: "already", orderId: refund.orderId };
    await markRefunded(tx, refund.orderId, { refundId, amountMinor: pending.amountMinor, reference, by, notify, now });
    return { result: "done", orderId: refund.orderId };
  });
}

/**
 * The refund is made: the order's `refunded_minor` raised by its amount with the `refund_recorded` event, and the
 * customer's e-mail. The refund's own row says `refunded` already: its caller wrote it so.
 */
async function markRefunded(
  tx: Tx,
  orderId: string,
  {
    refundId,
    amountMinor,
    reference,
    by,
    notify,
    now,
  }: { refundId: number; amountMinor: number; reference: string; by: string; notify: boolean; now: Date },
) {
  await changeOrder(
    tx,
    orderId,
    { set: { refundedMinor: sql`${orders.refundedMinor} + ${amountMinor}` } },
    { type: "refund_recorded", at: now, data: { refundId, amountMinor, reference, by } },
  );
  if (notify) await queueAfterSaleEmail(tx, orderId, { reason: "refunded", refundId }, now);
  if (notify) await queueOrderSms(tx, orderId, "refunded", { now, refundId });
}

/** An order's refunds, oldest first, each with its lines: the order page's "Refunds" section. */
export async function refundsOf(db: DbOrTx, orderId: string): Promise<RefundView[]> {
  const rows = await db.select().from(refunds).where(eq(refunds.orderId, orderId)).orderBy(asc(refunds.id));
  if (rows.length === 0) return [];
  const lines = await db
    .select({ refundId: refundLines.refundId, position: refundLines.position, quantity: refundLines.quantity })
    .from(refundLines)
    .where(
      inArray(
        refundLines.refundId,
        rows.map((row) => row.id),
      ),
    )
    .orderBy(asc(refundLines.position));
  return rows.map((row) => ({
    ...row,
    lines: lines.flatMap(({ refundId, ...line }) => (refundId === row.id ? [line] : [])),
  }));
}
