import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { getFormatter, getLocale, getTranslations } from "next-intl/server";
import { z } from "zod";
import { AutoRefresh } from "@/components/auto-refresh";
import { LinkButton } from "@/components/link-button";
import { OrderSummary, withCode } from "@/components/order-summary";
import { DatabaseUnavailable } from "@/components/database-unavailable";
import { secondaryAction } from "@/components/styles";
import { cashStanding, cashStillToPay } from "@/lib/cash/standing";
import { getDb } from "@/lib/db/client";
import { describeDbFailure } from "@/lib/db/errors";
import { logger } from "@/lib/log";
import { formatDiscount, formatMoney, multiply } from "@/lib/money";
import { findOrderByLink } from "@/lib/orders/order-link";
import { isPaymentPageOpen } from "@/lib/payment-page";
import { awaitingConfirmationUntil, findCustomerOrder, type CustomerOrder, type LinkedOrder } from "@/lib/orders/store";
import { getSession } from "@/lib/session";
import { buyAgainAction } from "../../cart/actions";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("meta"))("order"), robots: { index: false } };
}

type Props = { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

/** Redirect outcomes that changed nothing get a notice. They never claim a payment: the order's status does that. */
const noticeSchema = z.enum(["already_settled", "token_mismatch", "invalid_redirect", "not_recorded"]);

const REFRESH_SECONDS = 3;

/**
 * One order, read from the database: what happened, in words the customer understands — confirmed paid, reported and
 * awaiting the service's confirmation (the page refreshes itself for a minute), cancelled, expired, or still waiting
 * for the payment — and, for goods, how they come and where they are. A cash-on-delivery order says where it stands
 * instead (waiting for the merchant's call, confirmed, on its way, handed over, cash paid, cancelled, expired:
 * lib/cash/standing.ts) and, until the goods are handed over, how much to pay the courier in cash. An order priced
 * with a promo code says which, and what it took off the total. An order the merchant cancelled says so, with the
 * date; money refunded, and a refund still on its way, are said with their amounts (lib/refunds/).
 *
 * The browser session that placed the order sees it with its actions (back to the payment page, buy again). Any other
 * browser sees it only with the receipt's signed link (`?key=`, lib/orders/order-link.ts), and then without actions
 * and without anything that names or reaches the customer: a link may be forwarded. Anything else is "not found"
 * (404), the same for an order that does not exist. Reads only: opening it changes neither the order nor the session.
 */
export default async function OrderPage({ params, searchParams }: Props) {
  const [{ id }, query, session, locale, t, tCheckout, format] = await Promise.all([
    params,
    searchParams,
    getSession(),
    getLocale(),
    getTranslations("order"),
    getTranslations("checkout"),
    getFormatter(),
  ]);
  const notice = noticeSchema.safeParse(query.outcome);
  const noticeBox = notice.success && (
    <p role="status" className="mb-6 rounded-lg border border-amber-300 bg-amber-50 p-3 text-amber-900">
      {t(`notices.${notice.data}`)}
    </p>
  );
  let owned: CustomerOrder | undefined;
  let linked: LinkedOrder | undefined;
  try {
    owned = await findCustomerOrder(getDb(), id, session.id);
    if (!owned && query.key !== undefined) linked = await findOrderByLink(getDb(), id, query.key);
  } catch (error) {
    // The database is down: the return handler sends customers here with `not_recorded` exactly then. Say what
    // they need to know (the payment is safe) in the page itself: the error page needs JavaScript to show anything.
    logger.error({ event: "order_page_unavailable", ...describeDbFailure(error) });
    const search = new URLSearchParams();
    if (notice.success) search.set("outcome", notice.data);
    if (typeof query.key === "string") search.set("key", query.key);
    const again = `/orders/${encodeURIComponent(id)}${search.size > 0 ? `?${search}` : ""}`;
    return (
      <DatabaseUnavailable
        title={t("unavailable.title")}
        text={t("unavailable.text")}
        reload={t("unavailable.reload")}
        href={again}
        notice={noticeBox}
      />
    );
  }

  const order = owned ?? linked;
  if (!order) notFound(); // not-found.tsx: the same page, status 404
  const { status } = order;
  const waitUntil = awaitingConfirmationUntil(order);
  const standing = order.paymentMethod === "cash" ? cashStanding(order) : null;
  // The merchant's cancel (lib/refunds/) is final whatever the way of paying: said so, with its date.
  const heading = order.cancelledAt
    ? {
        title: t("afterSale.cancelled.title"),
        text: t("afterSale.cancelled.text", { date: format.dateTime(order.cancelledAt, { dateStyle: "medium" }) }),
      }
    : standing
      ? {
          title: t(`cash.${standing}.title`),
          text: t(`cash.${standing}.text`, {
            deadline: order.confirmBy
              ? format.dateTime(order.confirmBy, { dateStyle: "medium", timeStyle: "short" })
              : "",
          }),
        }
      : { title: t(`status.${status}.title`), text: t(`status.${status}.text`) };

  // Where the customer goes from here: shop on, try again, or back to a payment page that still works. Through a
  // link, only shopping on: the cart is this browser's, and the payment page shows the customer's details.
  const next =
    owned && !order.cancelledAt
      ? {
          paid: { href: "/", label: t("continueShopping") },
          awaiting_confirmation: { href: "/", label: t("continueShopping") },
          cancelled: { href: "/cart", label: t("backToCart") },
          expired: { href: "/cart", label: t("backToCart") },
          pending: isPaymentPageOpen(owned) ? { href: owned.paymentUrl!, label: t("resume") } : undefined,
          placed: { href: "/", label: t("continueShopping") },
          confirmed: { href: "/", label: t("continueShopping") },
        }[status]
      : { href: "/", label: t("continueShopping") };

  // How goods come (the city as sold, in the page's language; never the street) and where they are now.
  const city = locale === "ar" ? order.deliveryCityAr : order.deliveryCityEn;
  const way =
    order.deliveryMethod === "delivery"
      ? t("progress.deliveryTo", { city: city ?? "" })
      : order.deliveryMethod === "pickup"
        ? t("progress.pickup")
        : null;

  const lines = order.lines.map((line) => ({
    name: line.name,
    quantity: line.quantity,
    totalMinor: multiply(line.unitMinor, line.quantity),
  }));

  return (
    <section className="mx-auto max-w-lg">
      {noticeBox}
      {/* A live region: when the page refreshes itself and the status changes, screen readers hear the new one. */}
      <div role="status" aria-live="polite" data-testid="order-status">
        <h1 className={`text-2xl font-semibold ${status === "paid" ? "text-brand-800" : ""}`}>{heading.title}</h1>
        <p className="mt-2 text-stone-700">{heading.text}</p>
        {status === "awaiting_confirmation" && !waitUntil && (
          <p className="mt-2 text-stone-700">{t("slowConfirmation")}</p>
        )}
        {(order.refundedMinor > 0 || order.pendingRefundMinor > 0) && (
          <p className="mt-2 font-medium text-stone-900" data-testid="order-refund">
            {order.refundedMinor > 0 && t("afterSale.refunded", { amount: formatMoney(order.refundedMinor, locale) })}{" "}
            {order.pendingRefundMinor > 0 &&
              t("afterSale.refundPending", { amount: formatMoney(order.pendingRefundMinor, locale) })}
          </p>
        )}
      </div>
      {standing && cashStillToPay(standing) && (
        <p
          className="mt-4 rounded-xl border-2 border-brand-700 bg-white p-4 text-lg font-semibold"
          data-testid="order-cash-to-pay"
        >
          {t(order.deliveryMethod === "pickup" ? "cash.payAtPickup" : "cash.payCourier", {
            amount: formatMoney(order.amountMinor, locale),
          })}
          {order.cashFeeMinor > 0 && (
            <span className="mt-1 block text-sm font-normal text-stone-700">
              {t("cash.withFee", { fee: formatMoney(order.cashFeeMinor, locale) })}
            </span>
          )}
        </p>
      )}
      {waitUntil && <AutoRefresh seconds={REFRESH_SECONDS} until={waitUntil} />}
      <div className="mt-4 flex flex-wrap gap-3">
        {next && <LinkButton href={next.href}>{next.label}</LinkButton>}
        {owned && (status === "paid" || status === "awaiting_confirmation") && (
          // Paying again for the same things takes this: the same cart submitted again goes to this order.
          <form action={buyAgainAction}>
            <input type="hidden" name="id" value={order.id} />
            <button type="submit" className={secondaryAction}>
              {t("buyAgain")}
            </button>
          </form>
        )}
      </div>
      {(way || order.fulfilment) && (
        <dl className="mt-6 space-y-2 rounded-xl border border-sand-200 bg-white p-4" data-testid="order-progress">
          {way && (
            <div className="flex flex-wrap justify-between gap-x-3">
              <dt className="text-stone-600">{t("progress.way")}</dt>
              <dd>{way}</dd>
            </div>
          )}
          {order.fulfilment && (
            <div className="flex flex-wrap justify-between gap-x-3">
              <dt className="text-stone-600">{t("progress.step")}</dt>
              <dd className="font-semibold">{t(`progress.steps.${order.fulfilment}`)}</dd>
            </div>
          )}
        </dl>
      )}
      <div className="mt-6 rounded-xl border border-sand-200 bg-white p-4">
        <h2 className="font-semibold">{t("heading", { id: order.id })}</h2>
        <OrderSummary
          locale={locale}
          totalLabel={tCheckout("total")}
          lines={lines}
          totalMinor={order.amountMinor}
          // The delivery's own line: the city (its name as sold) and its fee, or pickup. No street address here.
          delivery={
            order.deliveryMethod === null
              ? undefined
              : {
                  label:
                    order.deliveryMethod === "pickup"
                      ? tCheckout("pickupLine")
                      : tCheckout("deliveryLine", {
                          city: locale === "ar" ? order.deliveryCityAr! : order.deliveryCityEn!,
                        }),
                  feeMinor: order.deliveryFeeMinor,
                  free: tCheckout("free"),
                }
          }
          // The code's discount, its own line as at the checkout: the total above is already less it.
          {...(order.promoCode === null
            ? {}
            : {
                discount: {
                  label: withCode(tCheckout.raw("promo.line"), order.promoCode),
                  amount: formatDiscount(order.discountMinor, locale),
                },
              })}
        />
      </div>
    </section>
  );
}
