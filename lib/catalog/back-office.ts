import "server-only";
import { and, asc, count, desc, eq, ilike, inArray, isNotNull, lte, or, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../db/client";
import { catalogEvents, orderLines, orders, productPictures, products, type ProductRow } from "../db/schema";
import { parseListQuery, searchTextSchema } from "../list-query";
import { westernDigits } from "../money";
import { notArchived } from "./deletion";
import { MAX_STOCK, type StockChange } from "./editing";
import { imageUrl, type Picture } from "./products";
import { holding, LOW_STOCK } from "./stock";

/**
 * The back office's view of the catalogue (app/admin/products): the list with its search and filters, one product
 * with its pictures and audit, and the stock adjustment form's rules. Reads the database itself, never the
 * storefront's cache. Every function expects its caller to have checked the admin (lib/admin/auth.ts).
 */

/**
 * The list's filters: hidden products, sold out (none available now), low stock (1 to {@link LOW_STOCK} available),
 * archived (lib/catalog/deletion.ts; the other views leave archived products out).
 */
export const PRODUCT_FILTERS = ["hidden", "sold_out", "low_stock", "archived"] as const;

/** The most products the list shows at once; a larger catalogue is narrowed by the search. */
const PRODUCT_LIST_LIMIT = 200;

/**
 * The list's query string: `filter` (one of {@link PRODUCT_FILTERS}) and `q` (part of a name, in either language, or
 * of a slug). A value that cannot be read is dropped and named in `ignored`, so the page can say so.
 */
const listQuerySchema = z.object({
  filter: z.enum(PRODUCT_FILTERS).optional(),
  q: searchTextSchema(200).optional(),
});
export type ProductListQuery = z.infer<typeof listQuerySchema>;

/** Reads the list's query string; see {@link listQuerySchema}. */
export function parseProductListQuery(params: Record<string, string | string[] | undefined>): {
  query: ProductListQuery;
  ignored: string[];
} {
  return parseListQuery(listQuerySchema, params);
}

/** A product as the back office lists it. */
export interface ProductListItem {
  id: number;
  slug: string;
  nameEn: string;
  nameAr: string;
  priceMinor: number;
  visible: boolean;
  /** Archived (lib/catalog/deletion.ts): listed only under the `archived` filter. */
  archived: boolean;
  /** Units on hand, or `null` when stock is not counted. */
  stock: number | null;
  /** On hand less what unpaid checkouts hold (never below 0), or `null` when not counted. */
  available: number | null;
  /** The first picture's small size, if any. */
  thumbnail: string | null;
}

/** The units unpaid checkouts hold now, per product, as a subquery (`product_id`, `held`): lib/catalog/stock.ts's rule. */
function heldNow(db: Db, now: Date) {
  const live = db.select({ id: orders.id }).from(orders).where(holding(now));
  return db
    .select({ productId: orderLines.productId, held: sql<number>`sum(${orderLines.quantity})::int`.as("held") })
    .from(orderLines)
    .where(and(inArray(orderLines.orderId, live), isNotNull(orderLines.productId)))
    .groupBy(orderLines.productId)
    .as("held_now");
}

/** A search term as a `LIKE` pattern that matches it anywhere, its wildcards taken literally. */
const containing = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The catalogue as the back office lists it, in the storefront's order (sort order, then id), at most
 * {@link PRODUCT_LIST_LIMIT}; `total` says how many match. Archived products only under their own filter. Reads only.
 */
export async function listProductsForAdmin(
  db: Db,
  query: ProductListQuery,
  now = new Date(),
): Promise<{ products: ProductListItem[]; total: number }> {
  const held = heldNow(db, now);
  const available = sql<number>`(${products.stock} - coalesce(${held.held}, 0))`;
  const parts: (SQL | undefined)[] = [query.filter === "archived" ? isNotNull(products.archivedAt) : notArchived];
  if (query.filter === "hidden") parts.push(eq(products.visible, false));
  if (query.filter === "sold_out") parts.push(and(isNotNull(products.stock), lte(available, 0)));
  if (query.filter === "low_stock")
    parts.push(and(isNotNull(products.stock), sql`${available} between 1 and ${LOW_STOCK}`));
  if (query.q) {
    const pattern = containing(westernDigits(query.q));
    parts.push(or(ilike(products.nameEn, pattern), ilike(products.nameAr, pattern), ilike(products.slug, pattern)));
  }
  const where = and(...parts);
  const [rows, [total]] = await Promise.all([
    db
      .select({ product: products, held: held.held })
      .from(products)
      .leftJoin(held, eq(held.productId, products.id))
      .where(where)
      .orderBy(asc(products.sortOrder), asc(products.id))
      .limit(PRODUCT_LIST_LIMIT),
    db.select({ n: count() }).from(products).leftJoin(held, eq(held.productId, products.id)).where(where),
  ]);
  const ids = rows.map(({ product }) => product.id);
  const thumbnails =
    ids.length === 0
      ? []
      : await db
          .selectDistinctOn([productPictures.productId], {
            productId: productPictures.productId,
            small: productPictures.small,
          })
          .from(productPictures)
          .where(inArray(productPictures.productId, ids))
          .orderBy(productPictures.productId, asc(productPictures.position));
  const thumbnailOf = new Map(thumbnails.map((row) => [row.productId, imageUrl(row.small)]));
  return {
    total: total?.n ?? 0,
    products: rows.map(({ product, held: units }) => ({
      id: product.id,
      slug: product.slug,
      nameEn: product.nameEn,
      nameAr: product.nameAr,
      priceMinor: product.priceMinor,
      visible: product.visible,
      archived: product.archivedAt !== null,
      stock: product.stock,
      available: product.stock === null ? null : Math.max(0, product.stock - (units ?? 0)),
      thumbnail: thumbnailOf.get(product.id) ?? null,
    })),
  };
}

/** Whether the catalogue has no product at all (the list then says how to start one). */
export async function catalogueIsEmpty(db: Db): Promise<boolean> {
  const [row] = await db.select({ id: products.id }).from(products).limit(1);
  return row === undefined;
}

/** A stored picture of a product, by its position. */
export interface ProductPicture extends Picture {
  position: number;
}

/** One change of the catalogue, as its audit shows it. */
export interface CatalogChange {
  id: number;
  type: (typeof catalogEvents.$inferSelect)["type"];
  by: string;
  at: Date;
  data: Record<string, unknown>;
}

/** The audit shows a product's last this many changes. */
export const AUDIT_LIMIT = 100;

/**
 * One product as the back office edits it: its row, its pictures in order, what is available now, and its last
 * {@link AUDIT_LIMIT} changes, newest first. `undefined` for no such product. Reads only.
 */
export async function productForAdmin(
  db: Db,
  id: number,
  now = new Date(),
): Promise<
  { product: ProductRow; pictures: ProductPicture[]; available: number | null; changes: CatalogChange[] } | undefined
> {
  const held = heldNow(db, now);
  const [[row], pictures, changes] = await Promise.all([
    db
      .select({ product: products, held: held.held })
      .from(products)
      .leftJoin(held, eq(held.productId, products.id))
      .where(eq(products.id, id)),
    db.select().from(productPictures).where(eq(productPictures.productId, id)).orderBy(asc(productPictures.position)),
    db
      .select()
      .from(catalogEvents)
      .where(eq(catalogEvents.productId, id))
      .orderBy(desc(catalogEvents.at), desc(catalogEvents.id))
      .limit(AUDIT_LIMIT),
  ]);
  if (!row) return undefined;
  const { product } = row;
  return {
    product,
    pictures: pictures.map((picture) => ({
      position: picture.position,
      large: imageUrl(picture.large),
      small: imageUrl(picture.small),
    })),
    available: product.stock === null ? null : Math.max(0, product.stock - (row.held ?? 0)),
    changes: changes.map(({ id: eventId, type, by, at, data }) => ({ id: eventId, type, by, at, data })),
  };
}

/** A product id as a URL or a form carries it; `undefined` when it cannot be one. */
export function parseProductId(value: unknown): number | undefined {
  const text = typeof value === "string" ? value.trim() : "";
  if (!/^[1-9]\d{0,14}$/.test(text)) return undefined;
  const id = Number(text);
  return Number.isSafeInteger(id) ? id : undefined;
}

/** The stock form's ways of changing stock: by a signed amount, to a count, or no longer counted. */
export const STOCK_MODES = ["change", "set", "untracked"] as const;

/** What can be wrong with a stock adjustment: keys of `admin.products.stock.problems`. */
export type StockFormProblem = "changeInvalid" | "countInvalid" | "reasonMissing" | "reasonTooLong" | "reasonControl";

const stockFieldsSchema = z.object({
  mode: z.enum(STOCK_MODES).catch("change"),
  amount: z.string().default(""),
  reason: z
    .string()
    .default("")
    .transform((value) => value.trim())
    .pipe(
      z
        .string()
        .min(1, "reasonMissing" satisfies StockFormProblem)
        .max(200, "reasonTooLong" satisfies StockFormProblem)
        .refine((value) => !/\p{Cc}/u.test(value), "reasonControl" satisfies StockFormProblem),
    ),
});

/** The stock form's fields as typed (kept on the form when it is refused). */
export type StockFormValues = { mode?: string; amount?: string; reason?: string };

/**
 * The stock adjustment form (fields `mode`, `amount`, `reason`) made a {@link StockChange}: `change` takes a signed
 * whole number other than zero (`+10`, `-2`, `−2` with the minus sign, `10`, Arabic digits); `set` a count from 0 to
 * {@link MAX_STOCK}; `untracked` stops counting (`amount` is ignored). The reason is required, at most 200 characters.
 * An unknown mode reads as `change`.
 * @returns the change and the reason, or the problem of each field that has one.
 */
export function parseStockForm(
  values: StockFormValues,
):
  | { ok: true; change: StockChange; reason: string }
  | { ok: false; problems: Partial<Record<"amount" | "reason", StockFormProblem>> } {
  const parsed = stockFieldsSchema.safeParse(values);
  const problems: Partial<Record<"amount" | "reason", StockFormProblem>> = {};
  if (!parsed.success) problems.reason = parsed.error.issues[0]!.message as StockFormProblem;
  const mode = parsed.success ? parsed.data.mode : (STOCK_MODES.find((m) => m === values.mode) ?? "change");
  let change: StockChange = { set: null };
  if (mode !== "untracked") {
    const text = westernDigits(values.amount ?? "")
      .replace(/[\s\u200e\u200f\u061c]/g, "")
      .replace(/^\u2212/, "-");
    const number = (mode === "set" ? /^\d{1,7}$/ : /^[+-]?\d{1,7}$/).test(text) ? Number(text) : NaN;
    if (mode === "set" && number >= 0 && number <= MAX_STOCK) change = { set: number };
    else if (mode === "change" && number !== 0 && Math.abs(number) <= MAX_STOCK) change = { add: number };
    else problems.amount = mode === "set" ? "countInvalid" : "changeInvalid";
  }
  if (!parsed.success || problems.amount) return { ok: false, problems };
  return { ok: true, change, reason: parsed.data.reason };
}

/** A product the stock needs a look at: sold out or low ({@link LOW_STOCK} or fewer available now). */
export interface StockAlert {
  id: number;
  nameEn: string;
  nameAr: string;
  /** Available now: on hand less what unpaid checkouts hold (0: sold out). */
  available: number;
}

/**
 * The catalogue's stock alerts, as the product list's `sold_out` and `low_stock` filters count them (hidden products
 * included, as there; archived ones not): how many products are sold out and how many are low, and the `limit` with the fewest
 * available, sold out first. One query. Reads only.
 */
export async function stockAlerts(
  db: Db,
  { limit = 5, now = new Date() }: { limit?: number; now?: Date } = {},
): Promise<{ soldOut: number; low: number; products: StockAlert[] }> {
  const held = heldNow(db, now);
  const available = sql<number>`greatest(${products.stock} - coalesce(${held.held}, 0), 0)`;
  const rows = await db
    .select({
      id: products.id,
      nameEn: products.nameEn,
      nameAr: products.nameAr,
      available: sql<number>`${available}::int`,
      soldOut: sql<number>`(count(*) filter (where ${available} = 0) over ())::int`,
      low: sql<number>`(count(*) filter (where ${available} > 0) over ())::int`,
    })
    .from(products)
    .leftJoin(held, eq(held.productId, products.id))
    .where(
      and(notArchived, isNotNull(products.stock), sql`${products.stock} - coalesce(${held.held}, 0) <= ${LOW_STOCK}`),
    )
    .orderBy(sql`${available}`, asc(products.sortOrder), asc(products.id))
    .limit(limit);
  return {
    soldOut: rows[0]?.soldOut ?? 0,
    low: rows[0]?.low ?? 0,
    products: rows.map(({ id, nameEn, nameAr, available: left }) => ({ id, nameEn, nameAr, available: left })),
  };
}
