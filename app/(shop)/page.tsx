import { getLocale, getTranslations } from "next-intl/server";
import { EmptyState } from "@/components/empty-state";
import { ProductImage } from "@/components/product-image";
import { PageLink } from "@/components/page-link";
import { readOrUnavailable } from "@/components/database-unavailable";
import { BRAND } from "@/lib/brand";
import { heldUntil, listProducts, parsePageParam } from "@/lib/catalog/products";
import { getDb } from "@/lib/db/client";
import { formatMoney } from "@/lib/money";

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/** The home page's address for page `n` (page 1 is the home page itself). */
const pageHref = (n: number) => (n === 1 ? "/" : `/?page=${n}`);

const pageLink = "rounded-lg border border-brand-700 bg-white px-4 py-2 font-medium text-brand-800 hover:bg-sand-100";

/**
 * The shop's window: the visible products in the merchant's order, a page at a time (`?page=N`), sold out ones said
 * so. A `page` that is not a page number shows page 1 and says so; one beyond the end shows the last page.
 */
export default async function HomePage({ searchParams }: Props) {
  const [locale, t, params] = await Promise.all([getLocale(), getTranslations("home"), searchParams]);
  const asked = parsePageParam(params.page);
  const read = await readOrUnavailable(() => listProducts(getDb(), { page: asked.page }), {
    event: "home_page_unavailable",
    href: "/",
  });
  if (read.unavailable) return read.unavailable;
  const list = read.data;
  const { products, page, pages } = list;
  if (products.length === 0) {
    // A new shop: nothing to sell yet. The merchant adds products in the back office.
    return (
      <EmptyState title={t("emptyTitle")} text={t("emptyText")} action={t("emptyAction")} href="/admin/products" />
    );
  }
  return (
    <>
      <h1 className="text-2xl font-semibold tracking-tight">{BRAND.headline[locale]}</h1>
      <p className="mt-1 text-stone-600">{t("subtitle")}</p>
      {(asked.invalid !== undefined || list.beyond) && (
        <p role="status" className="mt-4 rounded-lg border border-amber-300 bg-amber-50 p-3 text-amber-900">
          {asked.invalid !== undefined
            ? t("pagination.invalid", { value: asked.invalid })
            : t("pagination.beyond", { pages })}
        </p>
      )}
      <ul className="mt-6 grid grid-cols-2 gap-4 sm:grid-cols-3 lg:grid-cols-4">
        {products.map((product, index) => (
          <li key={product.id}>
            <PageLink
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
                      {/* Units other checkouts hold come back when their payment pages die: not sold out. */}
                      {heldUntil(product, 1) ? t("held") : t("soldOut")}
                    </span>
                  )}
                </p>
              </div>
            </PageLink>
          </li>
        ))}
      </ul>
      {pages > 1 && (
        <nav aria-label={t("pagination.label")} className="mt-8 flex items-center justify-between gap-3">
          {page > 1 ? (
            <PageLink href={pageHref(page - 1)} rel="prev" className={pageLink}>
              {t("pagination.previous")}
            </PageLink>
          ) : (
            <span />
          )}
          <p className="text-sm text-stone-700">{t("pagination.status", { page, pages })}</p>
          {page < pages ? (
            <PageLink href={pageHref(page + 1)} rel="next" className={pageLink}>
              {t("pagination.next")}
            </PageLink>
          ) : (
            <span />
          )}
        </nav>
      )}
    </>
  );
}
