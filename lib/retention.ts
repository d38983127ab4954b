import "server-only";
import { and, desc, isNotNull, lt, notInArray } from "drizzle-orm";
import { deleteOldSignInAttempts } from "./admin/sign-in-attempts";
import { deleteUnusedImages } from "./catalog/pictures";
import type { Db } from "./db/client";
import { catalogImports, paymentLists, signInLinks } from "./db/schema";
import { deleteOldPromoMisses } from "./promo-codes/guesses";

/**
 * How long the shop keeps what it no longer needs, and the daily job's clean-up (app/api/cron/expire-orders/route.ts).
 * Orders, their events and the catalogue's audit are the shop's records and are never deleted; what goes is what was
 * only kept to finish a task (docs/back-office.md, "What the shop deletes, and when").
 */

const DAY_MS = 24 * 60 * 60_000;

/**
 * A catalogue CSV uploaded to the import: 30 days, long enough to come back to an import's report; the products it
 * changed keep its id and what changed in their audit rows.
 */
export const CATALOG_IMPORTS_KEPT_MS = 30 * DAY_MS;

/**
 * A list of payments given to the reconciliation: 90 days, a quarter's bookkeeping; the orders it marked paid keep its
 * id in their `marked_paid` event. The newest applied list is always kept: it says when the shop was last reconciled.
 */
export const PAYMENT_LISTS_KEPT_MS = 90 * DAY_MS;

/**
 * A sign-in link request, used or not, after it expired: a day. It expires when it leaves the window of the request
 * limits (both `LINK_TTL_MS` after the request, lib/admin/sign-in-links.ts), so no limit reads it by then.
 */
export const SIGN_IN_LINKS_KEPT_AFTER_EXPIRY_MS = DAY_MS;

/** What one clean-up deleted, by kind. */
export interface Pruned {
  catalogImports: number;
  paymentLists: number;
  signInLinks: number;
  signInAttempts: number;
  promoCodeMisses: number;
  images: number;
}

/**
 * Deletes what is past its time at `now`: catalogue imports, payment lists, sign-in links and sign-in attempts (see
 * the periods above; sign-in attempts, lib/admin/sign-in-attempts.ts), wrong promo codes tried once they are older
 * than their budget's window (lib/promo-codes/guesses.ts), and stored images no product shows. Each kind
 * in a statement of its own; safe to run concurrently and repeatedly.
 * @returns how many rows of each kind it deleted.
 * @throws the database's error when it cannot delete (what was deleted before stays deleted).
 */
export async function pruneOldData(db: Db, now = new Date()): Promise<Pruned> {
  const before = (keptMs: number) => new Date(now.getTime() - keptMs);
  const imports = await db.delete(catalogImports).where(lt(catalogImports.createdAt, before(CATALOG_IMPORTS_KEPT_MS)));
  const newestApplied = db
    .select({ id: paymentLists.id })
    .from(paymentLists)
    .where(isNotNull(paymentLists.appliedAt))
    .orderBy(desc(paymentLists.appliedAt))
    .limit(1);
  const lists = await db
    .delete(paymentLists)
    .where(and(lt(paymentLists.createdAt, before(PAYMENT_LISTS_KEPT_MS)), notInArray(paymentLists.id, newestApplied)));
  const links = await db
    .delete(signInLinks)
    .where(lt(signInLinks.expiresAt, before(SIGN_IN_LINKS_KEPT_AFTER_EXPIRY_MS)));
  return {
    catalogImports: imports.rowCount ?? 0,
    paymentLists: lists.rowCount ?? 0,
    signInLinks: links.rowCount ?? 0,
    signInAttempts: await deleteOldSignInAttempts(db, now),
    promoCodeMisses: await deleteOldPromoMisses(db, now),
    images: await deleteUnusedImages(db),
  };
}
