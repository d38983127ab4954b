import "server-only";
import { eq, sql } from "drizzle-orm";
import type { Messages } from "next-intl";
import { z } from "zod";
import type { Db, DbOrTx } from "../db/client";
import {
  catalogEvents,
  MAX_PRICE_MINOR,
  PRODUCT_KINDS,
  products,
  type CatalogEventType,
  type ProductRow,
} from "../db/schema";
import { parseTypedAmount, toWireAmount, westernDigits, type AmountProblem } from "../money";
import { MAX_QUANTITY } from "../cart-limits";
import { heldStock } from "./stock";
import { createRow, lockRow, unlessTaken, updateChanged, type Created } from "../db/edits";
import { typedText } from "../typed-text";

/**
 * How the back office changes the catalogue: the one schema a product's fields must pass (the product form and the
 * CSV import both use it), and the writes, each in one transaction with its audit row (`catalog_events`: who, when,
 * what changed).
 */

/**
 * What can be wrong with a product's field: a key of `admin.products.problems` in the message catalogues (both must
 * have it), translated by the page.
 */
export type ProductProblem = keyof Messages["admin"]["products"]["problems"];

/** The largest stock count the back office accepts. */
export const MAX_STOCK = 1_000_000;

/** Text a person typed (lib/typed-text.ts): trimmed, bounded; control characters refused (but line breaks in a description). */
const typed = (max: number, tooLong: ProductProblem, options?: { multiline?: boolean }) =>
  typedText<ProductProblem>(max, { tooLong, control: "textControl" }, options);

const requiredName = typed(200, "nameTooLong").pipe(z.string().min(1, "nameMissing" satisfies ProductProblem));

/** A whole number typed with Western or Arabic digits; `undefined` when it is not one. */
const wholeNumber = (value: string) => {
  const text = westernDigits(value).trim();
  return /^-?\d{1,9}$/.test(text) ? Number(text) : undefined;
};

/** A whole number from `min` to `max` as typed, or null when the field is empty; anything else is `problem`. */
const optionalCount = (min: number, max: number, problem: ProductProblem) =>
  z
    .string()
    .default("")
    .transform((value, ctx) => {
      if (!value.trim()) return null;
      const count = wholeNumber(value);
      if (count === undefined || count < min || count > max) {
        ctx.addIssue({ code: "custom", message: problem });
        return z.NEVER;
      }
      return count;
    });

const PRICE_PROBLEMS: Record<AmountProblem, ProductProblem> = {
  missing: "priceMissing",
  amount: "priceInvalid",
  amount_negative: "priceInvalid",
  amount_decimals: "priceDecimals",
  amount_ambiguous: "priceAmbiguous",
};

/**
 * A product's fields as the form and the CSV give them (text), made what the database stores: the price in minor units
 * from `12.50`, `12,50` or Arabic digits; `stock` empty for "not counted". Issue messages are {@link ProductProblem}s.
 */
export const productInputSchema = z.object({
  slug: z
    .string()
    .default("")
    .transform((value) => value.trim().toLowerCase())
    .pipe(
      z
        .string()
        .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, "slugInvalid" satisfies ProductProblem)
        .max(100, "slugInvalid" satisfies ProductProblem),
    ),
  nameEn: requiredName,
  nameAr: requiredName,
  descriptionEn: typed(5_000, "descriptionTooLong", { multiline: true }),
  descriptionAr: typed(5_000, "descriptionTooLong", { multiline: true }),
  price: z
    .string()
    .default("")
    .transform((value, ctx) => {
      const minor = parseTypedAmount(value);
      if (typeof minor === "number") {
        if (minor === 0) ctx.addIssue({ code: "custom", message: "priceZero" satisfies ProductProblem });
        else if (minor > MAX_PRICE_MINOR)
          ctx.addIssue({ code: "custom", message: "priceTooHigh" satisfies ProductProblem });
        return minor;
      }
      ctx.addIssue({ code: "custom", message: PRICE_PROBLEMS[minor] });
      return z.NEVER;
    }),
  kind: z.enum(PRODUCT_KINDS, "kindInvalid" satisfies ProductProblem).default("physical"),
  visible: z.boolean().default(true),
  stock: optionalCount(0, MAX_STOCK, "stockInvalid"),
  sortOrder: z
    .string()
    .default("0")
    .transform((value, ctx) => {
      const order = value.trim() ? wholeNumber(value) : 0;
      if (order === undefined) {
        ctx.addIssue({ code: "custom", message: "sortOrderInvalid" satisfies ProductProblem });
        return z.NEVER;
      }
      return order;
    }),
  maxPerOrder: optionalCount(1, MAX_QUANTITY, "maxPerOrderInvalid"),
});

/** A valid product: what the database stores (the price in minor units, the stock a count or null). */
export type ProductInput = z.output<typeof productInputSchema>;
/** The fields a product has, as the form and the CSV name them, in the CSV's column order. */
export const PRODUCT_FIELDS = productInputSchema.keyof().options;
export type ProductField = (typeof PRODUCT_FIELDS)[number];

/**
 * A product's fields as typed: what the product form shows and the CSV writes (the price as `12.50`, `visible` as
 * `true`/`false`, the stock `""` when not counted).
 */
export function typedFields(product: ProductRow): Record<ProductField, string> {
  return {
    slug: product.slug,
    nameEn: product.nameEn,
    nameAr: product.nameAr,
    descriptionEn: product.descriptionEn,
    descriptionAr: product.descriptionAr,
    price: toWireAmount(product.priceMinor),
    kind: product.kind,
    visible: String(product.visible),
    stock: product.stock === null ? "" : String(product.stock),
    sortOrder: String(product.sortOrder),
    maxPerOrder: product.maxPerOrder === null ? "" : String(product.maxPerOrder),
  };
}

/** The product's columns for an {@link ProductInput}. */
const columns = ({ price, ...rest }: ProductInput) => ({ ...rest, priceMinor: price });

/** Writes one audit row of the catalogue, in the caller's transaction. */
export async function recordCatalogEvent(
  db: DbOrTx,
  productId: number | null,
  type: CatalogEventType,
  by: string,
  data: Record<string, unknown> = {},
): Promise<void> {
  await db.insert(catalogEvents).values({ productId, type, by, data });
}

/** A product's slug is another product's: the one unique constraint a product's write can break. */
const slugTaken = () => "slugTaken" as const;

/**
 * Adds a product, with its audit row (`created`, its fields).
 * @param by the admin's e-mail. @returns its id, or `slugTaken`.
 * @throws the database's error for anything but a taken slug.
 */
export function createProduct(db: Db, input: ProductInput, by: string): Promise<Created<"slugTaken">> {
  const values = columns(input);
  return createRow(
    db,
    products,
    values,
    (tx, id) => recordCatalogEvent(tx, id, "created", by, { ...values }),
    slugTaken,
  );
}

/**
 * Changes a product's fields but its stock (stock moves by {@link adjustStock}, with a reason), with its audit row
 * (`edited`: each changed field, before and after; `hidden`/`shown` when only that changed). An edit that changes
 * nothing writes nothing.
 * @returns `ok` (with what changed), or `slugTaken`, or `not_found`, or `archived` (an archived product is restored first).
 */
export async function updateProduct(
  db: Db,
  id: number,
  input: Omit<ProductInput, "stock">,
  by: string,
): Promise<{ ok: true; changed: string[] } | { ok: false; problem: "slugTaken" | "not_found" | "archived" }> {
  return unlessTaken(
    db,
    async (tx) => {
      const before = await lockRow(tx, products, id);
      if (!before) return { ok: false as const, problem: "not_found" as const };
      if (before.archivedAt) return { ok: false as const, problem: "archived" as const };
      const changed = await updateChanged(tx, products, before, columns({ ...input, stock: before.stock }));
      const fields = Object.keys(changed);
      const type = fields.length === 1 && fields[0] === "visible" ? (input.visible ? "shown" : "hidden") : "edited";
      if (fields.length > 0) await recordCatalogEvent(tx, id, type, by, { changes: changed });
      return { ok: true as const, changed: fields };
    },
    slugTaken,
  );
}

/**
 * Hides a product from the shop, or shows it again, with its audit row. Carts holding a hidden product say so, and it
 * cannot be bought.
 * @returns whether it changed; `not_found` for no such product; `archived` for an archived one (lib/catalog/deletion.ts:
 *   restored first, then shown).
 */
export async function setProductVisible(
  db: Db,
  id: number,
  visible: boolean,
  by: string,
): Promise<boolean | "not_found" | "archived"> {
  return db.transaction(async (tx) => {
    const before = await lockRow(tx, products, id);
    if (!before) return "not_found" as const;
    if (before.archivedAt) return "archived" as const;
    if (before.visible === visible) return false;
    await tx.update(products).set({ visible, updatedAt: new Date() }).where(eq(products.id, id));
    await recordCatalogEvent(tx, id, visible ? "shown" : "hidden", by);
    return true;
  });
}

/** A change of a product's stock: units in (+) or out (−); a new count; or stop counting (`null`). */
export type StockChange = { add: number } | { set: number | null };

/**
 * Changes a product's stock on hand, with a reason, and its audit row (`stock_adjusted`: before, after, reason). A
 * product not counted yet starts being counted with `set`; `{ set: null }` stops counting it. Paid orders take their
 * units off by themselves (lib/catalog/stock.ts).
 * A change that lowers the count below the units open checkouts hold (`below_held`: those customers may still pay,
 * and what they pay for must be there), below 0 (`below_zero`: more taken out than there is), or raises it above
 * {@link MAX_STOCK} (`too_many`) is refused, and nothing is written. A raise is always welcome, also to a count still
 * below the held units. Stock below zero comes only from an oversold payment (lib/catalog/stock.ts).
 * @returns the stock before and after; `not_found`; `not_counted` for `add` on a product whose stock is not counted;
 *   `below_zero` or `too_many` (with the stock on hand), `below_held` (with the stock on hand and the units held).
 */
export async function adjustStock(
  db: Db,
  id: number,
  change: StockChange,
  reason: string,
  by: string,
): Promise<
  | { ok: true; before: number | null; after: number | null }
  | { ok: false; problem: "not_found" | "not_counted" }
  | { ok: false; problem: "below_zero" | "too_many"; stock: number }
  | { ok: false; problem: "below_held"; stock: number | null; held: number }
> {
  return db.transaction(async (tx) => {
    // Locked first, as the checkout's claim locks it before counting holds: no new hold commits until this one does.
    const before = await lockRow(tx, products, id);
    if (!before) return { ok: false as const, problem: "not_found" as const };
    if ("add" in change && before.stock === null) return { ok: false as const, problem: "not_counted" as const };
    const next = "add" in change ? before.stock! + change.add : change.set;
    if (next !== null && next > MAX_STOCK)
      return { ok: false as const, problem: "too_many" as const, stock: before.stock ?? 0 };
    const lowers = next !== null && (before.stock === null || next < before.stock);
    if (lowers) {
      const held = (await heldStock(tx, [id])).get(id)?.units ?? 0;
      if (held > 0 && next < held)
        return { ok: false as const, problem: "below_held" as const, stock: before.stock, held };
      if (next < 0) return { ok: false as const, problem: "below_zero" as const, stock: before.stock! };
    }
    const [updated] = await tx
      .update(products)
      .set({ stock: "add" in change ? sql`${products.stock} + ${change.add}` : change.set, updatedAt: new Date() })
      .where(eq(products.id, id))
      .returning({ stock: products.stock });
    const after = updated!.stock;
    await recordCatalogEvent(tx, id, "stock_adjusted", by, { before: before.stock, after, reason });
    return { ok: true as const, before: before.stock, after };
  });
}
