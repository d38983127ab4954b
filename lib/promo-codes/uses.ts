import "server-only";
import { and, eq, inArray, not, sql } from "drizzle-orm";
import type { DbOrTx, Tx } from "../db/client";
import { orders, promoCodes, type PromoCodeRow } from "../db/schema";
import type { PromoCustomer } from "./check";
import { countedUse, sameCustomer, spentUse } from "./codes";

/**
 * A code's uses, held and spent, as the claim holds them and the back office counts them (the definition is
 * ./codes.ts's: counted from the orders that carry the code, never a counter). The claim's check is made under a lock
 * of the code's row, so of checkouts racing for its last uses, on any number of server instances, exactly as many as
 * are left carry it.
 */

/** Why the claim refuses a code: no uses left in all, or none left for this customer. */
export type PromoHoldRefusal = "used_up" | "customer_used_up";

/** The checkout a claim is for, by its browser session and fingerprint (lib/checkout/fingerprint.ts). */
export interface OwnCheckout {
  sessionId: string;
  fingerprint: string;
}

/**
 * The claim's check of a code's uses, in its transaction: locks the code's row (`for no key update`: the orders'
 * foreign key still reads it), then counts its uses — in all against `max_uses`, and this customer's against
 * `max_uses_per_customer`, the limits as the row has them now. Called after the checkout's and the address's (and for
 * cash the phone's) locks and before the products' rows (lib/catalog/stock.ts): one lock order everywhere. When it
 * passes, the order the claim inserts holds the use from its commit on.
 * @param customer the checkout's phone (normalised) and e-mail, for the limit per customer.
 * @param own this checkout: holds of its own earlier orders (a pending payment whose page is about to die, which the
 *   claim does not resume) are not counted against it — an order never counts its own checkout's hold against itself.
 * @returns `ok`, or why the code is refused.
 * @throws the database's error when it cannot read.
 */
export async function holdPromoUse(
  tx: Tx,
  code: Pick<PromoCodeRow, "id">,
  customer: PromoCustomer,
  now: Date,
  own?: OwnCheckout,
): Promise<"ok" | PromoHoldRefusal> {
  const [limits] = await tx
    .select({ maxUses: promoCodes.maxUses, perCustomer: promoCodes.maxUsesPerCustomer })
    .from(promoCodes)
    .where(eq(promoCodes.id, code.id))
    .for("no key update");
  if (!limits) throw new Error(`promo code ${code.id} does not exist`);
  const { maxUses, perCustomer } = limits;
  if (maxUses === null && perCustomer === null) return "ok";
  const ownHold = own
    ? and(not(spentUse), eq(orders.sessionId, own.sessionId), eq(orders.fingerprint, own.fingerprint))
    : undefined;
  const [row] = await tx
    .select({
      used: sql<number>`count(*)::int`,
      byCustomer: sql<number>`(count(*) filter (where ${sameCustomer(customer)}))::int`,
    })
    .from(orders)
    .where(and(eq(orders.promoCodeId, code.id), countedUse(now), ownHold ? not(ownHold) : undefined));
  if (maxUses !== null && row!.used >= maxUses) return "used_up";
  if (perCustomer !== null && row!.byCustomer >= perCustomer) return "customer_used_up";
  return "ok";
}

/** A code's uses at one instant: `used` (paid or confirmed) and `held` (by open orders); left = its limit − both. */
export interface PromoUses {
  used: number;
  held: number;
}

/**
 * The uses of codes at `now`, in one statement: for the back office's list and the merchant's home.
 * @param ids the codes' ids. @returns each code's uses by id; a code no order carries is absent (none used or held).
 * @throws the database's error when it cannot read.
 */
export async function promoCodeUses(
  db: DbOrTx,
  ids: readonly number[],
  now = new Date(),
): Promise<Map<number, PromoUses>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({
      id: orders.promoCodeId,
      used: sql<number>`(count(*) filter (where ${spentUse}))::int`,
      held: sql<number>`(count(*) filter (where not ${spentUse}))::int`,
    })
    .from(orders)
    .where(and(inArray(orders.promoCodeId, [...ids]), countedUse(now)))
    .groupBy(orders.promoCodeId);
  return new Map(rows.map((row) => [row.id!, { used: row.used, held: row.held }]));
}
