import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { getLocale, getTranslations } from "next-intl/server";
import { AddToCartForm } from "@/components/add-to-cart-form";
import { ProductImage } from "@/components/product-image";
import { findProduct } from "@/lib/catalog";
import { formatMoney } from "@/lib/money";

type Props = { params: Promise<{ slug: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const [product, locale, t] = await Promise.all([
    params.then((p) => findProduct(p.slug)),
    getLocale(),
    getTranslations("meta"),
  ]);
  return { title: product?.name[locale] ?? t("productNotFound") };
}

export default async function ProductPage({ params }: Props) {
  const product = findProduct((await params).slug);
  if (!product) notFound();
  const [locale, t] = await Promise.all([getLocale(), getTranslations("product")]);
  return (
    <article className="grid gap-8 md:grid-cols-2">
      <ProductImage
        src={product.image}
        size={600}
        priority
        className="aspect-square w-full rounded-xl border border-sand-200 bg-sand-100"
      />
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">{product.name[locale]}</h1>
        <p className="mt-2 text-xl">{formatMoney(product.priceMinor, locale)}</p>
        <p className="mt-4 text-stone-700">{product.description[locale]}</p>
        <AddToCartForm
          slug={product.slug}
          labels={{ quantity: t("quantity"), add: t("add"), adding: t("adding"), viewCart: t("viewCart") }}
        />
      </div>
    </article>
  );
}
