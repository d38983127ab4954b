import { PageLink } from "@/components/page-link";
import { getTranslations } from "next-intl/server";
import type { AttentionReason, Dashboard } from "@/lib/dashboard/figures";
import { orderLabels } from "../labels";
import { OrderLink } from "../order-link";
import { Notice, Section } from "../section";
import { homeFormat, isFlag, linkClass, ordersHref } from "./format";
import { CountLink, PanelList } from "./parts";

/**
 * How many cash orders wait for the merchant's call, the nearest deadline first (each expires then, its units back on
 * sale): the first thing to do, so the home shows it first.
 */
export async function ToConfirm({ toConfirm }: Pick<Dashboard, "toConfirm">) {
  const [t, { money, dateTime }] = await Promise.all([getTranslations("admin.dashboard.cash"), homeFormat()]);
  return (
    <OrderQueue
      id="to-confirm"
      title={t("toConfirm")}
      href={ordersHref({ cash: "to_confirm" })}
      count={t("toConfirmCount", { count: toConfirm.count })}
      label={t("nearestFirst")}
      orders={toConfirm.oldest}
      detail={(order) => `${t("confirmBy", { date: dateTime(order.confirmBy) })} · ${money(order.amountMinor)}`}
    />
  );
}

/** How many paid (or confirmed cash) orders wait to be sent, with the oldest first. */
export async function ToFulfil({ toFulfil }: Pick<Dashboard, "toFulfil">) {
  const [t, { money, date }] = await Promise.all([getTranslations("admin.dashboard"), homeFormat()]);
  return (
    <OrderQueue
      id="to-fulfil"
      title={t("toFulfil")}
      href={ordersHref({ status: "to_fulfil" })}
      count={t("toFulfilCount", { count: toFulfil.count })}
      label={t("oldestFirst")}
      orders={toFulfil.oldest}
      detail={(order) => (
        <>
          {order.deliveryMethod ? `${t(order.deliveryMethod)} · ` : ""}
          {order.way === "cash"
            ? t("cash.placedOn", { date: date(order.since) })
            : t("paidOn", { date: date(order.since) })}{" "}
          · {money(order.amountMinor)}
        </>
      )}
    />
  );
}

/**
 * A panel of the orders that wait for the merchant: how many (`count`, linked to their list), then the first of them in
 * the order `label` names, each with its customer's name (in whichever script it was typed) and its `detail`.
 */
function OrderQueue<Order extends { id: string; fullName: string | null }>({
  id,
  title,
  href,
  count,
  label,
  orders,
  detail,
}: {
  id: string;
  title: string;
  href: string;
  count: string;
  label: string;
  orders: Order[];
  detail: (order: Order) => React.ReactNode;
}) {
  return (
    <Section id={id} title={title}>
      <CountLink href={href} testId={`${id}-count`}>
        {count}
      </CountLink>
      <PanelList
        label={label}
        rows={orders.map((order) => ({
          key: order.id,
          start: (
            <span>
              <OrderLink id={order.id} /> <span dir="auto">{order.fullName ?? ""}</span>
            </span>
          ),
          end: <span className="text-stone-600">{detail(order)}</span>,
        }))}
      />
    </Section>
  );
}

/**
 * The orders that need a look: how many, by reason (each linked to its list), and the first of them; and when the
 * merchant dashboard's payment list was last reconciled (the one way to settle an order flagged `check_payment_list`).
 */
export async function NeedsAttention({
  attention,
  smsLimitReachedAt,
  lastReconciledAt,
}: Pick<Dashboard, "attention" | "smsLimitReachedAt"> & { lastReconciledAt: Date | null }) {
  const [t, labels, { money, number, date, dateTime }] = await Promise.all([
    getTranslations("admin.dashboard"),
    orderLabels(),
    homeFormat(),
  ]);
  const reasonText = (reason: AttentionReason): string =>
    isFlag(reason) ? labels.flag(reason) : t(`reasons.${reason}`);
  const reasonHref = (reason: AttentionReason) =>
    isFlag(reason) ? ordersHref({ flag: reason }) : ordersHref({ status: reason });
  return (
    <Section id="attention" title={t("attention")}>
      <p className="mt-1" data-testid="attention-count">
        {t("attentionCount", { count: attention.count })}
      </p>
      {attention.count > 0 && (
        <ul className="mt-2 flex flex-wrap gap-2 text-sm">
          {Object.entries(attention.byReason).map(([reason, count]) => (
            <li key={reason}>
              <PageLink
                href={reasonHref(reason as AttentionReason)}
                className="inline-block rounded-full bg-red-50 px-2 py-0.5 text-red-900 underline-offset-2 hover:underline"
              >
                {reasonText(reason as AttentionReason)} · {number(count ?? 0)}
              </PageLink>
            </li>
          ))}
        </ul>
      )}
      {smsLimitReachedAt && (
        <Notice tone="warning" testId="sms-limit-reached" className="mt-2 text-sm">
          {t("smsLimitReached", { time: dateTime(smsLimitReachedAt) })}
        </Notice>
      )}
      <p className="mt-1 text-sm text-stone-600" data-testid="last-reconciled">
        <PageLink href="/admin/reconcile" className={linkClass}>
          {lastReconciledAt ? t("lastReconciled", { date: date(lastReconciledAt) }) : t("neverReconciled")}
        </PageLink>
      </p>
      <PanelList
        rows={attention.orders.map((order) => ({
          key: order.id,
          start: <OrderLink id={order.id} />,
          end: (
            <span className="text-stone-600">
              {labels.list(order.reasons.map(reasonText))} · {money(order.amountMinor)}
            </span>
          ),
        }))}
      />
    </Section>
  );
}

/**
 * The refunds still to make on the payment service's dashboard (or in cash), how many and how much, linked to the
 * orders that wait for them (the oldest first): each stays here until it is recorded with its reference.
 */
export async function RefundsToMake({ refundsToMake }: Pick<Dashboard, "refundsToMake">) {
  const [t, { money }] = await Promise.all([getTranslations("admin.dashboard"), homeFormat()]);
  return (
    <Section id="refunds-to-make" title={t("refundsToMake")} tone={refundsToMake.count > 0 ? "action" : "plain"}>
      <CountLink href={ordersHref({ status: "refund_due" })} testId="refunds-to-make-count">
        {t("refundsToMakeCount", { count: refundsToMake.count, amount: money(refundsToMake.minor) })}
      </CountLink>
      {refundsToMake.orders.length > 0 && (
        <ol className="mt-2 flex flex-wrap gap-x-3 gap-y-1 text-sm" aria-label={t("oldestRefundFirst")}>
          {refundsToMake.orders.map((id) => (
            <li key={id}>
              <OrderLink id={id} />
            </li>
          ))}
        </ol>
      )}
    </Section>
  );
}
