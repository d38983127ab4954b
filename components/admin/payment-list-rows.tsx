import { getLocale, getTranslations } from "next-intl/server";
import type { PlanRow } from "@/lib/admin/reconcile";
import { formatMoney } from "@/lib/money";
import { OrderLink } from "./order-link";
import { Section } from "./section";
import { columnsOf, PHONE_ONLY, Table, WIDE_ONLY } from "./table";

const COLUMNS = ["row", "payment", "amount", "reference", "order", "status", "outcome"] as const;

/**
 * Payments of a dashboard list, as a table under a heading: each with its row in the list, what it names, its amount
 * and reference, the order it matched, and what applying the list does with it (lib/admin/reconcile.ts).
 */
export async function PaymentListRows({
  id,
  title,
  help,
  rows,
}: {
  id: string;
  title: string;
  help?: string;
  rows: PlanRow[];
}) {
  const [locale, t, tStatus] = await Promise.all([
    getLocale(),
    getTranslations("admin.list"),
    getTranslations("admin.filters"),
  ]);
  const money = (minor: number) => formatMoney(minor, locale);
  const outcome = ({ outcome, order, payment, firstRow }: PlanRow): string => {
    switch (outcome) {
      case "amount_differs":
        return t("outcomes.amount_differs", { listed: money(payment.amountMinor), order: money(order!.amountMinor) });
      case "cannot_mark":
        return t("outcomes.cannot_mark", { status: tStatus(order!.status) });
      case "listed_twice":
        return t("outcomes.listed_twice", { row: firstRow ?? 0 });
      case "not_completed":
        return t("outcomes.not_completed", { status: payment.notCompleted ?? "" });
      default:
        return t(`outcomes.${outcome}`);
    }
  };
  return (
    <Section id={id} title={title} testId={id}>
      {help && <p className="mt-1 max-w-3xl text-sm text-stone-600">{help}</p>}
      <Table
        region={{ labelledBy: id }}
        minWidth="sm:min-w-[48rem]"
        columns={columnsOf(
          COLUMNS,
          (column) => t(`columns.${column}`),
          ["amount"],
          ["row", "reference", "order", "status"],
        )}
      >
        {rows.map((row) => (
          <tr key={row.payment.row} data-testid="list-row">
            <th scope="row" className={`px-1 py-1 text-start font-normal ${WIDE_ONLY}`}>
              {row.payment.row}
            </th>
            <td className="px-1 py-1">
              <span className="font-mono break-all" dir="ltr">
                {row.payment.paymentToken ?? row.payment.orderId}
              </span>
              {/* On a phone the row, the reference, the order and its status, whose columns it hides. */}
              <span className={`${PHONE_ONLY} block text-xs text-stone-600`}>
                {t("columns.row")} {row.payment.row} · <bdi className="font-mono">{row.payment.reference}</bdi>
                {row.order && (
                  <span className="block break-all">
                    <OrderLink id={row.order.id} /> · {tStatus(row.order.status)}
                  </span>
                )}
              </span>
            </td>
            <td className="px-1 py-1 text-end whitespace-nowrap">{money(row.payment.amountMinor)}</td>
            <td className={`px-1 py-1 font-mono break-words ${WIDE_ONLY}`} dir="ltr">
              {row.payment.reference}
            </td>
            <td className={`px-1 py-1 ${WIDE_ONLY}`}>{row.order ? <OrderLink id={row.order.id} /> : "—"}</td>
            <td className={`px-1 py-1 ${WIDE_ONLY}`}>{row.order ? tStatus(row.order.status) : "—"}</td>
            <td className="px-1 py-1">{outcome(row)}</td>
          </tr>
        ))}
      </Table>
    </Section>
  );
}
