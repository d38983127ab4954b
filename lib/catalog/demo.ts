import "server-only";
import { readFile } from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import type { Db } from "../db/client";
import { productPictures, products, type ProductKind } from "../db/schema";
import type { Locale } from "../i18n/config";
import type { MinorUnits } from "../money";
import { recordCatalogEvent } from "./editing";
import { storePicture } from "./pictures";

/**
 * The demo shop's catalogue: what a new development database is filled with (lib/startup.ts, `npm run dev` only), so
 * the shop has something to sell on its first start. Production never gets it: a new shop starts empty, and the
 * merchant adds products in the back office (or imports a CSV). Replace it with your own products, or delete it.
 */
interface DemoProduct {
  slug: string;
  name: Record<Locale, string>;
  description: Record<Locale, string>;
  priceMinor: MinorUnits;
  /** Units on hand, or `null`: not counted. */
  stock: number | null;
  /** Goods to deliver, unless `digital` (lib/db/schema.ts, PRODUCT_KINDS). */
  kind?: ProductKind;
  /** Its picture, a drawing in lib/catalog/demo/. */
  picture: string;
}

const DEMO: readonly DemoProduct[] = [
  {
    slug: "deglet-nour-dates",
    name: { en: "Deglet Nour dates, 1 kg", ar: "تمر دقلة نور، 1 كغ" },
    description: {
      en: "Soft, honey-sweet dates from the oases of the Fezzan, packed in a reusable palm-leaf box.",
      ar: "تمر طري بحلاوة العسل من واحات فزان، في علبة من سعف النخيل قابلة لإعادة الاستخدام.",
    },
    priceMinor: 2_500,
    stock: 40,
    picture: "dates.svg",
  },
  {
    slug: "olive-oil",
    name: { en: "Extra virgin olive oil, 750 ml", ar: "زيت زيتون بكر ممتاز، 750 مل" },
    description: {
      en: "Cold-pressed from the groves of the Jabal Nafusa, peppery and green.",
      ar: "معصور على البارد من بساتين جبل نفوسة، بنكهة خضراء لاذعة.",
    },
    priceMinor: 4_250,
    stock: 25,
    picture: "olive-oil.svg",
  },
  {
    slug: "ghadames-slippers",
    name: { en: "Ghadames leather slippers", ar: "خُف غدامسي من الجلد" },
    description: {
      en: "Hand-stitched red leather with embroidered patterns in the style of the old town of Ghadames.",
      ar: "جلد أحمر مخيط يدويًا بزخارف مطرزة على طراز مدينة غدامس القديمة.",
    },
    priceMinor: 8_900,
    stock: 6,
    picture: "slippers.svg",
  },
  {
    slug: "ceramic-bowl",
    name: { en: "Glazed ceramic bowl", ar: "سلطانية خزفية مزججة" },
    description: {
      en: "A wide serving bowl glazed in blue and white, made by potters in Gharyan.",
      ar: "طبق تقديم واسع مزجج بالأزرق والأبيض، من صنع خزافي غريان.",
    },
    priceMinor: 3_575,
    stock: null,
    picture: "bowl.svg",
  },
  {
    slug: "mint-tea-set",
    name: { en: "Mint tea set", ar: "طقم شاي بالنعناع" },
    description: {
      en: "A brass teapot and six painted glasses for green tea with fresh mint.",
      ar: "إبريق نحاسي وستة أكواب مزخرفة للشاي الأخضر بالنعناع الطازج.",
    },
    priceMinor: 12_000,
    stock: 3,
    picture: "tea-set.svg",
  },
  {
    slug: "woven-kilim",
    name: { en: "Woven wool kilim, 120 × 180 cm", ar: "كليم صوفي منسوج، 120 × 180 سم" },
    description: {
      en: "A flat-woven rug in red, ochre and black, made on a village loom.",
      ar: "بساط منسوج يدويًا بالأحمر والمغرة والأسود على نول قروي.",
    },
    priceMinor: 45_000,
    stock: 1,
    picture: "kilim.svg",
  },
  {
    slug: "silver-pendant",
    name: { en: "Tuareg silver pendant", ar: "قلادة فضية طارقية" },
    description: {
      en: "A hand-engraved silver cross of the desert, on a black cotton cord.",
      ar: "صليب الصحراء الفضي منقوش يدويًا، على خيط قطني أسود.",
    },
    priceMinor: 15_950,
    stock: null,
    picture: "pendant.svg",
  },
  {
    slug: "saffron",
    name: { en: "Saffron threads, 2 g", ar: "خيوط الزعفران، 2 غ" },
    description: {
      en: "Deep-red threads for rice, couscous and sweets.",
      ar: "خيوط حمراء داكنة للأرز والكسكسي والحلويات.",
    },
    priceMinor: 1_875,
    stock: null,
    picture: "saffron.svg",
  },
  {
    slug: "gift-card",
    name: { en: "Digital gift card, 50 LYD", ar: "بطاقة هدية رقمية، 50 د.ل" },
    description: {
      en: "Sent by e-mail with its code: nothing to deliver, and it never runs out.",
      ar: "تُرسل بالبريد الإلكتروني مع رمزها: لا شيء يُوصَّل، ولا تنفد أبدًا.",
    },
    priceMinor: 5_000,
    stock: null,
    kind: "digital",
    picture: "gift-card.svg",
  },
];

/** Who the demo catalogue's audit rows name. */
const SEEDED_BY = "demo catalogue";

/**
 * Fills an empty catalogue with the demo products and their pictures (each drawing rendered to a PNG, then stored as
 * any upload is). Does nothing when there is a product already.
 * @returns how many products it added.
 */
export async function seedDemoCatalogue(db: Db): Promise<number> {
  const [any] = await db.select({ id: products.id }).from(products).limit(1);
  if (any) return 0;
  for (const [index, product] of DEMO.entries()) {
    const drawing = await readFile(path.join(process.cwd(), "lib/catalog/demo", product.picture));
    const png = await sharp(drawing, { density: 144 }).resize(800, 800).png().toBuffer();
    await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(products)
        .values({
          slug: product.slug,
          nameEn: product.name.en,
          nameAr: product.name.ar,
          descriptionEn: product.description.en,
          descriptionAr: product.description.ar,
          priceMinor: product.priceMinor,
          stock: product.stock,
          kind: product.kind ?? "physical",
          sortOrder: index,
        })
        .returning({ id: products.id });
      const picture = await storePicture(tx, png);
      if ("refused" in picture) throw new Error(`demo picture ${product.picture}: ${picture.refused}`);
      await tx.insert(productPictures).values({ productId: row!.id, position: 0, ...picture });
      await recordCatalogEvent(tx, row!.id, "created", SEEDED_BY, { slug: product.slug });
    });
  }
  return DEMO.length;
}
