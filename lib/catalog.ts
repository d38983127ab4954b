import type { MinorUnits } from "./money";

/**
 * The shop's products. Swap this file for your own catalogue (or a fetch from your CMS): the rest of the app only
 * uses {@link PRODUCTS}, {@link findProduct} and the {@link Product} shape. Prices are integer minor units (1/100 LYD)
 * and are the only prices the checkout ever charges: a price in a form or cookie is never trusted.
 */
export interface Product {
  /** Stable id, used in URLs (`/products/<slug>`) and in the cart cookie. */
  slug: string;
  name: string;
  description: string;
  priceMinor: MinorUnits;
  /** Path of a local image under `public/`. */
  image: string;
}

export const PRODUCTS: readonly Product[] = [
  {
    slug: "deglet-nour-dates",
    name: "Deglet Nour dates, 1 kg",
    description: "Soft, honey-sweet dates from the oases of the Fezzan, packed in a reusable palm-leaf box.",
    priceMinor: 2_500,
    image: "/products/dates.svg",
  },
  {
    slug: "olive-oil",
    name: "Extra virgin olive oil, 750 ml",
    description: "Cold-pressed from the groves of the Jabal Nafusa, peppery and green.",
    priceMinor: 4_250,
    image: "/products/olive-oil.svg",
  },
  {
    slug: "ghadames-slippers",
    name: "Ghadames leather slippers",
    description: "Hand-stitched red leather with embroidered patterns in the style of the old town of Ghadames.",
    priceMinor: 8_900,
    image: "/products/slippers.svg",
  },
  {
    slug: "ceramic-bowl",
    name: "Glazed ceramic bowl",
    description: "A wide serving bowl glazed in blue and white, made by potters in Gharyan.",
    priceMinor: 3_575,
    image: "/products/bowl.svg",
  },
  {
    slug: "mint-tea-set",
    name: "Mint tea set",
    description: "A brass teapot and six painted glasses for green tea with fresh mint.",
    priceMinor: 12_000,
    image: "/products/tea-set.svg",
  },
  {
    slug: "woven-kilim",
    name: "Woven wool kilim, 120 × 180 cm",
    description: "A flat-woven rug in red, ochre and black, made on a village loom.",
    priceMinor: 45_000,
    image: "/products/kilim.svg",
  },
  {
    slug: "silver-pendant",
    name: "Tuareg silver pendant",
    description: "A hand-engraved silver cross of the desert, on a black cotton cord.",
    priceMinor: 15_950,
    image: "/products/pendant.svg",
  },
  {
    slug: "saffron",
    name: "Saffron threads, 2 g",
    description: "Deep-red threads for rice, couscous and sweets.",
    priceMinor: 1_875,
    image: "/products/saffron.svg",
  },
];

const bySlug = new Map(PRODUCTS.map((product) => [product.slug, product]));

/** Looks a product up by slug; `undefined` for anything not in the catalogue. */
export function findProduct(slug: string): Product | undefined {
  return bySlug.get(slug);
}
