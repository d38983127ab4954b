import type { Metadata } from "next";
import { getFormatter, getLocale, getTranslations } from "next-intl/server";
import { EmptyState } from "@/components/empty-state";
import { PageLink } from "@/components/page-link";
import { readOrUnavailable } from "@/components/database-unavailable";
import { cashStanding } from "@/lib/cash/standing";
import { getDb } from "@/lib/db/client";
import { smsSettings } from "@/lib/env";
import { formatMoney } from "@/lib/money";
import { listCustomerOrders } from "@/lib/orders/store";
import { getSession } from "@/lib/session";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("meta"))("orders"), robots: { index: false } };
}

/**
 * "Your orders": the orders this browser session placed, newest first, with their status (a cash order's: where it
 * stands, lib/cash/standing.ts). When the shop sends text messages, a line under them leads to find-my-order by phone
 * (app/(shop)/orders/find), for an order placed from another browser.
 */
export default async function OrdersPage() {
  const [session, locale, format, t] = await Promise.all([
    getSession(),
    getLocale(),
    getFormatter(),
    getTranslations("orders"),
  ]);
  const read = await readOrUnavailable(() => listCustomerOrders(getDb(), session.id), {
    event: "orders_page_unavailable",
    href: "/orders",
    namespace: "order",
  });
  if (read.unavailable) return read.unavailable;
  const orders = read.data;
  const find = smsSettings() && (
    <p className="mt-6 text-center text-sm">
      <PageLink href="/orders/find" className="font-medium text-brand-800 underline" data-testid="find-order-link">
        {t("find")}
      </PageLink>
    </p>
  );
  if (orders.length === 0)
    return (
      <>
        <EmptyState title={t("emptyTitle")} text={t("emptyText")} action={t("browse")} href="/" />
        {find}
      </>
    );

  return (
    <section>
      <h1 className="text-2xl font-semibold tracking-tight">{t("title")}</h1>
      <p className="mt-1 text-stone-600">{t("intro")}</p>
      <ul className="mt-6 divide-y divide-sand-200 rounded-xl border border-sand-200 bg-white" data-testid="order-list">
        {orders.map((order) => (
          <li key={order.id}>
            <PageLink
              href={`/orders/${order.id}`}
              className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 p-4 hover:bg-sand-100"
            >
              <span className="font-mono text-sm">{order.id}</span>
              <span className="text-sm text-stone-600">
                {format.dateTime(order.createdAt, { dateStyle: "medium", timeStyle: "short" })}
              </span>
              <span className="whitespace-nowrap">{formatMoney(order.amountMinor, locale)}</span>
              <span className="rounded-full bg-sand-100 px-2.5 py-0.5 text-sm" data-testid="order-status">
                {order.paymentMethod === "cash"
                  ? t(`cashStatuses.${cashStanding(order)}`)
                  : t(`statuses.${order.status}`)}
              </span>
            </PageLink>
          </li>
        ))}
      </ul>
      {find}
    </section>
  );
}
