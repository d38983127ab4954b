import type { getFormatter, getTranslations } from "next-intl/server";
import type { PromoCodeRow } from "@/lib/db/schema";
import { formatMoney } from "@/lib/money";

/** What the back office's pages of promo codes say about a code, in the admin's language. */

type PromoT = Awaited<ReturnType<typeof getTranslations<"admin.promo">>>;
type Format = Awaited<ReturnType<typeof getFormatter>>;

/** What a code takes off: `10% off the products`, `5.00 LYD off the products`, `Free delivery`. */
export function describeDiscount(row: PromoCodeRow, t: PromoT, locale: string): string {
  if (row.kind === "percent") return t("kinds.percent", { percent: row.percent! });
  if (row.kind === "amount") return t("kinds.amount", { amount: formatMoney(row.amountMinor!, locale) });
  return t("kinds.free_delivery");
}

/** When a code is valid, in Libya's time (the formatter's zone): always, from, until, or from … to …. */
export function describeValidity(row: Pick<PromoCodeRow, "startsAt" | "endsAt">, t: PromoT, format: Format): string {
  const at = (date: Date) => format.dateTime(date, { dateStyle: "medium", timeStyle: "short" });
  if (row.startsAt && row.endsAt) return t("validity.between", { start: at(row.startsAt), end: at(row.endsAt) });
  if (row.startsAt) return t("validity.from", { start: at(row.startsAt) });
  if (row.endsAt) return t("validity.until", { end: at(row.endsAt) });
  return t("validity.always");
}
