import "server-only";
import { asc, eq, inArray, and, count } from "drizzle-orm";
import { z } from "zod";
import { getDb, type DbOrTx } from "../db/client";
import { productPictures, products, type ProductRow } from "../db/schema";
import type { Locale } from "../i18n/config";
import type { MinorUnits } from "../money";
import { MAX_QUANTITY } from "../cart-limits";
import { heldStock } from "./stock";

/**
 * The catalogue as the shop reads it: products from the database (the back office edits them), each with its
 * pictures and how many can be bought now, read from the database on every request: what a page shows is what the
 * checkout will charge. (Next.js's `"use cache"` needs `cacheComponents`, under which a server action's form posted
 * without JavaScript comes back without its result in Next.js 16; the shop works without JavaScript, so the
 * storefront reads one indexed query instead.)
 */

/** A product's picture: the URLs of its two sizes (lib/catalog/pictures.ts serves them). */
export interface Picture {
  large: string;
  small: string;
}

/** A product as pages show it and the cart prices it. Money in integer minor units (1/100 LYD). */
export interface Product {
  id: number;
  /** Its name in URLs: `/products/<slug>`. */
  slug: string;
  name: Record<Locale, string>;
  description: Record<Locale, string>;
  priceMinor: MinorUnits;
  kind: ProductRow["kind"];
  visible: boolean;
  pictures: Picture[];
  /** Units that can be bought now (on hand less what unpaid checkouts hold), or `null` when stock is not counted. */
  available: number | null;
  /** The most units of it one order may have: the merchant's, or the shop's most per line (lib/cart-limits.ts). */
  maxPerOrder: number;
  /** When unpaid checkouts hold some of its stock: the units on hand, and when the earliest of those holds ends. */
  hold?: { onHand: number; until: Date };
}

/**
 * When `quantity` of a product cannot be bought now only because unpaid checkouts hold it (on hand would cover it):
 * when the earliest of those holds ends, for "held by other checkouts — try again in N minutes". Otherwise undefined:
 * it can be bought, or it is short on hand (sold out).
 */
export function heldUntil(product: Pick<Product, "available" | "hold">, quantity: number): Date | undefined {
  if (product.available === null || quantity <= product.available || !product.hold) return undefined;
  return quantity <= product.hold.onHand ? product.hold.until : undefined;
}

/** The URL of a stored image by its hash (served by app/images/[file]/route.ts with immutable caching). */
export const imageUrl = (hash: string) => `/images/${hash}.webp`;

/** Products a page of the storefront's list shows. */
export const PAGE_SIZE = 24;

/** A `?page=` value: a whole number from 1 (leading zeros and signs are not page numbers). */
const pageSchema = z
  .string()
  .regex(/^[1-9][0-9]{0,8}$/)
  .transform(Number);

/**
 * The home page's `?page=` parameter, read as a page number.
 * @param value the parameter as the URL has it (absent, once, or repeated: the first counts).
 * @returns the page asked for (1 when absent), and `invalid` with what was typed when it is not a page number (the
 * page is then 1, and the page says so).
 */
export function parsePageParam(value: string | string[] | undefined): { page: number; invalid?: string } {
  const raw = Array.isArray(value) ? value[0] : value;
  if (raw === undefined || raw === "") return { page: 1 };
  const parsed = pageSchema.safeParse(raw);
  return parsed.success ? { page: parsed.data } : { page: 1, invalid: raw.slice(0, 40) };
}

/** One page of the storefront's list. */
export interface ProductPage {
  products: Product[];
  /** The page shown, from 1: the one asked for, or the last when that is beyond the end. */
  page: number;
  /** How many pages there are (0 when nothing is for sale; `page` is then 1). */
  pages: number;
  /** Whether the page asked for was beyond the last (the last is shown instead). */
  beyond: boolean;
}

/**
 * One page of the visible products, {@link PAGE_SIZE} a page, in the merchant's order (sort order, then id): one
 * statement on the `products_storefront` index for the page, and a count. A page beyond the last gives the last.
 * @param db the shop's database (`getDb()`). @param page from 1 ({@link parsePageParam}).
 */
export async function listProducts(db: DbOrTx, { page }: { page: number }): Promise<ProductPage> {
  const visiblePage = (n: number) =>
    db
      .select()
      .from(products)
      .where(eq(products.visible, true))
      .orderBy(asc(products.sortOrder), asc(products.id))
      .limit(PAGE_SIZE)
      .offset((n - 1) * PAGE_SIZE);
  // Page and count side by side: a page beyond the end (rare: an old link) costs one more statement, not every page.
  const [counted, asked] = await Promise.all([
    db.select({ total: count() }).from(products).where(eq(products.visible, true)),
    visiblePage(page),
  ]);
  const pages = Math.ceil((counted[0]?.total ?? 0) / PAGE_SIZE);
  const beyond = pages > 0 && page > pages;
  const rows = beyond ? await visiblePage(pages) : asked;
  return {
    products: await withPicturesAndStock(db, rows),
    page: pages === 0 ? 1 : Math.min(page, pages),
    pages,
    beyond,
  };
}

/**
 * One visible product by its slug, as its page shows it; `undefined` for an unknown or hidden one.
 */
export async function findProduct(slug: string): Promise<Product | undefined> {
  if (!/^[a-z0-9-]{1,100}$/.test(slug)) return undefined;
  const rows = await getDb()
    .select()
    .from(products)
    .where(and(eq(products.slug, slug), eq(products.visible, true)));
  return (await withPicturesAndStock(getDb(), rows))[0];
}

/**
 * Products by id as the database has them now, hidden ones included (a cart line's product may have been hidden):
 * what the cart and the checkout price, never from a cache.
 * @returns a map by id; an id with no product is absent.
 */
export async function productsForCheckout(db: DbOrTx, ids: readonly number[]): Promise<Map<number, Product>> {
  if (ids.length === 0) return new Map();
  // The ids are known, so the products and their pictures are read side by side: one round trip, not two.
  const [rows, pictures] = await Promise.all([
    db
      .select()
      .from(products)
      .where(inArray(products.id, [...ids])),
    picturesOf(db, ids),
  ]);
  return new Map((await withPicturesAndStock(db, rows, pictures)).map((product) => [product.id, product]));
}

/** The pictures of products, in each product's order. */
function picturesOf(db: DbOrTx, ids: readonly number[]) {
  return db
    .select()
    .from(productPictures)
    .where(inArray(productPictures.productId, [...ids]))
    .orderBy(asc(productPictures.productId), asc(productPictures.position));
}

/** Rows made {@link Product}s: their pictures in order, and what can be bought of each now. */
async function withPicturesAndStock(
  db: DbOrTx,
  rows: ProductRow[],
  known?: Awaited<ReturnType<typeof picturesOf>>,
): Promise<Product[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  const [pictures, held] = await Promise.all([
    known ?? picturesOf(db, ids),
    // Only the products whose stock is counted can have units held: the rest skip the sum over live orders' lines.
    heldStock(
      db,
      rows.filter((row) => row.stock !== null).map((row) => row.id),
    ),
  ]);
  return rows.map((row) => ({
    id: row.id,
    slug: row.slug,
    name: { en: row.nameEn, ar: row.nameAr },
    description: { en: row.descriptionEn, ar: row.descriptionAr },
    priceMinor: row.priceMinor,
    kind: row.kind,
    visible: row.visible,
    pictures: pictures
      .filter((picture) => picture.productId === row.id)
      .map((picture) => ({ large: imageUrl(picture.large), small: imageUrl(picture.small) })),
    maxPerOrder: row.maxPerOrder ?? MAX_QUANTITY,
    available: row.stock === null ? null : Math.max(0, row.stock - (held.get(row.id)?.units ?? 0)),
    ...(row.stock !== null && held.has(row.id) ? { hold: { onHand: row.stock, until: held.get(row.id)!.freeAt } } : {}),
  }));
}
