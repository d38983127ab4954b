import { PageLink } from "@/components/page-link";
import { getTranslations } from "next-intl/server";
import type { Dashboard, Sales } from "@/lib/dashboard/figures";
import { direction } from "@/lib/i18n/config";
import { SalesChart } from "../sales-chart";
import { Section } from "../section";
import { columnsOf, Table } from "../table";
import { homeFormat, linkClass, ordersHref, paidIn } from "./format";
import { Figure, FigureGroup } from "./parts";

/**
 * The period's three figures (sales, orders, average order), each against the period before, linked to its orders;
 * and the sales net of the refunds recorded in the period, with those refunds (a sale stays a sale: lib/dashboard/).
 */
export async function PeriodFigures({ bounds, sales, refunds }: Pick<Dashboard, "bounds" | "sales" | "refunds">) {
  const [t, { money, number, percent }] = await Promise.all([getTranslations("admin.dashboard"), homeFormat()]);
  const change = (now: number, before: number) => {
    if (now === before) return t("same");
    if (before === 0) return t("fromNothing");
    const ratio = Math.abs(now - before) / before;
    return now > before ? t("up", { percent: percent(ratio) }) : t("down", { percent: percent(ratio) });
  };
  const figures = [
    { name: "sales", show: money, value: (s: Sales) => s.salesMinor },
    { name: "orders", show: number, value: (s: Sales) => s.orders },
    { name: "average", show: money, value: (s: Sales) => s.averageMinor },
  ] as const;
  return (
    <FigureGroup id="figures" title={t("figures")}>
      {figures.map(({ name, show, value }) => (
        <Figure
          key={name}
          name={t(name)}
          value={show(value(sales.current))}
          href={paidIn(bounds.current)}
          testId={`figure-${name}`}
          large
        >
          <dd className="mt-1 text-sm text-stone-600">
            <PageLink href={paidIn(bounds.previous)} className={linkClass}>
              {t("previous", { value: show(value(sales.previous)) })}
            </PageLink>
            <span className="block">{change(value(sales.current), value(sales.previous))}</span>
          </dd>
        </Figure>
      ))}
      <Figure name={t("net")} value={money(refunds.netSalesMinor)} testId="figure-net" large>
        <dd className="mt-1 text-sm text-stone-600" data-testid="figure-refunded">
          {t("refundedIn", { amount: money(refunds.refundedMinor), count: refunds.refundCount })}
        </dd>
      </Figure>
    </FigureGroup>
  );
}

/**
 * The money apart by the way it comes in: paid online and cash collected in the period (a cash order counts on the
 * day its cash was collected), and the cash still to collect now (confirmed cash orders), each linked to its orders.
 */
export async function MoneyByWay({ bounds, money: byWay }: Pick<Dashboard, "bounds" | "money">) {
  const [t, { money }] = await Promise.all([getTranslations("admin.dashboard.cash"), homeFormat()]);
  const figures = [
    { name: "online", href: paidIn(bounds.current, { pay: "online" }), takings: byWay.online },
    { name: "collected", href: paidIn(bounds.current, { pay: "cash" }), takings: byWay.cashCollected },
    { name: "toCollect", href: ordersHref({ cash: "confirmed" }), takings: byWay.cashToCollect },
  ] as const;
  return (
    <FigureGroup id="money-by-way" title={t("byWay")}>
      {figures.map(({ name, href, takings }) => (
        <Figure key={name} name={t(name)} value={money(takings.amountMinor)} href={href} testId={`figure-${name}`}>
          <dd className="mt-1 text-sm text-stone-600">{t("orders", { count: takings.orders })}</dd>
        </Figure>
      ))}
    </FigureGroup>
  );
}

/** Paid sales per day as a chart, with the same figures as a table for those who cannot see it. */
export async function SalesByDay({ bounds, days }: Pick<Dashboard, "bounds" | "days">) {
  const [t, { locale, money, number, day }] = await Promise.all([getTranslations("admin.dashboard"), homeFormat()]);
  const best = Math.max(0, ...days.map((d) => d.salesMinor));
  return (
    <Section id="chart" title={t("chart")}>
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
        <Table
          look="panel"
          testId="sales-table"
          caption={t("tableCaption")}
          columns={columnsOf(["day", "dayOrders", "daySales"] as const, (key) => t(key), ["dayOrders", "daySales"])}
        >
          {days.map((row) => (
            <tr key={row.day} data-day={row.day}>
              <th scope="row" className="py-1 text-start font-normal">
                {day(row.day)}
              </th>
              <td className="py-1 text-end">
                <PageLink href={paidIn({ ...bounds.current, from: row.day, to: row.day })} className={linkClass}>
                  {number(row.orders)}
                </PageLink>
              </td>
              <td className="py-1 text-end" data-sales-minor={row.salesMinor}>
                {money(row.salesMinor)}
              </td>
            </tr>
          ))}
        </Table>
      </details>
    </Section>
  );
}
