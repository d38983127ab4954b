import { z } from "zod";
import { MAX_LINES, MAX_QUANTITY } from "./cart-limits";
import { heldUntil, productsForCheckout, type Product } from "./catalog/products";
import type { DbOrTx } from "./db/client";
import { multiply, sum, type MinorUnits } from "./money";
import { minutesUntil } from "./time";
import { problem, type Problem, type ProblemKey } from "./problems";

export { MAX_LINES, MAX_QUANTITY };

/**
 * A new, empty cart with an id of its own. A cart gets a new id each time it is bought (emptied by a payment), so
 * buying the same things again later is a new checkout, while every tab and every resubmission of this cart is the
 * same one (lib/checkout/place-order.ts, the checkout's fingerprint).
 */
export function newCart(): Cart {
  return { id: crypto.randomUUID(), lines: [] };
}

/**
 * Schema of a quantity coming from a form: a whole number 1…{@link MAX_QUANTITY}. Issue messages are
 * {@link ProblemKey}s (translated by the page), one per fault.
 */
export const quantitySchema = z
  .string({ error: "quantityNotNumber" satisfies ProblemKey })
  .trim()
  // Digits only (a sign or decimals are caught by the rules below with their own messages); no "1e3", no "Infinity".
  .refine((text) => /^-?\d+(\.\d+)?$/.test(text), "quantityNotNumber" satisfies ProblemKey)
  .transform(Number)
  .pipe(
    z
      .number()
      .max(MAX_QUANTITY, "quantityMax" satisfies ProblemKey)
      .min(1, "quantityMin" satisfies ProblemKey)
      .int("quantityWhole" satisfies ProblemKey),
  );

/** Schema of a product id from a form: a positive whole number (whether it names a product is the database's to say). */
export const productIdSchema = z.coerce
  .number({ error: "productUnknown" satisfies ProblemKey })
  .int("productUnknown" satisfies ProblemKey)
  .positive("productUnknown" satisfies ProblemKey)
  .max(Number.MAX_SAFE_INTEGER, "productUnknown" satisfies ProblemKey);

/** Values the cart's problem messages refer to. */
export const CART_LIMITS = { max: MAX_QUANTITY, lines: MAX_LINES } as const;

/**
 * The cart as the session cookie stores it: product ids, quantities, and the price each line was added at — only to
 * tell the customer when it changed: the checkout charges the catalogue's price, never one from a cookie (iron-session
 * cookies hold at most 4 KB: no names, no pictures). Anything else read back is dropped.
 */
export const cartSchema = z.object({
  id: z.string().max(64),
  lines: z
    .array(
      z.object({
        productId: z.number().int().positive(),
        quantity: z.number().int().min(1).max(MAX_QUANTITY),
        /** The unit price when it was added, in minor units. */
        seenMinor: z.number().int().min(0),
      }),
    )
    .max(MAX_LINES),
});
export type Cart = z.infer<typeof cartSchema>;

export type CartChange = { ok: true; cart: Cart } | { ok: false; error: Problem };

/**
 * Adds `quantity` of a product to the cart at its current price (merging with an existing line).
 * @param product the product as the catalogue has it now (id, price, what is available).
 * @returns the new cart, or an error when the line would pass {@link MAX_QUANTITY}, the cart {@link MAX_LINES}, or
 *   the stock.
 */
export function addToCart(cart: Cart, product: CartProduct, quantity: number): CartChange {
  const existing = cart.lines.find((line) => line.productId === product.id);
  const total = (existing?.quantity ?? 0) + quantity;
  const most = mostOf(product);
  if (existing && total > most) {
    return { ok: false, error: problem("lineFull", { have: existing.quantity, max: most }) };
  }
  if (total > most) return { ok: false, error: problem("quantityMax", { max: most }) };
  if (!existing && cart.lines.length >= MAX_LINES) return { ok: false, error: problem("cartFull", { max: MAX_LINES }) };
  const short = stockProblem(product, total);
  if (short) return { ok: false, error: short };
  const line = { productId: product.id, quantity: total, seenMinor: product.priceMinor };
  return {
    ok: true,
    cart: existing
      ? { ...cart, lines: cart.lines.map((other) => (other.productId === product.id ? line : other)) }
      : { ...cart, lines: [...cart.lines, line] },
  };
}

/** Sets the quantity of a line already in the cart (an unknown line is an error, so stale pages say so). */
export function setQuantity(cart: Cart, product: CartProduct, quantity: number): CartChange {
  if (!cart.lines.some((line) => line.productId === product.id)) return { ok: false, error: problem("lineGone") };
  if (quantity > mostOf(product)) return { ok: false, error: problem("quantityMax", { max: mostOf(product) }) };
  const short = stockProblem(product, quantity);
  if (short) return { ok: false, error: short };
  const line = { productId: product.id, quantity, seenMinor: product.priceMinor };
  return {
    ok: true,
    cart: { ...cart, lines: cart.lines.map((other) => (other.productId === product.id ? line : other)) },
  };
}

/** Removes a product's line from the cart; removing what is not there changes nothing. */
export function removeFromCart(cart: Cart, productId: number): Cart {
  return { ...cart, lines: cart.lines.filter((line) => line.productId !== productId) };
}

/** What a cart change needs to know of a product: its id, its price now, and what is available. */
type CartProduct = Pick<Product, "id" | "priceMinor" | "available" | "hold"> & Partial<Pick<Product, "maxPerOrder">>;

/** The most units of a product one order may have: the merchant's for it, else {@link MAX_QUANTITY}. */
const mostOf = (product: CartProduct) => product.maxPerOrder ?? MAX_QUANTITY;

/**
 * What to tell a customer who wants `quantity` of a product its stock cannot cover — held by other checkouts (try
 * again in N minutes), only so many left, or sold out; nothing when it can.
 */
function stockProblem(product: CartProduct, quantity: number): Problem | undefined {
  if (product.available === null || quantity <= product.available) return undefined;
  const held = heldUntil(product, quantity);
  if (held) return problem("heldByOthers", { minutes: minutesUntil(held) });
  return product.available === 0 ? problem("soldOut") : problem("onlyLeft", { left: product.available });
}

/** A cart line priced from the catalogue as it is now. */
interface PricedLine {
  product: Product;
  quantity: number;
  /** Unit price × quantity, in minor units. */
  totalMinor: MinorUnits;
  /** The unit price the line was added at, when the catalogue's price has changed since (minor units). */
  seenMinor?: MinorUnits;
  /** How many can be bought now, when that is fewer than the line's quantity (0: sold out). */
  available?: number;
  /** The product's most per order, when the line has more (the merchant lowered it since): it cannot be bought so. */
  most?: number;
  /** When the line is short only because other checkouts hold the stock: when the earliest of those holds ends. */
  heldUntil?: Date;
}
export interface PricedCart {
  /** The lines that can be bought: their products are in the shop. */
  lines: PricedLine[];
  totalMinor: MinorUnits;
  /** Total number of units. */
  itemCount: number;
  /** Lines whose product was hidden or left the catalogue: shown as such, never charged. */
  unavailable: { productId: number; name?: Product["name"] }[];
}

/**
 * Prices a cart from the catalogue as the database has it now, in integer minor units — never from a cache, never
 * from the cookie. Lines whose product was hidden or is gone are reported in `unavailable` and not charged; a line
 * whose price changed since it was added, or that the stock cannot cover, says so.
 */
export async function priceCart(db: DbOrTx, cart: Pick<Cart, "lines">): Promise<PricedCart> {
  const found = await productsForCheckout(
    db,
    cart.lines.map((line) => line.productId),
  );
  const lines: PricedLine[] = [];
  const unavailable: PricedCart["unavailable"] = [];
  for (const line of cart.lines) {
    const product = found.get(line.productId);
    if (!product?.visible) {
      unavailable.push({ productId: line.productId, ...(product ? { name: product.name } : {}) });
      continue;
    }
    lines.push({
      product,
      quantity: line.quantity,
      totalMinor: multiply(product.priceMinor, line.quantity),
      ...(line.seenMinor !== product.priceMinor ? { seenMinor: line.seenMinor } : {}),
      ...(product.available !== null && product.available < line.quantity ? { available: product.available } : {}),
      ...(line.quantity > product.maxPerOrder ? { most: product.maxPerOrder } : {}),
      ...(heldUntil(product, line.quantity) ? { heldUntil: heldUntil(product, line.quantity) } : {}),
    });
  }
  return {
    lines,
    totalMinor: sum(lines.map((line) => line.totalMinor)),
    itemCount: lines.reduce((count, line) => count + line.quantity, 0),
    unavailable,
  };
}
