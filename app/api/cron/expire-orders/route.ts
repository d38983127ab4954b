import { createHash, timingSafeEqual } from "node:crypto";
import { getDb } from "@/lib/db/client";
import { describeDbFailure } from "@/lib/db/errors";
import { sendPendingEmails } from "@/lib/email/sender";
import { sendPendingSms } from "@/lib/sms/delivery";
import { getEnv } from "@/lib/env";
import { logger } from "@/lib/log";
import { expireDueOrders } from "@/lib/orders/expiry";
import { recordUnrecordedDeliveries } from "@/lib/orders/unseen";
import { pruneOldData } from "@/lib/retention";

/**
 * `GET /api/cron/expire-orders`, called on a schedule (vercel.json; any scheduler elsewhere) with
 * `Authorization: Bearer $CRON_SECRET`, the Vercel Cron convention: orders whose payment page died without a
 * confirmed payment become `expired` (flagged for the merchant when the shop may have missed their payment:
 * lib/orders/unseen.ts), e-mails and text messages still waiting (their server was down, their sender died) are sent, and what the
 * shop no longer needs is deleted (lib/retention.ts). Safe to run concurrently and repeatedly.
 */
export async function GET(request: Request): Promise<Response> {
  const secret = getEnv().CRON_SECRET;
  if (!secret || !sameSecret(request.headers.get("authorization") ?? "", `Bearer ${secret}`)) {
    return Response.json({ error: "Send Authorization: Bearer <CRON_SECRET>." }, { status: 401 });
  }
  try {
    // First what this server could not record while the database was down, so that expiry sees it.
    await recordUnrecordedDeliveries(getDb());
    const expired = await expireDueOrders(getDb());
    logger.info({ event: "orders_expired", expired });
    // `null`: e-mail is off, or the outbox could not be read (logged); the next run catches up.
    const emails = await sendPendingEmails({ limit: 100, budgetMs: 45_000 });
    const sms = await sendPendingSms({ limit: 100, budgetMs: 20_000 });
    const pruned = await pruneOldData(getDb());
    logger.info({ event: "old_data_deleted", ...pruned });
    return Response.json({ expired, emails, sms, pruned });
  } catch (error) {
    logger.error({ event: "orders_not_expired", ...describeDbFailure(error) });
    return Response.json({ error: "The database could not be reached; the next run will catch up." }, { status: 503 });
  }
}

/** Constant-time comparison of two strings of any length (their digests have one length). */
function sameSecret(given: string, expected: string): boolean {
  const digest = (value: string) => createHash("sha256").update(value).digest();
  return timingSafeEqual(digest(given), digest(expected));
}
