import "server-only";
import { and, eq, isNotNull, isNull } from "drizzle-orm";
import type { Db } from "../db/client";
import { lockRow } from "../db/edits";
import { describeDbFailure } from "../db/errors";
import { productPictures, products } from "../db/schema";
import { recordCatalogEvent } from "./editing";
import { deleteUnusedImages } from "./pictures";

/**
 * Deleting products, and archiving those that cannot be deleted. A product no order names is deleted with its pictures
 * (their images too, when no other product shows them). A product that orders name stays in the database, because
 * those orders' lines reference it, and is archived instead: hidden from the shop, and out of the back office's list,
 * the catalogue's export and the stock alerts, while its orders keep showing it as sold. The database decides which:
 * the order lines' foreign key refuses the delete, in the same statement, so a checkout that names the product at the
 * same moment either commits first (the product is archived) or finds it gone (its claim fails and nothing is sold).
 */

/** What "Delete" did: `deleted`; `archived` (orders name it); `not_found` (no such product, or deleted meanwhile). */
export type DeleteOutcome = "deleted" | "archived" | "not_found";

/**
 * Deletes a product, or archives it when an order names it, in one transaction with its audit row (`deleted`, with
 * its slug and names, which the audit keeps after the product is gone; or `archived`). An archived product is archived
 * again as a no-op (`archived`, no new audit row).
 * @param by the admin's e-mail.
 * @throws the database's error for anything but an order naming the product.
 */
export async function deleteProduct(db: Db, id: number, by: string): Promise<DeleteOutcome> {
  return db.transaction(async (tx) => {
    // Locked first, as the checkout's claim locks the products it sells: the two take turns.
    const before = await lockRow(tx, products, id);
    if (!before) return "not_found";
    if (before.archivedAt) return "archived";
    let hashes: string[];
    try {
      // In a savepoint: when the order lines' foreign key refuses the delete, the pictures come back with it.
      hashes = await tx.transaction(async (savepoint) => {
        const pictures = await savepoint.delete(productPictures).where(eq(productPictures.productId, id)).returning();
        await savepoint.delete(products).where(eq(products.id, id));
        return pictures.flatMap(({ large, small }) => [large, small]);
      });
    } catch (error) {
      if (describeDbFailure(error).code !== "23503") throw error;
      await tx
        .update(products)
        .set({ archivedAt: new Date(), visible: false, updatedAt: new Date() })
        .where(eq(products.id, id));
      await recordCatalogEvent(tx, id, "archived", by, { visible: before.visible });
      return "archived";
    }
    await recordCatalogEvent(tx, id, "deleted", by, {
      slug: before.slug,
      nameEn: before.nameEn,
      nameAr: before.nameAr,
    });
    await deleteUnusedImages(tx, hashes);
    return "deleted";
  });
}

/**
 * Brings an archived product back to the back office's list, still hidden (the merchant shows it when it is ready),
 * with its audit row (`restored`).
 * @returns whether it was archived; `not_found` for no such product.
 */
export async function restoreProduct(db: Db, id: number, by: string): Promise<boolean | "not_found"> {
  return db.transaction(async (tx) => {
    const [restored] = await tx
      .update(products)
      .set({ archivedAt: null, updatedAt: new Date() })
      .where(and(eq(products.id, id), isNotNull(products.archivedAt)))
      .returning({ id: products.id });
    if (restored) {
      await recordCatalogEvent(tx, id, "restored", by);
      return true;
    }
    const [exists] = await tx.select({ id: products.id }).from(products).where(eq(products.id, id));
    return exists ? false : "not_found";
  });
}

/** The condition "not archived", for every list of the catalogue the merchant works from. */
export const notArchived = isNull(products.archivedAt);
