import { eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { orderLines, orders, products } from "../db/schema";
import { newOrderId } from "../ids";
import { setUpTestDatabase } from "../../testing/db";
import { listProducts, PAGE_SIZE, parsePageParam } from "./products";

/** The storefront's list (the home page) against a real database: pages in the merchant's order, the last page, stock. */

const t = setUpTestDatabase();

/** `n` products, sort orders descending so the merchant's order is not the order of insertion; every 10th hidden. */
async function seed(n: number) {
  const rows = Array.from({ length: n }, (_, i) => ({
    slug: `product-${i}`,
    nameEn: `Product ${i}`,
    nameAr: `منتج ${i}`,
    priceMinor: 100 + i,
    // Pairs share a sort order: the id breaks the tie.
    sortOrder: n - Math.floor(i / 2),
    visible: i % 10 !== 9,
    stock: i % 3 === 0 ? 5 : null,
  }));
  return t.db.insert(products).values(rows).returning({ id: products.id, slug: products.slug });
}

describe("the storefront's pages of products", () => {
  it("lists the visible products 24 a page in sort order then id, says how many pages, and gives the last for one beyond", async () => {
    await seed(60); // 54 visible: pages of 24, 24 and 6
    const expected = (
      await t.db
        .select({ slug: products.slug, sortOrder: products.sortOrder, id: products.id })
        .from(products)
        .where(eq(products.visible, true))
    )
      .sort((a, b) => a.sortOrder - b.sortOrder || a.id - b.id)
      .map((row) => row.slug);
    expect(expected).toHaveLength(54);

    const pages = await Promise.all([1, 2, 3].map((page) => listProducts(t.db, { page })));
    expect(pages.map((p) => p.products.length)).toEqual([PAGE_SIZE, PAGE_SIZE, 6]);
    expect(pages.map((p) => [p.page, p.pages, p.beyond])).toEqual([
      [1, 3, false],
      [2, 3, false],
      [3, 3, false],
    ]);
    expect(pages.flatMap((p) => p.products.map((product) => product.slug))).toEqual(expected);

    for (const page of [4, 999_999_999]) {
      const beyond = await listProducts(t.db, { page });
      expect([beyond.page, beyond.pages, beyond.beyond]).toEqual([3, 3, true]);
      expect(beyond.products.map((product) => product.slug)).toEqual(expected.slice(48));
    }
  });

  it("counts the units that live checkouts hold against the page's products", async () => {
    const [first] = await listProducts(t.db, { page: 1 }).then((p) => p.products.filter((x) => x.available === 5));
    const id = newOrderId();
    await t.db.insert(orders).values({
      id,
      sessionId: "s",
      fingerprint: id,
      status: "started",
      amountMinor: 200,
      currency: "LYD",
      locale: "en",
      claimExpiresAt: new Date(Date.now() + 600_000),
    });
    await t.db.insert(orderLines).values({
      orderId: id,
      position: 0,
      productId: first!.id,
      productSlug: first!.slug,
      name: "x",
      unitMinor: 100,
      quantity: 2,
    });
    const again = (await listProducts(t.db, { page: 1 })).products.find((product) => product.id === first!.id);
    expect(again?.available).toBe(3);
  });

  it("says nothing is for sale with no pages", async () => {
    await t.db.delete(orderLines);
    await t.db
      .update(products)
      .set({ visible: false })
      .where(inArray(products.visible, [true]));
    expect(await listProducts(t.db, { page: 2 })).toEqual({ products: [], page: 1, pages: 0, beyond: false });
  });
});

describe("the ?page= parameter", () => {
  it("reads whole page numbers and refuses anything else, saying what was typed", () => {
    expect(parsePageParam(undefined)).toEqual({ page: 1 });
    expect(parsePageParam("")).toEqual({ page: 1 });
    expect(parsePageParam("7")).toEqual({ page: 7 });
    expect(parsePageParam(["3", "9"])).toEqual({ page: 3 });
    for (const bad of ["0", "-2", "1.5", "abc", "07", "1e3", " 2", "9999999999"]) {
      expect(parsePageParam(bad)).toEqual({ page: 1, invalid: bad });
    }
    expect(parsePageParam("x".repeat(500)).invalid).toHaveLength(40);
  });
});
