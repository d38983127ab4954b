import { getLocale, getTranslations } from "next-intl/server";
import { lineNameIn, type AdminOrder } from "@/lib/admin/orders";
import { formatDiscount, formatMoney, multiply } from "@/lib/money";
import { orderLabels } from "../labels";
import { Section } from "../section";
import { columnsOf, Table } from "../table";
import { FactList, phoneOr, type Fact } from "./fact-list";

/**
 * The order's lines as sold (each product named as the reader reads it), the delivery fee, the cash fee, the promo
 * code's discount and the total (what the customer pays: the discount is already taken off).
 */
export async function OrderLines({ order, city }: { order: AdminOrder; city: string | null }) {
  const [locale, t] = await Promise.all([getLocale(), getTranslations("admin.order")]);
  const money = (minor: number) => formatMoney(minor, locale);
  const columns = columnsOf(["product", "unitPrice", "quantity", "lineTotal"] as const, (key) => t(key), [
    "unitPrice",
    "quantity",
    "lineTotal",
  ]);
  return (
    <Section id="lines" title={t("lines")}>
      <Table
        columns={columns}
        className="mt-2"
        cell="py-1"
        body=""
        foot={
          <>
            {order.deliveryMethod === "delivery" && (
              <tr className="border-t border-stone-200" data-testid="admin-fee-line">
                <th scope="row" colSpan={3} className="py-1 text-start font-normal">
                  {t("feeLine", { city: city ?? "" })}
                </th>
                <td className="py-1 text-end whitespace-nowrap">
                  {order.deliveryFeeMinor ? money(order.deliveryFeeMinor) : t("free")}
                </td>
              </tr>
            )}
            {order.cashFeeMinor > 0 && (
              <tr className="border-t border-stone-200" data-testid="admin-cash-fee-line">
                <th scope="row" colSpan={3} className="py-1 text-start font-normal">
                  {t("cash.feeLine")}
                </th>
                <td className="py-1 text-end whitespace-nowrap">{money(order.cashFeeMinor)}</td>
              </tr>
            )}
            {order.promoCode && (
              <tr className="border-t border-stone-200" data-testid="admin-discount-line">
                <th scope="row" colSpan={3} className="py-1 text-start font-normal">
                  {t.rich("promo.line", {
                    code: order.promoCode,
                    // A code reads left to right inside an Arabic label too.
                    bdi: (chunks) => <bdi className="font-mono">{chunks}</bdi>,
                  })}
                </th>
                <td className="py-1 text-end whitespace-nowrap">{formatDiscount(order.discountMinor, locale)}</td>
              </tr>
            )}
            <tr className="border-t border-stone-300 font-semibold">
              <th scope="row" colSpan={3} className="py-1 text-start">
                {t("orderTotal")}
              </th>
              <td className="py-1 text-end whitespace-nowrap">{money(order.amountMinor)}</td>
            </tr>
          </>
        }
      >
        {order.lines.map((line) => (
          <tr key={line.position} className="border-t border-stone-200">
            <th scope="row" className="py-1 text-start font-normal" dir="auto">
              {lineNameIn(line, order.locale, locale)}
            </th>
            <td className="py-1 text-end whitespace-nowrap">{money(line.unitMinor)}</td>
            <td className="py-1 text-end">{line.quantity}</td>
            <td className="py-1 text-end whitespace-nowrap">{money(multiply(line.unitMinor, line.quantity))}</td>
          </tr>
        ))}
      </Table>
    </Section>
  );
}

/** Who ordered and how they paid: contact, language, the gateway chosen and the one paid with, references. */
export async function OrderFacts({ order }: { order: AdminOrder }) {
  const [t, label] = await Promise.all([getTranslations("admin.order"), orderLabels()]);
  const { payment } = order;
  const mono = (value: string | null | undefined) =>
    value ? <span className="font-mono break-all">{value}</span> : t("none");
  const facts: Fact[] = [
    [t("created"), label.time(order.createdAt)],
    [t("fullName"), order.fullName ? <span dir="auto">{order.fullName}</span> : t("none")],
    [t("email"), order.email ?? t("none")],
    [t("phone"), phoneOr(order.phone, t("none"))],
    [t("language"), label.language(order.locale)],
    [t("gateway"), order.paymentGateway ? label.gateway(order.paymentGateway) : t("none")],
    [t("paidWith"), payment?.gateway ? label.gateway(payment.gateway) : t("none")],
    [t("paidAt"), payment ? label.time(payment.at) : t("none")],
    [t("transactionReference"), mono(payment?.reference)],
    [t("token"), mono(order.paymentToken)],
    ...(order.failure ? [[t("failure"), label.failure(order.failure)] as const] : []),
  ];
  return (
    <Section id="customer" title={`${t("customer")} · ${t("payment")}`}>
      <FactList facts={facts} />
    </Section>
  );
}
