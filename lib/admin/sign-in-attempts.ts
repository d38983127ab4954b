import "server-only";
import { lt } from "drizzle-orm";
import type { Db } from "../db/client";
import { signInAttempts } from "../db/schema";
import { FAMILIAR_FOR_MS, LOCKOUT_WINDOW_MS } from "./auth";

/**
 * How long a sign-in attempt is kept: the longest window the sign-in limits of lib/admin/auth.ts read (failures over
 * `LOCKOUT_WINDOW_MS`, successes over `FAMILIAR_FOR_MS`, which makes an address familiar). An older attempt changes
 * no answer, so keeping it would only grow the table, by every guess an attacker makes.
 */
const SIGN_IN_ATTEMPTS_KEPT_MS = Math.max(LOCKOUT_WINDOW_MS, FAMILIAR_FOR_MS);

/**
 * Deletes the sign-in attempts older than {@link SIGN_IN_ATTEMPTS_KEPT_MS} at `now`: the scheduled job's clean-up
 * (app/api/cron/expire-orders/route.ts). Safe to run concurrently and repeatedly.
 * @returns how many it deleted.
 * @throws the database's error when it cannot delete.
 */
export async function deleteOldSignInAttempts(db: Db, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - SIGN_IN_ATTEMPTS_KEPT_MS);
  const result = await db.delete(signInAttempts).where(lt(signInAttempts.at, cutoff));
  return result.rowCount ?? 0;
}
