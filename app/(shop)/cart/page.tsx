import type { Metadata } from "next";
import { getLocale, getTranslations } from "next-intl/server";
import { CartLineControls } from "@/components/cart-line-controls";
import { EmptyState } from "@/components/empty-state";
import { LinkButton } from "@/components/link-button";
import { ProductImage } from "@/components/product-image";
import { ShopLink } from "@/components/shop-link";
import { priceCart } from "@/lib/cart";
import { formatMoney } from "@/lib/money";
import { getSession } from "@/lib/session";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("meta"))("cart") };
}

export default async function CartPage() {
  const [{ cart }, locale, t] = await Promise.all([getSession(), getLocale(), getTranslations("cart")]);
  const priced = priceCart(cart);

  if (priced.lines.length === 0) {
    return <EmptyState title={t("emptyTitle")} text={t("emptyText")} action={t("browse")} href="/" />;
  }

  return (
    <section>
      <h1 className="text-2xl font-semibold tracking-tight">{t("title")}</h1>
      <ul className="mt-6 divide-y divide-sand-200 rounded-xl border border-sand-200 bg-white">
        {priced.lines.map(({ product, quantity, totalMinor }) => {
          const name = product.name[locale];
          return (
            <li key={product.slug} className="flex gap-4 p-4" data-testid="cart-line">
              <ProductImage src={product.image} size={80} className="size-20 rounded-lg bg-sand-100" />
              <div className="flex flex-1 flex-col gap-2">
                <div className="flex justify-between gap-4">
                  <ShopLink href={`/products/${product.slug}`} className="font-medium hover:underline">
                    {name}
                  </ShopLink>
                  <span className="whitespace-nowrap">{formatMoney(totalMinor, locale)}</span>
                </div>
                <p className="text-sm text-stone-600">
                  {t("each", { price: formatMoney(product.priceMinor, locale) })}
                </p>
                <CartLineControls
                  slug={product.slug}
                  name={name}
                  quantity={quantity}
                  labels={{
                    quantityOf: t("quantityOf", { name }),
                    update: t("update"),
                    updateOf: t("updateOf", { name }),
                    updating: t("updating"),
                    remove: t("remove"),
                    removing: t("removing"),
                  }}
                />
              </div>
            </li>
          );
        })}
      </ul>
      <div className="mt-6 flex flex-col items-end gap-3">
        <p className="text-lg">
          {t("total")} <strong data-testid="cart-total">{formatMoney(priced.totalMinor, locale)}</strong>
        </p>
        <LinkButton href="/checkout">{t("toCheckout")}</LinkButton>
      </div>
    </section>
  );
}
