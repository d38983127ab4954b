import { getTranslations } from "next-intl/server";
import type { OrderRow } from "@/lib/db/schema";
import { unresolvedFlags } from "@/lib/orders/flags";
import { refundStanding } from "@/lib/refunds/rules";

const TONES: Record<OrderRow["status"], string> = {
  started: "bg-stone-100 text-stone-800",
  failed: "bg-stone-100 text-stone-800",
  pending: "bg-stone-100 text-stone-800",
  awaiting_confirmation: "bg-amber-100 text-amber-900",
  paid: "bg-brand-50 text-brand-800",
  cancelled: "bg-stone-100 text-stone-800",
  expired: "bg-stone-100 text-stone-800",
  placed: "bg-amber-100 text-amber-900",
  confirmed: "bg-brand-50 text-brand-800",
};

/**
 * An order's status in words (a cancel by the merchant named so), with the step of its goods' way once it has one
 * (packed, out for delivery… solid once it is the last), where it stands with its refunds (lib/refunds/rules.ts:
 * `pendingRefundMinor` is the sum of its refunds still to make) and the flags the merchant has not resolved next to it.
 */
export async function OrderStatusBadge({
  order,
}: {
  order: Pick<
    OrderRow,
    | "status"
    | "flags"
    | "resolvedFlags"
    | "fulfilledAt"
    | "fulfilment"
    | "cancelledAt"
    | "paymentMethod"
    | "paidAt"
    | "amountMinor"
    | "collectedMinor"
    | "refundedMinor"
  > & { pendingRefundMinor?: number };
}) {
  const [t, tFlag, tAdmin, tAfterSale] = await Promise.all([
    getTranslations("admin.filters"),
    getTranslations("admin.flags"),
    getTranslations("admin"),
    getTranslations("admin.afterSale.standing"),
  ]);
  const refunds = refundStanding({ ...order, pendingRefundMinor: order.pendingRefundMinor ?? 0 });
  return (
    <span className="flex flex-wrap gap-1" data-testid="admin-order-status">
      <span className={`rounded-full px-2 py-0.5 text-xs font-medium ${TONES[order.status]}`}>
        {order.cancelledAt ? tAfterSale("cancelled") : t(order.status)}
      </span>
      {order.fulfilment && (
        <span
          data-testid="admin-order-step"
          className={`rounded-full px-2 py-0.5 text-xs font-medium ${order.fulfilledAt ? "bg-brand-700 text-white" : "border border-brand-700 text-brand-800"}`}
        >
          {tAdmin(`steps.${order.fulfilment}`)}
        </span>
      )}
      {refunds !== "none" && (
        <span
          data-testid="admin-order-refunds"
          className={`rounded-full px-2 py-0.5 text-xs font-medium ${refunds === "pending" ? "bg-amber-100 text-amber-900" : "bg-stone-200 text-stone-900"}`}
        >
          {tAfterSale(refunds)}
        </span>
      )}
      {unresolvedFlags(order).map((flag) => (
        <span key={flag} className="rounded-full bg-red-100 px-2 py-0.5 text-xs font-medium text-red-900">
          {tFlag(flag)}
        </span>
      ))}
    </span>
  );
}
