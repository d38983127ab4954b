import { getFormatter, getTranslations } from "next-intl/server";
import { EnvError } from "../env";
import type { Locale } from "../i18n/config";
import { formatMoney } from "../money";
import { PaymentError } from "../payments";
import { minutesUntil } from "../time";
import { problem, translateProblem, type Problem } from "../problems";
import type { CashRefusal } from "../cash/settings";
import type { PromoCheck } from "../promo-codes/check";
import {
  CashRefusedError,
  HeldTooMuchError,
  OrderStoreError,
  OutOfStockError,
  OverMostError,
  PaymentBudgetError,
} from "./errors";
import { PriceChangedError } from "./shown-prices";

/**
 * What the customer is told when placing the order failed, in their language: which lines the stock cannot cover and
 * how many are left of each (or, when other checkouts hold them, in how many minutes to try again); which prices
 * changed since the form showed them, from what to what; or
 * {@link checkoutProblem}'s message.
 */
export async function describeCheckoutFailure(error: unknown, locale: Locale, now = Date.now()): Promise<string> {
  if (error instanceof OutOfStockError) {
    const lines = await Promise.all(
      error.lines.map(({ name, available, freeAt }) =>
        translateProblem(
          freeAt
            ? { key: "heldLine", values: { name: name[locale], minutes: minutesUntil(freeAt, now) } }
            : { key: "outOfStockLine", values: { name: name[locale], left: available } },
        ),
      ),
    );
    const key = error.lines.every((line) => line.freeAt) ? "heldLines" : "outOfStock";
    return translateProblem({ key, values: { lines: lines.join("; ") } });
  }
  if (error instanceof OverMostError) {
    const lines = error.lines.map(({ name, most }) => `${name[locale]} (${most})`).join("; ");
    return translateProblem({ key: "overMost", values: { lines } });
  }
  if (error instanceof PriceChangedError) {
    const money = (minor: number) => formatMoney(minor, locale);
    const changes = await Promise.all(
      error.changes.map((change) =>
        change.kind === "line"
          ? translateProblem({
              key: "priceChangedLine",
              values: { name: change.name[locale], from: money(change.fromMinor), to: money(change.toMinor) },
            })
          : change.kind === "delivery"
            ? translateProblem({
                key: "priceChangedDelivery",
                values: { city: change.city[locale], from: money(change.fromMinor), to: money(change.toMinor) },
              })
            : change.kind === "cash_fee"
              ? translateProblem({
                  key: "priceChangedCashFee",
                  values: { from: money(change.fromMinor), to: money(change.toMinor) },
                })
              : change.kind === "discount"
                ? getTranslations("checkout.promo").then((t) =>
                    t("discountChanged", {
                      code: isolated(change.code),
                      from: money(change.fromMinor),
                      to: money(change.toMinor),
                    }),
                  )
                : translateProblem({ key: "checkoutOutdated" }),
      ),
    );
    return translateProblem({ key: "priceChanged", values: { changes: changes.join(" ") } });
  }
  return translateProblem(checkoutProblem(error));
}

/**
 * Turns a checkout failure into what the customer is told: what happened and what to do, as a {@link Problem} the
 * page translates. The cart is always kept, and the customer is told so where it matters. Details for the
 * merchant go to the log, never to the page.
 */
function checkoutProblem(error: unknown): Problem {
  if (error instanceof PaymentError) {
    switch (error.kind) {
      case "rate_limited":
        return problem("rateLimited", { seconds: error.retryAfterSeconds ?? 30 });
      case "timeout":
        return problem("timeout");
      case "unavailable":
        return problem("unavailable");
      case "rejected":
        // The service's own reasons, already in the shopper's language (the request carried Accept-Language).
        return error.messages.length > 0
          ? problem("rejected", { reasons: error.messages.join(" ") })
          : problem("rejectedNoReason");
      case "conflict":
        return problem("conflict");
      case "bad_response":
        return problem("badResponse");
      case "invalid_credentials":
      case "unauthorized":
        return problem("setup");
    }
  }
  if (error instanceof OrderStoreError) return problem("orderNotSaved");
  if (error instanceof PaymentBudgetError) return problem("tooManyPayments", { minutes: error.retryAfterMinutes });
  if (error instanceof HeldTooMuchError) {
    return error.held === 0
      ? problem("tooManyToHold", { max: error.max })
      : problem("tooMuchHeld", { held: error.held, max: error.max, minutes: error.retryAfterMinutes });
  }
  if (error instanceof CashRefusedError) {
    const key = ({ blocked: "cashBlocked", phone: "cashPhoneBudget", address: "cashAddressBudget" } as const)[
      error.why
    ];
    return problem(key, { max: error.max });
  }
  if (error instanceof EnvError) return problem("notConfigured");
  return problem("unexpected");
}

/**
 * Why a checkout may not be paid in cash (lib/cash/settings.ts, `cashOffer`), as the customer is told it on the form's
 * "How do you want to pay?" field.
 * @param amounts for `over_max`: the highest total the merchant takes in cash, and this checkout's with the cash fee.
 */
export function cashRefusalProblem(
  why: CashRefusal,
  locale: Locale,
  amounts: { maxMinor: number; totalMinor: number } = { maxMinor: 0, totalMinor: 0 },
): Problem {
  if (why === "over_max") {
    const values = { max: formatMoney(amounts.maxMinor, locale), total: formatMoney(amounts.totalMinor, locale) };
    return problem("cashOverMax", values);
  }
  return problem(({ off: "cashOff", zone: "cashZone", pickup: "cashPickup", digital: "cashDigital" } as const)[why]);
}

/** A code inside a sentence of either language, kept left to right (an isolate, as `<bdi dir="ltr">` does). */
const isolated = (code: string) => `\u2066${code}\u2069`;

/**
 * Why a promo code is not taken (lib/promo-codes/check.ts, `checkPromoCode`; the claim's `used_up` and
 * `customer_used_up`), as the customer is told it on the code's field, in their language: which refusal, and for a
 * code not valid yet from when (Libya time), for one under its minimum how much more the lines need, for an address
 * that spent its budget of wrong codes in how many minutes to try again. An unknown code is not repeated back.
 * @param code the code as typed, normalised (lib/checkout/form.ts `typedPromoCode`).
 */
export async function describePromoRefusal(
  refused: Extract<PromoCheck, { ok: false }>,
  code: string,
  locale: Locale,
): Promise<string> {
  const t = await getTranslations("checkout.promo");
  const values = { code: isolated(code) };
  switch (refused.why) {
    case "unknown":
      return t("unknown");
    case "not_yet": {
      const from = refused.startsAt
        ? (await getFormatter()).dateTime(refused.startsAt, { dateStyle: "medium", timeStyle: "short" })
        : "";
      return t("notYet", { ...values, from });
    }
    case "expired":
      return t("expired", values);
    case "under_minimum":
      return t("underMinimum", { ...values, more: formatMoney(refused.moreMinor ?? 0, locale) });
    case "used_up":
      return t("usedUp", values);
    case "customer_used_up":
      return t("customerUsedUp", values);
    case "too_many_tries":
      return t("tooManyTries", { minutes: refused.retryAfterMinutes ?? 1 });
  }
}
