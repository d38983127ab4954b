import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createTestProduct } from "../testing/catalogue";
import { setUpTestDatabase } from "../testing/db";
import { products } from "./db/schema";
import {
  addToCart,
  newCart,
  priceCart,
  MAX_LINES,
  MAX_QUANTITY,
  quantitySchema,
  removeFromCart,
  setQuantity,
} from "./cart";

/** Products as the cart sees them: an id, a price in minor units, and how many can be bought (null: not counted). */
const saffron = { id: 1, priceMinor: 1_875, available: null };
const kilim = { id: 2, priceMinor: 45_000, available: 2 };

describe("cart", () => {
  it("adds at the catalogue's price, merges lines and refuses more than the per-line maximum", () => {
    const one = addToCart({ id: "c1", lines: [] }, saffron, 3);
    // The cart keeps its id: it is the same cart, with another line.
    expect(one).toEqual({ ok: true, cart: { id: "c1", lines: [{ productId: 1, quantity: 3, seenMinor: 1_875 }] } });
    const more = addToCart(one.ok ? one.cart : newCart(), saffron, 2);
    expect(more.ok && more.cart.lines).toEqual([{ productId: 1, quantity: 5, seenMinor: 1_875 }]);
    const full = addToCart(
      { id: "c1", lines: [{ productId: 1, quantity: MAX_QUANTITY, seenMinor: 1_875 }] },
      saffron,
      1,
    );
    expect(full).toMatchObject({ ok: false, error: { key: "lineFull" } });
  });

  it("refuses more than the stock can cover: how many are left, or sold out", () => {
    expect(addToCart(newCart(), kilim, 3)).toMatchObject({
      ok: false,
      error: { key: "onlyLeft", values: { left: 2 } },
    });
    expect(addToCart(newCart(), { ...kilim, available: 0 }, 1)).toMatchObject({ ok: false, error: { key: "soldOut" } });
    expect(addToCart(newCart(), kilim, 2).ok).toBe(true);
  });

  it("refuses more lines than fit the session cookie", () => {
    const lines = Array.from({ length: MAX_LINES }, (_, i) => ({ productId: 100 + i, quantity: 1, seenMinor: 100 }));
    expect(addToCart({ id: "c1", lines }, saffron, 1)).toMatchObject({ ok: false, error: { key: "cartFull" } });
  });

  it("gives every new cart an id of its own", () => {
    expect(newCart().id).not.toBe(newCart().id);
    expect(newCart().lines).toEqual([]);
  });

  it("sets and removes lines", () => {
    const cart = { id: "c1", lines: [{ productId: 1, quantity: 1, seenMinor: 1_875 }] };
    expect(setQuantity(cart, saffron, 4)).toEqual({
      ok: true,
      cart: { id: "c1", lines: [{ productId: 1, quantity: 4, seenMinor: 1_875 }] },
    });
    expect(setQuantity(cart, kilim, 1)).toMatchObject({ ok: false, error: { key: "lineGone" } });
    expect(removeFromCart(cart, 1)).toEqual({ id: "c1", lines: [] });
  });

  it.each([
    ["0", "quantityMin"],
    ["-1", "quantityMin"],
    ["1.5", "quantityWhole"],
    ["1e3", "quantityNotNumber"],
    ["Infinity", "quantityNotNumber"],
    ["abc", "quantityNotNumber"],
    ["", "quantityNotNumber"],
    ["21", "quantityMax"],
    ["99999999999999999999", "quantityMax"],
  ])("refuses quantity %j with %s", (value, key) => {
    const result = quantitySchema.safeParse(value);
    expect(result.error?.issues[0]?.message).toBe(key);
  });

  it("accepts whole quantities, spaces trimmed", () => {
    expect(quantitySchema.parse(" 3 ")).toBe(3);
    expect(quantitySchema.parse("20")).toBe(20);
  });
});

describe("priceCart, from the database", () => {
  const t = setUpTestDatabase();

  it("charges the catalogue's price in minor units, says when it changed, and never charges a hidden or gone product", async () => {
    const oil = await createTestProduct(t.db, { priceMinor: 4_250 });
    const hidden = await createTestProduct(t.db, { visible: false, nameEn: "Old stock" });
    const cart = {
      lines: [
        { productId: oil, quantity: 2, seenMinor: 4_000 },
        { productId: hidden, quantity: 1, seenMinor: 100 },
        { productId: 999_999, quantity: 1, seenMinor: 100 },
      ],
    };
    const priced = await priceCart(t.db, cart);
    expect(priced.totalMinor).toBe(8_500);
    expect(priced.itemCount).toBe(2);
    expect(priced.lines[0]).toMatchObject({ quantity: 2, totalMinor: 8_500, seenMinor: 4_000 });
    expect(priced.unavailable).toEqual([
      { productId: hidden, name: { en: "Old stock", ar: expect.any(String) } },
      { productId: 999_999 },
    ]);

    await t.db.update(products).set({ priceMinor: 4_000 }).where(eq(products.id, oil));
    expect((await priceCart(t.db, cart)).lines[0]).not.toHaveProperty("seenMinor");
  });

  it("says how many can be bought when the stock cannot cover a line", async () => {
    const kilim = await createTestProduct(t.db, { stock: 1 });
    const priced = await priceCart(t.db, { lines: [{ productId: kilim, quantity: 3, seenMinor: 1_000 }] });
    expect(priced.lines[0]).toMatchObject({ quantity: 3, available: 1 });
  });
});
