import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { getLocale, getTranslations } from "next-intl/server";
import { AddToCartForm } from "@/components/add-to-cart-form";
import { ProductImage } from "@/components/product-image";
import { readOrUnavailable } from "@/components/database-unavailable";
import { findProduct, heldUntil } from "@/lib/catalog/products";
import { LOW_STOCK } from "@/lib/catalog/stock";
import { formatMoney } from "@/lib/money";
import { minutesUntil } from "@/lib/time";

type Props = { params: Promise<{ slug: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const [product, locale, t] = await Promise.all([
    params.then((p) => findProduct(p.slug)).catch(() => undefined),
    getLocale(),
    getTranslations("meta"),
  ]);
  return { title: product?.name[locale] ?? t("productNotFound") };
}

/**
 * One product: its pictures, price, description, and "Add to cart" — or "Sold out", which cannot be added, or "Held by
 * other checkouts — try again in N minutes" when unpaid checkouts hold what is on hand.
 */
export default async function ProductPage({ params }: Props) {
  const [{ slug }, locale, t] = await Promise.all([params, getLocale(), getTranslations("product")]);
  const read = await readOrUnavailable(() => findProduct(slug), {
    event: "product_page_unavailable",
    href: `/products/${encodeURIComponent(slug)}`,
  });
  if (read.unavailable) return read.unavailable;
  const product = read.data;
  if (!product) notFound();
  const [first, ...others] = product.pictures;
  const held = heldUntil(product, 1);
  return (
    <article className="grid gap-8 md:grid-cols-2">
      <div className="grid gap-3">
        <ProductImage
          src={first?.large}
          size={600}
          priority
          className="aspect-square w-full rounded-xl border border-sand-200 bg-sand-100 object-contain"
        />
        {others.length > 0 && (
          <ul className="grid grid-cols-4 gap-2">
            {others.map((picture) => (
              <li key={picture.large}>
                <a href={picture.large}>
                  <ProductImage
                    src={picture.small}
                    size={150}
                    className="aspect-square w-full rounded-lg border border-sand-200 object-cover"
                  />
                </a>
              </li>
            ))}
          </ul>
        )}
      </div>
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">{product.name[locale]}</h1>
        <p className="mt-2 text-xl">{formatMoney(product.priceMinor, locale)}</p>
        <p className="mt-4 text-stone-700">{product.description[locale]}</p>
        {held ? (
          <p className="mt-6 font-medium text-stone-800" data-testid="held">
            {t("held", { minutes: minutesUntil(held) })}
          </p>
        ) : product.available === 0 ? (
          <p className="mt-6 font-medium text-stone-800" data-testid="sold-out">
            {t("soldOut")}
          </p>
        ) : (
          <>
            {product.available !== null && product.available <= LOW_STOCK && (
              <p className="mt-4 text-sm text-amber-800">{t("fewLeft", { left: product.available })}</p>
            )}
            <AddToCartForm
              productId={product.id}
              labels={{ quantity: t("quantity"), add: t("add"), adding: t("adding"), viewCart: t("viewCart") }}
            />
          </>
        )}
      </div>
    </article>
  );
}
