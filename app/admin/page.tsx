import type { Metadata } from "next";
import { PageLink } from "@/components/page-link";
import { getTranslations } from "next-intl/server";
import { MoneyByWay, PeriodFigures, SalesByDay } from "@/components/admin/home/figures";
import { homeFormat } from "@/components/admin/home/format";
import { CheckoutFunnel } from "@/components/admin/home/funnel";
import { NeedsAttention, RefundsToMake, ToConfirm, ToFulfil } from "@/components/admin/home/orders-panels";
import { DiscountsPanel, GatewaysPanel, StockPanel } from "@/components/admin/home/shop-panels";
import { Notice } from "@/components/admin/section";
import { requireAdmin } from "@/lib/admin/auth";
import { lastReconciledAt } from "@/lib/admin/reconcile";
import { loadDashboard } from "@/lib/dashboard/figures";
import { parsePeriod, PERIODS } from "@/lib/dashboard/period";
import { getDb } from "@/lib/db/client";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("admin.dashboard"))("title") };
}

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/**
 * The merchant's home: for today, 7 or 30 days (`?period=`), what sold against the period before (and net of the
 * period's refunds), the money apart by
 * way of paying (online, cash collected, cash still to collect), paid sales per day, the cash orders to confirm by
 * phone (first: they expire), what to ship, the refunds to make, what needs a look (and when the payment list was last reconciled), stock,
 * the gateways customers paid with, the discounts promo codes gave (in all and per code), and the checkout funnel. Reads only. Each part is a component of
 * components/admin/home/.
 */
export default async function AdminHome({ searchParams }: Props) {
  await requireAdmin();
  const [params, t, { day }] = await Promise.all([searchParams, getTranslations("admin.dashboard"), homeFormat()]);
  const { period, invalid } = parsePeriod(params.period);
  const [dashboard, reconciledAt] = await Promise.all([loadDashboard(getDb(), period), lastReconciledAt(getDb())]);
  const { bounds } = dashboard;
  const badValue = Array.isArray(params.period) ? params.period[0] : params.period;

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
                <PageLink
                  href={`/admin?period=${value}`}
                  aria-current={value === period ? "page" : undefined}
                  className={`block rounded-full px-3 py-1 ${value === period ? "bg-stone-900 text-white" : "hover:bg-stone-100"}`}
                >
                  {t(`periods.${value}`)}
                </PageLink>
              </li>
            ))}
          </ul>
        </nav>
      </div>

      {invalid && <Notice tone="warning">{t("badPeriod", { value: badValue ?? "" })}</Notice>}

      <PeriodFigures {...dashboard} />
      <MoneyByWay {...dashboard} />
      <SalesByDay {...dashboard} />
      <div className="grid gap-4 lg:grid-cols-2">
        <ToConfirm {...dashboard} />
        <ToFulfil {...dashboard} />
        <RefundsToMake {...dashboard} />
        <NeedsAttention {...dashboard} lastReconciledAt={reconciledAt} />
        <StockPanel {...dashboard} />
        <GatewaysPanel {...dashboard} />
        <DiscountsPanel {...dashboard} />
        <CheckoutFunnel {...dashboard} />
      </div>
    </section>
  );
}
