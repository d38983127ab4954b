import "server-only";
import { and, eq } from "drizzle-orm";
import type { Db, Tx } from "../db/client";
import { emailOutbox, orders, PARCEL_STEPS, type EmailKind, type EmailReason, type ParcelStep } from "../db/schema";
import { emailSettings, senderDomain, type EmailSettings } from "../env";
import { isLocale } from "../i18n/config";
import { lockOrder, recordOrderEvent } from "./events";

/**
 * The transactional outbox: which e-mails an order's move calls for, written in the same transaction as the move. So
 * an e-mail exists exactly when its move does (a rolled-back move leaves none; a committed one cannot lose it), and
 * each is written once: a repeated delivery moves nothing and so queues nothing, and a unique index keeps one e-mail
 * per order, kind and reason whoever asks twice. lib/email/sender.ts delivers them: the moves write, e-mail reads.
 *
 * | why                                            | the customer's receipt           | the merchant's notice            |
 * |------------------------------------------------|----------------------------------|----------------------------------|
 * | `paid`: the order became paid                  | when the order has an e-mail     | when MERCHANT_EMAIL is set       |
 * | `amount_mismatch`: money, another amount       | —                                | when MERCHANT_EMAIL is set       |
 * | `unconfirmed_report`: the scheduled job's flag | —                                | when MERCHANT_EMAIL is set       |
 * | `resend`: an admin asked for one               | again, when it was the one asked | again, when it was the one asked |
 * | `cancelled`: the merchant cancelled the order  | `after_sale`, when it has one    | —                                |
 * | `refunded`: a refund was recorded as made      | `after_sale`, once per refund    | —                                |
 *
 * "The scheduled job's flag" is either of its two, `unconfirmed_report` or `check_payment_list` (`FLAG_NOTICES` in
 * lib/orders/settle.ts says why one reason serves both); lib/email/render.ts writes the notice from the order's flag.
 */

/** One e-mail written to the outbox. */
export interface QueuedEmail {
  id: number;
  kind: EmailKind;
  recipient: string;
}

/**
 * Writes the e-mails that `reason` calls for into the outbox, with an `email_queued` event each, inside the caller's
 * transaction (`tx`: the one that moves or flags the order). Writes nothing when e-mail is off or the order is gone.
 * @param resent for `resend`, the one e-mail the admin asked for.
 * @returns the e-mails written; empty when there was nothing to write or they had been written before.
 */
export async function queueOrderEmails(
  tx: Db | Tx,
  orderId: string,
  reason: EmailReason,
  now = new Date(),
  settings: EmailSettings | null = emailSettings(),
  resent: EmailKind = "receipt",
): Promise<QueuedEmail[]> {
  if (!settings) return [];
  const [order] = await tx
    .select({ email: orders.email, locale: orders.locale })
    .from(orders)
    .where(eq(orders.id, orderId));
  if (!order) return [];
  // Only money the customer paid gets them a receipt; a flag is the merchant's business.
  const receipt = {
    kind: "receipt" as const,
    recipient: order.email,
    locale: isLocale(order.locale) ? order.locale : "en",
  };
  const notice = {
    kind: "merchant_notice" as const,
    recipient: settings.merchantEmail,
    locale: settings.merchantLocale,
  };
  // A step of the goods' way is the customer's news, in the order's language.
  const update = { ...receipt, kind: "fulfilment_update" as const };
  const isParcelStep = (why: EmailReason): why is ParcelStep => (PARCEL_STEPS as readonly string[]).includes(why);
  const wanted = isParcelStep(reason)
    ? [update]
    : {
        paid: [receipt, notice],
        amount_mismatch: [notice],
        unconfirmed_report: [notice],
        resend: [resent === "receipt" ? receipt : notice],
        cash_placed: [receipt, notice],
        // Written by queueAfterSaleEmail, which names the refund: nothing to write from here.
        cancelled: [],
        refunded: [],
      }[reason];
  const rows = wanted.flatMap(({ kind, recipient, locale }) =>
    recipient
      ? [
          {
            orderId,
            kind,
            reason,
            recipient,
            locale,
            messageId: `<${crypto.randomUUID()}.${orderId}@${senderDomain(settings)}>`,
            nextAttemptAt: now,
            createdAt: now,
          },
        ]
      : [],
  );
  if (rows.length === 0) return [];
  const queued = await tx
    .insert(emailOutbox)
    .values(rows)
    .onConflictDoNothing()
    .returning({ id: emailOutbox.id, kind: emailOutbox.kind, recipient: emailOutbox.recipient });
  for (const email of queued) {
    const data = { outboxId: email.id, kind: email.kind, reason, recipient: email.recipient };
    await recordOrderEvent(tx, orderId, { type: "email_queued", at: now, data });
  }
  return queued;
}

/**
 * Writes the customer's news after the sale — their order was cancelled (`cancelled`), or a refund was made
 * (`refunded`, with the refund's id: one e-mail per refund) — to the outbox in the order's language, with its
 * `email_queued` event, inside the caller's transaction (lib/refunds/). Nothing when e-mail is off, the order has no
 * e-mail, or it was written before.
 * @returns the e-mail written, or null.
 */
export async function queueAfterSaleEmail(
  tx: Tx,
  orderId: string,
  why: { reason: "cancelled" } | { reason: "refunded"; refundId: number },
  now = new Date(),
  settings: EmailSettings | null = emailSettings(),
): Promise<QueuedEmail | null> {
  if (!settings) return null;
  const [order] = await tx
    .select({ email: orders.email, locale: orders.locale })
    .from(orders)
    .where(eq(orders.id, orderId));
  if (!order?.email) return null;
  const [email] = await tx
    .insert(emailOutbox)
    .values({
      orderId,
      kind: "after_sale",
      reason: why.reason,
      refundId: why.reason === "refunded" ? why.refundId : null,
      recipient: order.email,
      locale: isLocale(order.locale) ? order.locale : "en",
      messageId: `<${crypto.randomUUID()}.${orderId}@${senderDomain(settings)}>`,
      nextAttemptAt: now,
      createdAt: now,
    })
    .onConflictDoNothing()
    .returning({ id: emailOutbox.id, kind: emailOutbox.kind, recipient: emailOutbox.recipient });
  if (!email) return null;
  const data = {
    outboxId: email.id,
    kind: email.kind,
    reason: why.reason,
    recipient: email.recipient,
    ...(why.reason === "refunded" ? { refundId: why.refundId } : {}),
  };
  await recordOrderEvent(tx, orderId, { type: "email_queued", at: now, data });
  return email;
}

/** What {@link resendEmail} did. */
export type ResendOutcome = "queued" | "pending" | "not_paid" | "no_recipient" | "email_off" | "not_found";

/**
 * An admin's "send it again" for a paid order's receipt (to the customer) or the merchant's notice (to
 * MERCHANT_EMAIL): queues the e-mail anew and records who asked (`receipt_resent`, `notice_resent`), in one
 * transaction with the order row locked.
 * @param by the admin's e-mail. @returns `queued`, or why not: one like it is still waiting to go (`pending`), the
 *   order is not paid, there is no address to send it to, e-mail is off, or there is no such order.
 */
export async function resendEmail(
  db: Db,
  orderId: string,
  kind: EmailKind,
  by: string,
  now = new Date(),
  settings: EmailSettings | null = emailSettings(),
): Promise<ResendOutcome> {
  if (!settings) return "email_off";
  return db.transaction(async (tx) => {
    const order = await lockOrder(tx, orderId);
    if (!order) return "not_found";
    if (order.status !== "paid") return "not_paid";
    if (!(kind === "receipt" ? order.email : settings.merchantEmail)) return "no_recipient";
    const [waiting] = await tx
      .select({ id: emailOutbox.id })
      .from(emailOutbox)
      .where(and(eq(emailOutbox.orderId, orderId), eq(emailOutbox.kind, kind), eq(emailOutbox.status, "pending")));
    if (waiting) return "pending";
    const type = kind === "receipt" ? "receipt_resent" : "notice_resent";
    await recordOrderEvent(tx, orderId, { type, at: now, data: { by } });
    await queueOrderEmails(tx, orderId, "resend", now, settings, kind);
    return "queued";
  });
}
