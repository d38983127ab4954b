import "server-only";
import { lt } from "drizzle-orm";
import type { Db } from "../db/client";
import { promoCodeMisses } from "../db/schema";

/**
 * Guessing codes is not free: every code a client address tries that is no code of this shop (or one turned off) is
 * a **miss**, stored in `promo_code_misses`. While an address has {@link PROMO_MISSES_ALLOWED} misses within the last
 * {@link PROMO_MISSES_WINDOW_MS}, every code it tries — wrong, used up or valid — is refused as "too many tries" (./check.ts),
 * so once the budget is spent it cannot tell a wrong code from a used-up one, nor find a valid one. Misses are counted
 * and recorded under the address's lock, so guesses sent at once are held to the budget too.
 *
 * A few a minute: 5 wrong codes in any 2 minutes. A customer mistyping a code has room to try again; a script guessing
 * from one address tries at most 3,600 codes a day, where a shop's codes are a handful among millions of names.
 */

/** The wrong codes one client address may try within {@link PROMO_MISSES_WINDOW_MS}. */
export const PROMO_MISSES_ALLOWED = 5;
/** The window of the budget of wrong codes: 2 minutes. */
export const PROMO_MISSES_WINDOW_MS = 2 * 60_000;

/**
 * Deletes the misses older than the budget's window at `now`: an older one changes no answer. The scheduled job's
 * clean-up (lib/retention.ts). Safe to run concurrently and repeatedly.
 * @returns how many it deleted.
 * @throws the database's error when it cannot delete.
 */
export async function deleteOldPromoMisses(db: Db, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - PROMO_MISSES_WINDOW_MS);
  const result = await db.delete(promoCodeMisses).where(lt(promoCodeMisses.at, cutoff));
  return result.rowCount ?? 0;
}
