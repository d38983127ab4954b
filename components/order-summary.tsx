import type { Locale } from "@/lib/i18n/config";
import { formatMoney, type MinorUnits } from "@/lib/money";

/** The lines and total of a cart or order, amounts in minor units. */
export function OrderSummary({
  lines,
  totalMinor,
  totalLabel,
  locale,
}: {
  lines: { name: string; quantity: number; totalMinor: MinorUnits }[];
  totalMinor: MinorUnits;
  totalLabel: string;
  locale: Locale;
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
      <div className="flex justify-between gap-3 border-t border-sand-200 pt-2 text-base font-semibold">
        <dt>{totalLabel}</dt>
        <dd data-testid="order-total">{formatMoney(totalMinor, locale)}</dd>
      </div>
    </dl>
  );
}
