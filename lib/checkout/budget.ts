import "server-only";
import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { paymentBudgets } from "../db/schema";
import { ACCESS_TOKEN_LIFETIME_MS } from "../payments";

/**
 * The budget of new payments per client address. The service allows the whole shop 60 calls a minute
 * (docs/payment-service.md, "Rate limit"), and the checkout asks for an access token as soon as a submission may start
 * a payment — before its order is claimed, so that the claim's database work runs while the service answers. So one
 * address flooding the checkout must not be able to spend those calls: it may start at most `budget` payments (each
 * an access token) within a window of a payment page's life, and beyond that the checkout says when to try again
 * without calling the service. A submission that goes to its checkout's existing order needs no budget.
 *
 * Counted in one statement (an upsert on the address's row, which PostgreSQL serialises), so it holds on any number
 * of server instances and costs one round trip.
 */

/** The window of the budget: a payment page's life. */
const WINDOW_MS = ACCESS_TOKEN_LIFETIME_MS;

/** Whether the address may start a payment now, and if not, in how many minutes it may again. */
export type Budget = { allowed: true } | { allowed: false; retryAfterMinutes: number };

/**
 * Counts one submission that may start a payment against its client address's budget.
 * @param budget how many the address may start within the window (`PAYMENTS_PER_ADDRESS`).
 * @throws the database's error when it cannot write.
 */
export async function spendPaymentBudget(
  db: Db,
  clientAddress: string,
  budget: number,
  now = new Date(),
): Promise<Budget> {
  const windowOver = sql`${paymentBudgets.windowStartedAt} <= ${new Date(now.getTime() - WINDOW_MS).toISOString()}::timestamptz`;
  const [row] = await db
    .insert(paymentBudgets)
    .values({ clientAddress, windowStartedAt: now, used: 1 })
    .onConflictDoUpdate({
      target: paymentBudgets.clientAddress,
      set: {
        windowStartedAt: sql`case when ${windowOver} then excluded.window_started_at else ${paymentBudgets.windowStartedAt} end`,
        used: sql`case when ${windowOver} then 1 else ${paymentBudgets.used} + 1 end`,
      },
    })
    .returning({ used: paymentBudgets.used, windowStartedAt: paymentBudgets.windowStartedAt });
  if (row!.used <= budget) return { allowed: true };
  const freeAt = row!.windowStartedAt.getTime() + WINDOW_MS;
  return { allowed: false, retryAfterMinutes: Math.max(1, Math.ceil((freeAt - now.getTime()) / 60_000)) };
}
