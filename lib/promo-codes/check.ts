import "server-only";
import { and, eq, ne, or, sql, type SQL } from "drizzle-orm";
import type { Db, DbOrTx } from "../db/client";
import { orders, promoCodeMisses, promoCodes, type PromoCodeRow } from "../db/schema";
import type { MinorUnits } from "../money";
import { minutesUntil } from "../time";
import { countedUse, normaliseCode, PROMO_CODE_PATTERN, sameCustomer, spentUse } from "./codes";
import { PROMO_MISSES_ALLOWED, PROMO_MISSES_WINDOW_MS } from "./guesses";

/**
 * The checks of a promo code before the checkout's claim: whether the code the customer typed is one of this shop's,
 * valid now, for these lines, with uses left — and the budget of wrong guesses (./guesses.ts). The uses read here are
 * a courtesy, read without a lock so the customer hears early; the claim decides, under the code's lock (./uses.ts).
 */

/**
 * Why a code is refused: `unknown` (no code of this shop, or one the merchant turned off: the customer cannot tell),
 * `not_yet` (valid from `startsAt`), `expired`, `under_minimum` (the lines need `moreMinor` more), `used_up` (no uses
 * left), `customer_used_up` (this customer has used it as often as they may), `too_many_tries` (the client address
 * spent its budget of wrong codes: whatever it tries now, for `retryAfterMinutes`).
 */
export type PromoRefusal =
  "unknown" | "not_yet" | "expired" | "under_minimum" | "used_up" | "customer_used_up" | "too_many_tries";

/** What {@link checkPromoCode} found: the code's row, valid for this checkout, or why not (with what to say). */
export type PromoCheck =
  | { ok: true; code: PromoCodeRow }
  | {
      ok: false;
      why: PromoRefusal;
      /** For `too_many_tries`: whole minutes until the address may try again (at least 1). */
      retryAfterMinutes?: number;
      /** For `not_yet`: when the code becomes valid. */
      startsAt?: Date;
      /** For `under_minimum`: how much more the lines must be worth, in minor units. */
      moreMinor?: MinorUnits;
    };

/** A customer for a code's limit per customer: the normalised phone (lib/phone.ts) and the e-mail, when given. */
export interface PromoCustomer {
  phone?: string | null;
  email?: string | null;
}

/** The checkout a code is checked for. */
export interface PromoCheckout {
  /** The lines' total before any discount, in minor units (the minimum is compared with it). */
  linesMinor: MinorUnits;
  /** Where the checkout came from (lib/client-address.ts), for the budget of wrong guesses. */
  clientAddress: string;
  /** The customer, once the form has their phone or e-mail: for the limit per customer. */
  customer?: PromoCustomer;
  /**
   * The browser session (lib/session.ts): its own open orders' held uses are not counted against it here, so a
   * customer coming back to a checkout they are paying for is not told their own hold used the code up (the claim
   * sends a resubmission to its order).
   */
  sessionId?: string;
  now?: Date;
}

/**
 * The code the customer typed, as this shop has it: compared without case once normalised (./codes.ts), whether it
 * is turned on or not. No statement when the input cannot be a code.
 * @returns its row, or `undefined` when there is no such code.
 * @throws the database's error when it cannot read.
 */
export async function findPromoCode(db: DbOrTx, input: string): Promise<PromoCodeRow | undefined> {
  const code = normaliseCode(input);
  if (!PROMO_CODE_PATTERN.test(code)) return undefined;
  return (await db.select().from(promoCodes).where(eq(promoCodes.code, code)).limit(1))[0];
}

/**
 * Checks a code typed at the checkout, in one short transaction under the client address's lock of guesses: first
 * the address's budget of wrong codes (spent: `too_many_tries`, whatever the code); then the code — unknown or turned
 * off (recorded as a miss: `unknown`), not yet valid, expired, under its minimum lines total, used up, or used up by
 * this customer. Its dates are instants (the back office enters them in Libya's time).
 * @param input what the customer typed (any case, Arabic-Indic digits, spaces around it).
 * @returns the code's row when it applies to this checkout, else why not (see {@link PromoCheck}).
 * @throws the database's error when it cannot read or write.
 */
export async function checkPromoCode(
  db: Db,
  input: string,
  { linesMinor, clientAddress, customer, sessionId, now = new Date() }: PromoCheckout,
): Promise<PromoCheck> {
  const code = normaliseCode(input);
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`promo-guesses:${clientAddress}`}, 0))`);
    const since = new Date(now.getTime() - PROMO_MISSES_WINDOW_MS).toISOString();
    const recent = sql`${promoCodeMisses.clientAddress} = ${clientAddress} and ${promoCodeMisses.at} > ${since}::timestamptz`;
    // Its orders' counted uses, but for this session's own holds (see PromoCheckout.sessionId).
    const counted = and(
      eq(orders.promoCodeId, promoCodes.id),
      countedUse(now),
      sessionId ? or(spentUse, ne(orders.sessionId, sessionId)) : undefined,
    );
    const uses = (condition?: SQL) =>
      sql<number>`(select count(*) from ${orders} where ${and(counted, condition)})::int`;
    const [read] = await tx
      .select({
        misses: sql<number>`(select count(*) from ${promoCodeMisses} where ${recent})::int`,
        // The oldest of the last misses the budget allows: the budget frees up when it leaves the window.
        oldest: sql`(select min(newest.at) from (select ${promoCodeMisses.at} from ${promoCodeMisses} where ${recent}
          order by ${promoCodeMisses.at} desc limit ${PROMO_MISSES_ALLOWED}) newest)`.mapWith(promoCodeMisses.at),
        code: promoCodes,
        used: uses(),
        usedByCustomer: customer ? uses(sameCustomer(customer)) : sql<number>`0`,
      })
      .from(sql`(select) as promo_check`)
      .leftJoin(promoCodes, eq(promoCodes.code, code))
      .limit(1);
    const { misses, oldest, code: row, used, usedByCustomer } = read!;

    if (misses >= PROMO_MISSES_ALLOWED) {
      const freeAt = (oldest as Date | null)?.getTime() ?? now.getTime();
      return {
        ok: false,
        why: "too_many_tries",
        retryAfterMinutes: minutesUntil(freeAt + PROMO_MISSES_WINDOW_MS, now.getTime()),
      };
    }
    if (!row || !row.enabled) {
      await tx.insert(promoCodeMisses).values({ clientAddress, at: now });
      return { ok: false, why: "unknown" };
    }
    if (row.startsAt && row.startsAt > now) return { ok: false, why: "not_yet", startsAt: row.startsAt };
    if (row.endsAt && row.endsAt <= now) return { ok: false, why: "expired" };
    if (linesMinor < row.minLinesMinor)
      return { ok: false, why: "under_minimum", moreMinor: row.minLinesMinor - linesMinor };
    if (row.maxUses !== null && used >= row.maxUses) return { ok: false, why: "used_up" };
    if (row.maxUsesPerCustomer !== null && usedByCustomer >= row.maxUsesPerCustomer)
      return { ok: false, why: "customer_used_up" };
    return { ok: true, code: row };
  });
}
