import { formatMoney, type MinorUnits } from "@/lib/money";

/** The lines and total of a cart or order, amounts in minor units. */
export function OrderSummary({ lines, totalMinor }: { lines: { name: string; quantity: number; totalMinor: MinorUnits }[]; totalMinor: MinorUnits }) {
  return (
    <dl className="mt-3 space-y-2 text-sm">
      {lines.map((line) => (
        <div key={line.name} className="flex justify-between gap-3">
          <dt>
            {line.name} <span className="text-stone-500">× {line.quantity}</span>
          </dt>
          <dd className="whitespace-nowrap">{formatMoney(line.totalMinor)}</dd>
        </div>
      ))}
      <div className="flex justify-between gap-3 border-t border-sand-200 pt-2 text-base font-semibold">
        <dt>Total</dt>
        <dd data-testid="order-total">{formatMoney(totalMinor)}</dd>
      </div>
    </dl>
  );
}
