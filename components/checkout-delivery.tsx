"use client";

import { createContext, useActionState, useContext, useState, type ReactNode } from "react";
import { startCheckout, type CheckoutState } from "@/app/(shop)/checkout/actions";
import type { Locale } from "@/lib/i18n/config";
import { priceCheckout, type PromoPrice, type ZonePrice } from "@/lib/checkout/pricing";
import { formatDiscount, formatMoney, type MinorUnits } from "@/lib/money";
import { OrderSummary, withCode } from "./order-summary";

/**
 * The delivery and the way to pay the customer is choosing on the checkout form, shared with the order summary beside
 * it so that, with JavaScript, the summary shows the chosen city's fee, the cash fee when paying cash, and the total
 * with them. Without JavaScript the summary of a fresh form shows the lines and says the city's fee is added, and a
 * form that comes back with a message shows the delivery and the way to pay it was posted with; the server prices it
 * again either way, with the same function (lib/checkout/pricing.ts). The promo code applied is the checkout action's
 * answer (its state), so the summary shows its discount with JavaScript or without.
 */
export interface DeliveryChoice {
  method: string;
  zone: string;
  /** The way to pay: `online`, or `cash` on delivery. */
  pay: string;
  /**
   * The promo code field as the customer is editing it (trimmed, upper case), once they touch it after an answer:
   * the summary drops the applied code's discount while the field says another code. Unset: as the answer left it.
   */
  code?: string;
}

const initialState: CheckoutState = { values: {} };

/** The delivery and the way to pay a checkout answer was posted with (a fresh form's: delivery, no city, online). */
export const postedChoice = ({ values }: CheckoutState): DeliveryChoice => ({
  method: values.delivery_method ?? "delivery",
  zone: values.delivery_zone ?? "",
  pay: values.payment_method ?? "online",
});

const Choice = createContext<{
  choice: DeliveryChoice;
  choose: (choice: DeliveryChoice) => void;
  checkout: [CheckoutState, (form: FormData) => void, boolean];
}>({
  choice: postedChoice(initialState),
  choose: () => {},
  checkout: [initialState, () => {}, false],
});

/**
 * Holds the delivery being chosen, and the checkout action's answer, for the form and the summary it wraps. The
 * action's state lives here, above both, so that without JavaScript too — the page rendered again with the answer —
 * the summary shows the promo code's discount.
 */
export function DeliveryChoiceProvider({ children }: { children: ReactNode }) {
  const checkout = useActionState(startCheckout, initialState);
  // Rendered again with an answer without JavaScript, the page starts from what was posted; with JavaScript the form
  // sets it again on every answer (components/checkout-form.tsx).
  const [choice, choose] = useState<DeliveryChoice>(() => postedChoice(checkout[0]));
  return <Choice.Provider value={{ choice, choose, checkout }}>{children}</Choice.Provider>;
}

/** The delivery being chosen, the function the form calls when it changes, and the checkout action's state. */
export const useDeliveryChoice = () => useContext(Choice);

/** The promo code the checkout's answer applied, unless the customer is typing another one since. */
export function appliedPromo(applied: PromoPrice | undefined, choice: DeliveryChoice): PromoPrice | undefined {
  return applied && (choice.code === undefined || choice.code === applied.code) ? applied : undefined;
}

/**
 * A zone as the checkout offers it: its id, the text of its option, its summary line, how it prices delivery, and
 * whether this cart may be paid in cash there (lib/cash/settings.ts, `cashOffer`, decided on the server) but for the
 * highest total for cash, which {@link cashAllowed} compares.
 */
export interface OfferedZone {
  id: number;
  option: string;
  line: string;
  price: ZonePrice;
  cash: boolean;
}

/**
 * Cash on delivery as the checkout offers it for this cart (absent: not at all): its fee (minor units), whether it
 * may be paid at pickup, the merchant's highest total for cash (null: none) and the lines' total it is compared for.
 * Which zones take it is each {@link OfferedZone}'s `cash`.
 */
export interface CashOption {
  feeMinor: MinorUnits;
  pickup: boolean;
  maxTotalMinor: MinorUnits | null;
  linesMinor: MinorUnits;
}

/**
 * Whether the delivery being chosen may be paid in cash: at pickup when pickup takes it; in the chosen city when it
 * does; before a city is chosen, when pickup or any city does — each only while what the courier would collect (the
 * cash fee added, the promo code's discount taken off) is at most the merchant's highest total for cash. The server
 * decides again at the submit.
 */
export function cashAllowed(
  choice: DeliveryChoice,
  zones: readonly OfferedZone[],
  cash: CashOption | undefined,
  promo?: PromoPrice,
) {
  if (!cash) return false;
  const under = (zone?: OfferedZone) =>
    cash.maxTotalMinor === null ||
    priceCheckout(cash.linesMinor, zone?.price, cash.feeMinor, promo).totalMinor <= cash.maxTotalMinor;
  if (choice.method === "pickup") return cash.pickup && under();
  const zone = zones.find((offered) => String(offered.id) === choice.zone);
  // No city chosen yet (and, without JavaScript, whatever is chosen): asked wherever cash may be taken.
  return zone
    ? zone.cash && under(zone)
    : (cash.pickup && under()) || zones.some((offered) => offered.cash && under(offered));
}

/**
 * The checkout's order summary: the lines, then (for a cart of goods) the delivery's line for the method and city
 * being chosen, the cash fee's line when paying cash where it is taken, the promo code's discount when one is applied
 * (`Discount (EID10) −LYD 4.25`; before a city is chosen, a free-delivery code says so), and the total with them.
 */
export function CheckoutSummary({
  lines,
  linesTotalMinor,
  delivery,
  cash,
  labels,
  locale,
}: {
  lines: { name: string; quantity: number; totalMinor: MinorUnits }[];
  linesTotalMinor: MinorUnits;
  /** The zones offered (each with its fee for this cart); absent for a cart of digital products only. */
  delivery?: { zones: OfferedZone[] };
  cash?: CashOption;
  /** `discount`: the discount's line, with a `{code}` placeholder; `freeDelivery`: its amount before a city. */
  labels: {
    total: string;
    pickupLine: string;
    feeByCity: string;
    free: string;
    cashFee: string;
    discount: string;
    freeDelivery: string;
  };
  locale: Locale;
}) {
  const {
    choice,
    checkout: [{ promo: applied }],
  } = useDeliveryChoice();
  const zone =
    choice.method === "pickup" ? undefined : delivery?.zones.find((offered) => String(offered.id) === choice.zone);
  const promo = appliedPromo(applied, choice);
  const payingCash = choice.pay === "cash" && cashAllowed(choice, delivery?.zones ?? [], cash, promo);
  const price = priceCheckout(linesTotalMinor, zone?.price, payingCash ? cash!.feeMinor : undefined, promo);
  let line: { label: string; feeMinor: MinorUnits | null; free: string } | undefined;
  if (delivery) {
    line =
      choice.method === "pickup"
        ? { label: labels.pickupLine, feeMinor: 0, free: labels.free }
        : zone
          ? { label: zone.line, feeMinor: price.deliveryFeeMinor, free: labels.free }
          : { label: labels.feeByCity, feeMinor: null, free: labels.free };
  }
  return (
    <OrderSummary
      locale={locale}
      totalLabel={labels.total}
      lines={lines}
      delivery={line}
      {...(price.cashFeeMinor === undefined
        ? {}
        : { cashFee: { label: labels.cashFee, feeMinor: price.cashFeeMinor } })}
      {...(promo && price.discountMinor !== undefined
        ? {
            discount: {
              label: withCode(labels.discount, promo.code),
              amount:
                price.discountMinor > 0
                  ? formatDiscount(price.discountMinor, locale)
                  : promo.kind === "free_delivery" && !zone && choice.method !== "pickup"
                    ? labels.freeDelivery
                    : formatMoney(0, locale),
            },
          }
        : {})}
      totalMinor={price.totalMinor}
    />
  );
}
