import type { Metadata } from "next";
import { PageLink } from "@/components/page-link";
import { getFormatter, getLocale, getTranslations } from "next-intl/server";
import { OrderLink } from "@/components/admin/order-link";
import { OrderStatusBadge } from "@/components/admin/order-status-badge";
import { PageHeader, TextLink } from "@/components/admin/page-header";
import { columnsOf, LIST_CELL, PHONE_ONLY, Table, WIDE_ONLY } from "@/components/admin/table";
import { requireAdmin } from "@/lib/admin/auth";
import {
  dashboardFilters,
  listOrders,
  ORDER_FILTERS,
  parseOrderListQuery,
  type OrderListQuery,
} from "@/lib/admin/orders";
import { getDb } from "@/lib/db/client";
import { orderLabels } from "@/components/admin/labels";
import { CASH_STATES, UNKNOWN_GATEWAY } from "@/lib/dashboard/conditions";
import { PAYMENT_METHODS } from "@/lib/db/schema";
import { tripoliMidnight } from "@/lib/time";
import { formatMoney } from "@/lib/money";
import { ListSearchForm } from "@/components/admin/list-search-form";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("admin.orders"))("title") };
}

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/** A link to the list (or the export) with the same filters and search and, optionally, a page edge. */
function listHref(path: string, filter: OrderListQuery, edge?: { before?: string; after?: string }): string {
  const { status, pay, cash, q } = filter;
  const params = new URLSearchParams();
  if (status) params.set("status", status);
  if (pay) params.set("pay", pay);
  if (cash) params.set("cash", cash);
  if (q) params.set("q", q);
  // The dashboard's filters (lib/admin/orders.ts) stay on every page and in the export.
  for (const [name, value] of Object.entries(dashboardFilters(filter))) params.set(name, value);
  if (edge?.before) params.set("before", edge.before);
  if (edge?.after) params.set("after", edge.after);
  const query = params.toString();
  return query ? `${path}?${query}` : path;
}

/**
 * Every order, newest first: filter by status (or flagged, or to fulfil), by way of paying and by where a cash order
 * stands, search, page, export.
 */
export default async function AdminOrdersPage({ searchParams }: Props) {
  await requireAdmin();
  const [params, locale, format, t, tFilter, labels, tCash] = await Promise.all([
    searchParams,
    getLocale(),
    getFormatter(),
    getTranslations("admin.orders"),
    getTranslations("admin.filters"),
    orderLabels(),
    getTranslations("admin.orders.cash"),
  ]);
  const { query, ignored } = parseOrderListQuery(params);
  const page = await listOrders(getDb(), query);
  // The dashboard's filters, said in words: they have no field in the form below.
  const range = ({ from, to }: { from: string; to: string }) =>
    from === to
      ? format.dateTime(tripoliMidnight(from), { dateStyle: "medium" })
      : format.dateTimeRange(tripoliMidnight(from), tripoliMidnight(to), { dateStyle: "medium" });
  const narrowing = [
    ...(query.paid ? [t("narrowedPaid", { range: range(query.paid) })] : []),
    ...(query.created ? [t("narrowedCreated", { range: range(query.created) })] : []),
    ...(query.gateway
      ? [
          t("narrowedGateway", {
            gateway: query.gateway === UNKNOWN_GATEWAY ? t("noGateway") : labels.gateway(query.gateway),
          }),
        ]
      : []),
    ...(query.flag ? [labels.flag(query.flag)] : []),
    ...(query.promo ? [t("promo.narrowed", { code: query.promo })] : []),
  ];

  return (
    <section>
      <PageHeader title={t("title")} />
      {narrowing.length > 0 && (
        <p className="mt-3 text-sm text-stone-700" data-testid="orders-narrowed">
          {t("narrowed", { filters: format.list(narrowing, { type: "conjunction" }) })}{" "}
          <PageLink
            href={listHref("/admin/orders", { status: query.status, pay: query.pay, cash: query.cash, q: query.q })}
            className="text-brand-800 underline"
          >
            {t("widen")}
          </PageLink>
        </p>
      )}
      {ignored.length > 0 && (
        <p role="status" className="mt-3 rounded-lg border border-amber-300 bg-amber-50 p-3 text-amber-900">
          {t("ignored", { names: ignored.join(", ") })}
        </p>
      )}

      <ListSearchForm
        namespace="admin.orders"
        path="/admin/orders"
        filter={{
          name: "status",
          value: query.status ?? "",
          options: ORDER_FILTERS.map((value) => ({ value, label: tFilter(value) })),
        }}
        more={[
          {
            name: "pay",
            label: tCash("pay"),
            all: tCash("anyWay"),
            value: query.pay ?? "",
            options: PAYMENT_METHODS.map((value) => ({ value, label: tCash(`ways.${value}`) })),
          },
          {
            name: "cash",
            label: tCash("state"),
            all: tCash("anyState"),
            value: query.cash ?? "",
            options: CASH_STATES.map((value) => ({ value, label: tCash(`states.${value}`) })),
          },
        ]}
        search={{ value: query.q ?? "" }}
      />

      <div className="mt-4 flex flex-wrap items-center justify-between gap-3">
        <p data-testid="orders-summary">
          {t("summary", { count: page.count, total: formatMoney(page.totalMinor, locale) })}
        </p>
        <a
          href={listHref("/admin/orders/export", query)}
          className="text-sm font-medium text-brand-800 underline underline-offset-2"
          download
        >
          {t("export")}
        </a>
      </div>

      <Table
        look="list"
        className={page.orders.length === 0 ? "mt-6" : "mt-3"}
        region={{ label: t("table") }}
        minWidth="sm:min-w-[44rem]"
        caption={t("caption")}
        columns={columnsOf(
          ["order", "placed", "customer", "total", "status"] as const,
          (key) => t(key),
          ["total"],
          ["placed", "customer"],
        )}
        empty={page.orders.length === 0 && t("none")}
      >
        {page.orders.map((order) => {
          const placed = format.dateTime(order.createdAt, { dateStyle: "medium", timeStyle: "short" });
          const customer = order.fullName ?? order.email ?? "—";
          return (
            <tr key={order.id} data-testid="admin-order-row">
              <th scope="row" className={`${LIST_CELL} text-start font-normal`}>
                <span className="max-sm:break-all">
                  <OrderLink id={order.id} />
                </span>
                {/* On a phone the customer and the time, whose columns it hides, under the order. */}
                <span className={`${PHONE_ONLY} block text-xs text-stone-600`}>
                  {/* A name or e-mail without spaces may break anywhere: the row keeps to the phone's width. */}
                  <span className="block wrap-anywhere" dir="auto">
                    {customer}
                  </span>
                  <span className="block">{placed}</span>
                </span>
              </th>
              <td className={`${LIST_CELL} ${WIDE_ONLY} whitespace-nowrap`}>{placed}</td>
              <td className={`${LIST_CELL} ${WIDE_ONLY}`}>
                <span dir="auto">{customer}</span>
                {order.fullName && order.email && <span className="block text-xs text-stone-600">{order.email}</span>}
              </td>
              <td className={`${LIST_CELL} text-end whitespace-nowrap`} data-testid="admin-order-total">
                {formatMoney(order.amountMinor, locale)}
              </td>
              <td className={LIST_CELL}>
                <OrderStatusBadge order={order} />
                {order.paymentMethod === "cash" && (
                  <span className="block text-xs text-stone-600" data-testid="admin-order-cash">
                    {tCash("ways.cash")}
                  </span>
                )}
              </td>
            </tr>
          );
        })}
      </Table>

      {(page.newer || page.older) && (
        <nav aria-label={t("pages")} className="mt-4 flex justify-between gap-3">
          {page.newer ? (
            <TextLink href={listHref("/admin/orders", query, { after: page.newer })} rel="prev">
              {t("newer")}
            </TextLink>
          ) : (
            <span />
          )}
          {page.older && (
            <TextLink href={listHref("/admin/orders", query, { before: page.older })} rel="next">
              {t("older")}
            </TextLink>
          )}
        </nav>
      )}
    </section>
  );
}
