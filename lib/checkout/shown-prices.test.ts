import { describe, expect, it } from "vitest";
import type { PricedCart } from "../cart";
import type { Product } from "../catalog/products";
import { priceCheckout } from "./pricing";
import { priceChanges, shownPrices, shownPricesSchema } from "./shown-prices";

/** A priced cart of `lines`, as lib/cart.ts `priceCart` gives it (only what the comparison reads). */
function cartOf(lines: { id: number; quantity: number; priceMinor: number }[]): PricedCart {
  const priced = lines.map(({ id, quantity, priceMinor }) => ({
    product: { id, priceMinor, name: { en: `Product ${id}`, ar: `منتج ${id}` } } as Product,
    quantity,
    totalMinor: priceMinor * quantity,
  }));
  const totalMinor = priced.reduce((total, line) => total + line.totalMinor, 0);
  return { lines: priced, totalMinor, itemCount: 0, unavailable: [] };
}
const benghazi = { id: 2, name: { en: "Benghazi", ar: "بنغازي" }, feeMinor: 3_500, freeAboveMinor: 10_000 };

describe("shownPricesSchema", () => {
  it("reads what the page wrote", () => {
    const shown = shownPrices(cartOf([{ id: 7, quantity: 2, priceMinor: 1_875 }]), [benghazi]);
    expect(shownPricesSchema.parse(JSON.stringify(shown))).toEqual({ lines: [[7, 2, 1_875]], fees: [[2, 3_500]] });
  });

  it.each([
    ["missing", null],
    ["a file", new File(["{}"], "shown.json")],
    ["not JSON", "lines=7x2"],
    ["a negative price", JSON.stringify({ lines: [[7, 2, -1]], fees: [] })],
    ["a fractional price", JSON.stringify({ lines: [[7, 2, 18.75]], fees: [] })],
    ["a price as text", JSON.stringify({ lines: [[7, 2, "1875"]], fees: [] })],
    ["a quantity over the most", JSON.stringify({ lines: [[7, 21, 1_875]], fees: [] })],
    ["more lines than a cart holds", JSON.stringify({ lines: Array(21).fill([7, 1, 1]), fees: [] })],
    ["no fees", JSON.stringify({ lines: [] })],
    ["a NUL", "\u0000"],
  ])("refuses %s", (_, posted) => {
    expect(shownPricesSchema.safeParse(posted).success).toBe(false);
  });
});

describe("priceChanges", () => {
  const compare = (cart: PricedCart, zone: typeof benghazi | undefined, shown: ReturnType<typeof shownPrices>) =>
    priceChanges(cart, zone, priceCheckout(cart.totalMinor, zone), shown);

  it("finds nothing when the customer pays what the page showed, whichever city it offered is chosen", () => {
    const cart = cartOf([{ id: 7, quantity: 2, priceMinor: 1_875 }]);
    const tripoli = { ...benghazi, id: 1, feeMinor: 1_000 };
    const shown = shownPrices(cart, [tripoli, benghazi]);
    expect(compare(cart, benghazi, shown)).toEqual([]);
    expect(compare(cart, tripoli, shown)).toEqual([]);
    expect(compare(cart, undefined, shown)).toEqual([]); // pickup
  });

  it("names a raised price, and the fee it moves across the free-above total", () => {
    const shown = shownPrices(cartOf([{ id: 7, quantity: 2, priceMinor: 1_875 }]), [benghazi]);
    // 2 × 99.00 passes Benghazi's free-above 100.00: the fee goes from 35.00 to free.
    expect(compare(cartOf([{ id: 7, quantity: 2, priceMinor: 9_900 }]), benghazi, shown)).toEqual([
      { kind: "line", name: { en: "Product 7", ar: "منتج 7" }, fromMinor: 1_875, toMinor: 9_900 },
      { kind: "delivery", city: benghazi.name, fromMinor: 3_500, toMinor: 0 },
    ]);
  });

  it("calls the page outdated when its lines or the city chosen are not this checkout's", () => {
    const cart = cartOf([{ id: 7, quantity: 2, priceMinor: 1_875 }]);
    const outdated = [{ kind: "outdated" }];
    expect(compare(cart, undefined, shownPrices(cartOf([{ id: 7, quantity: 3, priceMinor: 1_875 }]), []))).toEqual(
      outdated,
    );
    expect(compare(cart, undefined, shownPrices(cartOf([]), []))).toEqual(outdated);
    const more = cartOf([
      { id: 7, quantity: 2, priceMinor: 1_875 },
      { id: 8, quantity: 1, priceMinor: 500 },
    ]);
    expect(compare(cart, undefined, shownPrices(more, []))).toEqual(outdated);
    expect(compare(cart, benghazi, shownPrices(cart, []))).toEqual(outdated);
  });
});

describe("priceChanges for a checkout paid in cash", () => {
  const cart = cartOf([{ id: 7, quantity: 2, priceMinor: 1_875 }]);
  const cash = (feeMinor: number, shown: ReturnType<typeof shownPrices>) =>
    priceChanges(cart, benghazi, priceCheckout(cart.totalMinor, benghazi, feeMinor), shown);

  it("finds nothing when the cash fee is the one shown, and names a cash fee changed since", () => {
    expect(cash(500, shownPrices(cart, [benghazi], 500))).toEqual([]);
    expect(cash(750, shownPrices(cart, [benghazi], 500))).toEqual([{ kind: "cash_fee", fromMinor: 500, toMinor: 750 }]);
    expect(cash(0, shownPrices(cart, [benghazi], 500))).toEqual([{ kind: "cash_fee", fromMinor: 500, toMinor: 0 }]);
  });

  it("calls the page outdated when it did not offer cash, and ignores the cash fee of a checkout paid online", () => {
    expect(cash(0, shownPrices(cart, [benghazi]))).toEqual([{ kind: "outdated" }]);
    const online = priceCheckout(cart.totalMinor, benghazi);
    expect(priceChanges(cart, benghazi, online, shownPrices(cart, [benghazi], 500))).toEqual([]);
  });
});

describe("priceChanges for a checkout with a promo code", () => {
  const cart = cartOf([{ id: 7, quantity: 2, priceMinor: 1_875 }]);
  const eid10 = { code: "EID10", kind: "percent", percent: 10, amountMinor: null } as const;
  const withPromo = (promo: typeof eid10 | undefined) => ({ ...shownPrices(cart, [benghazi]), promo });
  const charged = (promo: { code: string; kind: "percent"; percent: number; amountMinor: null }) =>
    priceChanges(cart, benghazi, priceCheckout(cart.totalMinor, benghazi, undefined, promo), withPromo(eid10));

  it("reads the code the page applied, and finds nothing when the discount is the one shown", () => {
    expect(shownPricesSchema.parse(JSON.stringify(withPromo(eid10))).promo).toEqual(eid10);
    expect(charged(eid10)).toEqual([]);
  });

  it("names a discount the merchant changed since the page applied the code", () => {
    // 5 % of 37.50 is 1.875, rounded down to 1.87; the page showed 10 %: 3.75.
    expect(charged({ ...eid10, percent: 5 })).toEqual([
      { kind: "discount", code: "EID10", fromMinor: 375, toMinor: 187 },
    ]);
  });

  it("ignores a code typed but never applied on the page, or another code than the one applied", () => {
    const paid = priceCheckout(cart.totalMinor, benghazi, undefined, eid10);
    expect(priceChanges(cart, benghazi, paid, withPromo(undefined))).toEqual([]);
    expect(charged({ ...eid10, code: "RAMADAN", percent: 5 })).toEqual([]);
  });
});
