import { and, asc, inArray, sql } from "drizzle-orm";
import type { DbOrTx } from "../db/client";
import { orders, promoCodes, type PromoCodeRow } from "../db/schema";
import { countedUse, spentUse } from "./codes";

/** The back office's list of promo codes (app/admin/promo-codes): every code with its uses, held uses and what is left. */

/** A code's uses at an instant (lib/promo-codes/codes.ts): `used` (paid or confirmed) and `held` (by open orders). */
interface PromoCodeUses {
  used: number;
  held: number;
}

/**
 * The uses of each code of `ids` at `now`, in one query: a Map from id to {@link PromoCodeUses} (a code no order
 * counts against is absent: read it as none).
 */
async function promoCodeUses(db: DbOrTx, ids: readonly number[], now: Date): Promise<Map<number, PromoCodeUses>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({
      id: orders.promoCodeId,
      used: sql<number>`(count(*) filter (where ${spentUse}))::int`,
      counted: sql<number>`count(*)::int`,
    })
    .from(orders)
    .where(and(inArray(orders.promoCodeId, [...ids]), countedUse(now)))
    .groupBy(orders.promoCodeId);
  return new Map(rows.map((row) => [row.id!, { used: row.used, held: row.counted - row.used }]));
}

/** A code as the back office lists it: its row, its uses, and how many are left (null: no limit). */
export interface ListedPromoCode extends PromoCodeUses {
  row: PromoCodeRow;
  left: number | null;
}

/** Every promo code, by code, with its uses at `now` (two queries, whatever the number of codes). */
export async function listPromoCodes(db: DbOrTx, now = new Date()): Promise<ListedPromoCode[]> {
  const rows = await db.select().from(promoCodes).orderBy(asc(promoCodes.code));
  const uses = await promoCodeUses(
    db,
    rows.map((row) => row.id),
    now,
  );
  return rows.map((row) => {
    const { used, held } = uses.get(row.id) ?? { used: 0, held: 0 };
    // Never below zero: a paid order keeps its use even past the limit (money wins), so used + held may exceed it.
    const left = row.maxUses === null ? null : Math.max(0, row.maxUses - used - held);
    return { row, used, held, left };
  });
}
