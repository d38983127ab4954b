import { getLocale, getTranslations } from "next-intl/server";
import { ProductImage } from "@/components/product-image";
import { ShopLink } from "@/components/shop-link";
import { PRODUCTS } from "@/lib/catalog";
import { formatMoney } from "@/lib/money";

export default async function HomePage() {
  const [locale, t] = await Promise.all([getLocale(), getTranslations("home")]);
  return (
    <>
      <h1 className="text-2xl font-semibold tracking-tight">{t("title")}</h1>
      <p className="mt-1 text-stone-600">{t("subtitle")}</p>
      <ul className="mt-6 grid grid-cols-2 gap-4 sm:grid-cols-3 lg:grid-cols-4">
        {PRODUCTS.map((product, index) => (
          <li key={product.slug}>
            <ShopLink
              href={`/products/${product.slug}`}
              className="group block overflow-hidden rounded-xl border border-sand-200 bg-white transition hover:shadow-md"
            >
              <ProductImage
                src={product.image}
                size={400}
                priority={index < 4}
                className="aspect-square w-full bg-sand-100 object-cover"
              />
              <div className="p-3">
                <h2 className="text-sm font-medium group-hover:underline">{product.name[locale]}</h2>
                <p className="mt-1 text-sm text-stone-700">{formatMoney(product.priceMinor, locale)}</p>
              </div>
            </ShopLink>
          </li>
        ))}
      </ul>
    </>
  );
}
