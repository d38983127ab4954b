import "server-only";
import { createTranslator } from "next-intl";
import { after } from "next/server";
import { shopName } from "../brand";
import { getDb, type Db } from "../db/client";
import { smsSettings } from "../env";
import { isLocale, type Locale } from "../i18n/config";
import ar from "../i18n/messages/ar.json";
import en from "../i18n/messages/en.json";
import { logger } from "../log";
import type { LookupCode } from "../orders/lookup";
import { tripoliDay } from "../time";
import { markSmsLimitReached, releaseSmsParts, reserveSmsParts } from "./daily-limit";
import { segmentSms } from "./segments";
import type { OpenSmsSender } from "./sender";
import { smppSender } from "./smpp";

/**
 * The text message of find-my-order's one-time code (lib/orders/lookup.ts): the shop's name, the code, how long it
 * works. Sent straight through the sender seam after the response, not through the SMS outbox: a code is worth
 * nothing in ten minutes, must never be stored as it is, and whoever asked can ask again.
 */

const catalogues: Record<Locale, typeof en> = { en, ar };

/**
 * The code's text, in `code.locale` (English for one the shop does not have): one part in either language
 * (lib/sms/segments.ts).
 */
export function lookupCodeText(code: Pick<LookupCode, "code" | "locale">, minutes: number): string {
  const locale: Locale = isLocale(code.locale) ? code.locale : "en";
  const t = createTranslator({ locale, messages: catalogues[locale], namespace: "sms" });
  return t("lookupCode", { shop: shopName(locale), code: code.code, minutes });
}

/**
 * Texts a code to its phone: reserves its part under the daily cap (lib/sms/daily-limit.ts: a code is billed like
 * any message, and the cap is the last guard against a flood spread over many addresses), opens a sender, hands the
 * message over, closes it. Delivery reports are not recorded (there is no outbox row to record them on).
 * @param open the provider (default: SMPP with this process's settings).
 * @returns whether the provider accepted it; a failure is logged (never the code or the phone), not thrown. `false`
 *   when text messages are off, or the day's cap is spent (the day is then marked for the merchant's home).
 */
export async function sendLookupCode(
  db: Db,
  code: LookupCode,
  { open, now = new Date() }: { open?: OpenSmsSender; now?: Date } = {},
): Promise<boolean> {
  const settings = smsSettings();
  if (!settings) return false;
  const text = lookupCodeText(code, Math.max(1, Math.round((code.expiresAt.getTime() - now.getTime()) / 60_000)));
  const { parts } = segmentSms(text);
  const day = tripoliDay(now);
  let reserved = false;
  try {
    reserved = await reserveSmsParts(db, day, parts, settings.dailyLimit);
    if (!reserved) {
      if (await markSmsLimitReached(db, day, now))
        logger.warn({ event: "sms_daily_limit_reached", day, limit: settings.dailyLimit });
      logger.warn({ event: "order_lookup_code_not_sent", error: "the daily cap on text messages is spent" });
      return false;
    }
    const sender = await (open ?? smppSender(settings))(async () => {});
    try {
      const sent = await sender.send({ to: code.to, text });
      logger.info({ event: "order_lookup_code_sent", parts: sent.length });
      return true;
    } finally {
      await sender.close();
    }
  } catch (error) {
    if (reserved) await releaseSmsParts(db, day, parts).catch(() => {});
    logger.error({ event: "order_lookup_code_not_sent", error: String((error as Error)?.message ?? error) });
    return false;
  }
}

/**
 * Texts the code after the response has been sent (Next.js's `after()`), so asking takes as long whether or not
 * anything is sent.
 */
export function sendLookupCodeAfterResponse(code: LookupCode): void {
  after(async () => {
    await sendLookupCode(getDb(), code);
  });
}
