import { getFormatter, getLocale } from "next-intl/server";
import { formatDayRange } from "@/lib/dashboard/period";
import { tripoliMidnight, type DayRange } from "@/lib/time";
import type { AttentionReason } from "@/lib/dashboard/figures";
import { ORDER_FLAGS, type OrderFlag } from "@/lib/db/schema";
import { isLocale } from "@/lib/i18n/config";
import { formatMoney } from "@/lib/money";

/** The home's links in its text. */
export const linkClass = "text-brand-800 underline underline-offset-2";

/** The orders list filtered by `params` (every number on the home links to the list that makes it). */
export function ordersHref(params: Record<string, string>): string {
  return `/admin/orders?${new URLSearchParams(params).toString()}`;
}

/** The orders list of the orders paid in `range`, narrowed further by `more`. */
export const paidIn = (range: DayRange, more: Record<string, string> = {}) =>
  ordersHref({ paid: formatDayRange(range), ...more });

/** Whether an attention reason is one of the order's flags (the others are the scheduled job's and the outbox's). */
export const isFlag = (reason: AttentionReason): reason is OrderFlag =>
  (ORDER_FLAGS as readonly string[]).includes(reason);

/**
 * How the home writes its values in the reader's language: `money` (minor units), `percent` (a ratio, 0–1),
 * `number`, `date` and `dateTime` (a moment), `day` (a merchant's day `YYYY-MM-DD`, `long` or `short`), and the page's `locale`.
 */
export async function homeFormat() {
  const [localeName, format] = await Promise.all([getLocale(), getFormatter()]);
  const locale = isLocale(localeName) ? localeName : "en";
  return {
    locale,
    money: (minor: number) => formatMoney(minor, locale),
    percent: (value: number) => format.number(value, { style: "percent", maximumFractionDigits: 0 }),
    number: (value: number) => format.number(value),
    date: (value: Date) => format.dateTime(value, { dateStyle: "medium" }),
    dateTime: (value: Date) => format.dateTime(value, { dateStyle: "medium", timeStyle: "short" }),
    day: (value: string, style: "short" | "long" = "long") =>
      format.dateTime(
        tripoliMidnight(value),
        style === "long" ? { dateStyle: "medium" } : { day: "numeric", month: "short" },
      ),
  };
}
