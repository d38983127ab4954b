import { eq } from "drizzle-orm";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { orderLines, orders, products } from "../db/schema";
import { newOrderId } from "../ids";
import { setUpTestDatabase } from "../../testing/db";
import { listProductsForAdmin, parseProductListQuery, parseStockForm, productForAdmin } from "./back-office";
import { addPicture } from "./pictures";
import { adjustStock, createProduct, productInputSchema, updateProduct } from "./editing";

/** The back office's products pages (app/admin/products) against a real database: the list's filters and search, the audit, the stock form. */

const t = setUpTestDatabase();
const ADMIN = "owner@shop.ly";

async function product(slug: string, fields: Record<string, string> = {}) {
  const input = productInputSchema.parse({
    slug,
    nameEn: `Name ${slug}`,
    nameAr: `اسم ${slug}`,
    price: "10",
    ...fields,
  });
  const created = await createProduct(t.db, input, ADMIN);
  if (!created.ok) throw new Error(created.problem);
  return created.id;
}

/** An unpaid checkout still being claimed, holding `quantity` of a product. */
async function hold(productId: number, quantity: number) {
  const id = newOrderId();
  await t.db.insert(orders).values({
    id,
    sessionId: "s",
    fingerprint: id,
    status: "started",
    amountMinor: 1000 * quantity,
    currency: "LYD",
    locale: "en",
    claimExpiresAt: new Date(Date.now() + 600_000),
  });
  await t.db
    .insert(orderLines)
    .values({ orderId: id, position: 0, productId, productSlug: "x", name: "x", unitMinor: 1000, quantity });
}

describe("the products list", () => {
  it("filters hidden, sold out (held stock counts) and low stock, and searches names in both languages and slugs", async () => {
    const plenty = await product("plenty-of-dates", { stock: "50" });
    const heldOut = await product("held-out-honey", { stock: "2" });
    const empty = await product("empty-jar", { stock: "0" });
    const low = await product("low-saffron", { stock: "5" });
    const hidden = await product("hidden-kilim", { nameAr: "سجاد مخفي" });
    await t.db.update(products).set({ visible: false }).where(eqId(hidden));
    const uncounted = await product("uncounted-tea");
    await hold(heldOut, 2);
    await hold(low, 3);

    const ids = async (params: Record<string, string>) =>
      (await listProductsForAdmin(t.db, parseProductListQuery(params).query)).products.map((p) => p.id);

    expect(await ids({})).toEqual([plenty, heldOut, empty, low, hidden, uncounted]);
    expect(await ids({ filter: "hidden" })).toEqual([hidden]);
    expect(await ids({ filter: "sold_out" })).toEqual([heldOut, empty]);
    expect(await ids({ filter: "low_stock" })).toEqual([low]);
    expect(await ids({ q: "SAFFRON" })).toEqual([low]);
    expect(await ids({ q: "مخفي" })).toEqual([hidden]);
    expect(await ids({ q: "tea", filter: "hidden" })).toEqual([]);
    // A wildcard typed in the search is a character to find, not "anything".
    expect(await ids({ q: "%" })).toEqual([]);

    const png = await sharp({ create: { width: 20, height: 20, channels: 3, background: "#000" } })
      .png()
      .toBuffer();
    await addPicture(t.db, low, png, ADMIN);
    await addPicture(t.db, low, await sharp(png).flop().negate().png().toBuffer(), ADMIN);
    const listed = (await listProductsForAdmin(t.db, {})).products.find((p) => p.id === low)!;
    const { pictures } = (await productForAdmin(t.db, low))!;
    expect(pictures).toHaveLength(2);
    expect(listed).toMatchObject({ stock: 5, available: 2, thumbnail: pictures[0]!.small });
    expect((await listProductsForAdmin(t.db, {})).products.find((p) => p.id === plenty)!.thumbnail).toBeNull();
  });

  it("drops a filter or search it cannot read and names it", () => {
    expect(parseProductListQuery({ filter: "cheap", q: "a\u0000b" })).toEqual({ query: {}, ignored: ["filter", "q"] });
    expect(parseProductListQuery({ filter: ["hidden", "x"], q: " tea " })).toEqual({
      query: { filter: "hidden", q: "tea" },
      ignored: [],
    });
  });
});

describe("one product's page", () => {
  it("shows its audit, newest first: created, edited (before and after), stock adjusted with the reason", async () => {
    const id = await product("audited-oil", { stock: "4" });
    const input = productInputSchema.parse({ slug: "audited-oil", nameEn: "Olive oil", nameAr: "زيت", price: "12.50" });
    await updateProduct(t.db, id, input, "second@shop.ly");
    await adjustStock(t.db, id, { add: -1 }, "A jar broke", ADMIN);
    const view = await productForAdmin(t.db, id);
    expect(view!.changes.map((c) => [c.type, c.by])).toEqual([
      ["stock_adjusted", ADMIN],
      ["edited", "second@shop.ly"],
      ["created", ADMIN],
    ]);
    expect(view!.changes[0]!.data).toEqual({ before: 4, after: 3, reason: "A jar broke" });
    expect(view!.changes[1]!.data).toMatchObject({
      changes: { priceMinor: [1000, 1250], nameEn: ["Name audited-oil", "Olive oil"] },
    });
    expect(await productForAdmin(t.db, 999_999)).toBeUndefined();
  });
});

describe("stock adjustments", () => {
  it("refuse to take out more than is on hand, or to pass the most, writing nothing", async () => {
    const id = await product("few-bowls", { stock: "2" });
    expect(await adjustStock(t.db, id, { add: -3 }, "count", ADMIN)).toEqual({
      ok: false,
      problem: "below_zero",
      stock: 2,
    });
    expect(await adjustStock(t.db, id, { add: 999_999 }, "count", ADMIN)).toEqual({
      ok: false,
      problem: "too_many",
      stock: 2,
    });
    expect(await adjustStock(t.db, id, { add: -2 }, "count", ADMIN)).toEqual({ ok: true, before: 2, after: 0 });
    const view = await productForAdmin(t.db, id);
    expect(view!.changes.filter((c) => c.type === "stock_adjusted")).toHaveLength(1);
    // An oversold stock (below zero) may be restocked.
    await t.db.update(products).set({ stock: -1 }).where(eqId(id));
    expect(await adjustStock(t.db, id, { add: 3 }, "restock", ADMIN)).toEqual({ ok: true, before: -1, after: 2 });
  });

  it("refuse to lower the count below the units open checkouts hold, saying how many, and accept raises", async () => {
    const id = await product("held-lamps", { stock: "5" });
    await hold(id, 3);
    expect(await adjustStock(t.db, id, { set: 1 }, "count", ADMIN)).toEqual({
      ok: false,
      problem: "below_held",
      stock: 5,
      held: 3,
    });
    expect(await adjustStock(t.db, id, { add: -3 }, "count", ADMIN)).toMatchObject({ problem: "below_held", held: 3 });
    expect(await adjustStock(t.db, id, { add: -2 }, "count", ADMIN)).toEqual({ ok: true, before: 5, after: 3 });
    // A product not counted yet, with units held: counting it starts at no fewer than those.
    const uncounted = await product("held-uncounted-rugs");
    await hold(uncounted, 2);
    expect(await adjustStock(t.db, uncounted, { set: 1 }, "count", ADMIN)).toMatchObject({ problem: "below_held" });
    expect(await adjustStock(t.db, uncounted, { set: 2 }, "count", ADMIN)).toMatchObject({ ok: true, after: 2 });
    // A count already below the holds (an oversold payment) may still be raised.
    await t.db.update(products).set({ stock: 0 }).where(eqId(id));
    expect(await adjustStock(t.db, id, { set: 1 }, "restock", ADMIN)).toEqual({ ok: true, before: 0, after: 1 });
    const view = await productForAdmin(t.db, id);
    expect(view!.changes.filter((c) => c.type === "stock_adjusted")).toHaveLength(2);
  });

  it("read a signed change, a count or 'not counted', with a required reason", () => {
    expect(parseStockForm({ mode: "change", amount: "+10", reason: " delivery " })).toEqual({
      ok: true,
      change: { add: 10 },
      reason: "delivery",
    });
    expect(parseStockForm({ mode: "change", amount: "\u2212٢", reason: "broken" })).toMatchObject({
      change: { add: -2 },
    });
    expect(parseStockForm({ mode: "set", amount: "7", reason: "count" })).toMatchObject({ change: { set: 7 } });
    expect(parseStockForm({ mode: "untracked", amount: "junk", reason: "made to order" })).toMatchObject({
      change: { set: null },
    });
    expect(parseStockForm({ mode: "change", amount: "0", reason: "" })).toEqual({
      ok: false,
      problems: { amount: "changeInvalid", reason: "reasonMissing" },
    });
    expect(parseStockForm({ mode: "set", amount: "-1", reason: "x" })).toEqual({
      ok: false,
      problems: { amount: "countInvalid" },
    });
    expect(parseStockForm({ mode: "change", amount: "2.5", reason: "x".repeat(201) })).toEqual({
      ok: false,
      problems: { amount: "changeInvalid", reason: "reasonTooLong" },
    });
  });
});

const eqId = (id: number) => eq(products.id, id);
