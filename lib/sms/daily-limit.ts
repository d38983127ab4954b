import "server-only";
import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { smsDays } from "../db/schema";
import { addDays, tripoliDay, tripoliMidnight } from "../time";

/**
 * The shop's daily spending cap on text messages (SMS_DAILY_LIMIT): message parts, each billed, counted per Tripoli
 * day in `sms_days`. A sender reserves a message's parts before handing it over, in one conditional statement, so two
 * senders (two instances) never spend past the cap together; parts reserved for a message the provider did not take
 * are given back. A message refused by the cap waits, unspent, for the next Tripoli day ({@link nextDayStarts}).
 */

/**
 * Reserves `parts` of the Tripoli day's budget, if they fit under `limit`: one `INSERT … ON CONFLICT DO UPDATE …
 * WHERE` that adds them only when the day's total stays within it (a row locked by another sender is waited for and
 * read again, so the check and the addition are one).
 * @param day the Tripoli day, `YYYY-MM-DD` (lib/time.ts, `tripoliDay`). @returns whether they were reserved.
 */
export async function reserveSmsParts(db: Db, day: string, parts: number, limit: number): Promise<boolean> {
  const { rows } = await db.execute(sql`
    insert into ${smsDays} (day, parts) select ${day}::date, ${parts}::int where ${parts}::int <= ${limit}::int
    on conflict (day) do update set parts = ${smsDays}.parts + excluded.parts
      where ${smsDays}.parts + excluded.parts <= ${limit}::int
    returning day`);
  return rows.length > 0;
}

/** Gives back `parts` reserved on `day` for a message the provider did not take. */
export async function releaseSmsParts(db: Db, day: string, parts: number): Promise<void> {
  await db.execute(sql`update ${smsDays} set parts = greatest(parts - ${parts}::int, 0) where day = ${day}::date`);
}

/**
 * Records that the cap refused a message on `day` (`limit_reached_at`, for the merchant's home), once.
 * @returns whether this call was the first that day: the one that logs it.
 */
export async function markSmsLimitReached(db: Db, day: string, now: Date): Promise<boolean> {
  const { rows } = await db.execute(sql`
    insert into ${smsDays} (day, parts, limit_reached_at) values (${day}::date, 0, ${now})
    on conflict (day) do update set limit_reached_at = excluded.limit_reached_at
      where ${smsDays}.limit_reached_at is null
    returning day`);
  return rows.length > 0;
}

/** When the Tripoli day after the one `now` falls on begins: when a message the cap refused is due again. */
export function nextDayStarts(now: Date): Date {
  return tripoliMidnight(addDays(tripoliDay(now), 1));
}
