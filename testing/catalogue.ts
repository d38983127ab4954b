import { readFile } from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import { storePicture } from "../lib/catalog/pictures";
import type { Db } from "../lib/db/client";
import { productPictures, products } from "../lib/db/schema";

/**
 * The products the tests sell, created by the tests themselves (the browser tests' template database, the unit
 * tests' own databases and the bench), never read from the demo catalogue a development database is seeded with
 * (lib/catalog/demo.ts): a merchant who replaces the demo products keeps a green `npm test`. Stock is not counted
 * unless a test says so, so tests that buy the same product never run it out. `picture`: a drawing in
 * lib/catalog/demo/, stored as an upload is when a test wants pictures.
 */
export const TEST_PRODUCTS = [
  {
    slug: "deglet-nour-dates",
    nameEn: "Deglet Nour dates, 1 kg",
    nameAr: "تمر دقلة نور، 1 كغ",
    priceMinor: 2_500,
    picture: "dates.svg",
  },
  {
    slug: "olive-oil",
    nameEn: "Extra virgin olive oil, 750 ml",
    nameAr: "زيت زيتون بكر ممتاز، 750 مل",
    priceMinor: 4_250,
    picture: "olive-oil.svg",
  },
  {
    slug: "ghadames-slippers",
    nameEn: "Ghadames leather slippers",
    nameAr: "خُف غدامسي من الجلد",
    priceMinor: 8_900,
    picture: "slippers.svg",
  },
  {
    slug: "ceramic-bowl",
    nameEn: "Glazed ceramic bowl",
    nameAr: "سلطانية خزفية مزججة",
    priceMinor: 3_575,
    picture: "bowl.svg",
  },
  {
    slug: "mint-tea-set",
    nameEn: "Mint tea set",
    nameAr: "طقم شاي بالنعناع",
    priceMinor: 12_000,
    picture: "tea-set.svg",
  },
  {
    slug: "woven-kilim",
    nameEn: "Woven wool kilim, 120 × 180 cm",
    nameAr: "كليم صوفي منسوج، 120 × 180 سم",
    priceMinor: 45_000,
    picture: "kilim.svg",
  },
  {
    slug: "silver-pendant",
    nameEn: "Tuareg silver pendant",
    nameAr: "قلادة فضية طارقية",
    priceMinor: 15_950,
    picture: "pendant.svg",
  },
  {
    slug: "saffron",
    nameEn: "Saffron threads, 2 g",
    nameAr: "خيوط الزعفران، 2 غ",
    priceMinor: 1_875,
    picture: "saffron.svg",
  },
  // Sent by e-mail, not delivered: a cart of it alone asks for no address (issue of delivery).
  {
    slug: "gift-card",
    nameEn: "Digital gift card, 50 LYD",
    nameAr: "بطاقة هدية رقمية، 50 د.ل",
    priceMinor: 5_000,
    picture: "gift-card.svg",
    kind: "digital",
  },
] as const;

export type TestSlug = (typeof TEST_PRODUCTS)[number]["slug"];

/**
 * Creates {@link TEST_PRODUCTS} (visible, stock not counted, physical but for the digital gift card) in a migrated
 * database; with `pictures`, each with its drawing stored as an uploaded picture is (lib/catalog/pictures.ts).
 * @returns each product's id by slug.
 */
export async function seedTestCatalogue(db: Db, { pictures = false } = {}): Promise<Record<TestSlug, number>> {
  const rows = await db
    .insert(products)
    .values(
      TEST_PRODUCTS.map((product, sortOrder) => ({
        slug: product.slug,
        nameEn: product.nameEn,
        nameAr: product.nameAr,
        priceMinor: product.priceMinor,
        kind: "kind" in product ? product.kind : ("physical" as const),
        sortOrder,
      })),
    )
    .returning({ id: products.id, slug: products.slug });
  const ids = Object.fromEntries(rows.map((row) => [row.slug, row.id])) as Record<TestSlug, number>;
  if (pictures) {
    for (const product of TEST_PRODUCTS) {
      const drawing = await readFile(path.join(process.cwd(), "lib/catalog/demo", product.picture));
      const stored = await storePicture(db, await sharp(drawing, { density: 144 }).resize(800, 800).png().toBuffer());
      if ("refused" in stored) throw new Error(`${product.picture}: ${stored.refused}`);
      await db.insert(productPictures).values({ productId: ids[product.slug], position: 0, ...stored });
    }
  }
  return ids;
}

/**
 * Creates one product a test needs, with any column given (e.g. `{ stock: 3 }`); a unique slug by default.
 * @returns its id.
 */
export async function createTestProduct(
  db: Db,
  overrides: Partial<typeof products.$inferInsert> = {},
): Promise<number> {
  const slug = overrides.slug ?? `test-${crypto.randomUUID().slice(0, 8)}`;
  const [row] = await db
    .insert(products)
    .values({ slug, nameEn: `Test ${slug}`, nameAr: `تجربة ${slug}`, priceMinor: 1_000, ...overrides })
    .returning({ id: products.id });
  return row!.id;
}
