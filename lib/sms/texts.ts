import "server-only";
import { createTranslator } from "next-intl";
import type { SmsReason } from "../db/schema";
import { shopName } from "../brand";
import { isLocale, type Locale } from "../i18n/config";
import ar from "../i18n/messages/ar.json";
import en from "../i18n/messages/en.json";
import { formatMoney } from "../money";
import { orderLinkUrl } from "../orders/order-link";

/**
 * The shop's text messages about an order, from the catalogues' `sms.*` in the order's language: the shop's name, the
 * order number, a few words, and the order's signed link (lib/orders/order-link.ts), which opens its page in any
 * browser without the customer's name, phone or address. Kept short: every part of a message is billed, and Arabic
 * travels 70 characters a part (lib/sms/segments.ts).
 */

const catalogues: Record<Locale, typeof en> = { en, ar };

/** What a message says about its order: its id, total (minor units), language, and for `refunded` the refund's amount. */
export interface SmsOrder {
  id: string;
  amountMinor: number;
  locale: string;
  refundMinor?: number;
}

/**
 * The text of one message.
 * @param reason why it is sent. @param siteUrl the shop's origin (SITE_URL). @param secret ORDER_LINK_SECRET.
 * @returns the message's text, in the order's language (English for one the shop does not have).
 */
export function smsText(reason: SmsReason, order: SmsOrder, siteUrl: string, secret: string): string {
  const locale: Locale = isLocale(order.locale) ? order.locale : "en";
  const t = createTranslator({ locale, messages: catalogues[locale], namespace: "sms" });
  const text = t(reason, {
    shop: shopName(locale),
    id: order.id,
    total: formatMoney(order.amountMinor, locale),
    amount: formatMoney(order.refundMinor ?? 0, locale),
    link: orderLinkUrl(siteUrl, order.id, secret),
  });
  // Intl puts a no-break space in "LYD 125.00"; GSM-7 has none, and one such character makes the whole message UCS-2,
  // 70 characters a part instead of 160.
  return text.replace(/[\u00a0\u202f]/g, " ");
}
