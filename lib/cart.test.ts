import { describe, expect, it } from "vitest";
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

describe("cart", () => {
  it("prices from the catalogue in minor units and skips unknown products", () => {
    const priced = priceCart({
      lines: [
        { slug: "olive-oil", quantity: 2 },
        { slug: "gone", quantity: 1 },
      ],
    });
    expect(priced.totalMinor).toBe(8500);
    expect(priced.itemCount).toBe(2);
    expect(priced.unavailable).toEqual(["gone"]);
  });

  it("merges lines and refuses more than the per-line maximum", () => {
    const one = addToCart({ id: "c1", lines: [] }, "saffron", 3);
    // The cart keeps its id: it is the same cart, with another line.
    expect(one).toEqual({ ok: true, cart: { id: "c1", lines: [{ slug: "saffron", quantity: 3 }] } });
    const full = addToCart({ id: "c1", lines: [{ slug: "saffron", quantity: MAX_QUANTITY }] }, "saffron", 1);
    expect(full.ok).toBe(false);
  });

  it("refuses more lines than fit the session cookie", () => {
    const lines = Array.from({ length: MAX_LINES }, (_, i) => ({ slug: `p${i}`, quantity: 1 }));
    expect(addToCart({ id: "c1", lines }, "saffron", 1).ok).toBe(false);
  });

  it("gives every new cart an id of its own", () => {
    expect(newCart().id).not.toBe(newCart().id);
    expect(newCart().lines).toEqual([]);
  });

  it("sets and removes lines", () => {
    const cart = { id: "c1", lines: [{ slug: "saffron", quantity: 1 }] };
    expect(setQuantity(cart, "saffron", 4)).toEqual({
      ok: true,
      cart: { id: "c1", lines: [{ slug: "saffron", quantity: 4 }] },
    });
    expect(setQuantity(cart, "olive-oil", 4).ok).toBe(false);
    expect(removeFromCart(cart, "saffron")).toEqual({ id: "c1", lines: [] });
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
