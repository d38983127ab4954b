import { describe, expect, it } from "vitest";
import { addToCart, priceCart, MAX_LINES, MAX_QUANTITY, quantitySchema, removeFromCart, setQuantity } from "./cart";

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
    const one = addToCart({ lines: [] }, "saffron", 3);
    expect(one).toEqual({ ok: true, cart: { lines: [{ slug: "saffron", quantity: 3 }] } });
    const full = addToCart({ lines: [{ slug: "saffron", quantity: MAX_QUANTITY }] }, "saffron", 1);
    expect(full.ok).toBe(false);
  });

  it("refuses more lines than fit the session cookie", () => {
    const lines = Array.from({ length: MAX_LINES }, (_, i) => ({ slug: `p${i}`, quantity: 1 }));
    expect(addToCart({ lines }, "saffron", 1).ok).toBe(false);
  });

  it("sets and removes lines", () => {
    const cart = { lines: [{ slug: "saffron", quantity: 1 }] };
    expect(setQuantity(cart, "saffron", 4)).toEqual({ ok: true, cart: { lines: [{ slug: "saffron", quantity: 4 }] } });
    expect(setQuantity(cart, "olive-oil", 4).ok).toBe(false);
    expect(removeFromCart(cart, "saffron")).toEqual({ lines: [] });
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
