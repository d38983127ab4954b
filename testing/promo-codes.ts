import type { Db } from "../lib/db/client";
import { promoCodes, type PromoCodeRow } from "../lib/db/schema";

/**
 * Creates one promo code a test needs: by default a unique code taking 10 % off, on, without dates or limits; any
 * column given overrides it (e.g. `{ maxUses: 10 }`, or `{ kind: "free_delivery", percent: null }`).
 * @returns its row.
 */
export async function createTestPromoCode(
  db: Db,
  overrides: Partial<typeof promoCodes.$inferInsert> = {},
): Promise<PromoCodeRow> {
  const code = overrides.code ?? `T${crypto.randomUUID().replaceAll("-", "").slice(0, 10).toUpperCase()}`;
  const [row] = await db
    .insert(promoCodes)
    .values({ code, kind: "percent", percent: 10, ...overrides })
    .returning();
  return row!;
}
