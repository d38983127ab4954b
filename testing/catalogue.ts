import { drizzle } from "drizzle-orm/node-postgres";
import { Pool } from "pg";
import type { Db } from "../lib/db/client";
import * as schema from "../lib/db/schema";
import { products } from "../lib/db/schema";

/**
 * The products the tests sell, created by the tests themselves (the browser tests' template database, the unit
 * tests' own databases and the bench), never read from the demo catalogue a development database is seeded with
 * (lib/catalog/demo.ts): a merchant who replaces the demo products keeps a green `npm test`. Stock is not counted
 * unless a test says so, so tests that buy the same product never run it out.
 */
export const TEST_PRODUCTS = [
  { slug: "deglet-nour-dates", nameEn: "Deglet Nour dates, 1 kg", nameAr: "تمر دقلة نور، 1 كغ", priceMinor: 2_500 },
  {
    slug: "olive-oil",
    nameEn: "Extra virgin olive oil, 750 ml",
    nameAr: "زيت زيتون بكر ممتاز، 750 مل",
    priceMinor: 4_250,
  },
  { slug: "ghadames-slippers", nameEn: "Ghadames leather slippers", nameAr: "خُف غدامسي من الجلد", priceMinor: 8_900 },
  { slug: "ceramic-bowl", nameEn: "Glazed ceramic bowl", nameAr: "سلطانية خزفية مزججة", priceMinor: 3_575 },
  { slug: "mint-tea-set", nameEn: "Mint tea set", nameAr: "طقم شاي بالنعناع", priceMinor: 12_000 },
  {
    slug: "woven-kilim",
    nameEn: "Woven wool kilim, 120 × 180 cm",
    nameAr: "كليم صوفي منسوج، 120 × 180 سم",
    priceMinor: 45_000,
  },
  { slug: "silver-pendant", nameEn: "Tuareg silver pendant", nameAr: "قلادة فضية طارقية", priceMinor: 15_950 },
  { slug: "saffron", nameEn: "Saffron threads, 2 g", nameAr: "خيوط الزعفران، 2 غ", priceMinor: 1_875 },
] as const;

export type TestSlug = (typeof TEST_PRODUCTS)[number]["slug"];

/**
 * Creates {@link TEST_PRODUCTS} (visible, physical, stock not counted) in a migrated database.
 * @returns each product's id by slug.
 */
export async function seedTestCatalogue(db: Db): Promise<Record<TestSlug, number>> {
  const rows = await db
    .insert(products)
    .values(
      TEST_PRODUCTS.map((product, sortOrder) => ({ ...product, sortOrder, descriptionEn: "", descriptionAr: "" })),
    )
    .returning({ id: products.id, slug: products.slug });
  return Object.fromEntries(rows.map((row) => [row.slug, row.id])) as Record<TestSlug, number>;
}

/**
 * {@link seedTestCatalogue} in the migrated database at `url` (the browser tests' template, the bench's databases),
 * through a connection of its own.
 */
export async function seedTestCatalogueAt(url: string): Promise<void> {
  const pool = new Pool({ connectionString: url, max: 1 });
  try {
    await seedTestCatalogue(drizzle(pool, { schema, casing: "snake_case" }));
  } finally {
    await pool.end();
  }
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
