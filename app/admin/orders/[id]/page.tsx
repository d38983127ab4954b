import type { Metadata } from "next";
import { getLocale, getTranslations } from "next-intl/server";
import { TextLink, NotFound } from "@/components/admin/page-header";
import { AfterSale } from "@/components/admin/order/after-sale";
import { CashPanel } from "@/components/admin/order/cash";
import { OpenFlags, ResolvedFlags } from "@/components/admin/order/flags";
import { OrderFulfilment } from "@/components/admin/order/fulfilment";
import { OrderFacts, OrderLines } from "@/components/admin/order/lines";
import { MarkPaid, ResendEmails } from "@/components/admin/order/payment-actions";
import { OrderResult } from "@/components/admin/order/result";
import { TextMessages } from "@/components/admin/order/text-messages";
import { OrderStatusBadge } from "@/components/admin/order-status-badge";
import { OrderTimeline } from "@/components/admin/order-timeline";
import { requireAdmin } from "@/lib/admin/auth";
import { findOrderForAdmin } from "@/lib/admin/orders";
import { phoneHistory } from "@/lib/cash/phones";
import { getDb } from "@/lib/db/client";
import { emailSettings, smsSettings } from "@/lib/env";
import { listOrderSms } from "@/lib/orders/sms-outbox";

type Props = { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { id } = await params;
  return { title: (await getTranslations("admin.order"))("title", { id: id.slice(0, 40) }) };
}

/**
 * One order as the merchant needs it: lines as sold, customer, payment, the flags to look at (each resolved with a
 * note) and those dealt with, a cash order's moves and its phone's history, where its goods go (the delivery's city, address, landmark and phones, or pickup) and
 * their way step by step (each step optionally e-mailing the customer), its e-mails and text messages sent again on request, what can be done after the sale (cancel, its
 * refunds, a refund, a return: lib/refunds/), its delivery note, and its history. Every
 * value is named in the reader's language. Each part is a component of components/admin/order/.
 */
export default async function AdminOrderPage({ params, searchParams }: Props) {
  await requireAdmin();
  const [{ id }, query, locale, t] = await Promise.all([
    params,
    searchParams,
    getLocale(),
    getTranslations("admin.order"),
  ]);
  const order = await findOrderForAdmin(getDb(), id);
  const back = <TextLink href="/admin/orders">{t("back")}</TextLink>;
  if (!order) return <NotFound back={back}>{t("notFound", { id: id.slice(0, 40) })}</NotFound>;
  const settings = emailSettings();
  const [history, messages] = await Promise.all([
    order.paymentMethod === "cash" && order.phone ? phoneHistory(getDb(), order.phone) : null,
    listOrderSms(getDb(), order.id),
  ]);
  // The customer asked for text messages at checkout: the steps and after-sale moves may text them too.
  const canText = Boolean(order.smsUpdates && smsSettings());
  const city = order.deliveryCityEn && (locale === "ar" ? order.deliveryCityAr : order.deliveryCityEn);

  return (
    <section className="space-y-6">
      {back}
      <OrderResult result={query.result} emailed={query.emailed} />
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="font-mono text-xl font-semibold break-all">{t("title", { id: order.id })}</h1>
        <OrderStatusBadge order={order} />
      </div>
      <OpenFlags order={order} />
      <CashPanel order={order} history={history} />
      <div className="grid gap-6 md:grid-cols-2">
        <OrderLines order={order} city={city} />
        <OrderFacts order={order} />
      </div>
      <ResolvedFlags order={order} />
      <OrderFulfilment order={order} city={city} canEmail={Boolean(order.email && settings)} canText={canText} />
      <AfterSale order={order} canEmail={Boolean(order.email && settings)} canText={canText} />
      <MarkPaid order={order} />
      <ResendEmails order={order} merchantEmail={settings?.merchantEmail} />
      <TextMessages orderId={order.id} messages={messages} />
      <OrderTimeline events={order.events} />
    </section>
  );
}
