import type { Metadata } from "next";
import { getLocale, getTranslations } from "next-intl/server";
import { CartLineControls } from "@/components/cart-line-controls";
import { EmptyState } from "@/components/empty-state";
import { LinkButton } from "@/components/link-button";
import { ProductImage } from "@/components/product-image";
import { PageLink } from "@/components/page-link";
import { CartLineRemove } from "@/components/cart-line-controls";
import { readOrUnavailable } from "@/components/database-unavailable";
import { priceCart } from "@/lib/cart";
import { getDb } from "@/lib/db/client";
import { formatMoney } from "@/lib/money";
import { minutesUntil } from "@/lib/time";
import { getSession } from "@/lib/session";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("meta"))("cart") };
}

/**
 * The cart, priced from the catalogue as it is now: each line's price (and when it changed since it was added),
 * what the stock can still cover, and the lines whose product left the shop. The checkout charges what this shows.
 */
export default async function CartPage() {
  const [{ cart }, locale, t] = await Promise.all([getSession(), getLocale(), getTranslations("cart")]);
  const read = await readOrUnavailable(() => priceCart(getDb(), cart), {
    event: "cart_page_unavailable",
    href: "/cart",
  });
  if (read.unavailable) return read.unavailable;
  const priced = read.data;

  if (priced.lines.length === 0 && priced.unavailable.length === 0) {
    return <EmptyState title={t("emptyTitle")} text={t("emptyText")} action={t("browse")} href="/" />;
  }

  return (
    <section>
      <h1 className="text-2xl font-semibold tracking-tight">{t("title")}</h1>
      {priced.unavailable.length > 0 && (
        <div role="status" className="mt-4 rounded-lg border border-amber-300 bg-amber-50 p-3 text-amber-900">
          <p>{t("unavailable")}</p>
          <ul className="mt-1 list-disc ps-5">
            {priced.unavailable.map(({ productId, name }) => (
              <li key={productId} className="flex flex-wrap items-center gap-x-3" data-testid="cart-unavailable">
                {name?.[locale] ?? t("unknownProduct")}
                <CartLineRemove productId={productId} label={t("remove")} pendingLabel={t("removing")} />
              </li>
            ))}
          </ul>
        </div>
      )}
      <ul className="mt-6 divide-y divide-sand-200 rounded-xl border border-sand-200 bg-white">
        {priced.lines.map(({ product, quantity, totalMinor, seenMinor, available, heldUntil, most }) => {
          const name = product.name[locale];
          return (
            <li key={product.id} className="flex gap-4 p-4" data-testid="cart-line">
              <ProductImage src={product.pictures[0]?.small} size={80} className="size-20 rounded-lg bg-sand-100" />
              <div className="flex flex-1 flex-col gap-2">
                <div className="flex justify-between gap-4">
                  <PageLink href={`/products/${product.slug}`} className="font-medium hover:underline">
                    {name}
                  </PageLink>
                  <span className="whitespace-nowrap">{formatMoney(totalMinor, locale)}</span>
                </div>
                <p className="text-sm text-stone-600">
                  {t("each", { price: formatMoney(product.priceMinor, locale) })}
                </p>
                {seenMinor !== undefined && (
                  <p className="text-sm text-amber-800" data-testid="price-changed">
                    {t("priceChanged", {
                      before: formatMoney(seenMinor, locale),
                      now: formatMoney(product.priceMinor, locale),
                    })}
                  </p>
                )}
                {most !== undefined && (
                  <p className="text-sm text-red-800" data-testid="over-most">
                    {t("overMost", { max: most })}
                  </p>
                )}
                {heldUntil ? (
                  <p className="text-sm text-amber-800" data-testid="held-stock">
                    {t("held", { minutes: minutesUntil(heldUntil) })}
                  </p>
                ) : (
                  available !== undefined && (
                    <p className="text-sm text-red-800" data-testid="short-stock">
                      {available === 0 ? t("soldOut") : t("onlyLeft", { left: available })}
                    </p>
                  )
                )}
                <CartLineControls
                  productId={product.id}
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
        {priced.lines.some((line) => line.product.kind === "physical") && (
          <p className="text-sm text-stone-600">{t("deliveryAtCheckout")}</p>
        )}
        {priced.lines.length > 0 && <LinkButton href="/checkout">{t("toCheckout")}</LinkButton>}
      </div>
    </section>
  );
}
