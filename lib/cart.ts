import { z } from "zod";
import { MAX_LINES, MAX_QUANTITY } from "./cart-limits";
import { findProduct, type Product } from "./catalog";
import { multiply, sum, type MinorUnits } from "./money";
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

/** Schema of a product slug from a form: must name a product in the catalogue. */
export const productSlugSchema = z
  .string({ error: "productUnknown" satisfies ProblemKey })
  .max(100, "productUnknown" satisfies ProblemKey)
  .refine((slug) => findProduct(slug) !== undefined, "productUnknown" satisfies ProblemKey);

/** Values the cart's problem messages refer to. */
export const CART_LIMITS = { max: MAX_QUANTITY, lines: MAX_LINES } as const;

/**
 * The cart as the session cookie stores it: product slugs and quantities only, never names or prices (iron-session
 * cookies hold at most 4 KB, and a price from the client is never trusted). Anything else read back is dropped.
 */
export const cartSchema = z.object({
  // A cookie from before carts had ids reads as "" until the cart is next bought.
  id: z.string().max(64).default(""),
  lines: z
    .array(z.object({ slug: z.string().max(100), quantity: z.number().int().min(1).max(MAX_QUANTITY) }))
    .max(MAX_LINES),
});
export type Cart = z.infer<typeof cartSchema>;

export type CartChange = { ok: true; cart: Cart } | { ok: false; error: Problem };

/**
 * Adds `quantity` of a product to the cart (merging with an existing line).
 * @returns the new cart, or an error when the line would pass {@link MAX_QUANTITY} or the cart {@link MAX_LINES}.
 */
export function addToCart(cart: Cart, slug: string, quantity: number): CartChange {
  const existing = cart.lines.find((line) => line.slug === slug);
  if (existing) {
    const total = existing.quantity + quantity;
    if (total > MAX_QUANTITY) {
      return { ok: false, error: problem("lineFull", { have: existing.quantity, max: MAX_QUANTITY }) };
    }
    return {
      ok: true,
      cart: { ...cart, lines: cart.lines.map((line) => (line.slug === slug ? { slug, quantity: total } : line)) },
    };
  }
  if (cart.lines.length >= MAX_LINES) return { ok: false, error: problem("cartFull", { max: MAX_LINES }) };
  return { ok: true, cart: { ...cart, lines: [...cart.lines, { slug, quantity }] } };
}

/** Sets the quantity of a line already in the cart (an unknown line is an error, so stale pages say so). */
export function setQuantity(cart: Cart, slug: string, quantity: number): CartChange {
  if (!cart.lines.some((line) => line.slug === slug)) return { ok: false, error: problem("lineGone") };
  return {
    ok: true,
    cart: { ...cart, lines: cart.lines.map((line) => (line.slug === slug ? { slug, quantity } : line)) },
  };
}

/** Removes a product's line from the cart; removing what is not there changes nothing. */
export function removeFromCart(cart: Cart, slug: string): Cart {
  return { ...cart, lines: cart.lines.filter((line) => line.slug !== slug) };
}

/** A cart line priced from the catalogue. */
interface PricedLine {
  product: Product;
  quantity: number;
  /** Unit price × quantity, in minor units. */
  totalMinor: MinorUnits;
}
export interface PricedCart {
  lines: PricedLine[];
  totalMinor: MinorUnits;
  /** Total number of units. */
  itemCount: number;
  /** Slugs in the cookie that are no longer in the catalogue; left out of the price. */
  unavailable: string[];
}

/**
 * Prices a cart from the catalogue, in integer minor units. Products that left the catalogue are reported in
 * `unavailable` and not charged.
 */
export function priceCart(cart: Pick<Cart, "lines">): PricedCart {
  const lines: PricedLine[] = [];
  const unavailable: string[] = [];
  for (const line of cart.lines) {
    const product = findProduct(line.slug);
    if (!product) {
      unavailable.push(line.slug);
      continue;
    }
    lines.push({ product, quantity: line.quantity, totalMinor: multiply(product.priceMinor, line.quantity) });
  }
  return {
    lines,
    totalMinor: sum(lines.map((line) => line.totalMinor)),
    itemCount: lines.reduce((count, line) => count + line.quantity, 0),
    unavailable,
  };
}
