import type { Metadata } from "next";
import Link from "next/link";
import { getFormatter, getLocale, getTranslations } from "next-intl/server";
import { orderLabels } from "@/components/admin/labels";
import { SalesChart } from "@/components/admin/sales-chart";
import { requireAdmin } from "@/lib/admin/auth";
import { LOW_STOCK } from "@/lib/catalog/stock";
import { UNKNOWN_GATEWAY } from "@/lib/dashboard/conditions";
import { loadDashboard, type AttentionReason, type Sales } from "@/lib/dashboard/figures";
import { formatDayRange, parsePeriod, PERIODS } from "@/lib/dashboard/period";
import { tripoliMidnight, type DayRange } from "@/lib/time";
import { getDb } from "@/lib/db/client";
import { ORDER_FLAGS, type OrderFlag } from "@/lib/db/schema";
import { direction, isLocale } from "@/lib/i18n/config";
import { formatMoney } from "@/lib/money";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("admin.dashboard"))("title") };
}

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/** The orders list filtered by `params` (every number on the home links to the list that makes it). */
function ordersHref(params: Record<string, string>): string {
  return `/admin/orders?${new URLSearchParams(params).toString()}`;
}

const paidIn = (range: DayRange, more: Record<string, string> = {}) =>
  ordersHref({ paid: formatDayRange(range), ...more });

const isFlag = (reason: AttentionReason): reason is OrderFlag => (ORDER_FLAGS as readonly string[]).includes(reason);

/** Where a reason's orders are listed. */
const reasonHref = (reason: AttentionReason) =>
  isFlag(reason) ? ordersHref({ flag: reason }) : ordersHref({ status: reason });

const linkClass = "text-brand-800 underline underline-offset-2";
const card = "rounded-xl border border-stone-200 bg-white p-4";

/**
 * The merchant's home: for today, 7 or 30 days (`?period=`), what sold against the period before, paid sales per day,
 * what to ship, what needs a look, stock, the gateways customers paid with, and the checkout funnel. Reads only.
 */
export default async function AdminHome({ searchParams }: Props) {
  await requireAdmin();
  const [params, localeName, format, t, labels] = await Promise.all([
    searchParams,
    getLocale(),
    getFormatter(),
    getTranslations("admin.dashboard"),
    orderLabels(),
  ]);
  const locale = isLocale(localeName) ? localeName : "en";
  const { period, invalid } = parsePeriod(params.period);
  const dashboard = await loadDashboard(getDb(), period);
  const { bounds, sales, days, toFulfil, attention, stock, gateways, funnel } = dashboard;
  const money = (minor: number) => formatMoney(minor, locale);
  const percent = (value: number) => format.number(value, { style: "percent", maximumFractionDigits: 0 });
  const day = (value: string, style: "short" | "long" = "long") =>
    format.dateTime(
      tripoliMidnight(value),
      style === "long" ? { dateStyle: "medium" } : { day: "numeric", month: "short" },
    );
  const badValue = Array.isArray(params.period) ? params.period[0] : params.period;

  const change = (now: number, before: number) => {
    if (now === before) return t("same");
    if (before === 0) return t("fromNothing");
    const ratio = Math.abs(now - before) / before;
    return now > before ? t("up", { percent: percent(ratio) }) : t("down", { percent: percent(ratio) });
  };
  const figure = (name: "sales" | "orders" | "average", value: (s: Sales) => string, raw: (s: Sales) => number) => (
    <div className={card} key={name}>
      <dt className="text-sm text-stone-600">{t(name)}</dt>
      <dd className="mt-1 text-2xl font-semibold tracking-tight">
        <Link href={paidIn(bounds.current)} className="hover:underline" data-testid={`figure-${name}`}>
          {value(sales.current)}
        </Link>
      </dd>
      <dd className="mt-1 text-sm text-stone-600">
        <Link href={paidIn(bounds.previous)} className={linkClass}>
          {t("previous", { value: value(sales.previous) })}
        </Link>
        <span className="block">{change(raw(sales.current), raw(sales.previous))}</span>
      </dd>
    </div>
  );
  const totalSales = sales.current.salesMinor;
  const totalOrders = sales.current.orders;
  const best = Math.max(0, ...days.map((d) => d.salesMinor));

  return (
    <section className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight">{t("title")}</h1>
          <p className="text-sm text-stone-600" data-testid="dashboard-range">
            {bounds.current.from === bounds.current.to
              ? t("rangeToday", { day: day(bounds.current.to) })
              : t("range", { from: day(bounds.current.from), to: day(bounds.current.to) })}
          </p>
        </div>
        <nav aria-label={t("period")}>
          <ul className="flex gap-1 rounded-full border border-stone-300 bg-white p-1 text-sm">
            {PERIODS.map((value) => (
              <li key={value}>
                <Link
                  href={`/admin?period=${value}`}
                  aria-current={value === period ? "page" : undefined}
                  className={`block rounded-full px-3 py-1 ${value === period ? "bg-stone-900 text-white" : "hover:bg-stone-100"}`}
                >
                  {t(`periods.${value}`)}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      </div>

      {invalid && (
        <p role="status" className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-amber-900">
          {t("badPeriod", { value: badValue ?? "" })}
        </p>
      )}

      <section aria-labelledby="figures">
        <h2 id="figures" className="sr-only">
          {t("figures")}
        </h2>
        <dl className="grid gap-3 sm:grid-cols-3">
          {figure(
            "sales",
            (s) => money(s.salesMinor),
            (s) => s.salesMinor,
          )}
          {figure(
            "orders",
            (s) => format.number(s.orders),
            (s) => s.orders,
          )}
          {figure(
            "average",
            (s) => money(s.averageMinor),
            (s) => s.averageMinor,
          )}
        </dl>
      </section>

      <section aria-labelledby="chart" className={card}>
        <h2 id="chart" className="font-semibold">
          {t("chart")}
        </h2>
        <div className="mt-3">
          <SalesChart
            days={days}
            rtl={direction(locale) === "rtl"}
            label={t("chartLabel", { from: day(bounds.current.from), to: day(bounds.current.to) })}
            dayLabel={(value) => day(value, "short")}
            best={money(best)}
          />
        </div>
        <details className="mt-3 text-sm">
          <summary className="cursor-pointer font-medium text-brand-800">{t("tableCaption")}</summary>
          <FigureTable
            className="mt-2 w-full"
            testId="sales-table"
            caption={t("tableCaption")}
            headings={[t("day"), t("dayOrders"), t("daySales")]}
          >
            {days.map((row) => (
              <tr key={row.day} data-day={row.day}>
                <th scope="row" className="py-1 text-start font-normal">
                  {day(row.day)}
                </th>
                <td className="py-1 text-end">
                  <Link href={paidIn({ ...bounds.current, from: row.day, to: row.day })} className={linkClass}>
                    {format.number(row.orders)}
                  </Link>
                </td>
                <td className="py-1 text-end" data-sales-minor={row.salesMinor}>
                  {money(row.salesMinor)}
                </td>
              </tr>
            ))}
          </FigureTable>
        </details>
      </section>

      <div className="grid gap-4 lg:grid-cols-2">
        <section aria-labelledby="to-fulfil" className={card}>
          <h2 id="to-fulfil" className="font-semibold">
            {t("toFulfil")}
          </h2>
          <p className="mt-1">
            <Link href={ordersHref({ status: "to_fulfil" })} className={linkClass} data-testid="to-fulfil-count">
              {t("toFulfilCount", { count: toFulfil.count })}
            </Link>
          </p>
          {toFulfil.oldest.length > 0 && (
            <ol className="mt-2 divide-y divide-stone-100 text-sm" aria-label={t("oldestFirst")}>
              {toFulfil.oldest.map((order) => (
                <li key={order.id} className="flex flex-wrap justify-between gap-2 py-1.5">
                  <span>
                    <Link href={`/admin/orders/${order.id}`} className={`font-mono ${linkClass}`}>
                      {order.id}
                    </Link>{" "}
                    <span dir="auto">{order.fullName ?? ""}</span>
                  </span>
                  <span className="text-stone-600">
                    {order.deliveryMethod ? `${t(order.deliveryMethod)} · ` : ""}
                    {t("paidOn", { date: format.dateTime(order.paidAt, { dateStyle: "medium" }) })} ·{" "}
                    {money(order.amountMinor)}
                  </span>
                </li>
              ))}
            </ol>
          )}
        </section>

        <section aria-labelledby="attention" className={card}>
          <h2 id="attention" className="font-semibold">
            {t("attention")}
          </h2>
          <p className="mt-1" data-testid="attention-count">
            {t("attentionCount", { count: attention.count })}
          </p>
          {attention.count > 0 && (
            <ul className="mt-2 flex flex-wrap gap-2 text-sm">
              {Object.entries(attention.byReason).map(([reason, count]) => (
                <li key={reason}>
                  <Link
                    href={reasonHref(reason as AttentionReason)}
                    className="inline-block rounded-full bg-red-50 px-2 py-0.5 text-red-900 underline-offset-2 hover:underline"
                  >
                    {reasonText(reason as AttentionReason)} · {format.number(count ?? 0)}
                  </Link>
                </li>
              ))}
            </ul>
          )}
          {attention.orders.length > 0 && (
            <ul className="mt-2 divide-y divide-stone-100 text-sm">
              {attention.orders.map((order) => (
                <li key={order.id} className="flex flex-wrap justify-between gap-2 py-1.5">
                  <Link href={`/admin/orders/${order.id}`} className={`font-mono ${linkClass}`}>
                    {order.id}
                  </Link>
                  <span className="text-stone-600">
                    {labels.list(order.reasons.map(reasonText))} · {money(order.amountMinor)}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </section>

        <section aria-labelledby="stock" className={card}>
          <h2 id="stock" className="font-semibold">
            {t("stock")}
          </h2>
          <ul className="mt-1 space-y-1">
            <li>
              <Link href="/admin/products?filter=sold_out" className={linkClass} data-testid="sold-out-count">
                {t("soldOut", { count: stock.soldOut })}
              </Link>
            </li>
            <li>
              <Link href="/admin/products?filter=low_stock" className={linkClass} data-testid="low-stock-count">
                {t("low", { count: stock.low, threshold: LOW_STOCK })}
              </Link>
            </li>
          </ul>
          {stock.products.length > 0 && (
            <ul className="mt-2 divide-y divide-stone-100 text-sm">
              {stock.products.map((product) => (
                <li key={product.id} className="flex justify-between gap-2 py-1.5">
                  <Link href={`/admin/products/${product.id}`} className={linkClass}>
                    {locale === "ar" ? product.nameAr : product.nameEn}
                  </Link>
                  <span className={product.available === 0 ? "font-medium text-red-800" : "text-stone-600"}>
                    {t("left", { count: product.available })}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </section>

        <section aria-labelledby="gateways" className={card}>
          <h2 id="gateways" className="font-semibold">
            {t("gateways")}
          </h2>
          {gateways.length === 0 ? (
            <p className="mt-1 text-stone-600">{t("noSales")}</p>
          ) : (
            <FigureTable
              className="mt-2 w-full text-sm"
              testId="gateways-table"
              caption={t("gatewaysCaption")}
              headings={[t("gateway"), t("gatewayOrders"), t("gatewaySales")]}
            >
              {gateways.map((row) => (
                <tr key={row.gateway ?? UNKNOWN_GATEWAY}>
                  <th scope="row" className="py-1 text-start font-normal">
                    {row.gateway === null ? t("unknownGateway") : labels.gateway(row.gateway)}
                  </th>
                  <td className="py-1 text-end">
                    <Link
                      href={paidIn(bounds.current, { gateway: row.gateway ?? UNKNOWN_GATEWAY })}
                      className={linkClass}
                    >
                      {format.number(row.orders)}
                    </Link>
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
            </FigureTable>
          )}
        </section>

        <section aria-labelledby="funnel" className={`${card} lg:col-span-2`}>
          <h2 id="funnel" className="font-semibold">
            {t("funnel")}
          </h2>
          <p className="text-sm text-stone-600">{t("funnelIntro")}</p>
          <table className="mt-2 w-full text-sm" data-testid="funnel-table">
            <caption className="sr-only">{t("funnelCaption")}</caption>
            <thead>
              <tr className="text-stone-600">
                <th scope="col" className="py-1 text-start font-medium">
                  {t("funnelStep")}
                </th>
                <th scope="col" className="py-1 text-end font-medium">
                  {t("funnelCount")}
                </th>
                <th scope="col" className="w-1/3 py-1">
                  <span className="sr-only">{t("funnelShare")}</span>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-stone-100">
              {(
                [
                  ["started", {}],
                  ["paymentCreated", { status: "payment_created" }],
                  ["paid", { status: "paid" }],
                  ["cancelled", { status: "cancelled" }],
                  ["expired", { status: "expired" }],
                  ["failed", { status: "failed" }],
                  ["open", null],
                ] as const
              ).map(([step, filter]) => {
                const value = funnel[step];
                const share = funnel.started === 0 ? 0 : value / funnel.started;
                return (
                  <tr key={step} data-step={step}>
                    <th scope="row" className="py-1 text-start font-normal">
                      {t(step)}
                    </th>
                    <td className="py-1 text-end">
                      {filter ? (
                        <Link
                          href={ordersHref({ created: formatDayRange(bounds.current), ...filter })}
                          className={linkClass}
                        >
                          {format.number(value)}
                        </Link>
                      ) : (
                        format.number(value)
                      )}
                    </td>
                    <td className="py-1 ps-3">
                      <span className="flex items-center gap-2">
                        <svg aria-hidden="true" width="100%" height="8" className="min-w-0 flex-1 text-brand-600">
                          <rect
                            width={`${Math.round(share * 1000) / 10}%`}
                            height="100%"
                            rx={4}
                            className="fill-current"
                          />
                        </svg>
                        <span className="text-xs whitespace-nowrap text-stone-600">
                          {t("ofStarted", { percent: percent(share) })}
                        </span>
                      </span>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </section>
      </div>
    </section>
  );

  function reasonText(reason: AttentionReason): string {
    return isFlag(reason) ? labels.flag(reason) : t(`reasons.${reason}`);
  }
}

/**
 * A table of the home's figures: a caption for screen readers, and columns of a row heading then two numbers (aligned
 * to the end); its rows (`children`) are `<tr>`s of a `<th scope="row">` and two `<td>`s.
 */
function FigureTable({
  caption,
  headings: [head, first, second],
  className,
  testId,
  children,
}: {
  caption: string;
  headings: [string, string, string];
  className: string;
  testId: string;
  children: React.ReactNode;
}) {
  return (
    <table className={className} data-testid={testId}>
      <caption className="sr-only">{caption}</caption>
      <thead>
        <tr className="text-stone-600">
          <th scope="col" className="py-1 text-start font-medium">
            {head}
          </th>
          <th scope="col" className="py-1 text-end font-medium">
            {first}
          </th>
          <th scope="col" className="py-1 text-end font-medium">
            {second}
          </th>
        </tr>
      </thead>
      <tbody className="divide-y divide-stone-100">{children}</tbody>
    </table>
  );
}
