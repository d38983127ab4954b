import { match } from "@formatjs/intl-localematcher";
import Negotiator from "negotiator";

/**
 * The shop's languages. There are no locale prefixes in URLs (so `return_url` and `cancel_url` stay simple): the
 * language comes from the `NEXT_LOCALE` cookie the language switch sets, else from the browser's Accept-Language.
 */
export const LOCALES = ["en", "ar"] as const;
export type Locale = (typeof LOCALES)[number];
const DEFAULT_LOCALE: Locale = "en";
export const LOCALE_COOKIE = "NEXT_LOCALE";

/** Whether a value names one of the shop's languages. */
export function isLocale(value: unknown): value is Locale {
  return typeof value === "string" && (LOCALES as readonly string[]).includes(value);
}

/**
 * The language of a request: the cookie if it names a supported language, else the best match of Accept-Language
 * (`ar-LY,ar;q=0.9` → `ar`), else English.
 */
export function resolveLocale(cookieValue: string | undefined, acceptLanguage: string | null): Locale {
  if (isLocale(cookieValue)) return cookieValue;
  const requested = new Negotiator({ headers: { "accept-language": acceptLanguage ?? "" } }).languages();
  try {
    const best = match(requested, LOCALES, DEFAULT_LOCALE);
    return isLocale(best) ? best : DEFAULT_LOCALE;
  } catch {
    // A malformed tag (RangeError from Intl) is the browser's problem, not a reason to fail the page.
    return DEFAULT_LOCALE;
  }
}

/** Writing direction of a language, for `<html dir>`. */
export function direction(locale: Locale): "ltr" | "rtl" {
  return locale === "ar" ? "rtl" : "ltr";
}
