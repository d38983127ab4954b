import "server-only";
import { and, asc, eq, inArray } from "drizzle-orm";
import type { Db, Tx } from "../db/client";
import { orders, smsOutbox, type SmsOutboxRow, type SmsReason } from "../db/schema";
import { smsSettings, type SmsSettings } from "../env";
import { libyanMobileE164 } from "../phone";
import { recordOrderEvent } from "./events";

/**
 * The SMS outbox, the e-mail outbox's twin (./outbox.ts): an order's move writes its text message here in its own
 * transaction, so a message exists exactly when its move does, and a unique index keeps one per order and reason (one
 * per refund for `refunded`) however often the move is replayed. lib/sms/delivery.ts writes the text (lib/sms/texts.ts)
 * and sends it.
 *
 * A message is written only when the customer asked for text messages at checkout (`orders.sms_updates`), the order's
 * phone is a Libyan mobile, and text messages are on (SMPP_URL).
 */

/** One text message written to the outbox. */
export interface QueuedSms {
  id: number;
  phone: string;
}

/**
 * Writes the text message that `reason` calls for, with its `sms_queued` event, inside the caller's transaction.
 * @param refundId for `refunded` (and only for it): the refund it tells of, one message per refund.
 * @returns the message written, or `null`: text messages off, the customer did not ask, no Libyan mobile, no such
 *   order, or it had been written before.
 */
export async function queueOrderSms(
  tx: Db | Tx,
  orderId: string,
  reason: SmsReason,
  {
    now = new Date(),
    refundId,
    settings = smsSettings(),
  }: { now?: Date; refundId?: number; settings?: SmsSettings | null } = {},
): Promise<QueuedSms | null> {
  if (!settings) return null;
  const [order] = await tx
    .select({ phone: orders.phone, smsUpdates: orders.smsUpdates, locale: orders.locale })
    .from(orders)
    .where(eq(orders.id, orderId));
  const phone = order?.smsUpdates && order.phone ? libyanMobileE164(order.phone) : null;
  if (!order || !phone) return null;
  const [queued] = await tx
    .insert(smsOutbox)
    .values({
      orderId,
      reason,
      refundId: refundId ?? null,
      phone,
      locale: order.locale,
      nextAttemptAt: now,
      createdAt: now,
    })
    .onConflictDoNothing()
    .returning({ id: smsOutbox.id, phone: smsOutbox.phone });
  if (!queued) return null;
  const data = { outboxId: queued.id, reason, ...(refundId ? { refundId } : {}) };
  await recordOrderEvent(tx, orderId, { type: "sms_queued", at: now, data });
  return queued;
}

/** An order's text messages as its page shows them, oldest first. */
export type OrderSms = Pick<
  SmsOutboxRow,
  "id" | "reason" | "phone" | "status" | "attempts" | "lastError" | "acceptedAt" | "reportedAt" | "nextAttemptAt"
>;

/** The text messages of an order, oldest first (index `sms_outbox_order`). */
export async function listOrderSms(db: Db, orderId: string): Promise<OrderSms[]> {
  return db
    .select({
      id: smsOutbox.id,
      reason: smsOutbox.reason,
      phone: smsOutbox.phone,
      status: smsOutbox.status,
      attempts: smsOutbox.attempts,
      lastError: smsOutbox.lastError,
      acceptedAt: smsOutbox.acceptedAt,
      reportedAt: smsOutbox.reportedAt,
      nextAttemptAt: smsOutbox.nextAttemptAt,
    })
    .from(smsOutbox)
    .where(eq(smsOutbox.orderId, orderId))
    .orderBy(asc(smsOutbox.id));
}

/** What {@link resendSms} did. */
export type SmsResendOutcome = "queued" | "not_failed" | "sms_off" | "not_found";

/**
 * An admin's "send it again" for a text message that failed (given up on) or was not delivered (its delivery report):
 * the same row goes back to `pending`, due now, its attempts, parts' ids and reports cleared, so the outbox's rule of
 * one message per order and reason holds; the history keeps what happened before, and records who asked
 * (`sms_resent`). One conditional update: a message already back on its way, or sent, is left as it is.
 * @param by the admin's e-mail. @returns `queued`, or why not: the message is not failed or undelivered, text
 *   messages are off, or the order has no such message.
 */
export async function resendSms(
  db: Db,
  orderId: string,
  outboxId: number,
  by: string,
  { now = new Date(), settings = smsSettings() }: { now?: Date; settings?: SmsSettings | null } = {},
): Promise<SmsResendOutcome> {
  if (!settings) return "sms_off";
  return db.transaction(async (tx) => {
    const [reset] = await tx
      .update(smsOutbox)
      .set({
        status: "pending",
        attempts: 0,
        nextAttemptAt: now,
        lockedUntil: null,
        providerIds: [],
        deliveredIds: [],
        acceptedAt: null,
        reportedAt: null,
        lastError: null,
      })
      .where(
        and(
          eq(smsOutbox.id, outboxId),
          eq(smsOutbox.orderId, orderId),
          inArray(smsOutbox.status, ["failed", "undelivered"]),
        ),
      )
      .returning({ reason: smsOutbox.reason });
    if (!reset) {
      const [exists] = await tx
        .select({ id: smsOutbox.id })
        .from(smsOutbox)
        .where(and(eq(smsOutbox.id, outboxId), eq(smsOutbox.orderId, orderId)));
      return exists ? "not_failed" : "not_found";
    }
    await recordOrderEvent(tx, orderId, { type: "sms_resent", at: now, data: { by, outboxId, reason: reset.reason } });
    return "queued";
  });
}
