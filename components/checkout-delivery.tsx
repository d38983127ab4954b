"use client";

import { createContext, useContext, useState } from "react";
import type { Locale } from "@/lib/i18n/config";
import { priceCheckout, type ZonePrice } from "@/lib/checkout/pricing";
import type { MinorUnits } from "@/lib/money";
import { OrderSummary } from "./order-summary";

/**
 * The delivery the customer is choosing on the checkout form, shared with the order summary beside it so that, with
 * JavaScript, the summary shows the chosen city's fee and the total with it. Without JavaScript the summary shows the
 * lines and says the city's fee is added; the server prices it again either way, with the same function (lib/checkout/pricing.ts).
 */
export interface DeliveryChoice {
  method: string;
  zone: string;
}

const Choice = createContext<{ choice: DeliveryChoice; choose: (choice: DeliveryChoice) => void }>({
  choice: { method: "delivery", zone: "" },
  choose: () => {},
});

/** Holds the delivery being chosen for the form and the summary it wraps. */
export function DeliveryChoiceProvider({ children }: { children: React.ReactNode }) {
  const [choice, choose] = useState<DeliveryChoice>({ method: "delivery", zone: "" });
  return <Choice.Provider value={{ choice, choose }}>{children}</Choice.Provider>;
}

/** The delivery being chosen, and the function the form calls when it changes. */
export const useDeliveryChoice = () => useContext(Choice);

/** A zone as the checkout offers it: its id, the text of its option, its summary line, and how it prices delivery. */
export interface OfferedZone {
  id: number;
  option: string;
  line: string;
  price: ZonePrice;
}

/**
 * The checkout's order summary: the lines, then (for a cart of goods) the delivery's line for the method and city
 * being chosen, and the total with its fee.
 */
export function CheckoutSummary({
  lines,
  linesTotalMinor,
  delivery,
  labels,
  locale,
}: {
  lines: { name: string; quantity: number; totalMinor: MinorUnits }[];
  linesTotalMinor: MinorUnits;
  /** The zones offered (each with its fee for this cart); absent for a cart of digital products only. */
  delivery?: { zones: OfferedZone[] };
  labels: { total: string; pickupLine: string; feeByCity: string; free: string };
  locale: Locale;
}) {
  const { choice } = useDeliveryChoice();
  const zone =
    choice.method === "pickup" ? undefined : delivery?.zones.find((offered) => String(offered.id) === choice.zone);
  const price = priceCheckout(linesTotalMinor, zone?.price);
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
      totalMinor={price.totalMinor}
    />
  );
}
