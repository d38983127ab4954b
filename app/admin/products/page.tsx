import type { Metadata } from "next";
import { PageLink } from "@/components/page-link";
import { getLocale, getTranslations } from "next-intl/server";
import { z } from "zod";
import { ProductImage } from "@/components/product-image";
import { PageHeader, TextLink } from "@/components/admin/page-header";
import { columnsOf, LIST_CELL, OffTag, PHONE_ONLY, Table, WIDE_ONLY } from "@/components/admin/table";
import { card, primaryAction, secondaryAction } from "@/components/styles";
import { requireAdmin } from "@/lib/admin/auth";
import {
  catalogueIsEmpty,
  listProductsForAdmin,
  parseProductListQuery,
  PRODUCT_FILTERS,
} from "@/lib/catalog/back-office";
import { getDb } from "@/lib/db/client";
import { formatMoney } from "@/lib/money";
import { ListSearchForm } from "@/components/admin/list-search-form";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("admin.products.list"))("title") };
}

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/** Where the CSV import lives (its own page, app/admin/products/import). */
const IMPORT_PATH = "/admin/products/import";

/**
 * The catalogue as the merchant manages it: every product with its first picture, name in the admin's language,
 * price, stock (on hand and available now) and whether the shop shows it; search by name or slug; filters hidden,
 * sold out, low stock and archived (lib/catalog/deletion.ts; the list leaves them out otherwise). An empty catalogue says
 * how to start one.
 */
export default async function AdminProductsPage({ searchParams }: Props) {
  await requireAdmin();
  const [params, locale, t] = await Promise.all([searchParams, getLocale(), getTranslations("admin.products.list")]);
  const { query, ignored } = parseProductListQuery(params);
  const notFound = z.literal("not_found").safeParse(params.result).success;
  const deleted = z.literal("deleted").safeParse(params.result).success;
  const db = getDb();
  const [{ products, total }, empty] = await Promise.all([listProductsForAdmin(db, query), catalogueIsEmpty(db)]);

  return (
    <section>
      <PageHeader
        title={t("title")}
        aside={
          <div className="flex flex-wrap gap-2">
            <PageLink href={IMPORT_PATH} className={secondaryAction}>
              {t("import")}
            </PageLink>
            <PageLink href="/admin/products/new" className={primaryAction}>
              {t("add")}
            </PageLink>
          </div>
        }
      />
      {notFound && (
        <p role="alert" className="mt-3 rounded-lg border border-amber-300 bg-amber-50 p-3 text-amber-900">
          {t("notFound")}
        </p>
      )}
      {deleted && (
        <p
          role="status"
          data-testid="product-result"
          className="mt-3 rounded-lg border border-green-300 bg-green-50 p-3 text-green-900"
        >
          {t("deleted")}
        </p>
      )}
      {ignored.length > 0 && (
        <p role="status" className="mt-3 rounded-lg border border-amber-300 bg-amber-50 p-3 text-amber-900">
          {t("ignored", { names: ignored.join(", ") })}
        </p>
      )}

      {empty ? (
        <div className={`mt-6 ${card} p-6 text-center`} data-testid="products-empty">
          <h2 className="text-lg font-semibold">{t("emptyTitle")}</h2>
          <p className="mx-auto mt-2 max-w-xl text-stone-700">{t("emptyText")}</p>
          <div className="mt-4 flex flex-wrap justify-center gap-2">
            <PageLink href="/admin/products/new" className={primaryAction}>
              {t("add")}
            </PageLink>
            <PageLink href={IMPORT_PATH} className={secondaryAction}>
              {t("import")}
            </PageLink>
          </div>
        </div>
      ) : (
        <>
          <ListSearchForm
            namespace="admin.products.list"
            path="/admin/products"
            filter={{
              name: "filter",
              value: query.filter ?? "",
              options: PRODUCT_FILTERS.map((value) => ({ value, label: t(`filters.${value}`) })),
            }}
            search={{ value: query.q ?? "" }}
          />

          <p className="mt-4" data-testid="products-summary">
            {t("summary", { count: total })}
            {total > products.length && <> · {t("truncated", { shown: products.length, total })}</>}
          </p>

          <Table
            look="list"
            className="mt-3"
            region={{ label: t("table") }}
            minWidth="sm:min-w-[40rem]"
            caption={t("caption")}
            columns={columnsOf(
              ["picture", "name", "price", "stock", "status"] as const,
              (key) => t(key),
              ["price"],
              ["stock"],
            )}
            empty={products.length === 0 && t("none")}
          >
            {products.map((product, index) => {
              const stock =
                product.stock === null
                  ? t("notCounted")
                  : t("stockValue", { onHand: product.stock, available: product.available ?? 0 });
              return (
                <tr key={product.id} data-testid="admin-product-row">
                  <td className={LIST_CELL}>
                    <ProductImage
                      src={product.thumbnail ?? undefined}
                      size={48}
                      // The first screenful at once; the rest as they are scrolled to.
                      priority={index < 12}
                      className="size-12 rounded-md bg-stone-100 object-cover"
                    />
                  </td>
                  <th scope="row" className={`${LIST_CELL} text-start font-normal`}>
                    <TextLink href={`/admin/products/${product.id}`} dir="auto">
                      {locale === "ar" ? product.nameAr : product.nameEn}
                    </TextLink>
                    <span className="block font-mono text-xs text-stone-600 max-sm:break-all">
                      <span dir="ltr">{product.slug}</span>
                    </span>
                    {/* On a phone the stock, whose column it hides, under the name. */}
                    <span className={`${PHONE_ONLY} block text-xs text-stone-600`}>{stock}</span>
                  </th>
                  <td className={`${LIST_CELL} text-end whitespace-nowrap`}>
                    {formatMoney(product.priceMinor, locale)}
                  </td>
                  <td className={`${LIST_CELL} ${WIDE_ONLY} whitespace-nowrap`} data-testid="admin-product-stock">
                    {stock}
                  </td>
                  <td className={LIST_CELL}>
                    {product.archived ? (
                      <OffTag>{t("archived")}</OffTag>
                    ) : product.visible ? (
                      t("visible")
                    ) : (
                      <OffTag>{t("hidden")}</OffTag>
                    )}
                  </td>
                </tr>
              );
            })}
          </Table>
        </>
      )}
    </section>
  );
}
