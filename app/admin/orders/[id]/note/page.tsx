import type { Metadata } from "next";
import { headers } from "next/headers";
import { createTranslator } from "next-intl";
import { OrderNotePrint } from "@/components/admin/order-note-print";
import { TextLink } from "@/components/admin/page-header";
import { CardMessage } from "@/components/admin/section";
import { requireAdmin } from "@/lib/admin/auth";
import { findOrderForAdmin } from "@/lib/admin/orders";
import { BRAND } from "@/lib/brand";
import { courierCash } from "@/lib/cash/standing";
import { getDb } from "@/lib/db/client";
import { readPickup } from "@/lib/delivery/zones";
import ar from "@/lib/i18n/messages/ar.json";
import en from "@/lib/i18n/messages/en.json";
import { formatDiscount, formatMoney } from "@/lib/money";

type Props = { params: Promise<{ id: string }> };

// Both languages whatever the page's: the request's translator only has the reader's.
const tEn = createTranslator({ locale: "en", messages: en, namespace: "admin.note" });
const tAr = createTranslator({ locale: "ar", messages: ar, namespace: "admin.note" });

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { id } = await params;
  return { title: `${tEn("title")} · ${tAr("title")} ${id.slice(0, 40)}` };
}

/**
 * Printed on A5 and stuck on the parcel (or kept at the counter for a pickup), whatever the page's language: the
 * courier may read English or Arabic, so every label is in both. Only what the handover needs: the order, whom to
 * call, where to go (city, area and street, nearest landmark), the items and quantities, and what the courier does about
 * money: nothing for an order paid online (with the payment's reference), or, for a confirmed cash-on-delivery order,
 * collect its total in cash — said large, in both languages. A cash order not confirmed by phone, or cancelled, is
 * not to be handed over.
 */
const PRINT_CSS = `
@page { size: A5; margin: 10mm; }
@media print {
  body > a, header, .note-screen-only { display: none !important; }
  body, main { background: #fff !important; margin: 0 !important; padding: 0 !important; max-width: none !important; }
  .note-sheet { border: 0 !important; box-shadow: none !important; padding: 0 !important; }
}
`;

export default async function DeliveryNotePage({ params }: Props) {
  await requireAdmin();
  const [{ id }, nonce] = await Promise.all([params, headers().then((all) => all.get("x-nonce") ?? undefined)]);
  const order = await findOrderForAdmin(getDb(), id);
  type Key = Parameters<typeof tEn>[0];
  /** A label in both languages: English, then Arabic written right to left. */
  const both = (key: Key) => (
    <>
      {tEn(key)} ·{" "}
      <span lang="ar" dir="rtl">
        {tAr(key)}
      </span>
    </>
  );
  if (!order) {
    return (
      <CardMessage>
        {tEn("notFound", { id: id.slice(0, 40) })} ·{" "}
        <span lang="ar" dir="rtl">
          {tAr("notFound", { id: id.slice(0, 40) })}
        </span>
      </CardMessage>
    );
  }
  const pickup = order.deliveryMethod === "pickup" ? await readPickup(getDb()) : null;
  const cash = order.paymentMethod === "cash";
  const paid = order.status === "paid";
  const reference = order.payment?.reference ?? null;
  const courier = cash ? courierCash(order.status) : null;
  /** What the courier does about money, in both languages, for a cash order; `null` for one paid online. */
  const cashBox = (): React.ReactNode => {
    if (!courier) return null;
    if (courier === "collect") {
      return (
        <span className="block text-2xl leading-snug font-bold" data-testid="delivery-note-collect">
          {tEn("cash.collect", { amount: formatMoney(order.amountMinor, "en") })}
          <span className="block" lang="ar" dir="rtl">
            {tAr("cash.collect", { amount: formatMoney(order.amountMinor, "ar") })}
          </span>
        </span>
      );
    }
    return both(
      courier === "collected" ? "cash.collected" : courier === "not_confirmed" ? "cash.notConfirmed" : "cash.cancelled",
    );
  };
  const handOver = courier ? courier === "collect" || courier === "collected" : paid;
  const row = (key: Key, value: React.ReactNode, testId?: string) => (
    <div className="contents" key={key}>
      <dt className="text-stone-600">{both(key)}</dt>
      <dd className="font-medium" dir="auto" data-testid={testId}>
        {value ?? tEn("none")}
      </dd>
    </div>
  );

  return (
    <div dir="ltr" lang="en">
      <style nonce={nonce}>{PRINT_CSS}</style>
      <div className="note-screen-only mb-4 flex flex-wrap items-center justify-between gap-3">
        <TextLink href={`/admin/orders/${order.id}`}>{both("back")}</TextLink>
        <OrderNotePrint label={`${tEn("print")} · ${tAr("print")}`} />
      </div>
      <article
        className="note-sheet mx-auto max-w-[148mm] space-y-4 rounded-xl border border-stone-300 bg-white p-6 text-sm text-stone-900"
        data-testid="delivery-note"
      >
        <header className="flex items-start justify-between gap-4 border-b border-stone-300 pb-3">
          <div>
            <p className="text-lg font-bold text-brand-800">{BRAND.name.en}</p>
            <p className="text-lg font-bold text-brand-800" lang="ar" dir="rtl">
              {BRAND.name.ar}
            </p>
            <p className="text-xs text-stone-600" dir="ltr">
              {BRAND.contact.phone}
            </p>
          </div>
          <div className="text-end">
            <h1 className="text-base font-semibold">{both("title")}</h1>
            <p className="font-mono text-xs break-all">{order.id}</p>
            <p className="text-xs text-stone-600">{order.createdAt.toISOString().slice(0, 10)}</p>
          </div>
        </header>

        <p
          data-testid="delivery-note-payment"
          className={`rounded-lg border-2 p-2 text-center font-semibold ${handOver ? "border-brand-700" : "border-red-700 text-red-800"}`}
        >
          {cash ? cashBox() : paid ? both("paidOnline") : both("notPaid")}
          {!cash && paid && reference && (
            <span className="block font-mono text-xs font-normal">
              {both("reference")}: {reference}
            </span>
          )}
          {!cash && paid && order.paymentToken && (
            <span className="block font-mono text-xs font-normal break-all">
              {both("token")}: {order.paymentToken}
            </span>
          )}
        </p>

        <section>
          <h2 className="mb-1 font-semibold">
            {order.deliveryMethod === "pickup" ? both("pickupBy") : both("deliverTo")}
          </h2>
          <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
            {row("name", order.fullName)}
            {row("phone", order.phone && <span dir="ltr">{order.phone}</span>)}
            {order.deliveryMethod === "delivery" && (
              <>
                {row("secondPhone", order.secondPhone && <span dir="ltr">{order.secondPhone}</span>)}
                {row(
                  "city",
                  <>
                    {order.deliveryCityEn} · <span lang="ar">{order.deliveryCityAr}</span>
                  </>,
                )}
                {row("address", order.deliveryAddress, "delivery-note-address")}
                {row("landmark", order.deliveryLandmark)}
              </>
            )}
            {pickup && (
              <>
                {row(
                  "pickupAt",
                  <>
                    {pickup.address.en}
                    <span className="block" lang="ar" dir="rtl">
                      {pickup.address.ar}
                    </span>
                  </>,
                )}
                {(pickup.hours.en || pickup.hours.ar) &&
                  row(
                    "hours",
                    <>
                      {pickup.hours.en}
                      <span className="block" lang="ar" dir="rtl">
                        {pickup.hours.ar}
                      </span>
                    </>,
                  )}
              </>
            )}
          </dl>
        </section>

        <section>
          <h2 className="mb-1 font-semibold">{both("items")}</h2>
          <table className="w-full">
            <thead>
              <tr className="border-b border-stone-300 text-stone-600">
                <th scope="col" className="py-1 text-start font-medium">
                  {both("product")}
                </th>
                <th scope="col" className="w-32 py-1 text-end font-medium">
                  {both("quantity")}
                </th>
              </tr>
            </thead>
            <tbody>
              {order.lines.map((line) => (
                <tr key={line.position} className="border-b border-stone-200" data-testid="delivery-note-line">
                  <td className="py-1" dir="auto">
                    {line.name}
                  </td>
                  <td className="py-1 text-end text-base font-semibold">{line.quantity}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <dl className="mt-2 grid grid-cols-[1fr_auto] gap-x-3 text-end">
            {order.deliveryMethod === "delivery" && (
              <>
                <dt className="text-stone-600">{both("deliveryFee")}</dt>
                <dd>{formatMoney(order.deliveryFeeMinor, "en")}</dd>
              </>
            )}
            {order.cashFeeMinor > 0 && (
              <>
                <dt className="text-stone-600">{both("cash.fee")}</dt>
                <dd>{formatMoney(order.cashFeeMinor, "en")}</dd>
              </>
            )}
            {order.promoCode && (
              // Already taken off the total: the courier collects the total, never the lines and fees added up.
              <>
                <dt className="text-stone-600" data-testid="delivery-note-discount">
                  {tEn("promo.line", { code: order.promoCode })} ·{" "}
                  <span lang="ar" dir="rtl">
                    {tAr("promo.line", { code: order.promoCode })}
                  </span>
                </dt>
                <dd>{formatDiscount(order.discountMinor, "en")}</dd>
              </>
            )}
            <dt className="font-semibold">{both("total")}</dt>
            <dd className="font-semibold">{formatMoney(order.amountMinor, "en")}</dd>
          </dl>
        </section>
      </article>
    </div>
  );
}
