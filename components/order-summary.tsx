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
        <Line label={delivery.label} testId="delivery-line" valueTestId="delivery-fee">
          {delivery.feeMinor === null
            ? ""
            : delivery.feeMinor === 0
              ? delivery.free
              : formatMoney(delivery.feeMinor, locale)}
        </Line>
      )}
      {cashFee && (
        <Line label={cashFee.label} testId="cash-fee-line" valueTestId="cash-fee">
          {formatMoney(cashFee.feeMinor, locale)}
        </Line>
      )}
      {discount && (
        <Line label={discount.label} testId="discount-line" valueTestId="discount">
          {discount.amount}
        </Line>
      )}
      <div className="flex justify-between gap-3 border-t border-sand-200 pt-2 text-base font-semibold">
        <dt>{totalLabel}</dt>
        <dd data-testid="order-total">{formatMoney(totalMinor, locale)}</dd>
      </div>
    </dl>
  );
}

/** One of the summary's own lines (a fee, the discount): its label, then its amount (`children`). */
function Line({
  label,
  testId,
  valueTestId,
  children,
}: {
  label: ReactNode;
  testId: string;
  valueTestId: string;
  children: ReactNode;
}) {
  return (
    <div className="flex justify-between gap-3" data-testid={testId}>
      <dt>{label}</dt>
      <dd className="whitespace-nowrap" data-testid={valueTestId}>
        {children}
      </dd>
    </div>
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
