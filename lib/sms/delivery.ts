import "server-only";
import { after } from "next/server";
import { and, arrayContains, asc, eq, inArray, isNull, lte, or, sql } from "drizzle-orm";
import { getDb, type Db } from "../db/client";
import { describeDbFailure } from "../db/errors";
import { orders, refunds, smsOutbox, type SmsOutboxRow } from "../db/schema";
import { smsSettings, type SmsSettings } from "../env";
import { logger } from "../log";
import { recordOrderEvent } from "../orders/events";
import { tripoliDay } from "../time";
import { markSmsLimitReached, nextDayStarts, releaseSmsParts, reserveSmsParts } from "./daily-limit";
import { segmentSms } from "./segments";
import { SmsSendError, type OpenSmsSender, type SmsReport, type SmsSender } from "./sender";
import { smppSender } from "./smpp";
import { smsText } from "./texts";

/**
 * Delivers the SMS outbox (lib/orders/sms-outbox.ts) as lib/email/sender.ts delivers the e-mail one: a sender claims one due
 * message at a time with `FOR UPDATE SKIP LOCKED` in one statement that also sets a lease (`locked_until`) and counts
 * the attempt, so two senders (two instances, two runs) never hold the same message and no database connection is
 * held while the provider talks. Then, outside any transaction, it writes the text from the order as it is now
 * (lib/sms/texts.ts), hands it over and records the answer:
 *
 * | the provider                                   | the message becomes                           | event        |
 * |------------------------------------------------|-----------------------------------------------|--------------|
 * | accepted it (ids of its parts)                 | `accepted`                                    | `sms_sent`   |
 * | refused it for good                            | `failed`                                      | `sms_failed` |
 * | anything else: unreachable, timeout, throttled | `pending`, due again after {@link retryDelayMs} | `sms_failed` |
 * | …for the {@link MAX_ATTEMPTS}th time           | `failed`                                      | `sms_failed` |
 *
 * Before a message is handed over its parts are reserved under the day's cap (./daily-limit.ts, SMS_DAILY_LIMIT);
 * refused, it goes back to `pending` as it was, its attempt not counted, due at the next Tripoli midnight; the day's
 * `limit_reached_at` is set and a warning logged once, and the merchant's home says so that day.
 *
 * Later the provider's delivery reports ({@link recordSmsReport}) make an accepted message `delivered` (every part) or
 * `undelivered` (any part), with an `sms_report` event each.
 *
 * A provider that cannot be reached ends the run (one attempt lost, not one per message), and a checkout never waits
 * for any of it: the moves only write rows. The window left is the e-mail's: the provider accepted the message and
 * the sender died (or the database failed three times) before the row was marked; after the lease the message is sent
 * again. SMS has no Message-ID a phone could recognise, so the customer then gets it twice; it is never lost.
 */

/** How long a claim lasts: far longer than a submit_sm takes to be answered (lib/sms/smpp.ts waits 30 s at most). */
export const LEASE_MS = 10 * 60_000;
/** Messages one run hands over at once (one SMPP session carries them; its window is larger). */
const LANES = 4;
/** Attempts before a message is given up on: about four hours of retries at {@link retryDelayMs}. */
export const MAX_ATTEMPTS = 10;

/** The wait after failed attempt `attempt` (1, 2, …): 1, 2, 4, … minutes, at most an hour. */
export function retryDelayMs(attempt: number): number {
  return Math.min(2 ** Math.max(0, attempt - 1), 60) * 60_000;
}

/**
 * What one run did (`overLimit`: held for the next day by the daily cap); `stopped` says why it ended before the
 * outbox was empty, if it did.
 */
export interface SmsDeliveryReport {
  accepted: number;
  failed: number;
  retrying: number;
  overLimit: number;
  stopped?: "provider_unreachable" | "database" | "limit" | "time";
}

export interface SmsDeliveryOptions {
  /** The most messages one run hands over (default 20). */
  limit?: number;
  /** No new message is started after this many milliseconds (default 20 s). */
  budgetMs?: number;
  now?: () => Date;
}

/**
 * Hands the due messages of the outbox to `sender`, {@link LANES} at a time, until none is due, the provider is
 * unreachable, or the limit or time budget is reached. Does not close the sender (its reports may still come).
 * @returns what it did; never throws for a provider's failure (it is recorded), only for a database that cannot be
 *   reached while claiming.
 */
export async function deliverPendingSms(
  db: Db,
  sender: SmsSender,
  settings: Pick<SmsSettings, "siteUrl" | "orderLinkSecret" | "dailyLimit">,
  { limit = 20, budgetMs = 20_000, now = () => new Date() }: SmsDeliveryOptions = {},
): Promise<SmsDeliveryReport> {
  const report: SmsDeliveryReport = { accepted: 0, failed: 0, retrying: 0, overLimit: 0 };
  let stopped: SmsDeliveryReport["stopped"];
  let claimed = 0;
  const started = Date.now();
  const lane = async () => {
    while (!stopped) {
      if (claimed >= limit) stopped = "limit";
      else if (Date.now() - started > budgetMs) stopped = "time";
      if (stopped) return;
      claimed++;
      const message = await claimNextSms(db, now());
      if (!message) {
        claimed--;
        return;
      }
      const outcome = await attempt(db, sender, settings, message, now());
      if ("overLimit" in outcome) {
        await holdForNextDay(db, message, now(), settings.dailyLimit);
        report.overLimit++;
      } else if (!(await recordOutcome(db, message, outcome, now()))) stopped ??= "database";
      else if (outcome.accepted) report.accepted++;
      else {
        if (outcome.final) report.failed++;
        else report.retrying++;
        if (outcome.unreachable) stopped ??= "provider_unreachable";
      }
    }
  };
  await Promise.all(Array.from({ length: LANES }, lane));
  return stopped ? { ...report, stopped } : report;
}

type Outcome =
  { accepted: true; providerIds: string[] } | { accepted: false; error: string; final: boolean; unreachable: boolean };

/**
 * Writes one claimed message's text, reserves its parts under the day's cap and hands it to the provider: what came
 * of it. Parts reserved for a message the provider did not take are given back. A database failure while reserving
 * throws, as one while claiming does.
 */
async function attempt(
  db: Db,
  sender: SmsSender,
  settings: Pick<SmsSettings, "siteUrl" | "orderLinkSecret" | "dailyLimit">,
  message: SmsOutboxRow,
  now: Date,
): Promise<Outcome | { overLimit: true }> {
  let text: string;
  try {
    const [[order], [refund]] = await Promise.all([
      db.select({ amountMinor: orders.amountMinor }).from(orders).where(eq(orders.id, message.orderId)),
      message.refundId === null
        ? []
        : db.select({ amountMinor: refunds.amountMinor }).from(refunds).where(eq(refunds.id, message.refundId)),
    ]);
    text = smsText(
      message.reason,
      {
        id: message.orderId,
        amountMinor: order?.amountMinor ?? 0,
        locale: message.locale,
        refundMinor: refund?.amountMinor,
      },
      settings.siteUrl,
      settings.orderLinkSecret,
    );
  } catch (error) {
    return failure(error, message);
  }
  const { parts } = segmentSms(text);
  const day = tripoliDay(now);
  if (!(await reserveSmsParts(db, day, parts, settings.dailyLimit))) return { overLimit: true };
  try {
    const providerIds = await sender.send({ to: message.phone, text });
    return { accepted: true, providerIds };
  } catch (error) {
    await releaseSmsParts(db, day, parts);
    return failure(error, message);
  }
}

/** A failed attempt's outcome: final when the provider refused for good or the attempts are spent. */
function failure(error: unknown, message: SmsOutboxRow): Outcome {
  const known = error instanceof SmsSendError ? error : undefined;
  return {
    accepted: false,
    error: String(error instanceof Error ? error.message : error).slice(0, 500),
    final: Boolean(known?.permanent) || message.attempts >= MAX_ATTEMPTS,
    unreachable: known ? known.unreachable : true,
  };
}

/**
 * Puts a message the daily cap refused back as it was before its claim — `pending`, unleased, the attempt not
 * counted — due when the next Tripoli day begins; marks the day as capped, and logs a warning the first time.
 */
async function holdForNextDay(db: Db, message: SmsOutboxRow, now: Date, limit: number): Promise<void> {
  await db
    .update(smsOutbox)
    .set({ lockedUntil: null, attempts: sql`${smsOutbox.attempts} - 1`, nextAttemptAt: nextDayStarts(now) })
    .where(eq(smsOutbox.id, message.id));
  const day = tripoliDay(now);
  if (await markSmsLimitReached(db, day, now)) logger.warn({ event: "sms_daily_limit_reached", day, limit });
}

/** How long a run stays bound after its last message, for the receipts a quick centre sends back at once. */
const REPORT_WAIT_MS = 2_000;

/**
 * Connects to the provider only when a message is due, hands the due ones over, waits a moment for their receipts,
 * and records every receipt that arrives while bound.
 * @param options.open the provider (default: SMPP with this process's settings); `reportWaitMs` how long to stay
 *   bound for receipts after the last message (default 2 s).
 * @returns the run's report (`provider_unreachable` when the connection or bind failed: nothing was attempted), or
 *   `null` when text messages are off or the database could not be reached (logged).
 */
export async function sendPendingSms(
  options: SmsDeliveryOptions & { db?: Db; open?: OpenSmsSender; reportWaitMs?: number } = {},
): Promise<SmsDeliveryReport | null> {
  const settings = smsSettings();
  if (!settings) return null;
  const { db = getDb(), open = smppSender(settings), reportWaitMs = REPORT_WAIT_MS, ...delivery } = options;
  try {
    const now = (delivery.now ?? (() => new Date()))();
    const [due] = await db
      .select({ id: smsOutbox.id })
      .from(smsOutbox)
      .where(
        and(
          eq(smsOutbox.status, "pending"),
          lte(smsOutbox.nextAttemptAt, now),
          or(isNull(smsOutbox.lockedUntil), lte(smsOutbox.lockedUntil, now)),
        ),
      )
      .limit(1);
    if (!due) return { accepted: 0, failed: 0, retrying: 0, overLimit: 0 };
    let sender: SmsSender;
    try {
      sender = await open((report) =>
        recordSmsReport(db, report).then(
          () => {},
          (error: unknown) => logger.error({ event: "sms_report_not_recorded", ...describeDbFailure(error) }),
        ),
      );
    } catch (error) {
      logger.warn({ event: "sms_provider_unreachable", error: String((error as Error).message ?? error) });
      return { accepted: 0, failed: 0, retrying: 0, overLimit: 0, stopped: "provider_unreachable" };
    }
    try {
      const report = await deliverPendingSms(db, sender, settings, delivery);
      if (report.accepted > 0) await new Promise((resolve) => setTimeout(resolve, reportWaitMs));
      if (report.accepted + report.failed + report.retrying + report.overLimit > 0)
        logger.info({ event: "sms", ...report });
      return report;
    } finally {
      await sender.close();
    }
  } catch (error) {
    logger.error({ event: "sms_not_delivered", ...describeDbFailure(error) });
    return null;
  }
}

/**
 * Schedules {@link sendPendingSms} for after the response has been sent (Next.js's `after()`), so the request whose
 * move queued a message never waits for the provider. Call it from a route handler or a server action after a move
 * that may have queued one; a no-op when text messages are off.
 */
export function sendPendingSmsAfterResponse(): void {
  if (!smsSettings()) return;
  after(async () => {
    await sendPendingSms();
  });
}

/**
 * The next due message, claimed: leased until `now` + {@link LEASE_MS} and its attempt counted, in one statement.
 * Rows another sender holds (locked, or leased) are skipped, never waited for.
 */
export async function claimNextSms(db: Db, now: Date): Promise<SmsOutboxRow | undefined> {
  const due = db
    .select({ id: smsOutbox.id })
    .from(smsOutbox)
    .where(
      and(
        eq(smsOutbox.status, "pending"),
        lte(smsOutbox.nextAttemptAt, now),
        or(isNull(smsOutbox.lockedUntil), lte(smsOutbox.lockedUntil, now)),
      ),
    )
    .orderBy(asc(smsOutbox.nextAttemptAt), asc(smsOutbox.id))
    .limit(1)
    .for("update", { skipLocked: true });
  const [claimed] = await db
    .update(smsOutbox)
    .set({ lockedUntil: new Date(now.getTime() + LEASE_MS), attempts: sql`${smsOutbox.attempts} + 1` })
    .where(inArray(smsOutbox.id, due))
    .returning();
  return claimed;
}

/**
 * Writes an attempt's outcome to its row and as an order event, in one short transaction; tried three times, because
 * after an accepted message a lost write means it goes out again.
 * @returns whether it was written.
 */
async function recordOutcome(db: Db, message: SmsOutboxRow, outcome: Outcome, now: Date): Promise<boolean> {
  const common = { outboxId: message.id, reason: message.reason, attempt: message.attempts };
  const retryAt = outcome.accepted || outcome.final ? null : new Date(now.getTime() + retryDelayMs(message.attempts));
  for (let attempt = 1; ; attempt++) {
    try {
      await db.transaction(async (tx) => {
        await tx
          .update(smsOutbox)
          .set(
            outcome.accepted
              ? {
                  status: "accepted",
                  acceptedAt: now,
                  providerIds: outcome.providerIds,
                  lockedUntil: null,
                  lastError: null,
                }
              : {
                  status: outcome.final ? "failed" : "pending",
                  lastError: outcome.error,
                  lockedUntil: null,
                  ...(retryAt ? { nextAttemptAt: retryAt } : {}),
                },
          )
          .where(eq(smsOutbox.id, message.id));
        await recordOrderEvent(tx, message.orderId, {
          type: outcome.accepted ? "sms_sent" : "sms_failed",
          at: now,
          data: outcome.accepted
            ? { ...common, providerIds: outcome.providerIds }
            : {
                ...common,
                error: outcome.error,
                final: outcome.final,
                ...(retryAt ? { retryAt: retryAt.toISOString() } : {}),
              },
        });
      });
      return true;
    } catch (error) {
      if (attempt >= 3) {
        logger.error({
          event: outcome.accepted ? "sms_sent_not_recorded" : "sms_failure_not_recorded",
          outboxId: message.id,
          ...describeDbFailure(error),
        });
        return false;
      }
      await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
    }
  }
}

/**
 * Records a provider's delivery report on the message whose part it names, with an `sms_report` event: `delivered`
 * once every part is, `undelivered` as soon as one is not. A report for an id no message has (another shop's on a
 * shared account) changes nothing; a repeated report of a part counts once.
 * @returns whether a message had that id.
 */
export async function recordSmsReport(db: Db, report: SmsReport, now = new Date()): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [message] = await tx
      .select()
      .from(smsOutbox)
      .where(arrayContains(smsOutbox.providerIds, [report.providerId]))
      .for("update");
    if (!message) return false;
    const deliveredIds = report.delivered
      ? [...new Set([...message.deliveredIds, report.providerId])]
      : message.deliveredIds;
    const status =
      message.status === "undelivered" || !report.delivered
        ? "undelivered"
        : message.providerIds.every((id) => deliveredIds.includes(id))
          ? "delivered"
          : message.status;
    await tx
      .update(smsOutbox)
      .set({
        status,
        deliveredIds,
        reportedAt: now,
        ...(report.delivered ? {} : { lastError: `delivery report: ${report.state}` }),
      })
      .where(eq(smsOutbox.id, message.id));
    await recordOrderEvent(tx, message.orderId, {
      type: "sms_report",
      at: now,
      data: { outboxId: message.id, providerId: report.providerId, state: report.state, delivered: report.delivered },
    });
    return true;
  });
}
