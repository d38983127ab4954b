import { and, asc, eq } from "drizzle-orm";
import { Pool } from "pg";
import { describe, expect, it } from "vitest";
import { createTestDatabase, setUpTestDatabase } from "../../testing/db";
import { createDb } from "../db/client";
import { catalogEvents, catalogImports, orderLines, orders, products } from "../db/schema";
import { newOrderId } from "../ids";
import {
  applyCatalogImport,
  exportCatalogCsv,
  IMPORT_STOCK_REASON,
  MAX_CATALOG_CSV_BYTES,
  planCatalogImport,
  storeCatalogImport,
} from "./csv";
import { adjustStock, createProduct, productInputSchema } from "./editing";

const t = setUpTestDatabase();
const ADMIN = "owner@medina.example";
const HEADER = "slug,nameEn,nameAr,descriptionEn,descriptionAr,price,kind,visible,stock,sortOrder";
const csv = (...rows: string[]) => [HEADER, ...rows].join("\n");

/** The export's bytes as text, byte order mark kept. */
const exportedText = async () => Buffer.from(await new Response(exportCatalogCsv(t.db)).arrayBuffer()).toString("utf8");

/** Stores `text` as an uploaded file, as the import page does. */
async function upload(text: string, name = "catalogue.csv") {
  const stored = await storeCatalogImport(t.db, { file: { name, bytes: new TextEncoder().encode(text) }, by: ADMIN });
  if (!("id" in stored)) throw new Error(`not stored: ${stored.error}`);
  return stored.id;
}

/** Uploads, checks (the dry run) and applies `text`, as an admin clicking through the two steps. */
async function importCsv(text: string) {
  const id = await upload(text);
  const plan = await planCatalogImport(t.db, text);
  return { plan, result: await applyCatalogImport(t.db, id, plan.hash, ADMIN) };
}

/** Everything an import can write: to prove that one wrote nothing. */
async function snapshot() {
  const [rows, events] = await Promise.all([
    t.db.select().from(products).orderBy(asc(products.id)),
    t.db.select().from(catalogEvents).orderBy(asc(catalogEvents.id)),
  ]);
  return { rows, events };
}

async function addProduct(slug: string, fields: Record<string, unknown> = {}) {
  const input = productInputSchema.parse({ slug, nameEn: `N ${slug}`, nameAr: `م ${slug}`, price: "10.00", ...fields });
  const created = await createProduct(t.db, input, ADMIN);
  if (!created.ok) throw new Error(created.problem);
  return created.id;
}

describe("catalogue CSV import", () => {
  it("imports nothing from a file with bad rows, and names each bad row and column", async () => {
    await addProduct("tea-glass", { stock: "4" });
    const before = await snapshot();
    const file = csv(
      "fine-one,Fine,جيد,,,5.00,physical,true,3,1",
      "Bad Slug!,Bad,سيء,,,5.00,physical,true,,2",
      "no-price,No price,بلا سعر,,,,physical,true,,3",
      "tea-glass,Tea glass,كأس شاي,,,12.3456,vinyl,perhaps,-2,x",
      "fine-one,Again,مرة,,,5.00,physical,true,,4",
      ",,,,,,,,,",
      "zero,Zero,صفر,,,0,digital,false,,5",
    );
    const plan = await planCatalogImport(t.db, file);
    expect(plan.errors.map(({ row, column, problem }) => `${row}:${column}:${problem}`)).toEqual([
      "3:slug:slugInvalid",
      "4:price:priceMissing",
      "5:price:priceDecimals",
      "5:kind:kindInvalid",
      "5:visible:visibleInvalid",
      "5:stock:stockInvalid",
      "5:sortOrder:sortOrderInvalid",
      "6:slug:duplicateSlug",
      // Row 7 is empty (skipped, but counted: rows are numbered as the spreadsheet numbers them).
      "8:price:priceZero",
    ]);
    // The good row would be created, but a file with problems is applied not at all.
    expect(plan.counts).toEqual({ create: 1, update: 0, unchanged: 0 });
    const id = await upload(file);
    expect(await applyCatalogImport(t.db, id, plan.hash, ADMIN)).toEqual({ outcome: "invalid" });
    expect(await snapshot()).toEqual(before);
    // …and the import is left unapplied, to be corrected and uploaded again.
    const [stored] = await t.db.select().from(catalogImports).where(eq(catalogImports.id, id));
    expect(stored!.appliedAt).toBeNull();
  });

  it("names the file's own problems: no slug column, an unclosed quote, nothing but a header", async () => {
    const problems = async (text: string) =>
      (await planCatalogImport(t.db, text)).errors.map(({ row, column, problem }) => `${row}:${column}:${problem}`);
    expect(await problems("name,price\nTea,5")).toEqual(["1:slug:missingSlugColumn"]);
    expect(await problems(csv("ok,Ok,حسن,,,1,,,,", 'broken,"Broken,مكسور,,,1,,,,'))).toEqual(["3:null:unreadable"]);
    expect(await problems(HEADER)).toEqual(["null:null:empty"]);
    expect(await problems("slug,slug\na,b")).toEqual(["1:slug:duplicateColumn"]);
  });

  it("refuses a file over the size limit, and one that is not text, storing nothing", async () => {
    const big = new Uint8Array(MAX_CATALOG_CSV_BYTES + 1).fill(0x61);
    expect(await storeCatalogImport(t.db, { file: { name: "big.csv", bytes: big }, by: ADMIN })).toEqual({
      error: "too_large",
    });
    const xlsx = Uint8Array.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00]);
    expect(await storeCatalogImport(t.db, { file: { name: "c.xlsx", bytes: xlsx }, by: ADMIN })).toEqual({
      error: "not_text",
    });
  });

  it("round trip: an exported catalogue imports back with every row unchanged, writing nothing", async () => {
    await addProduct("olive-oil", {
      nameEn: 'Olive oil, "extra" virgin',
      nameAr: "زيت زيتون بكر ممتاز",
      descriptionEn: "- cold pressed\n- 1 litre",
      descriptionAr: "معصور على البارد،\nلتر واحد",
      price: "42.50",
      stock: "0",
      sortOrder: "-3",
    });
    await addProduct("gift-card", { kind: "digital", visible: false, price: "100", descriptionEn: "'quoted'" });
    await addProduct("formula", {
      nameEn: '=HYPERLINK("http://evil.example","x")',
      nameAr: "+1",
      descriptionEn: "@SUM(A1)",
    });
    const exported = await exportedText();
    expect(exported.startsWith('\uFEFF"slug","nameEn","nameAr",')).toBe(true);
    // A spreadsheet would run these as formulas; the export keeps them text.
    expect(exported).toContain(`"'=HYPERLINK(""http://evil.example"",""x"")"`);
    expect(exported).toContain(`,"'+1",`);
    const before = await snapshot();
    const { plan, result } = await importCsv(exported);
    expect(plan.errors).toEqual([]);
    expect(plan.counts).toEqual({ create: 0, update: 0, unchanged: before.rows.length });
    expect(result).toMatchObject({ outcome: "applied", created: 0, updated: 0 });
    const after = await snapshot();
    expect(after.rows).toEqual(before.rows);
    // Only the import's own summary was recorded.
    expect(after.events.slice(before.events.length).map((event) => event.type)).toEqual(["imported"]);
  });

  it("a formula in a cell is imported as text, and exported guarded again", async () => {
    // As a spreadsheet saves it (quoted), and as typed by hand (a quote inside an unquoted cell).
    await importCsv(csv(`sum-trap,=SUM(1+1),"=cmd|' /C calc'!A0",=HYPERLINK("http://evil.example"),,7.00,,,,`));
    const [row] = await t.db.select().from(products).where(eq(products.slug, "sum-trap"));
    expect(row).toMatchObject({
      nameEn: "=SUM(1+1)",
      nameAr: "=cmd|' /C calc'!A0",
      descriptionEn: '=HYPERLINK("http://evil.example")',
    });
    expect(await exportedText()).toContain(`"sum-trap","'=SUM(1+1)","'=cmd|' /C calc'!A0",`);
  });

  it("reads Arabic and Western digits, comma decimals, semicolons, and any header case", async () => {
    const file = [
      "Slug;Name EN;name_ar;PRICE;Stock;sort order;Notes",
      "dates-box;Dates;تمر;١٢٫٥٠;٧;٢;ignored",
      "honey-jar;Honey;عسل;12,50;7;2;",
      "saffron;Saffron;زعفران;1.234,00;;;",
    ].join("\r\n");
    const { plan, result } = await importCsv(file);
    expect(plan.errors).toEqual([]);
    expect(plan.ignoredColumns).toEqual(["Notes"]);
    expect(result).toMatchObject({ outcome: "applied", created: 3 });
    const bySlug = async (slug: string) => (await t.db.select().from(products).where(eq(products.slug, slug)))[0]!;
    expect(await bySlug("dates-box")).toMatchObject({ priceMinor: 1250, stock: 7, sortOrder: 2, visible: true });
    expect(await bySlug("honey-jar")).toMatchObject({ priceMinor: 1250, stock: 7, kind: "physical" });
    expect(await bySlug("saffron")).toMatchObject({ priceMinor: 123400, stock: null, sortOrder: 0 });
  });

  it("updates only what changed, audits each change by the admin, and records a stock change as an adjustment", async () => {
    const lamp = await addProduct("brass-lamp", { price: "80.00", stock: "5", descriptionEn: "Hand made" });
    const rug = await addProduct("kilim-rug", { price: "300.00" });
    const since = (await snapshot()).events.length;
    // Only slug, price, visible and stock: the names and descriptions are left as they are.
    const { plan, result } = await importCsv(
      ["slug,price,visible,stock", "brass-lamp,85.00,true,9", "kilim-rug,300,false,", "new-mat,15.00,,2"].join("\n"),
    );
    expect(plan.rows.map(({ slug, action, changes }) => [slug, action, changes])).toEqual([
      ["brass-lamp", "update", { price: ["80.00", "85.00"], stock: ["5", "9"] }],
      ["kilim-rug", "update", { visible: ["true", "false"] }],
    ]);
    expect(plan.errors.map(({ row, column, problem }) => `${row}:${column}:${problem}`)).toEqual([
      "4:nameEn:nameMissing",
      "4:nameAr:nameMissing",
    ]);
    expect(result).toEqual({ outcome: "invalid" });

    const fixed = ["slug,price,visible,stock", "brass-lamp,85.00,true,9", "kilim-rug,300,false,"].join("\n");
    expect((await importCsv(fixed)).result).toEqual({ outcome: "applied", created: 0, updated: 2, unchanged: 0 });
    const [lampRow] = await t.db.select().from(products).where(eq(products.id, lamp));
    expect(lampRow).toMatchObject({ priceMinor: 8500, stock: 9, descriptionEn: "Hand made", nameEn: "N brass-lamp" });
    const events = (await snapshot()).events.slice(since);
    expect(events.map(({ productId, type, by, data }) => ({ productId, type, by, data }))).toEqual([
      {
        productId: lamp,
        type: "edited",
        by: ADMIN,
        data: { changes: { priceMinor: [8000, 8500] }, import: expect.any(String), row: 2 },
      },
      {
        productId: lamp,
        type: "stock_adjusted",
        by: ADMIN,
        data: { before: 5, after: 9, reason: IMPORT_STOCK_REASON, import: expect.any(String), row: 2 },
      },
      {
        productId: rug,
        type: "hidden",
        by: ADMIN,
        data: { changes: { visible: [true, false] }, import: expect.any(String), row: 3 },
      },
      {
        productId: null,
        type: "imported",
        by: ADMIN,
        data: { import: expect.any(String), create: 0, update: 2, unchanged: 0 },
      },
    ]);
  });

  it("refuses a stock count below the units open checkouts hold, saying how many, and writes nothing", async () => {
    const lamp = await addProduct("held-brass-lamp", { stock: "5" });
    const order = newOrderId();
    await t.db.insert(orders).values({
      id: order,
      sessionId: "s",
      fingerprint: order,
      status: "started",
      amountMinor: 3000,
      currency: "LYD",
      locale: "en",
      claimExpiresAt: new Date(Date.now() + 600_000),
    });
    await t.db.insert(orderLines).values({
      orderId: order,
      position: 0,
      productId: lamp,
      productSlug: "held-brass-lamp",
      name: "x",
      unitMinor: 1000,
      quantity: 3,
    });
    const before = await snapshot();
    const { plan, result } = await importCsv("slug,stock\nheld-brass-lamp,1");
    expect(plan.errors).toEqual([{ row: 2, column: "stock", scope: "csv", problem: "stockBelowHeld", held: 3 }]);
    expect(plan.rows).toEqual([]);
    expect(result).toEqual({ outcome: "invalid" });
    expect((await snapshot()).rows).toEqual(before.rows);
    // As many as are held is fine: those customers' units are there.
    expect((await importCsv("slug,stock\nheld-brass-lamp,3")).result).toMatchObject({ outcome: "applied", updated: 1 });
  });

  it("applies nothing when the catalogue changed since the dry run, and applies a file once", async () => {
    const jar = await addProduct("clay-jar", { stock: "10" });
    const file = csv("clay-jar,Clay jar,جرة فخار,,,10.00,physical,true,10,0", "clay-cup,Clay cup,كوب,,,4.00,,,,");
    const id = await upload(file);
    const seen = await planCatalogImport(t.db, file);
    expect(seen.counts).toEqual({ create: 1, update: 1, unchanged: 0 });
    // A sale (here: an adjustment) after the admin looked: applying would undo it without them seeing so.
    await adjustStock(t.db, jar, { add: -2 }, "sold at the market", ADMIN);
    const before = await snapshot();
    expect(await applyCatalogImport(t.db, id, seen.hash, ADMIN)).toEqual({ outcome: "stale" });
    expect(await snapshot()).toEqual(before);
    // The new check shows the stock going back up, and applying what it shows works, once.
    const again = await planCatalogImport(t.db, file);
    expect(again.rows[0]!.changes).toMatchObject({ stock: ["8", "10"] });
    expect(await applyCatalogImport(t.db, id, again.hash, ADMIN)).toMatchObject({ outcome: "applied", created: 1 });
    expect(await applyCatalogImport(t.db, id, again.hash, ADMIN)).toEqual({ outcome: "already_applied" });
    expect(await applyCatalogImport(t.db, "imp_0000000000000000", again.hash, ADMIN)).toEqual({ outcome: "not_found" });
    const cups = await t.db
      .select()
      .from(products)
      .where(and(eq(products.slug, "clay-cup")));
    expect(cups).toHaveLength(1);
  });

  it("two admins applying the same file at once, on two server instances (pools), import it once", async () => {
    const file = csv("twin-bowl,Bowl,وعاء,,,9.00,,,5,");
    const id = await upload(file);
    const { hash } = await planCatalogImport(t.db, file);
    const other = new Pool({ connectionString: t.url, max: 2 });
    try {
      const outcomes = await Promise.all([
        applyCatalogImport(t.db, id, hash, ADMIN),
        applyCatalogImport(createDb(other), id, hash, "colleague@medina.example"),
      ]);
      expect(outcomes.map((outcome) => outcome.outcome).sort()).toEqual(["already_applied", "applied"]);
    } finally {
      await other.end();
    }
    expect(await t.db.select().from(products).where(eq(products.slug, "twin-bowl"))).toHaveLength(1);
  });

  it("imports 1,000 products in one go (the time is printed; budgets belong to the benchmark)", async () => {
    const rows = Array.from(
      { length: 1_000 },
      (_, i) =>
        `bulk-${i},Bulk item ${i},منتج رقم ${i},"A description, with a comma",وصف,${i + 1}.25,physical,true,${i},${i}`,
    );
    const file = csv(...rows);
    const started = performance.now();
    const { plan, result } = await importCsv(file);
    const elapsed = performance.now() - started;
    console.info(`catalogue CSV: checked and imported 1,000 new products in ${Math.round(elapsed)} ms`);
    expect(plan.errors).toEqual([]);
    expect(result).toMatchObject({ outcome: "applied", created: 1_000 });
    // …and importing the export of all of it again changes nothing.
    const again = await importCsv(await exportedText());
    expect(again.result).toMatchObject({ outcome: "applied", created: 0, updated: 0 });
  }, 60_000);

  it("the most per order is the last column: exported, imported, kept when a file has no such column", async () => {
    const bySlug = async (slug: string) => (await t.db.select().from(products).where(eq(products.slug, slug)))[0]!;
    await addProduct("rare-saffron", { maxPerOrder: "2" });
    const exported = await exportedText();
    expect(exported.split("\r\n")[0]).toBe(
      `\uFEFF${`${HEADER},maxPerOrder`
        .split(",")
        .map((column) => `"${column}"`)
        .join(",")}`,
    );
    expect(exported).toMatch(/\r\n"rare-saffron",.*,"2"\r\n/);
    // A file of the older columns changes the price and keeps the most per order.
    await importCsv(csv("rare-saffron,N rare-saffron,م rare-saffron,,,11.00,physical,true,,0"));
    expect(await bySlug("rare-saffron")).toMatchObject({ priceMinor: 1100, maxPerOrder: 2 });
    const { plan } = await importCsv(`${HEADER},maxPerOrder\nrare-saffron,N,م,,,11.00,physical,true,,0,21`);
    expect(plan.errors).toEqual([expect.objectContaining({ column: "maxPerOrder", problem: "maxPerOrderInvalid" })]);
    await importCsv(`${HEADER},maxPerOrder\nrare-saffron,N,م,,,11.00,physical,true,,0,`);
    expect(await bySlug("rare-saffron")).toMatchObject({ maxPerOrder: null });
  });

  it("imports its own export of 10,000 products back, changing nothing", async () => {
    // A catalogue of its own: the products the other tests made are not part of it.
    const shop = await createTestDatabase();
    try {
      await shop.pool.query(`
        insert into products (slug, name_en, name_ar, description_en, description_ar, price_minor, visible, stock, sort_order)
        select 'item-' || i, 'Hand-made item ' || i, 'منتج يدوي رقم ' || i,
               'Woven by hand in Ghadames from local wool. Each one is a little different, like item ' || i || '.',
               'منسوج يدويًا في غدامس من صوف محلي. كل قطعة تختلف قليلًا عن الأخرى، مثل القطعة ' || i || '.',
               100 + i * 25, i % 17 <> 0, case when i % 3 = 0 then null else i % 50 end, i % 100
        from generate_series(1, 10000) as i`);
      const started = performance.now();
      const bytes = new Uint8Array(await new Response(exportCatalogCsv(shop.db)).arrayBuffer());
      const stored = await storeCatalogImport(shop.db, { file: { name: "products.csv", bytes }, by: ADMIN });
      if (!("id" in stored)) throw new Error(`not stored: ${stored.error}`);
      const [{ content }] = (await shop.pool.query("select content from catalog_imports")).rows;
      const plan = await planCatalogImport(shop.db, content);
      expect(plan.errors).toEqual([]);
      expect(plan.counts).toEqual({ create: 0, update: 0, unchanged: 10_000 });
      const before = await shop.db.select().from(products).orderBy(asc(products.id));
      const result = await applyCatalogImport(shop.db, stored.id, plan.hash, ADMIN);
      expect(result).toMatchObject({ outcome: "applied", created: 0, updated: 0, unchanged: 10_000 });
      expect(await shop.db.select().from(products).orderBy(asc(products.id))).toEqual(before);
      const elapsed = performance.now() - started;
      console.info(
        `catalogue CSV: exported 10,000 products (${Math.round(bytes.byteLength / 1024)} KB), ` +
          `checked and imported them back in ${Math.round(elapsed)} ms`,
      );
    } finally {
      await shop.close();
    }
  }, 60_000);
});
