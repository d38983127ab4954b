import { count } from "drizzle-orm";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { setUpTestDatabase } from "../testing/db";
import { storePicture } from "./catalog/pictures";
import { catalogImports, images, paymentLists, promoCodeMisses, signInAttempts, signInLinks } from "./db/schema";
import {
  CATALOG_IMPORTS_KEPT_MS,
  PAYMENT_LISTS_KEPT_MS,
  pruneOldData,
  SIGN_IN_LINKS_KEPT_AFTER_EXPIRY_MS,
} from "./retention";
import { PROMO_MISSES_WINDOW_MS } from "./promo-codes/guesses";

/** The daily clean-up (lib/retention.ts) against a real database: what goes, and what stays. */

const t = setUpTestDatabase();
const DAY = 24 * 60 * 60_000;
const now = new Date("2026-11-28T03:00:00Z");
const ago = (ms: number) => new Date(now.getTime() - ms);
const ids = async (table: typeof catalogImports | typeof paymentLists) =>
  (await t.db.select({ id: table.id }).from(table)).map((row) => row.id).sort();

describe("the daily clean-up", () => {
  it("deletes imports, payment lists, sign-in links and wrong promo codes past their time, and images no product shows", async () => {
    const upload = { createdBy: "owner@shop.ly", content: "slug\n" };
    await t.db.insert(catalogImports).values([
      { id: "imp_old", ...upload, createdAt: ago(CATALOG_IMPORTS_KEPT_MS + 1) },
      { id: "imp_recent", ...upload, createdAt: ago(CATALOG_IMPORTS_KEPT_MS - 60_000) },
    ]);
    await t.db.insert(paymentLists).values([
      { id: "lst_old", ...upload, createdAt: ago(PAYMENT_LISTS_KEPT_MS + 2) },
      // The newest applied list stays, however old: it says when the shop was last reconciled.
      {
        id: "lst_last_applied",
        ...upload,
        createdAt: ago(PAYMENT_LISTS_KEPT_MS + 1),
        appliedAt: ago(PAYMENT_LISTS_KEPT_MS + 1),
      },
      {
        id: "lst_old_applied",
        ...upload,
        createdAt: ago(PAYMENT_LISTS_KEPT_MS + 3),
        appliedAt: ago(PAYMENT_LISTS_KEPT_MS + 3),
      },
      { id: "lst_recent", ...upload, createdAt: ago(60_000) },
    ]);
    const link = { email: "owner@shop.ly", ip: "10.0.0.1", requestedAt: ago(DAY) };
    await t.db.insert(signInLinks).values([
      { ...link, expiresAt: ago(SIGN_IN_LINKS_KEPT_AFTER_EXPIRY_MS + 1) },
      { ...link, expiresAt: ago(SIGN_IN_LINKS_KEPT_AFTER_EXPIRY_MS - 60_000) },
      { ...link, requestedAt: now, expiresAt: new Date(now.getTime() + 60_000) },
    ]);
    await t.db
      .insert(signInAttempts)
      .values({ email: "a@shop.ly", ip: "10.0.0.2", succeeded: false, at: ago(90 * DAY) });
    await t.db.insert(promoCodeMisses).values([
      { clientAddress: "10.0.0.3", at: ago(PROMO_MISSES_WINDOW_MS + 1) },
      { clientAddress: "10.0.0.3", at: ago(PROMO_MISSES_WINDOW_MS - 1_000) },
    ]);
    // An image stored before images were deleted with their last picture: nobody shows it.
    const png = await sharp({ create: { width: 20, height: 20, channels: 3, background: "#123456" } })
      .png()
      .toBuffer();
    const orphan = await storePicture(t.db, png);
    if ("refused" in orphan) throw new Error(orphan.refused);

    expect(await pruneOldData(t.db, now)).toEqual({
      catalogImports: 1,
      paymentLists: 2,
      signInLinks: 1,
      signInAttempts: 1,
      promoCodeMisses: 1,
      images: 2,
    });
    expect(await ids(catalogImports)).toEqual(["imp_recent"]);
    expect(await ids(paymentLists)).toEqual(["lst_last_applied", "lst_recent"]);
    const [[links], [pictures]] = await Promise.all([
      t.db.select({ n: count() }).from(signInLinks),
      t.db.select({ n: count() }).from(images),
    ]);
    expect([links!.n, pictures!.n]).toEqual([2, 0]);
    expect(await pruneOldData(t.db, now)).toEqual({
      catalogImports: 0,
      paymentLists: 0,
      signInLinks: 0,
      signInAttempts: 0,
      promoCodeMisses: 0,
      images: 0,
    });
  });
});
