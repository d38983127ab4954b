import { PageLink } from "@/components/page-link";
import { getTranslations } from "next-intl/server";
import { LOW_STOCK } from "@/lib/catalog/stock";
import { UNKNOWN_GATEWAY } from "@/lib/dashboard/conditions";
import type { Dashboard } from "@/lib/dashboard/figures";
import { orderLabels } from "../labels";
import { Section } from "../section";
import { columnsOf, Table } from "../table";
import { homeFormat, linkClass, paidIn } from "./format";
import { PanelList } from "./parts";

/** Products sold out and running low (each count linked to the products list), and the first of them. */
export async function StockPanel({ stock }: Pick<Dashboard, "stock">) {
  const [t, { locale }] = await Promise.all([getTranslations("admin.dashboard"), homeFormat()]);
  return (
    <Section id="stock" title={t("stock")}>
      <ul className="mt-1 space-y-1">
        <li>
          <PageLink href="/admin/products?filter=sold_out" className={linkClass} data-testid="sold-out-count">
            {t("soldOut", { count: stock.soldOut })}
          </PageLink>
        </li>
        <li>
          <PageLink href="/admin/products?filter=low_stock" className={linkClass} data-testid="low-stock-count">
            {t("low", { count: stock.low, threshold: LOW_STOCK })}
          </PageLink>
        </li>
      </ul>
      <PanelList
        wrap={false}
        rows={stock.products.map((product) => ({
          key: product.id,
          start: (
            <PageLink href={`/admin/products/${product.id}`} className={linkClass}>
              {locale === "ar" ? product.nameAr : product.nameEn}
            </PageLink>
          ),
          end: (
            <span className={product.available === 0 ? "font-medium text-red-800" : "text-stone-600"}>
              {t("left", { count: product.available })}
            </span>
          ),
        }))}
      />
    </Section>
  );
}

/** The gateways customers paid with in the period: orders and sales of each, and their shares. */
export async function GatewaysPanel({ gateways, bounds, sales }: Pick<Dashboard, "gateways" | "bounds" | "sales">) {
  const [t, labels, { money, number, percent }] = await Promise.all([
    getTranslations("admin.dashboard"),
    orderLabels(),
    homeFormat(),
  ]);
  const { salesMinor: totalSales, orders: totalOrders } = sales.current;
  return (
    <Section id="gateways" title={t("gateways")}>
      <Table
        className={gateways.length === 0 ? "mt-1" : "mt-2"}
        look="panel"
        testId="gateways-table"
        caption={t("gatewaysCaption")}
        columns={columnsOf(["gateway", "gatewayOrders", "gatewaySales"] as const, (key) => t(key), [
          "gatewayOrders",
          "gatewaySales",
        ])}
        empty={gateways.length === 0 && t("noSales")}
      >
        {gateways.map((row) => (
          <tr key={`${row.way}:${row.gateway ?? UNKNOWN_GATEWAY}`}>
            <th scope="row" className="py-1 text-start font-normal">
              {row.way === "cash"
                ? t("cash.gateway")
                : row.gateway === null
                  ? t("unknownGateway")
                  : labels.gateway(row.gateway)}
            </th>
            <td className="py-1 text-end">
              <PageLink
                href={paidIn(
                  bounds.current,
                  row.way === "cash" ? { pay: "cash" } : { gateway: row.gateway ?? UNKNOWN_GATEWAY },
                )}
                className={linkClass}
              >
                {number(row.orders)}
              </PageLink>
              <span className="block text-xs text-stone-600">
                {t("share", { percent: percent(row.orders / totalOrders) })}
              </span>
            </td>
            <td className="py-1 text-end">
              {money(row.salesMinor)}
              <span className="block text-xs text-stone-600">
                {t("salesShare", { percent: percent(totalSales === 0 ? 0 : row.salesMinor / totalSales) })}
              </span>
            </td>
          </tr>
        ))}
      </Table>
    </Section>
  );
}

/**
 * What promo codes gave in the period: the discounts of its paid orders in all, and per code (its paid orders, linked
 * to the list of them, and its discount total). Sales elsewhere on the home are what was paid, after the discounts.
 */
export async function DiscountsPanel({ discounts, bounds }: Pick<Dashboard, "discounts" | "bounds">) {
  const [t, { money, number }] = await Promise.all([getTranslations("admin.dashboard.promo"), homeFormat()]);
  return (
    <Section id="discounts" title={t("title")}>
      {discounts.orders > 0 && (
        <p data-testid="discounts-given">
          {t("given", { amount: money(discounts.discountMinor), count: discounts.orders })}{" "}
          <span className="text-sm text-stone-600">{t("net")}</span>
        </p>
      )}
      <Table
        look="panel"
        testId="discounts-table"
        caption={t("caption")}
        columns={columnsOf(["code", "orders", "discount"] as const, (key) => t(key), ["orders", "discount"])}
        empty={discounts.codes.length === 0 && t("none")}
      >
        {discounts.codes.map((row) => (
          <tr key={row.code}>
            <th scope="row" className="py-1 text-start font-mono font-normal">
              <bdi>{row.code}</bdi>
            </th>
            <td className="py-1 text-end">
              <PageLink href={paidIn(bounds.current, { promo: row.code })} className={linkClass}>
                {number(row.orders)}
              </PageLink>
            </td>
            <td className="py-1 text-end whitespace-nowrap">{money(row.discountMinor)}</td>
          </tr>
        ))}
      </Table>
    </Section>
  );
}
