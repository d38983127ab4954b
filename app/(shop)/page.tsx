import { getLocale, getTranslations } from "next-intl/server";
import { EmptyState } from "@/components/empty-state";
import { ProductImage } from "@/components/product-image";
import { ShopLink } from "@/components/shop-link";
import { DatabaseUnavailable } from "@/components/database-unavailable";
import { listProducts, type Product } from "@/lib/catalog/products";
import { describeDbFailure } from "@/lib/db/errors";
import { logger } from "@/lib/log";
import { formatMoney } from "@/lib/money";

/** The shop's window: every visible product, in the merchant's order, sold out ones said so. */
export default async function HomePage() {
  const [locale, t] = await Promise.all([getLocale(), getTranslations("home")]);
  let products: Product[];
  try {
    products = await listProducts();
  } catch (error) {
    logger.error({ event: "home_page_unavailable", ...describeDbFailure(error) });
    return (
      <DatabaseUnavailable
        title={t("unavailable.title")}
        text={t("unavailable.text")}
        reload={t("unavailable.reload")}
        href="/"
      />
    );
  }
  if (products.length === 0) {
    // A new shop: nothing to sell yet. The merchant adds products in the back office.
    return (
      <EmptyState title={t("emptyTitle")} text={t("emptyText")} action={t("emptyAction")} href="/admin/products" />
    );
  }
  return (
    <>
      <h1 className="text-2xl font-semibold tracking-tight">{t("title")}</h1>
      <p className="mt-1 text-stone-600">{t("subtitle")}</p>
      <ul className="mt-6 grid grid-cols-2 gap-4 sm:grid-cols-3 lg:grid-cols-4">
        {products.map((product, index) => (
          <li key={product.id}>
            <ShopLink
              href={`/products/${product.slug}`}
              className="group block overflow-hidden rounded-xl border border-sand-200 bg-white transition hover:shadow-md"
            >
              <ProductImage
                src={product.pictures[0]?.small}
                size={400}
                priority={index < 4}
                className="aspect-square w-full bg-sand-100 object-cover"
              />
              <div className="p-3">
                <h2 className="text-sm font-medium group-hover:underline">{product.name[locale]}</h2>
                <p className="mt-1 text-sm text-stone-700">
                  {formatMoney(product.priceMinor, locale)}
                  {product.available === 0 && (
                    <span className="ms-2 rounded-full bg-stone-200 px-2 py-0.5 text-xs text-stone-800">
                      {t("soldOut")}
                    </span>
                  )}
                </p>
              </div>
            </ShopLink>
          </li>
        ))}
      </ul>
    </>
  );
}
