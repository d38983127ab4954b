import "server-only";
import { after } from "next/server";
import { and, asc, eq, inArray, isNull, lte, or, sql } from "drizzle-orm";
import { getDb, type Db } from "../db/client";
import { describeDbFailure } from "../db/errors";
import { readPickup } from "../delivery/zones";
import { emailOutbox, orderEvents, orderLines, orders, refunds, type EmailOutboxRow } from "../db/schema";
import { storableJson } from "../db/text";
import { logger } from "../log";
import { recordOrderEvent } from "../orders/events";
import { renderOrderEmail, type EmailOrder } from "./render";
import { emailSettings, type EmailSettings } from "../env";
import { createMailTransport } from "./settings";

/**
 * Delivers the outbox (lib/orders/outbox.ts). A sender claims one due e-mail at a time with `FOR UPDATE SKIP LOCKED`
 * in a single statement that also sets a lease (`locked_until`) and counts the attempt, so two senders never hold the
 * same e-mail and no database connection is held while SMTP talks. Then, outside any transaction, it renders the
 * e-mail and hands it to the SMTP server, and records the outcome on the row and as an order event:
 *
 * | SMTP outcome                                         | the e-mail becomes                              | event          |
 * |------------------------------------------------------|-------------------------------------------------|----------------|
 * | accepted (250)                                       | `sent`                                          | `email_sent`   |
 * | refused for good (5xx to the recipient or message)   | `failed`                                        | `email_failed` |
 * | anything else: no connection, timeout, 4xx, login    | `pending`, due again after {@link retryDelayMs} | `email_failed` |
 * | …for the {@link MAX_ATTEMPTS}th time                 | `failed`                                        | `email_failed` |
 *
 * A run sends up to {@link LANES} e-mails at once, each on a connection of its own, so one that the relay is slow to
 * take, or that fails, never holds another back (a receipt waiting for a slow relay used to hold the merchant's
 * notice). A server that cannot be reached ends the run, so an outage costs one attempt per lane, not every e-mail.
 * A sender that dies mid-way leaves its e-mail claimed until the lease ends; the next sender then takes it over.
 *
 * The one window left: the SMTP server accepted the message and the sender died (or the database failed) before the
 * row was marked sent. The e-mail is then sent again after the lease, with the same Message-ID, which mail software
 * uses to recognise the copy; it is never lost, and it is doubled only in that window.
 */

/**
 * How long a claim lasts: longer than any conversation with a working relay can take (settings.ts, SMTP_TIMEOUTS:
 * ten minutes for the answer to a message's end, and the steps before it), so no other sender sends the e-mail again
 * while a slow relay is still answering.
 */
export const LEASE_MS = 30 * 60_000;
/** E-mails one run sends at once. */
const LANES = 4;
/** Attempts before an e-mail is given up on: about four hours of retries at {@link retryDelayMs}. */
export const MAX_ATTEMPTS = 10;

/** The wait after failed attempt `attempt` (1, 2, …): 1, 2, 4, … minutes, at most an hour. */
export function retryDelayMs(attempt: number): number {
  return Math.min(2 ** Math.max(0, attempt - 1), 60) * 60_000;
}

/** What one run did. `stopped` says why it ended before the outbox was empty, if it did. */
export interface DeliveryReport {
  sent: number;
  /** Given up on in this run. */
  failed: number;
  /** Failed in this run, to be tried again later. */
  retrying: number;
  stopped?: "server_unreachable" | "database" | "limit" | "time";
}

export interface DeliveryOptions {
  /** The most e-mails one run sends (default 20). */
  limit?: number;
  /** No new e-mail is started after this many milliseconds (default 20 s). */
  budgetMs?: number;
  /** The clock (tests move it forward to make retries due). */
  now?: () => Date;
}

/**
 * Sends the due e-mails of the outbox, {@link LANES} at a time, until none is due, the SMTP server is unreachable, or
 * the limit or the time budget is reached (no e-mail is started after it; one under way is waited for).
 * @returns what it did; never throws for an SMTP failure (it is recorded), only for a database that cannot be reached
 *   while claiming.
 */
export async function deliverPendingEmails(
  db: Db,
  settings: EmailSettings,
  { limit = 20, budgetMs = 20_000, now = () => new Date() }: DeliveryOptions = {},
): Promise<DeliveryReport> {
  const report: DeliveryReport = { sent: 0, failed: 0, retrying: 0 };
  let stopped: DeliveryReport["stopped"];
  let claimed = 0;
  const started = Date.now();
  const transport = createMailTransport(settings);

  /** One lane: claims the next due e-mail, sends it, records the outcome, and again, until there is reason to stop. */
  const lane = async () => {
    while (!stopped) {
      if (claimed >= limit) stopped = "limit";
      else if (Date.now() - started > budgetMs) stopped = "time";
      if (stopped) return;
      claimed++;
      const email = await claimNext(db, now());
      if (!email) {
        claimed--;
        return; // nothing else is due; the other lanes finish what they hold
      }
      const outcome = await attempt(db, transport, settings, email);
      if (!(await recordOutcome(db, email, outcome, now()))) stopped ??= "database";
      else if (outcome.sent) report.sent++;
      else {
        if (outcome.final) report.failed++;
        else report.retrying++;
        if (outcome.failure.serverUnreachable) stopped ??= "server_unreachable";
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: LANES }, lane));
  } finally {
    transport.close();
  }
  return stopped ? { ...report, stopped } : report;
}

/** Renders one claimed e-mail and hands it to the SMTP server: what came of it. */
async function attempt(
  db: Db,
  transport: ReturnType<typeof createMailTransport>,
  settings: EmailSettings,
  email: EmailOutboxRow,
): Promise<Outcome> {
  try {
    const message = await renderOrderEmail(email, await loadEmailOrder(db, email), settings.siteUrl);
    const info = await transport.sendMail({
      from: settings.from,
      to: email.recipient,
      subject: message.subject,
      html: message.html,
      text: message.text,
      messageId: email.messageId,
    });
    return { sent: true, response: String(info.response ?? "") };
  } catch (error) {
    const failure = describeSmtpFailure(error);
    return { sent: false, failure, final: failure.permanent || email.attempts >= MAX_ATTEMPTS };
  }
}

/**
 * The next due e-mail, claimed: leased until `now` + {@link LEASE_MS} and its attempt counted, in one statement.
 * Rows another sender holds (locked, or leased) are skipped, never waited for.
 */
async function claimNext(db: Db, now: Date): Promise<EmailOutboxRow | undefined> {
  const due = db
    .select({ id: emailOutbox.id })
    .from(emailOutbox)
    .where(
      and(
        eq(emailOutbox.status, "pending"),
        lte(emailOutbox.nextAttemptAt, now),
        or(isNull(emailOutbox.lockedUntil), lte(emailOutbox.lockedUntil, now)),
      ),
    )
    .orderBy(asc(emailOutbox.nextAttemptAt), asc(emailOutbox.id))
    .limit(1)
    .for("update", { skipLocked: true });
  const [claimed] = await db
    .update(emailOutbox)
    .set({ lockedUntil: new Date(now.getTime() + LEASE_MS), attempts: sql`${emailOutbox.attempts} + 1` })
    .where(inArray(emailOutbox.id, due))
    .returning();
  return claimed;
}

/**
 * The order an e-mail is about, as stored now, with what the payment service reported about its payment, for a
 * pickup the shop's pickup address and hours, and for a refund's e-mail its refund.
 */
async function loadEmailOrder(
  db: Db,
  { orderId, refundId }: Pick<EmailOutboxRow, "orderId" | "refundId">,
): Promise<EmailOrder> {
  const [order, lines, deliveries, [refund]] = await Promise.all([
    db.query.orders.findFirst({ where: eq(orders.id, orderId) }),
    db.select().from(orderLines).where(eq(orderLines.orderId, orderId)).orderBy(asc(orderLines.position)),
    db
      .select()
      .from(orderEvents)
      .where(and(eq(orderEvents.orderId, orderId), eq(orderEvents.type, "webhook_received")))
      .orderBy(asc(orderEvents.id)),
    refundId === null
      ? []
      : db
          .select({ amountMinor: refunds.amountMinor, reference: refunds.reference })
          .from(refunds)
          .where(eq(refunds.id, refundId)),
  ]);
  if (!order) throw new Error(`order ${orderId} is gone`);
  const pickup = order.deliveryMethod === "pickup" ? await readPickup(db) : undefined;
  const mismatch = deliveries.findLast((event) => event.data.outcome === "amount_mismatch")?.data;
  return {
    order,
    lines,
    paidWith: order.paidGateway ?? order.paymentGateway,
    ...(pickup ? { pickup } : {}),
    ...(refund ? { refund } : {}),
    ...(mismatch && (typeof mismatch.amount === "number" || typeof mismatch.amount === "string")
      ? { received: { amount: mismatch.amount, currency: String(mismatch.currency ?? "") } }
      : {}),
  };
}

/** Why an attempt failed, in words for the merchant, and what that means for the next one. */
interface SmtpFailure {
  error: string;
  /** The server refused this recipient or message for good (a 5xx answer to them): trying again would not help. */
  permanent: boolean;
  /** No conversation at all (connection, TLS, greeting, login): the next e-mail would fail the same way now. */
  serverUnreachable: boolean;
}

function describeSmtpFailure(error: unknown): SmtpFailure {
  const { code, responseCode, message } = (error ?? {}) as { code?: string; responseCode?: number; message?: string };
  const aboutTheMessage = code === "EENVELOPE" || code === "EMESSAGE";
  const smtp = typeof code === "string" && /^E[A-Z]+$/.test(code);
  return {
    error: `${message ?? String(error)}`.slice(0, 500),
    permanent: aboutTheMessage && typeof responseCode === "number" && responseCode >= 500 && responseCode < 600,
    serverUnreachable: smtp && !aboutTheMessage,
  };
}

type Outcome = { sent: true; response: string } | { sent: false; failure: SmtpFailure; final: boolean };

/**
 * Writes an attempt's outcome to its row and as an order event, in one short transaction; tried three times, because
 * after an accepted message a lost write means the e-mail goes out again.
 * @returns whether it was written.
 */
async function recordOutcome(db: Db, email: EmailOutboxRow, outcome: Outcome, now: Date): Promise<boolean> {
  const common = { outboxId: email.id, kind: email.kind, reason: email.reason, recipient: email.recipient };
  const retryAt = outcome.sent || outcome.final ? null : new Date(now.getTime() + retryDelayMs(email.attempts));
  for (let attempt = 1; ; attempt++) {
    try {
      await db.transaction(async (tx) => {
        await tx
          .update(emailOutbox)
          .set(
            outcome.sent
              ? { status: "sent", sentAt: now, lockedUntil: null, lastError: null }
              : {
                  status: outcome.final ? "failed" : "pending",
                  lastError: outcome.failure.error,
                  lockedUntil: null,
                  ...(retryAt ? { nextAttemptAt: retryAt } : {}),
                },
          )
          .where(eq(emailOutbox.id, email.id));
        await recordOrderEvent(tx, email.orderId, {
          type: outcome.sent ? "email_sent" : "email_failed",
          at: now,
          data: storableJson(
            outcome.sent
              ? { ...common, attempt: email.attempts, messageId: email.messageId, response: outcome.response }
              : {
                  ...common,
                  attempt: email.attempts,
                  error: outcome.failure.error,
                  final: outcome.final,
                  ...(retryAt ? { retryAt: retryAt.toISOString() } : {}),
                },
          ),
        });
      });
      return true;
    } catch (error) {
      if (attempt >= 3) {
        logger.error({
          event: outcome.sent ? "email_sent_not_recorded" : "email_failure_not_recorded",
          outboxId: email.id,
          ...describeDbFailure(error),
        });
        return false;
      }
      await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
    }
  }
}

/**
 * Delivers what is due with this process's database and settings, and logs what it did (counts only, never an
 * address). Does nothing when e-mail is off.
 * @returns the run's report, or `null` when e-mail is off or the database could not be reached (logged).
 */
export async function sendPendingEmails(options?: DeliveryOptions): Promise<DeliveryReport | null> {
  const settings = emailSettings();
  if (!settings) return null;
  try {
    const report = await deliverPendingEmails(getDb(), settings, options);
    if (report.sent + report.failed + report.retrying > 0) logger.info({ event: "emails", ...report });
    return report;
  } catch (error) {
    logger.error({ event: "emails_not_delivered", ...describeDbFailure(error) });
    return null;
  }
}

/**
 * Schedules {@link sendPendingEmails} for after the response has been sent (Next.js's `after()`), so the request that
 * queued e-mails does not wait for SMTP. Call it from a route handler or a server action; a no-op when e-mail is off.
 */
export function sendPendingEmailsAfterResponse(): void {
  if (!emailSettings()) return;
  after(async () => {
    await sendPendingEmails();
  });
}
