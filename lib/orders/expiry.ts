import "server-only";
import { and, eq, lt, lte, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { orders } from "../db/schema";
import { ACCESS_TOKEN_LIFETIME_MS } from "../payments";
import { changeOrder } from "./events";
import { paymentPageDead } from "../payment-page";
import { CONFIRMATION_GRACE_MS, settle } from "./settle";
import { databaseStartedAt, mayHaveMissedPayment } from "./unseen";

/**
 * The scheduled job: expires every pending order whose payment page has died — flagged `check_payment_list` when the
 * shop may have missed the service's word about it (lib/orders/unseen.ts) — and every cash order still `placed` past
 * its `confirm_by` (the merchant never confirmed it: event `cash_expired`), flags orders the customer reported paid
 * that stayed unconfirmed past {@link CONFIRMATION_GRACE_MS} (each flag queues the merchant's notice with it:
 * lib/orders/settle.ts, `FLAG_NOTICES`), and gives up claims whose server died long ago. Safe to run concurrently and
 * repeatedly: each order is settled once, each flag raised and e-mailed once.
 * @param startedAt when the database server last started (read from it by default; a test gives one).
 * @returns how many orders it expired (payments and cash orders).
 */
export async function expireDueOrders(db: Db, now = new Date(), startedAt?: Date): Promise<number> {
  const restarted = startedAt ?? (await databaseStartedAt(db));
  const due = await db
    .select({ id: orders.id, unseen: sql<boolean>`${mayHaveMissedPayment(restarted)}` })
    .from(orders)
    .where(and(eq(orders.status, "pending"), paymentPageDead(now)))
    .limit(1_000);
  let expired = 0;
  for (const { id, unseen } of due) {
    if ((await settle(db, id, { kind: "expired", unseen }, now))?.changed) expired++;
  }

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

  // A cash order the merchant never confirmed in time (lib/cash/): its units' hold ended at `confirm_by` already.
  const unconfirmed = and(eq(orders.status, "placed"), lte(orders.confirmBy, now));
  const late = await db.select({ id: orders.id }).from(orders).where(unconfirmed).limit(1_000);
  for (const { id } of late) {
    const set = { status: "expired" } as const;
    const event = { type: "cash_expired", at: now, data: { from: "placed", to: "expired" } } as const;
    if (await changeOrder(db, id, { set, where: unconfirmed }, event)) expired++;
  }

  // A claim nobody took over within the payment page's lifetime never became a payment.
  const dead = new Date(now.getTime() - ACCESS_TOKEN_LIFETIME_MS);
  const stillDead = and(eq(orders.status, "started"), lt(orders.claimExpiresAt, dead));
  const abandoned = await db.select({ id: orders.id }).from(orders).where(stillDead).limit(1_000);
  for (const { id } of abandoned) {
    const set = { status: "failed", failure: "abandoned" } as const;
    await changeOrder(db, id, { set, where: stillDead }, { type: "claim_abandoned", at: now });
  }
  return expired;
}
