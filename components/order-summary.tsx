import type { ReactNode } from "react";
import type { Locale } from "@/lib/i18n/config";
import { formatMoney, type MinorUnits } from "@/lib/money";

/**
 * The lines and total of a cart or order, amounts in minor units. `delivery` is the delivery's own line ("Delivery —
 * Benghazi", or pickup): its fee in minor units (0 shows `free`), or `null` when it is not known yet (no city chosen:
 * the label says the city's fee is added). `cashFee` is the fee of paying cash on delivery, its own line. `discount`
 * is a promo code's, its own line after the fees: its label (naming the code) and its amount as written (negative).
 * `totalMinor` is the total including the fees, less the discount.
 */
export function OrderSummary({
  lines,
  totalMinor,
  totalLabel,
  locale,
  delivery,
  cashFee,
  discount,
}: {
  lines: { name: string; quantity: number; totalMinor: MinorUnits }[];
  totalMinor: MinorUnits;
  totalLabel: string;
  locale: Locale;
  delivery?: { label: string; feeMinor: MinorUnits | null; free: string };
  cashFee?: { label: string; feeMinor: MinorUnits };
  discount?: { label: ReactNode; amount: string };
}) {
  return (
    <dl className="mt-3 space-y-2 text-sm">
      {lines.map((line) => (
        <div key={line.name} className="flex justify-between gap-3">
          <dt>
            {line.name} <span className="text-stone-600">× {line.quantity}</span>
          </dt>
          <dd className="whitespace-nowrap">{formatMoney(line.totalMinor, locale)}</dd>
        </div>
      ))}
      {delivery && (
        <div className="flex justify-between gap-3" data-testid="delivery-line">
          <dt>{delivery.label}</dt>
          <dd className="whitespace-nowrap" data-testid="delivery-fee">
            {delivery.feeMinor === null
              ? ""
              : delivery.feeMinor === 0
                ? delivery.free
                : formatMoney(delivery.feeMinor, locale)}
          </dd>
        </div>
      )}
      {cashFee && (
        <div className="flex justify-between gap-3" data-testid="cash-fee-line">
          <dt>{cashFee.label}</dt>
          <dd className="whitespace-nowrap" data-testid="cash-fee">
            {formatMoney(cashFee.feeMinor, locale)}
          </dd>
        </div>
      )}
      {discount && (
        <div className="flex justify-between gap-3" data-testid="discount-line">
          <dt>{discount.label}</dt>
          <dd className="whitespace-nowrap" data-testid="discount">
            {discount.amount}
          </dd>
        </div>
      )}
      <div className="flex justify-between gap-3 border-t border-sand-200 pt-2 text-base font-semibold">
        <dt>{totalLabel}</dt>
        <dd data-testid="order-total">{formatMoney(totalMinor, locale)}</dd>
      </div>
    </dl>
  );
}

/** A message with a `{code}` placeholder, the code in it kept left to right inside either language. */
export function withCode(template: string, code: string): ReactNode {
  const [before = "", after = ""] = template.split("{code}");
  return (
    <>
      {before}
      <bdi dir="ltr">{code}</bdi>
      {after}
    </>
  );
}
