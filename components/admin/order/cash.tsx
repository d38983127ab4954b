import { PageLink } from "@/components/page-link";
import { getLocale, getTranslations } from "next-intl/server";
import { cashMoveAction, phoneBlockAction } from "@/app/admin/orders/[id]/actions";
import type { AdminOrder } from "@/lib/admin/orders";
import { cashMovesNow, type CashMove } from "@/lib/cash/moves";
import type { PhoneHistory } from "@/lib/cash/phones";
import { DELIVERY_FAILURES } from "@/lib/db/schema";
import { formatMoney, toWireAmount } from "@/lib/money";
import { SubmitButton } from "../../submit-button";
import { orderLabels } from "../labels";
import { Section } from "../section";
import { FactList, type Fact } from "./fact-list";

const field = "rounded-lg border border-stone-300 bg-white px-3 py-2 text-stone-900";

/**
 * A cash order's "Cash on delivery" panel: where it stands (the deadline of the merchant's call, the cash to collect,
 * the collection once made), a form for each move it can make now (lib/cash/moves.ts: confirm with a note; delivery
 * failed with a reason; out again; returned; collect with the amount, the order's total prefilled), and its phone's
 * history with the block from paying cash. Its cancel is every order's (components/admin/order/after-sale.tsx). Plain
 * forms: they work without JavaScript. Nothing for an online order.
 */
export async function CashPanel({
  order,
  history,
  now = new Date(),
}: {
  order: AdminOrder;
  history: PhoneHistory | null;
  now?: Date;
}) {
  if (order.paymentMethod !== "cash") return null;
  const [locale, t, label] = await Promise.all([getLocale(), getTranslations("admin.order.cash"), orderLabels()]);
  // Cancelling is not a cash move: it is every order's, offered by the order page's "Cancel the order" (after-sale.tsx).
  const moves = cashMovesNow(order, now);
  const late = order.status === "placed" && order.confirmBy !== null && order.confirmBy <= now;
  const standing =
    order.status === "placed"
      ? late
        ? t("standing.placed_late", { at: label.time(order.confirmBy!) })
        : t("standing.placed", { at: label.time(order.confirmBy!) })
      : order.fulfilment === "returned"
        ? t("standing.returned")
        : order.status === "confirmed" && order.fulfilment === "delivery_failed"
          ? t("standing.delivery_failed")
          : order.status === "paid" && order.collectedMinor !== null
            ? t.rich("standing.paid", {
                amount: formatMoney(order.collectedMinor, locale),
                // An e-mail address reads left to right inside an Arabic sentence too.
                by: () => <bdi>{order.collectedBy}</bdi>,
                at: order.paidAt ? label.time(order.paidAt) : "?",
              })
            : order.status === "confirmed" || order.status === "cancelled" || order.status === "expired"
              ? t(`standing.${order.status}`)
              : label.status(order.status);
  const facts: Fact[] = [
    [t("toCollect"), <strong key="total">{formatMoney(order.amountMinor, locale)}</strong>],
    ...(order.cashFeeMinor > 0 ? [[t("fee"), formatMoney(order.cashFeeMinor, locale)] as const] : []),
  ];

  return (
    <Section id="cash" title={t("title")} tone={moves.length > 0 ? "action" : "plain"} large testId="admin-cash">
      <p data-testid="cash-standing">{standing}</p>
      <FactList facts={facts} />
      {moves.length > 0 && (
        <div className="grid gap-4 md:grid-cols-2">
          {moves.map((move) => (
            <MoveForm key={move} move={move} order={order} />
          ))}
        </div>
      )}
      {history && <PhoneRecord order={order} history={history} />}
    </Section>
  );
}

/** The form of one move: its fields, and its button. */
async function MoveForm({ move, order }: { move: CashMove; order: AdminOrder }) {
  const t = await getTranslations("admin.order.cash");
  const reasons = move === "delivery_failed" ? DELIVERY_FAILURES : null;
  return (
    <form
      action={cashMoveAction}
      className="grid content-start gap-2 rounded-lg border border-stone-200 p-3"
      data-testid={`cash-${move}`}
    >
      <input type="hidden" name="id" value={order.id} />
      <input type="hidden" name="move" value={move} />
      <p className="text-sm text-stone-600">{t(`help.${move}`)}</p>
      {reasons && (
        <label className="grid gap-1 text-sm">
          {t("reason")}
          <select name="reason" required defaultValue="" className={field}>
            <option value="" disabled>
              {t("chooseReason")}
            </option>
            {reasons.map((reason) => (
              <option key={reason} value={reason}>
                {t(`reasons.${reason}`)}
              </option>
            ))}
          </select>
        </label>
      )}
      {move === "collect" && (
        <label className="grid gap-1 text-sm">
          {t("amount")}
          <input
            name="amount"
            required
            inputMode="decimal"
            maxLength={40}
            dir="ltr"
            defaultValue={toWireAmount(order.amountMinor)}
            className={field}
          />
        </label>
      )}
      <label className="grid gap-1 text-sm">
        {t("note")}
        <textarea name="note" maxLength={500} rows={2} dir="auto" className={field} />
      </label>
      <div>
        <SubmitButton pendingLabel={t("saving")}>{t(`moves.${move}`)}</SubmitButton>
      </div>
    </form>
  );
}

/** The phone's record with the shop (lib/cash/phones.ts), and the block from paying cash or its lifting. */
async function PhoneRecord({ order, history }: { order: AdminOrder; history: PhoneHistory }) {
  const [locale, t, label] = await Promise.all([getLocale(), getTranslations("admin.order.cash"), orderLabels()]);
  const others = history.orders.filter((other) => other.id !== order.id);
  return (
    <div className="space-y-2 border-t border-stone-200 pt-3" data-testid="cash-phone">
      <h3 className="font-semibold">
        {t.rich("phone.title", { phone: () => <span dir="ltr">{history.phone}</span> })}
      </h3>
      <p className={history.markedForLook ? "font-medium text-red-900" : "text-sm text-stone-600"}>
        {history.markedForLook
          ? t("phone.look", { failed: history.failedDeliveries.length, returned: history.returned })
          : t("phone.clean")}
      </p>
      <ul className="list-disc ps-5 text-sm">
        {history.counts.map(({ paymentMethod, status, count }) => (
          <li key={`${paymentMethod}-${status}`}>
            {status === "placed" || status === "confirmed"
              ? t("phone.countCash", { count, status: label.status(status) })
              : t("phone.count", { count, method: t(`phone.methods.${paymentMethod}`), status: label.status(status) })}
          </li>
        ))}
        {history.failedDeliveries.map(({ orderId, at, reason }) => (
          <li key={`${orderId}-${at.toISOString()}`}>
            {t("phone.failed", {
              at: label.time(at),
              reason: reason && DELIVERY_FAILURES.includes(reason) ? t(`reasons.${reason}`) : "?",
            })}{" "}
            <PageLink href={`/admin/orders/${orderId}`} className="font-mono underline underline-offset-2">
              {orderId}
            </PageLink>
          </li>
        ))}
      </ul>
      {others.length > 0 && (
        <details className="text-sm">
          <summary className="cursor-pointer">{t("phone.others", { count: others.length })}</summary>
          <ul className="mt-1 space-y-1 ps-5">
            {others.map((other) => (
              <li key={other.id}>
                <PageLink href={`/admin/orders/${other.id}`} className="font-mono underline underline-offset-2">
                  {other.id}
                </PageLink>{" "}
                · {label.time(other.createdAt)} · {t(`phone.methods.${other.paymentMethod}`)} ·{" "}
                {label.status(other.status)}
                {other.fulfilment && <> · {label.step(other.fulfilment)}</>} · {formatMoney(other.amountMinor, locale)}
              </li>
            ))}
          </ul>
        </details>
      )}
      <form action={phoneBlockAction} className="grid gap-2 sm:max-w-md">
        <input type="hidden" name="id" value={order.id} />
        <input type="hidden" name="phone" value={history.phone} />
        <input type="hidden" name="block" value={history.blocked ? "unblock" : "block"} />
        {history.blocked ? (
          <p className="text-sm font-medium text-red-900" data-testid="cash-phone-blocked">
            {t("phone.blocked", { by: history.blocked.blockedBy, at: label.time(history.blocked.blockedAt) })}
            {history.blocked.note && <> · {history.blocked.note}</>}
          </p>
        ) : (
          <p className="text-sm text-stone-600">{t("phone.blockHelp")}</p>
        )}
        <label className="grid gap-1 text-sm">
          {t(history.blocked ? "note" : "phone.why")}
          <textarea name="note" maxLength={500} rows={2} dir="auto" className={field} />
        </label>
        <div>
          <SubmitButton pendingLabel={t("saving")} variant="secondary">
            {history.blocked ? t("phone.unblock") : t("phone.block")}
          </SubmitButton>
        </div>
      </form>
    </div>
  );
}
