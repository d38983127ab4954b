import { getLocale, getTranslations } from "next-intl/server";
import {
  cancelOrderAction,
  recordRefundAction,
  refundAction,
  returnAction,
  type AfterSaleAction,
} from "@/app/admin/orders/[id]/after-sale-actions";
import { lineNameIn, type AdminOrder } from "@/lib/admin/orders";
import { CANCEL_REASONS } from "@/lib/db/schema";
import { isLocale } from "@/lib/i18n/config";
import { formatMoney, toWireAmount } from "@/lib/money";
import { afterSaleNow, receivedMinor } from "@/lib/refunds/rules";
import { orderLabels } from "../labels";
import { Section } from "../section";
import { columnsOf, Table } from "../table";
import { AfterSaleForm, type AfterSaleControl } from "./after-sale-form";

/**
 * What the merchant can do about a sale gone wrong (lib/refunds/): cancel the order (before delivery), its refunds —
 * each to make or made, one to make with its "Record refund" form —, a refund of what is left, and a return after
 * delivery. Which of them shows, and every amount, comes from lib/refunds/rules.ts: this file only words them.
 * Each form carries a request key drawn here (a repeated post of the same page makes one move) and works without
 * JavaScript.
 */
export async function AfterSale({
  order,
  canEmail,
  canText,
}: {
  order: AdminOrder;
  canEmail: boolean;
  canText: boolean;
}) {
  const [localeName, t, label] = await Promise.all([getLocale(), getTranslations("admin.afterSale"), orderLabels()]);
  const locale = isLocale(localeName) ? localeName : "en";
  const money = (minor: number) => formatMoney(minor, locale);
  const { refunds } = order;
  const now = afterSaleNow(order);
  const notify = (key: "cancel.notify" | "refunds.notify" | "refund.notify" | "return.notify"): AfterSaleControl[] =>
    canEmail || canText
      ? [
          {
            kind: "checkbox",
            name: "notify",
            label: !canEmail
              ? t("notifyText", { phone: order.phone ?? "" })
              : canText
                ? `${t(key, { email: order.email ?? "" })} ${t("alsoText", { phone: order.phone ?? "" })}`
                : t(key, { email: order.email ?? "" }),
            defaultChecked: true,
          },
        ]
      : [];
  const hidden = () => ({ id: order.id, key: crypto.randomUUID() });
  const note: AfterSaleControl = {
    kind: "text",
    name: "note",
    label: t("refund.note"),
    multiline: true,
    maxLength: 500,
  };
  const lineName = (line: AdminOrder["lines"][number]) => lineNameIn(line, order.locale, locale);
  /**
   * A move's card: its title, what it does (`help`), its form with a fresh request key (`secondary`: a button quieter
   * than the page's main move).
   */
  const move = (
    name: "cancel" | "refund" | "return",
    help: string,
    action: AfterSaleAction,
    controls: AfterSaleControl[],
    secondary = false,
  ) => (
    <Section id={name} title={t(`${name}.title`)} testId={`admin-${name}`}>
      <p className="mt-1 mb-3 text-sm text-stone-600">{help}</p>
      <AfterSaleForm
        action={action}
        hidden={hidden()}
        testId={`${name}-form`}
        secondary={secondary}
        submit={t(`${name}.submit`)}
        saving={t(`${name}.saving`)}
        controls={controls}
      />
    </Section>
  );

  return (
    <>
      {now.cancel &&
        move(
          "cancel",
          now.refund ? t("cancel.helpPaid", { amount: money(now.refund.leftMinor) }) : t("cancel.helpUnpaid"),
          cancelOrderAction,
          [
            {
              kind: "radios",
              name: "reason",
              legend: t("cancel.reason"),
              options: CANCEL_REASONS.map((reason) => ({ value: reason, label: t(`reasons.${reason}`) })),
            },
            { ...note, label: t("cancel.note") },
            ...notify("cancel.notify"),
          ],
          true,
        )}
      {refunds.length > 0 && (
        <Section id="refunds" title={t("refunds.title")} testId="admin-refunds">
          <p className="mt-1 text-sm text-stone-600" data-testid="refunds-money">
            {t("refunds.money", {
              received: money(receivedMinor(order)),
              refunded: money(order.refundedMinor),
              left: money(now.refund?.leftMinor ?? 0),
            })}
          </p>
          <Table
            className="mt-2"
            cell="py-1.5 pe-3"
            body="divide-y divide-stone-100"
            caption={t("refunds.caption")}
            testId="refunds-table"
            columns={columnsOf(["amount", "status", "reference", "who"] as const, (key) => t(`refunds.${key}`), [
              "amount",
            ])}
          >
            {refunds.map((refund) => (
              <tr key={refund.id} data-testid="refund-row" data-status={refund.status}>
                <td className="py-1.5 pe-3 text-end whitespace-nowrap">{money(refund.amountMinor)}</td>
                <td className="py-1.5 pe-3">
                  {t(`refunds.statuses.${refund.status}`)}{" "}
                  <span className="text-stone-600">· {t(`refunds.causes.${refund.cause}`)}</span>
                </td>
                <td className="py-1.5 pe-3 font-mono break-all" dir="ltr">
                  {refund.reference ?? "—"}
                </td>
                <td className="py-1.5 pe-3 text-sm text-stone-600">
                  {t.rich("refunds.opened", {
                    // An e-mail address reads left to right inside an Arabic sentence too.
                    by: () => <bdi>{refund.createdBy}</bdi>,
                    at: label.time(refund.createdAt),
                  })}
                  {refund.recordedAt && (
                    <span className="block">
                      {t.rich("refunds.recorded", {
                        by: () => <bdi>{refund.recordedBy ?? "?"}</bdi>,
                        at: label.time(refund.recordedAt),
                      })}
                    </span>
                  )}
                </td>
              </tr>
            ))}
          </Table>
          {refunds
            .filter((refund) => refund.status === "pending")
            .map((refund) => (
              <div key={refund.id} className="mt-3 rounded-lg border border-brand-600 p-3">
                <p className="mb-2 text-sm text-stone-600">{t("refunds.recordHelp")}</p>
                <AfterSaleForm
                  action={recordRefundAction}
                  hidden={{ id: order.id, refund: String(refund.id) }}
                  testId={`record-refund-${refund.id}`}
                  submit={t("refunds.record")}
                  saving={t("refunds.recording")}
                  controls={[
                    {
                      kind: "text",
                      name: "reference",
                      label: t("refunds.recordReference", { amount: money(refund.amountMinor) }),
                      maxLength: 100,
                      ltr: true,
                    },
                    ...notify("refunds.notify"),
                  ]}
                />
              </div>
            ))}
        </Section>
      )}
      {now.refund &&
        now.refund.leftMinor > 0 &&
        move("refund", t("refund.help"), refundAction, [
          {
            kind: "text",
            name: "amount",
            label: t("refund.amount"),
            hint: t("refund.amountHint", { left: money(now.refund.leftMinor) }),
            defaultValue: toWireAmount(now.refund.leftMinor),
            maxLength: 40,
            ltr: true,
            numeric: "decimal",
          },
          {
            kind: "group",
            legend: t("refund.lines"),
            controls: order.lines.map((line) => ({
              kind: "text" as const,
              name: `line_${line.position}`,
              label: t("refund.lineQuantity", { name: lineName(line), max: line.quantity }),
              maxLength: 9,
              ltr: true,
              numeric: "numeric" as const,
            })),
          },
          {
            kind: "text",
            name: "reference",
            label: t("refund.reference"),
            hint: t("refund.referenceHint"),
            maxLength: 100,
            ltr: true,
          },
          note,
          ...notify("refund.notify"),
        ])}
      {now.return &&
        move(
          "return",
          t("return.help"),
          returnAction,
          [
            ...order.lines.map((line): AfterSaleControl => ({
              kind: "group",
              legend: lineName(line),
              controls: [
                {
                  kind: "text",
                  name: `back_${line.position}`,
                  label: t("return.quantity", { max: line.quantity }),
                  maxLength: 9,
                  ltr: true,
                  numeric: "numeric",
                },
                {
                  kind: "checkbox",
                  name: `restock_${line.position}`,
                  label: t("return.restock"),
                  defaultChecked: true,
                },
              ],
            })),
            ...(now.refund && now.refund.leftMinor > 0
              ? ([
                  {
                    kind: "text",
                    name: "refund",
                    label: t("return.refundAmount"),
                    hint: t("return.refundHint", { left: money(now.refund.leftMinor) }),
                    maxLength: 40,
                    ltr: true,
                    numeric: "decimal",
                  },
                  { kind: "text", name: "reference", label: t("return.reference"), maxLength: 100, ltr: true },
                ] satisfies AfterSaleControl[])
              : []),
            { ...note, label: t("return.note") },
            ...notify("return.notify"),
          ],
          true,
        )}
    </>
  );
}
