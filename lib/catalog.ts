import type { Locale } from "./i18n/config";
import type { MinorUnits } from "./money";

/**
 * The shop's products. Swap this file for your own catalogue (or a fetch from your CMS): the rest of the app only
 * uses {@link PRODUCTS}, {@link findProduct} and the {@link Product} shape. Prices are integer minor units (1/100 LYD)
 * and are the only prices the checkout ever charges: a price in a form or cookie is never trusted.
 */
export interface Product {
  /** Stable id, used in URLs (`/products/<slug>`) and in the cart cookie. */
  slug: string;
  /** Name and description in each of the shop's languages. */
  name: Record<Locale, string>;
  description: Record<Locale, string>;
  priceMinor: MinorUnits;
  /** Path of a local image under `public/`. */
  image: string;
}

export const PRODUCTS: readonly Product[] = [
  {
    slug: "deglet-nour-dates",
    name: { en: "Deglet Nour dates, 1 kg", ar: "تمر دقلة نور، 1 كغ" },
    description: {
      en: "Soft, honey-sweet dates from the oases of the Fezzan, packed in a reusable palm-leaf box.",
      ar: "تمر طري بحلاوة العسل من واحات فزان، في علبة من سعف النخيل قابلة لإعادة الاستخدام.",
    },
    priceMinor: 2_500,
    image: "/products/dates.svg",
  },
  {
    slug: "olive-oil",
    name: { en: "Extra virgin olive oil, 750 ml", ar: "زيت زيتون بكر ممتاز، 750 مل" },
    description: {
      en: "Cold-pressed from the groves of the Jabal Nafusa, peppery and green.",
      ar: "معصور على البارد من بساتين جبل نفوسة، بنكهة خضراء لاذعة.",
    },
    priceMinor: 4_250,
    image: "/products/olive-oil.svg",
  },
  {
    slug: "ghadames-slippers",
    name: { en: "Ghadames leather slippers", ar: "خُف غدامسي من الجلد" },
    description: {
      en: "Hand-stitched red leather with embroidered patterns in the style of the old town of Ghadames.",
      ar: "جلد أحمر مخيط يدويًا بزخارف مطرزة على طراز مدينة غدامس القديمة.",
    },
    priceMinor: 8_900,
    image: "/products/slippers.svg",
  },
  {
    slug: "ceramic-bowl",
    name: { en: "Glazed ceramic bowl", ar: "سلطانية خزفية مزججة" },
    description: {
      en: "A wide serving bowl glazed in blue and white, made by potters in Gharyan.",
      ar: "طبق تقديم واسع مزجج بالأزرق والأبيض، من صنع خزافي غريان.",
    },
    priceMinor: 3_575,
    image: "/products/bowl.svg",
  },
  {
    slug: "mint-tea-set",
    name: { en: "Mint tea set", ar: "طقم شاي بالنعناع" },
    description: {
      en: "A brass teapot and six painted glasses for green tea with fresh mint.",
      ar: "إبريق نحاسي وستة أكواب مزخرفة للشاي الأخضر بالنعناع الطازج.",
    },
    priceMinor: 12_000,
    image: "/products/tea-set.svg",
  },
  {
    slug: "woven-kilim",
    name: { en: "Woven wool kilim, 120 × 180 cm", ar: "كليم صوفي منسوج، 120 × 180 سم" },
    description: {
      en: "A flat-woven rug in red, ochre and black, made on a village loom.",
      ar: "بساط منسوج يدويًا بالأحمر والمغرة والأسود على نول قروي.",
    },
    priceMinor: 45_000,
    image: "/products/kilim.svg",
  },
  {
    slug: "silver-pendant",
    name: { en: "Tuareg silver pendant", ar: "قلادة فضية طارقية" },
    description: {
      en: "A hand-engraved silver cross of the desert, on a black cotton cord.",
      ar: "صليب الصحراء الفضي منقوش يدويًا، على خيط قطني أسود.",
    },
    priceMinor: 15_950,
    image: "/products/pendant.svg",
  },
  {
    slug: "saffron",
    name: { en: "Saffron threads, 2 g", ar: "خيوط الزعفران، 2 غ" },
    description: {
      en: "Deep-red threads for rice, couscous and sweets.",
      ar: "خيوط حمراء داكنة للأرز والكسكسي والحلويات.",
    },
    priceMinor: 1_875,
    image: "/products/saffron.svg",
  },
];

const bySlug = new Map(PRODUCTS.map((product) => [product.slug, product]));

/** Looks a product up by slug; `undefined` for anything not in the catalogue. */
export function findProduct(slug: string): Product | undefined {
  return bySlug.get(slug);
}
