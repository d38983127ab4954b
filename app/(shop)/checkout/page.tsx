import type { Metadata } from "next";
import { getLocale, getMessages, getTranslations } from "next-intl/server";
import {
  CheckoutSummary,
  DeliveryChoiceProvider,
  type CashOption,
  type OfferedZone,
} from "@/components/checkout-delivery";
import { CheckoutForm, type DeliveryOffer } from "@/components/checkout-form";
import { EmptyState } from "@/components/empty-state";
import { PageLink } from "@/components/page-link";
import { priceCart, type PricedCart } from "@/lib/cart";
import { DatabaseUnavailable } from "@/components/database-unavailable";
import { cashOffer, readCashSettings, type CashSettings } from "@/lib/cash/settings";
import { getDb } from "@/lib/db/client";
import { describeDbFailure } from "@/lib/db/errors";
import { priceCheckout } from "@/lib/checkout/pricing";
import { SHOWN_PRICES_FIELD, shownPrices } from "@/lib/checkout/shown-prices";
import { listDeliveryZones, readPickup, type DeliveryZone, type Pickup } from "@/lib/delivery/zones";
import { logger } from "@/lib/log";
import { getEnv, smsSettings } from "@/lib/env";
import { localiseGateways } from "@/lib/gateways";
import { formatMoney } from "@/lib/money";
import { findCustomerOrder } from "@/lib/orders/store";
import { getSession } from "@/lib/session";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("meta"))("checkout") };
}

export default async function CheckoutPage() {
  const [{ cart, orderId, id: sessionId }, locale, t, tCash, tPromo, tCart, tOrder, messages] = await Promise.all([
    getSession(),
    getLocale(),
    getTranslations("checkout"),
    getTranslations("checkout.cash"),
    getTranslations("checkout.promo"),
    getTranslations("cart"),
    getTranslations("order"),
    getMessages(),
  ]);
  let priced: PricedCart;
  let order: Awaited<ReturnType<typeof findCustomerOrder>>;
  let zones: DeliveryZone[];
  let pickup: Pickup;
  let cashSettings: CashSettings;
  try {
    [priced, order, zones, pickup, cashSettings] = await Promise.all([
      priceCart(getDb(), cart),
      orderId ? findCustomerOrder(getDb(), orderId, sessionId) : undefined,
      listDeliveryZones(getDb(), { enabledOnly: true }),
      readPickup(getDb()),
      readCashSettings(getDb()),
    ]);
  } catch (error) {
    // The database is down: the cart cannot be priced, no checkout can be stored now, and the last one's state cannot
    // be read.
    logger.error({ event: "checkout_page_unavailable", ...describeDbFailure(error) });
    return (
      <DatabaseUnavailable
        title={tOrder("unavailable.title")}
        text={tOrder("unavailable.text")}
        reload={tOrder("unavailable.reload")}
        href="/checkout"
      />
    );
  }
  if (priced.lines.length === 0) {
    return <EmptyState title={tCart("emptyTitle")} text={t("emptyText")} action={tCart("browse")} href="/" />;
  }
  const { PAYMENT_GATEWAYS } = getEnv();
  // Goods to deliver: the zones offered, each with its fee for this cart (the server prices it again at the submit).
  let delivery: DeliveryOffer | undefined;
  const physical = priced.lines.some((line) => line.product.kind === "physical");
  // Cash on delivery, decided per city and for pickup by the one rule (lib/cash/settings.ts); asked when any takes it.
  // The highest total for cash is left to the form (components/checkout-delivery.tsx, `cashAllowed`): a promo code
  // applied there may bring a total under it.
  const takesCash = (zone: DeliveryZone | undefined) => {
    const offer = cashOffer(cashSettings, {
      zone,
      pickup: !zone,
      physical,
      totalMinor: priceCheckout(priced.totalMinor, zone).totalMinor,
    });
    return offer.offered || offer.why === "over_max";
  };
  let cash: CashOption | undefined;
  if (physical) {
    const offered: OfferedZone[] = zones.map((zone) => {
      const feeMinor = priceCheckout(priced.totalMinor, zone).deliveryFeeMinor;
      const city = zone.name[locale];
      const fee = feeMinor === 0 ? t("free") : formatMoney(feeMinor, locale);
      return {
        id: zone.id,
        option:
          zone.freeAboveMinor !== null && feeMinor > 0
            ? t("cityFeeFreeAbove", { city, fee, above: formatMoney(zone.freeAboveMinor, locale) })
            : t("cityFee", { city, fee }),
        line: t("deliveryLine", { city }),
        price: { feeMinor: zone.feeMinor, freeAboveMinor: zone.freeAboveMinor },
        cash: takesCash(zone),
      };
    });
    const atPickup = pickup.enabled && takesCash(undefined);
    if (atPickup || offered.some((zone) => zone.cash))
      cash = {
        feeMinor: cashSettings.feeMinor,
        pickup: atPickup,
        maxTotalMinor: cashSettings.maxTotalMinor,
        linesMinor: priced.totalMinor,
      };
    delivery = {
      zones: offered,
      ...(pickup.enabled
        ? { pickup: t("pickupWhere", { address: pickup.address[locale], hours: pickup.hours[locale] }) }
        : {}),
    };
  }
  return (
    <DeliveryChoiceProvider>
      <div className="grid gap-8 md:grid-cols-[1fr_20rem]">
        <section>
          <h1 className="text-2xl font-semibold tracking-tight">{t("title")}</h1>
          <p className="mt-1 text-stone-600">{cash ? tCash("intro") : t("intro")}</p>
          {order?.status === "pending" && (
            <p
              role="status"
              className="mt-4 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900"
              data-testid="pending-notice"
            >
              {t("pendingNotice")}
            </p>
          )}
          <CheckoutForm
            delivery={delivery}
            shown={{
              name: SHOWN_PRICES_FIELD,
              prices: shownPrices(priced, physical ? zones : [], cash?.feeMinor),
            }}
            {...(cash && delivery
              ? {
                  cash: {
                    ...cash,
                    labels: {
                      howToPay: tCash("howToPay"),
                      online: tCash("online"),
                      onlineNote: tCash("onlineNote"),
                      cash: tCash("cash"),
                      cashNote:
                        cash.feeMinor > 0
                          ? tCash("cashNoteFee", { fee: formatMoney(cash.feeMinor, locale) })
                          : tCash("cashNote"),
                      ...(delivery.zones.every((zone) => zone.cash) ? {} : { someCities: tCash("someCities") }),
                      gatewayOnline: tCash("gatewayOnline"),
                      submitCash: tCash("submitCash"),
                      submittingCash: tCash("submittingCash"),
                    },
                  },
                }
              : {})}
            {...(smsSettings() ? { sms: { label: t("smsUpdates"), hint: t("smsUpdatesHint") } } : {})}
            gateways={[{ alias: "", name: t("chooseLater") }, ...localiseGateways(PAYMENT_GATEWAYS, messages.gateways)]}
            labels={{
              details: t("details"),
              optional: t("optional"),
              required: t("required"),
              contactNote: t("contactNote"),
              fullName: t("fullName"),
              email: t("email"),
              phone: t("phone"),
              phoneHint: t("phoneHint"),
              phoneCourier: t("phoneCourier"),
              method: t("method"),
              methodNote: t("methodNote"),
              submit: t("submit"),
              submitting: t("submitting"),
              delivery: t("delivery"),
              deliverTo: t("deliverTo"),
              pickup: t("pickup"),
              city: t("city"),
              chooseCity: t("chooseCity"),
              address: t("address"),
              addressHint: t("addressHint"),
              landmark: t("landmark"),
              secondPhone: t("secondPhone"),
              promo: {
                label: tPromo("label"),
                hint: tPromo("hint"),
                apply: tPromo("apply"),
                applying: tPromo("applying"),
                applied: tPromo.raw("applied"),
              },
            }}
          />
        </section>
        <aside aria-labelledby="summary-heading" className="h-fit rounded-xl border border-sand-200 bg-white p-4">
          <h2 id="summary-heading" className="font-semibold">
            {t("summary")}
          </h2>
          <CheckoutSummary
            locale={locale}
            labels={{
              total: t("total"),
              pickupLine: t("pickupLine"),
              feeByCity: t("feeByCity"),
              free: t("free"),
              cashFee: tCash("feeLine"),
              discount: tPromo.raw("line"),
              freeDelivery: tPromo("freeDelivery"),
            }}
            lines={priced.lines.map((l) => ({
              name: l.product.name[locale],
              quantity: l.quantity,
              totalMinor: l.totalMinor,
            }))}
            linesTotalMinor={priced.totalMinor}
            {...(delivery ? { delivery: { zones: delivery.zones } } : {})}
            {...(cash ? { cash } : {})}
          />
          <PageLink
            href="/cart"
            className="mt-3 inline-block text-sm text-brand-700 underline-offset-2 hover:underline"
          >
            {t("editCart")}
          </PageLink>
        </aside>
      </div>
    </DeliveryChoiceProvider>
  );
}
