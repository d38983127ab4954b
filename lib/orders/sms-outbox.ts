import "server-only";
import { eq } from "drizzle-orm";
import type { Db, Tx } from "../db/client";
import { orders, smsOutbox, type SmsReason } from "../db/schema";
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
