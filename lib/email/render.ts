import "server-only";
import { render } from "@react-email/render";
import { createFormatter, createTranslator } from "next-intl";
import { createElement, type ReactElement } from "react";
import { OrderEmail } from "../../components/emails/order-email";
import type { Pickup } from "../delivery/zones";
import { PARCEL_STEPS, type EmailOutboxRow, type OrderLineRow, type OrderRow, type ParcelStep } from "../db/schema";
import { fulfilmentSteps } from "../orders/fulfilment";
import { gatewayName } from "../gateways";
import { direction, isLocale, type Locale } from "../i18n/config";
import ar from "../i18n/messages/ar.json";
import en from "../i18n/messages/en.json";
import { CURRENCY, formatDiscount, formatMoney, fromDecimalAmount, multiply } from "../money";
import { BRAND } from "../brand";
import { getEnv } from "../env";
import { TIME_ZONE } from "../time";
import { orderLinkUrl } from "../orders/order-link";
import type { OrderTerms } from "../orders/store";

/**
 * The shop's e-mails about an order as subject, HTML and plain text: the customer's receipt, the news of each step
 * of their goods' way (`fulfilment_update`) and of a cancel or a refund (`after_sale`) in the order's language, and the merchant's notice in the merchant's, from
 * the components in components/emails/ (React Email) and the texts in lib/i18n/messages (`email.*`). Nothing in them
 * is a secret: the customer's link is signed (lib/orders/order-link.ts) and opens the order's page in any browser,
 * without the customer's name, phone, e-mail or address; the notice's link opens only for a signed-in admin.
 */

/** What an e-mail is about: the order as stored, its lines as sold, and what the payment service reported. */
export interface EmailOrder {
  order: Pick<OrderRow, "id" | "amountMinor" | "locale" | "fullName" | "email" | "phone" | "flags" | "createdAt"> &
    /**
     * Its terms (absent or null: nothing to deliver, nothing after the sale), and — the e-mail goes to the customer or
     * the merchant only — where exactly the goods go, and when it was paid.
     */
    Partial<Pick<OrderRow, OrderTerms | "deliveryAddress" | "deliveryLandmark" | "secondPhone" | "paidAt">>;
  lines: Pick<OrderLineRow, "name" | "unitMinor" | "quantity">[];
  /** The gateway alias the confirming webhook named, else the one chosen at checkout; `null` when neither. */
  paidWith: string | null;
  /** For a payment with another amount: what arrived, as the delivery said it (`amount` decimal, `currency`). */
  received?: { amount: number | string; currency: string };
  /** For a pickup: where and when the customer collects, as the shop's settings say now. */
  pickup?: Pickup;
  /** For a `refunded` e-mail: the refund it tells of (minor units, and the reference it was recorded with). */
  refund?: { amountMinor: number; reference: string | null };
}

export interface RenderedEmail {
  subject: string;
  html: string;
  text: string;
}

const catalogues: Record<Locale, typeof en> = { en, ar };

/**
 * Renders one outbox e-mail.
 * @param email its kind, why it was queued and its language. @param siteUrl the shop's public origin, for the link.
 * @param orderLinkSecret the key of the receipt's signed link (ORDER_LINK_SECRET).
 * @returns the subject, the HTML (self-contained: inline styles, no remote image or font) and the plain text.
 */
export async function renderOrderEmail(
  email: Pick<EmailOutboxRow, "kind" | "reason" | "locale">,
  data: EmailOrder,
  siteUrl: string,
  orderLinkSecret: string = getEnv().ORDER_LINK_SECRET,
): Promise<RenderedEmail> {
  const locale: Locale = isLocale(email.locale) ? email.locale : "en";
  const messages = catalogues[locale];
  const t = createTranslator({ locale, messages, namespace: "email" });
  const format = createFormatter({ locale, timeZone: TIME_ZONE });
  const money = (minor: number) => formatMoney(minor, locale);
  const { order } = data;
  const total = money(order.amountMinor);
  const city = (locale === "ar" ? order.deliveryCityAr : order.deliveryCityEn) ?? null;
  // Where the goods go, for the customer: the city and street (and landmark), or the shop's pickup address and hours.
  const destination: [string, string][] =
    order.deliveryMethod === "delivery"
      ? [
          [t("receipt.deliverTo"), [city, order.deliveryAddress].filter(Boolean).join(" — ")],
          ...(order.deliveryLandmark ? ([[t("receipt.landmark"), order.deliveryLandmark]] as [string, string][]) : []),
        ]
      : order.deliveryMethod === "pickup" && data.pickup
        ? [
            [t("receipt.pickupAt"), data.pickup.address[locale]],
            ...(data.pickup.hours[locale]
              ? ([[t("receipt.hours"), data.pickup.hours[locale]]] as [string, string][])
              : []),
          ]
        : [];
  const common = {
    lang: locale,
    dir: direction(locale),
    shopName: BRAND.name[locale],
    headings: {
      product: t("lines.product"),
      quantity: t("lines.quantity"),
      price: t("lines.price"),
      total: t("lines.total"),
    },
    lines: data.lines.map((line) => ({
      name: line.name,
      quantity: line.quantity,
      unitPrice: money(line.unitMinor),
      total: money(multiply(line.unitMinor, line.quantity)),
    })),
    fees: [
      ...(order.deliveryMethod === "delivery"
        ? [
            {
              label: t("lines.deliveryFee", { city: city ?? "" }),
              amount: order.deliveryFeeMinor ? money(order.deliveryFeeMinor) : t("lines.free"),
            },
          ]
        : []),
      ...(order.cashFeeMinor ? [{ label: t("cash.fee"), amount: money(order.cashFeeMinor) }] : []),
      // The promo code's line, after the fees as pricing takes it off (lib/checkout/pricing.ts): the total is net of it.
      ...(order.promoCode
        ? [
            {
              label: t("promo.line", { code: order.promoCode }),
              amount: formatDiscount(order.discountMinor ?? 0, locale),
            },
          ]
        : []),
    ],
    totalLabel: t("lines.orderTotal"),
    total,
  };
  const placed = format.dateTime(order.createdAt, { dateStyle: "medium", timeStyle: "short" });
  const paidWith = data.paidWith ? gatewayName(data.paidWith, messages.gateways) : null;
  const site = new URL(siteUrl).host;

  // A cash order just placed: the customer's "we will call you to confirm", the merchant's "call them".
  if (email.reason === "cash_placed") {
    const phone = order.phone ?? t("notice.none");
    const customer = email.kind === "receipt";
    const hours = order.confirmBy
      ? Math.round((order.confirmBy.getTime() - order.createdAt.getTime()) / 3_600_000)
      : 48;
    const element = createElement(OrderEmail, {
      ...common,
      preview: customer ? t("cash.preview", { id: order.id, total }) : t("cash.noticePreview", { id: order.id, total }),
      heading: customer ? t("cash.heading") : t("cash.noticeHeading"),
      paragraphs: [
        customer
          ? t(order.deliveryMethod === "pickup" ? "cash.introPickup" : "cash.intro", { phone, total })
          : t("cash.noticeIntro", { hours }),
      ],
      facts: [
        [customer ? t("receipt.order") : t("notice.order"), order.id],
        [customer ? t("receipt.placed") : t("notice.placed"), placed],
        [t("cash.toCollect"), total],
        ...(customer
          ? destination
          : ([
              [t("notice.customer"), order.fullName ?? t("notice.none")],
              [t("notice.phone"), phone],
              ...(order.deliveryMethod === "delivery"
                ? [
                    [t("notice.delivery"), city ?? t("notice.none")],
                    [t("notice.address"), order.deliveryAddress ?? t("notice.none")],
                    [t("notice.landmark"), order.deliveryLandmark || t("notice.none")],
                    [t("notice.secondPhone"), order.secondPhone || t("notice.none")],
                  ]
                : [[t("notice.delivery"), t("notice.pickup")]]),
              ...(order.confirmBy
                ? [
                    [
                      t("cash.noticeDeadline"),
                      format.dateTime(order.confirmBy, { dateStyle: "medium", timeStyle: "short" }),
                    ],
                  ]
                : []),
            ] as [string, string][])),
      ],
      link: customer
        ? {
            href: orderLinkUrl(siteUrl, order.id, orderLinkSecret),
            label: t("receipt.view"),
            note: t("receipt.viewNote"),
          }
        : { href: `${siteUrl}/admin/orders/${order.id}`, label: t("notice.open") },
      footer: customer
        ? t("receipt.footer", { shop: BRAND.name[locale], site })
        : t("notice.footer", { shop: BRAND.name[locale], site }),
    });
    const subject = customer ? t("cash.subject", { id: order.id }) : t("cash.noticeSubject", { id: order.id, total });
    return { subject, ...(await htmlAndText(element)) };
  }

  // The merchant cancelled the order, or refunded some of it: the customer's news, with the money in plain words.
  if (email.kind === "after_sale") {
    const refunded = email.reason === "refunded";
    if (refunded && !data.refund) throw new Error(`no refund for the refund e-mail of ${order.id}`);
    const amount = money(data.refund?.amountMinor ?? 0);
    const paidOnline = order.paymentMethod !== "cash" && Boolean(order.paidAt);
    const element = createElement(OrderEmail, {
      ...common,
      preview: refunded
        ? t("afterSale.refundedPreview", { amount, id: order.id })
        : t("afterSale.cancelledPreview", { id: order.id }),
      heading: refunded ? t("afterSale.refundedHeading", { amount }) : t("afterSale.cancelledHeading"),
      paragraphs: refunded
        ? [t(order.paymentMethod === "cash" ? "afterSale.refundedCash" : "afterSale.refundedOnline", { amount })]
        : [
            t("afterSale.cancelledIntro", { id: order.id }),
            paidOnline
              ? t("afterSale.cancelledRefund", { total })
              : order.paymentMethod === "cash"
                ? t("afterSale.cancelledNothingToPay")
                : "",
          ].filter(Boolean),
      facts: [
        [t("receipt.order"), order.id],
        [t("receipt.placed"), placed],
        ...(refunded
          ? ([
              [t("afterSale.refund"), amount],
              ...(data.refund?.reference ? [[t("afterSale.reference"), data.refund.reference]] : []),
              [t("afterSale.refundedInAll"), money(order.refundedMinor ?? 0)],
            ] as [string, string][])
          : order.cancelledAt
            ? ([[t("afterSale.cancelledOn"), format.dateTime(order.cancelledAt, { dateStyle: "medium" })]] as [
                string,
                string,
              ][])
            : []),
      ],
      link: {
        href: orderLinkUrl(siteUrl, order.id, orderLinkSecret),
        label: t("receipt.view"),
        note: t("receipt.viewNote"),
      },
      footer: t("receipt.footer", { shop: BRAND.name[locale], site }),
    });
    const subject = refunded
      ? t("afterSale.refundedSubject", { amount, id: order.id })
      : t("afterSale.cancelledSubject", { id: order.id });
    return { subject, ...(await htmlAndText(element)) };
  }

  // A receipt is only ever for a paid order; a paid cash order is one whose cash was collected (lib/cash/), which no
  // payment service confirmed.
  const cash = order.paymentMethod === "cash";
  if (email.kind === "receipt") {
    const element = createElement(OrderEmail, {
      ...common,
      preview: t("receipt.preview", { total, id: order.id }),
      heading: t(cash ? "receipt.cashHeading" : "receipt.heading"),
      paragraphs: [
        cash ? t("receipt.cashIntro", { total }) : t("receipt.intro"),
        ...(email.reason === "resend" ? [t("receipt.resent")] : []),
      ],
      facts: [
        [t("receipt.order"), order.id],
        [t("receipt.placed"), placed],
        ...(cash
          ? ([[t("receipt.paidWith"), t("receipt.cashPaidWith")]] as [string, string][])
          : paidWith
            ? ([[t("receipt.paidWith"), paidWith]] as [string, string][])
            : []),
        ...destination,
      ],
      link: {
        href: orderLinkUrl(siteUrl, order.id, orderLinkSecret),
        label: t("receipt.view"),
        note: t("receipt.viewNote"),
      },
      footer: t("receipt.footer", { shop: BRAND.name[locale], site }),
    });
    return { subject: t("receipt.subject", { id: order.id, total }), ...(await htmlAndText(element)) };
  }

  if (email.kind === "fulfilment_update") {
    const step = fulfilmentSteps(order.deliveryMethod ?? null).find(
      (each): each is ParcelStep => each === email.reason && (PARCEL_STEPS as readonly string[]).includes(each),
    );
    if (!step) throw new Error(`no update e-mail for ${email.reason} on this order`);
    const texts = messages.email.update[step];
    const way = fulfilmentSteps(order.deliveryMethod ?? null);
    const element = createElement(OrderEmail, {
      ...common,
      preview: t(`update.${step}.intro`, { shop: BRAND.name[locale] }),
      heading: texts.heading,
      paragraphs: [t(`update.${step}.intro`, { shop: BRAND.name[locale] })],
      // The way as of this e-mail's step (a later step may be recorded by the time it is sent).
      progress: way.map((each, index) => ({
        label: t(`update.steps.${each}`),
        done: index <= way.indexOf(step),
      })),
      facts: [[t("update.order"), order.id], ...destination],
      link: {
        href: orderLinkUrl(siteUrl, order.id, orderLinkSecret),
        label: t("receipt.view"),
        note: t("receipt.viewNote"),
      },
      footer: t("receipt.footer", { shop: BRAND.name[locale], site }),
    });
    return { subject: t(`update.${step}.subject`, { id: order.id }), ...(await htmlAndText(element)) };
  }

  const received = data.received
    ? data.received.currency === CURRENCY && fromDecimalAmount(data.received.amount) !== null
      ? money(fromDecimalAmount(data.received.amount)!)
      : `${data.received.amount} ${data.received.currency}`
    : null;
  const none = t("notice.none");
  // What the notice says, by why it was queued: money arrived (paid, perhaps flagged), money with another amount, or
  // a flag the scheduled job raised: an expired order whose payment the shop may have missed, or a reported payment
  // the service never confirmed (lib/orders/settle.ts, `FLAG_NOTICES`).
  const texts =
    email.reason === "amount_mismatch"
      ? {
          subject: t("notice.subjectMismatch", { id: order.id }),
          preview: t("notice.previewMismatch", { id: order.id }),
          heading: t("notice.headingMismatch"),
          paragraphs: [t("notice.introMismatch"), ...(received ? [t("notice.received", { received, total })] : [])],
        }
      : email.reason === "unconfirmed_report" && order.flags.includes("check_payment_list")
        ? {
            subject: t("notice.subjectCheckList", { id: order.id, total }),
            preview: t("notice.previewCheckList", { id: order.id }),
            heading: t("notice.headingCheckList"),
            paragraphs: [t("notice.introCheckList"), t("notice.reconcile")],
          }
        : email.reason === "unconfirmed_report"
          ? {
              subject: t("notice.subjectUnconfirmed", { id: order.id, total }),
              preview: t("notice.previewUnconfirmed", { id: order.id }),
              heading: t("notice.headingUnconfirmed"),
              paragraphs: [t("notice.introUnconfirmed"), t("notice.reconcile")],
            }
          : {
              subject:
                order.flags.length > 0
                  ? t("notice.subjectFlagged", { id: order.id, total })
                  : t("notice.subjectPaid", { id: order.id, total }),
              preview: t("notice.previewPaid", { total, id: order.id }),
              heading: order.flags.length > 0 ? t("notice.headingFlagged") : t("notice.headingPaid"),
              paragraphs: [t(cash ? "notice.introCashPaid" : "notice.introPaid")],
            };
  const element = createElement(OrderEmail, {
    ...common,
    preview: texts.preview,
    heading: texts.heading,
    paragraphs: texts.paragraphs,
    alert: { title: t("notice.flagsTitle"), items: order.flags.map((flag) => t(`flags.${flag}`)) },
    facts: [
      [t("notice.order"), order.id],
      [t("notice.placed"), placed],
      [t("notice.customer"), order.fullName ?? none],
      [t("notice.email"), order.email ?? none],
      [t("notice.phone"), order.phone ?? none],
      ...((order.deliveryMethod === "delivery"
        ? [
            [t("notice.delivery"), city ?? none],
            [t("notice.address"), order.deliveryAddress ?? none],
            [t("notice.landmark"), order.deliveryLandmark || none],
            [t("notice.secondPhone"), order.secondPhone || none],
          ]
        : order.deliveryMethod === "pickup"
          ? [[t("notice.delivery"), t("notice.pickup")]]
          : []) as [string, string][]),
      [t("notice.language"), isLocale(order.locale) ? t(`languages.${order.locale}`) : order.locale],
      [t("notice.paidWith"), paidWith ?? none],
    ],
    link: { href: `${siteUrl}/admin/orders/${order.id}`, label: t("notice.open") },
    footer: t("notice.footer", { shop: BRAND.name[locale], site }),
  });
  return { subject: texts.subject, ...(await htmlAndText(element)) };
}

/** The HTML of an e-mail and its plain-text twin (React Email's conversion: links spelled out, tables as lines). */
export async function htmlAndText(element: ReactElement): Promise<{ html: string; text: string }> {
  const [html, text] = await Promise.all([
    render(element),
    // Headings as written: html-to-text's capitals shout, and mean nothing in Arabic.
    render(element, {
      plainText: true,
      htmlToTextOptions: { selectors: [{ selector: "h1", options: { uppercase: false } }] },
    }),
  ]);
  return { html, text };
}
