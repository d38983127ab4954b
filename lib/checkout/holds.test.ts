import { Pool } from "pg";
import { describe, expect, it } from "vitest";
import { addToCart, priceCart } from "../cart";
import { productsForCheckout } from "../catalog/products";
import { createDb, type Db } from "../db/client";
import { createTestProduct } from "../../testing/catalogue";
import { setUpTestDatabase } from "../../testing/db";
import { claimCheckout, type Claim } from "./claim";
import { priceCheckout } from "./pricing";

/**
 * Held stock has a budget: the claim against a real database (no payment service: a claimed order is `started` and
 * holds its units until its deadline, as a checkout on its way to the payment page does).
 */

const t = setUpTestDatabase();

/** The claim of a new checkout (a fresh browser session) of `quantity` units of each product, from `clientAddress`. */
async function claim(
  db: Db,
  lines: { productId: number; quantity: number }[],
  { clientAddress = "198.51.100.7", heldPerAddress = 10 } = {},
): Promise<Claim> {
  const cart = await priceCart(t.db, { lines: lines.map((line) => ({ ...line, seenMinor: 0 })) });
  return claimCheckout(db, {
    sessionId: crypto.randomUUID(),
    fingerprint: crypto.randomUUID(),
    clientAddress,
    budget: 1_000,
    heldPerAddress,
    locale: "en",
    paymentMethod: "online",
    details: { full_name: "Aisha Ben Ali", email: "aisha@example.ly" },
    cart,
    price: priceCheckout(cart.totalMinor, undefined),
  });
}

describe("the units one client address may hold", () => {
  it("lets one address's open checkouts hold at most the budget of counted units; others still buy", async () => {
    const honey = await createTestProduct(t.db, { stock: 20 });
    const dates = await createTestProduct(t.db, { stock: 20 });
    const attacker = "203.0.113.5";
    expect((await claim(t.db, [{ productId: honey, quantity: 6 }], { clientAddress: attacker })).kind).toBe("claimed");
    expect((await claim(t.db, [{ productId: dates, quantity: 4 }], { clientAddress: attacker })).kind).toBe("claimed");
    // 10 held across two products: one more unit of either is refused, saying how many it holds and when to retry.
    const refused = await claim(t.db, [{ productId: honey, quantity: 1 }], { clientAddress: attacker });
    expect(refused).toEqual({ kind: "too_much_held", held: 10, max: 10, retryAfterMinutes: 1 });
    // One cart alone over the budget is refused too (nothing held yet: held 0).
    expect(await claim(t.db, [{ productId: honey, quantity: 11 }], { clientAddress: "203.0.113.6" })).toMatchObject({
      kind: "too_much_held",
      held: 0,
    });
    // Another address buys the rest.
    expect((await claim(t.db, [{ productId: honey, quantity: 10 }], { clientAddress: "198.51.100.9" })).kind).toBe(
      "claimed",
    );
    expect((await productsForCheckout(t.db, [honey])).get(honey)!.available).toBe(4);
  });

  it("does not count products whose stock is not counted: nobody can run short of them", async () => {
    const uncounted = await createTestProduct(t.db, { stock: null });
    const counted = await createTestProduct(t.db, { stock: 20 });
    const address = "203.0.113.20";
    expect((await claim(t.db, [{ productId: uncounted, quantity: 20 }], { clientAddress: address })).kind).toBe(
      "claimed",
    );
    expect(
      (
        await claim(
          t.db,
          [
            { productId: uncounted, quantity: 20 },
            { productId: counted, quantity: 10 },
          ],
          { clientAddress: address },
        )
      ).kind,
    ).toBe("claimed");
  });

  it("holds on two instances racing: of 8 checkouts of 3 units from one address, exactly 3 are claimed", async () => {
    const product = await createTestProduct(t.db, { stock: 100 });
    const second = new Pool({ connectionString: t.url, max: 5 });
    try {
      const other = createDb(second);
      const claims = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          claim(i % 2 ? other : t.db, [{ productId: product, quantity: 3 }], { clientAddress: "203.0.113.30" }),
        ),
      );
      expect(claims.filter((c) => c.kind === "claimed")).toHaveLength(3);
      expect(claims.filter((c) => c.kind === "too_much_held")).toHaveLength(5);
    } finally {
      await second.end();
    }
  });
});

describe("held by other checkouts, not sold out", () => {
  it("tells the customer when others' holds end when on hand would cover the line; sold out when it would not", async () => {
    const saffron = await createTestProduct(t.db, { stock: 3, nameEn: "Saffron" });
    const before = Date.now();
    expect((await claim(t.db, [{ productId: saffron, quantity: 3 }], { clientAddress: "203.0.113.40" })).kind).toBe(
      "claimed",
    );

    // The checkout: the line is held by others, free again when that claim's deadline passes (25 s from now).
    const held = await claim(t.db, [{ productId: saffron, quantity: 1 }], { clientAddress: "203.0.113.41" });
    expect(held).toEqual({
      kind: "out_of_stock",
      lines: [{ name: expect.objectContaining({ en: "Saffron" }), available: 0, freeAt: expect.any(Date) }],
    });
    const freeAt = held.kind === "out_of_stock" ? held.lines[0]!.freeAt!.getTime() : 0;
    expect(freeAt).toBeGreaterThan(before);
    expect(freeAt).toBeLessThan(before + 60_000);
    // More than there is on hand: short, not held.
    expect(await claim(t.db, [{ productId: saffron, quantity: 4 }], { clientAddress: "203.0.113.42" })).toEqual({
      kind: "out_of_stock",
      lines: [{ name: expect.objectContaining({ en: "Saffron" }), available: 0 }],
    });

    // The product page and the cart see the same: held until then, not sold out.
    const product = (await productsForCheckout(t.db, [saffron])).get(saffron)!;
    expect(product.hold).toEqual({ onHand: 3, until: new Date(freeAt) });
    const cart = await priceCart(t.db, { lines: [{ productId: saffron, quantity: 1, seenMinor: 0 }] });
    expect(cart.lines[0]).toMatchObject({ available: 0, heldUntil: new Date(freeAt) });
    const add = addToCart({ id: "c", lines: [] }, product, 1);
    expect(add).toEqual({ ok: false, error: { key: "heldByOthers", values: { minutes: 1 } } });
    // The same wish past what is on hand is sold out.
    const four = await priceCart(t.db, { lines: [{ productId: saffron, quantity: 4, seenMinor: 0 }] });
    expect(four.lines[0]).not.toHaveProperty("heldUntil");
  });
});

describe("the merchant's most per order", () => {
  it("caps the cart at a product's most per order and refuses a larger line at the checkout", async () => {
    const rare = await createTestProduct(t.db, { stock: 50, maxPerOrder: 2 });
    const product = (await productsForCheckout(t.db, [rare])).get(rare)!;
    expect(product.maxPerOrder).toBe(2);
    expect(addToCart({ id: "c", lines: [] }, product, 3)).toEqual({
      ok: false,
      error: { key: "quantityMax", values: { max: 2 } },
    });
    const two = addToCart({ id: "c", lines: [] }, product, 2);
    expect(two.ok).toBe(true);
    expect(addToCart(two.ok ? two.cart : { id: "c", lines: [] }, product, 1)).toEqual({
      ok: false,
      error: { key: "lineFull", values: { have: 2, max: 2 } },
    });

    // A line of 3 (posted by hand, or added before the merchant lowered the most): the cart says so, the claim refuses.
    const cart = await priceCart(t.db, { lines: [{ productId: rare, quantity: 3, seenMinor: 0 }] });
    expect(cart.lines[0]).toMatchObject({ most: 2 });
    expect(await claim(t.db, [{ productId: rare, quantity: 3 }])).toEqual({
      kind: "over_most",
      lines: [{ name: expect.objectContaining({ en: product.name.en }), most: 2 }],
    });
    expect((await claim(t.db, [{ productId: rare, quantity: 2 }])).kind).toBe("claimed");
  });

  it("defaults to the shop's most per line, 20, when the merchant set none", async () => {
    const plain = await createTestProduct(t.db, {});
    expect((await productsForCheckout(t.db, [plain])).get(plain)!.maxPerOrder).toBe(20);
  });
});
