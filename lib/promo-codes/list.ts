import { asc } from "drizzle-orm";
import type { DbOrTx } from "../db/client";
import { promoCodes, type PromoCodeRow } from "../db/schema";
import { promoCodeUses, type PromoUses } from "./uses";

/** The back office's list of promo codes (app/admin/promo-codes): every code with its uses, held uses and what is left. */

/** A code as the back office lists it: its row, its uses (lib/promo-codes/uses.ts), and how many are left (null: no limit). */
export interface ListedPromoCode extends PromoUses {
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
