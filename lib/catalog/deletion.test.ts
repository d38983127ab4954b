import { eq } from "drizzle-orm";
import { Pool } from "pg";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { findOrderForAdmin, exportOrdersCsv } from "../admin/orders";
import { priceCart } from "../cart";
import { claimCheckout } from "../checkout/claim";
import { priceCheckout } from "../checkout/pricing";
import { createDb } from "../db/client";
import { catalogEvents, orderLines, orders, products } from "../db/schema";
import { newOrderId } from "../ids";
import { createTestProduct } from "../../testing/catalogue";
import { setUpTestDatabase } from "../../testing/db";
import { listProductsForAdmin, stockAlerts } from "./back-office";
import { exportCatalogCsv, planCatalogImport } from "./csv";
import { deleteProduct, restoreProduct } from "./deletion";
import { setProductVisible, updateProduct, typedFields, productInputSchema } from "./editing";
import { addPicture, imageBytes } from "./pictures";
import { listProducts, productsForCheckout } from "./products";

/**
 * Deleting products against a real database (lib/catalog/deletion.ts): a product no order names goes with its
 * pictures; one that an order names is archived instead, leaves every list the merchant works from, and stays on its
 * orders; the database decides, also against a checkout at the same moment on another pool.
 */

const t = setUpTestDatabase();
const ADMIN = "owner@shop.ly";

/** An old order (never paid) with one line naming the product, as sold. */
async function orderNaming(productId: number, name = "Old kilim, as sold") {
  const id = newOrderId();
  await t.db.insert(orders).values({
    id,
    sessionId: "s",
    fingerprint: id,
    status: "started",
    amountMinor: 1_000,
    currency: "LYD",
    locale: "en",
    email: "archive@shop.ly",
    // A checkout abandoned long ago: it holds nothing any more.
    claimExpiresAt: new Date(Date.now() - 3_600_000),
  });
  await t.db
    .insert(orderLines)
    .values({ orderId: id, position: 0, productId, productSlug: "old", name, unitMinor: 1_000, quantity: 1 });
  return id;
}

const png = (color: string) =>
  sharp({ create: { width: 300, height: 300, channels: 3, background: color } })
    .png()
    .toBuffer();

const audit = (productId: number) =>
  t.db.select().from(catalogEvents).where(eq(catalogEvents.productId, productId)).orderBy(catalogEvents.id);

const exported = async () => new Response(exportCatalogCsv(t.db)).text();

describe("deleting a product", () => {
  it("deletes one that no order names, with its pictures and their images, and audits it", async () => {
    const id = await createTestProduct(t.db, { slug: "spare-lantern" });
    const other = await createTestProduct(t.db, { slug: "other-lantern" });
    const own = await addPicture(t.db, id, await png("#a0522d"), ADMIN);
    const shared = await addPicture(t.db, id, await png("#2e8b57"), ADMIN);
    await addPicture(t.db, other, await png("#2e8b57"), ADMIN);
    if ("refused" in own || "refused" in shared) throw new Error("pictures refused");

    expect(await deleteProduct(t.db, id, ADMIN)).toBe("deleted");

    expect(await t.db.select().from(products).where(eq(products.id, id))).toEqual([]);
    // Its own picture's images are gone (their URL answers 404); the picture another product shows stays.
    expect(await imageBytes(t.db, own.large)).toBeUndefined();
    expect(await imageBytes(t.db, own.small)).toBeUndefined();
    expect(await imageBytes(t.db, shared.large)).toBeDefined();
    const events = await audit(id);
    expect(events.at(-1)).toMatchObject({ type: "deleted", by: ADMIN, data: { slug: "spare-lantern" } });
    expect(events.map((event) => event.type)).toContain("picture_added"); // the history is kept
    expect(await deleteProduct(t.db, id, ADMIN)).toBe("not_found");
    // Its slug is free again.
    await createTestProduct(t.db, { slug: "spare-lantern" });
  });

  it("archives one that an order names instead: out of the shop, the list, the export and the alerts; kept on the order", async () => {
    const id = await createTestProduct(t.db, { slug: "retired-kilim", stock: 1 });
    const order = await orderNaming(id);
    const pictures = await addPicture(t.db, id, await png("#4682b4"), ADMIN);
    if ("refused" in pictures) throw new Error("picture refused");
    const alerted = async () => (await stockAlerts(t.db, { limit: 100 })).products.map((p) => p.id);
    expect(await alerted()).toContain(id);

    expect(await deleteProduct(t.db, id, ADMIN)).toBe("archived");

    const [row] = await t.db.select().from(products).where(eq(products.id, id));
    expect(row).toMatchObject({ visible: false, archivedAt: expect.any(Date) });
    expect((await audit(id)).at(-1)).toMatchObject({ type: "archived", by: ADMIN });
    // Nothing of it was deleted: the order's line and the product's pictures are as they were.
    expect(await imageBytes(t.db, pictures.large)).toBeDefined();
    // Out of the storefront, the back office's list, the export and the stock alerts.
    expect((await listProducts(t.db, { page: 1 })).products.map((p) => p.id)).not.toContain(id);
    expect((await listProductsForAdmin(t.db, {})).products.map((p) => p.id)).not.toContain(id);
    expect(await exported()).not.toContain("retired-kilim");
    expect(await alerted()).not.toContain(id);
    // Listed under its own filter.
    const archivedList = await listProductsForAdmin(t.db, { filter: "archived" });
    expect(archivedList.products.map((p) => [p.id, p.archived])).toEqual([[id, true]]);
    // The old order still reads it: its line as sold, the product's names, the orders' CSV.
    const found = await findOrderForAdmin(t.db, order);
    expect(found?.lines[0]).toMatchObject({ name: "Old kilim, as sold", productName: { en: "Test retired-kilim" } });
    expect(await new Response(exportOrdersCsv(t.db, { q: "archive@shop.ly" })).text()).toContain("Old kilim, as sold");
    // A cart still holding it is told it is not for sale (hidden), as for a hidden product.
    expect((await productsForCheckout(t.db, [id])).get(id)?.visible).toBe(false);

    // Archived again: nothing new. Edits and "show" are refused until it is restored.
    expect(await deleteProduct(t.db, id, ADMIN)).toBe("archived");
    expect(await setProductVisible(t.db, id, true, ADMIN)).toBe("archived");
    const fields = productInputSchema.parse({ ...typedFields(row!), visible: true });
    expect(await updateProduct(t.db, id, fields, ADMIN)).toEqual({ ok: false, problem: "archived" });
    expect((await audit(id)).filter((event) => event.type === "archived")).toHaveLength(1);

    // Restored: back in the list and the export, still hidden until the merchant shows it.
    expect(await restoreProduct(t.db, id, ADMIN)).toBe(true);
    expect(await restoreProduct(t.db, id, ADMIN)).toBe(false);
    expect((await listProductsForAdmin(t.db, {})).products.map((p) => p.id)).toContain(id);
    expect(await exported()).toContain("retired-kilim");
    expect(await setProductVisible(t.db, id, true, ADMIN)).toBe(true);
    expect((await audit(id)).map((event) => event.type).slice(-2)).toEqual(["restored", "shown"]);
  });

  it("lets the database refuse an archived product that is shown, whatever the code does", async () => {
    const id = await createTestProduct(t.db);
    await orderNaming(id);
    await deleteProduct(t.db, id, ADMIN);
    await expect(t.db.update(products).set({ visible: true }).where(eq(products.id, id))).rejects.toThrow();
    // And an order's line keeps its product: a plain delete is refused.
    await expect(t.db.delete(products).where(eq(products.id, id))).rejects.toThrow();
  });

  it("refuses an import row with an archived product's slug, saying to restore it", async () => {
    const id = await createTestProduct(t.db, { slug: "archived-tray" });
    await orderNaming(id);
    await deleteProduct(t.db, id, ADMIN);
    await createTestProduct(t.db, { slug: "kept-tray" });
    const plan = await planCatalogImport(t.db, "slug,price\r\narchived-tray,12.50\r\nkept-tray,9\r\n");
    expect(plan.errors).toEqual([{ row: 2, column: "slug", scope: "csv", problem: "archivedSlug" }]);
    expect(plan.rows.map((row) => row.slug)).toEqual(["kept-tray"]);
  });
});

describe("a delete racing a checkout that names the product, on two pools", () => {
  it("ends one way or the other: deleted and nothing sold, or archived with the order", async () => {
    const second = new Pool({ connectionString: t.url, max: 5 });
    const other = createDb(second);
    const outcomes = new Set<string>();
    try {
      await other.select().from(products).limit(1); // the second pool's connection is open before the first round
      for (let round = 0; round < 8; round++) {
        const id = await createTestProduct(t.db, { stock: 5 });
        // The cart is priced first, as the checkout does before its claim.
        const cart = await priceCart(t.db, { lines: [{ productId: id, quantity: 1, seenMinor: 0 }] });
        const claim = claimCheckout(other, {
          sessionId: crypto.randomUUID(),
          fingerprint: crypto.randomUUID(),
          clientAddress: "198.51.100.9",
          budget: 1_000,
          heldPerAddress: 10,
          locale: "en",
          paymentMethod: "online",
          details: { full_name: "Aisha Ben Ali", email: "race@example.ly" },
          cart,
          price: priceCheckout(cart.totalMinor, undefined),
        }).then(
          (result) => result.kind,
          () => "refused",
        );
        // Started a little later in some rounds, so that both orders of the two transactions happen.
        const pause = new Promise((resolve) => setTimeout(resolve, (round % 4) * 4));
        const [deleted, claimed] = await Promise.all([pause.then(() => deleteProduct(t.db, id, ADMIN)), claim]);
        const [product] = await t.db.select().from(products).where(eq(products.id, id));
        const lines = await t.db.select().from(orderLines).where(eq(orderLines.productId, id));
        if (deleted === "deleted") {
          // The checkout found it gone: no order names a product that is not there.
          expect([product, lines.length, claimed]).toEqual([undefined, 0, "refused"]);
        } else {
          expect(deleted).toBe("archived");
          expect([product?.archivedAt !== null, lines.length, claimed]).toEqual([true, 1, "claimed"]);
        }
        outcomes.add(`${deleted}/${claimed}`);
      }
    } finally {
      await second.end();
    }
    expect([...outcomes].every((outcome) => ["deleted/refused", "archived/claimed"].includes(outcome))).toBe(true);
  });
});
