import { getLocale, getTranslations } from "next-intl/server";
import {
  CANCEL_REASONS,
  CASH_CANCEL_REASONS,
  DELIVERY_FAILURES,
  FULFILMENT_STEPS,
  type OrderEventRow,
  type OrderEventType,
  type OrderStatus,
} from "@/lib/db/schema";
import { CURRENCY, formatMoney, fromDecimalAmount } from "@/lib/money";
import { orderLabels } from "./labels";
import { Section } from "./section";

/** What an event's data may say; every field is optional, old events carry fewer. */
interface EventData {
  from?: OrderStatus;
  to?: OrderStatus;
  flag?: string;
  verified?: boolean;
  signature?: string;
  outcome?: string;
  returnType?: string;
  failure?: string;
  by?: string;
  amount?: number | string;
  currency?: string;
  gateway?: string;
  transactionId?: string;
  reference?: string;
  note?: string;
  /** The merchant dashboard's payment list a mark came from (lib/admin/reconcile.ts). */
  list?: string;
  /** The flags a move resolved (a mark as paid: lib/orders/settle.ts, `RESOLVED_BY_MARK`). */
  resolved?: string[];
  // E-mails (lib/orders/outbox.ts): which, to whom, which attempt, and why one failed.
  kind?: "receipt" | "merchant_notice" | "fulfilment_update" | "after_sale";
  /** Why an e-mail was queued: for a customer's update, the step it tells of. */
  reason?: string;
  /**
   * A cash order's move (lib/cash/moves.ts): the cash collected and the total it was expected to be (minor units),
   * and whether a parcel went out again. (`reason` is then why it was cancelled or its delivery failed.)
   */
  collectedMinor?: number;
  expectedMinor?: number;
  /**
   * After the sale (lib/refunds/): a refund's amount, the refund a cancel opened (minor units), the units a cancel or a
   * return put back on hand, and the lines that came back. (`reason` is then why the order was cancelled.)
   */
  amountMinor?: number;
  refundMinor?: number;
  restockedUnits?: number;
  lines?: { quantity?: number }[];
  again?: boolean;
  /** A step of the goods' way: whether the admin chose to e-mail the customer about it. */
  notify?: boolean;
  recipient?: string;
  attempt?: number;
  error?: string;
  final?: boolean;
  // Text messages (lib/sms/): the parts one travels in, and the state a delivery report gave.
  parts?: number;
  state?: string;
  retryAt?: string;
}

/** What a verified delivery came to (lib/orders/webhook.ts): each has its words in the catalogue. */
const OUTCOMES = [
  "settled",
  "malformed",
  "unknown_order",
  "ignored_event",
  "not_successful",
  "amount_mismatch",
] as const;
const RETURN_TYPES = ["success", "cancel"] as const;
const CASH_REASONS = [...CASH_CANCEL_REASONS, ...DELIVERY_FAILURES] as const;
const oneOf = <T extends string>(list: readonly T[], value: unknown): value is T =>
  (list as readonly unknown[]).includes(value);

/**
 * An order's history from the events table, oldest first: what arrived, whether it was verified, what it moved, the
 * flags it raised or resolved. Every value is named in the reader's language; only what people typed (a note), ids,
 * references and e-mail addresses are shown as recorded, and a mail server's own answer, quoted.
 */
export async function OrderTimeline({ events }: { events: OrderEventRow[] }) {
  const [t, tOrder, tAfterSale, label, locale] = await Promise.all([
    getTranslations("admin.events"),
    getTranslations("admin.order"),
    getTranslations("admin.afterSale"),
    orderLabels(),
    getLocale(),
  ]);
  // Every event type has its title: a type added to the schema without one here does not compile.
  const title = (type: OrderEventType, data: EventData): string => {
    if (oneOf(FULFILMENT_STEPS, type)) return t(type, { by: data.by ?? "?" });
    switch (type) {
      case "created":
      case "payment_created":
      case "claim_taken_over":
      case "claim_abandoned":
      case "webhook_received":
      case "webhook_unrecorded":
      case "expired":
      case "confirmation_overdue":
        return t(type);
      case "marked_paid":
        return t(type, { by: data.by ?? "?", reference: data.reference ?? "?" });
      case "flag_resolved":
        return t(type, { by: data.by ?? "?", flag: label.flag(data.flag) });
      case "payment_failed":
        return t(type, { failure: label.failure(data.failure ?? "?") });
      case "customer_returned":
        return t(type, {
          returnType: oneOf(RETURN_TYPES, data.returnType) ? t(`returnTypes.${data.returnType}`) : "?",
        });
      case "receipt_resent":
      case "notice_resent":
      case "sms_resent":
      case "cash_confirmed":
      case "cash_collected":
      case "cash_cancelled":
        return t(type, { by: data.by ?? "?" });
      case "cash_order_placed":
      case "cash_expired":
        return t(type);
      case "order_cancelled":
      case "order_returned":
        return t(type, { by: data.by ?? "?" });
      case "refund_opened":
      case "refund_recorded":
        return t(type, {
          by: data.by ?? "?",
          amount: data.amountMinor !== undefined ? formatMoney(data.amountMinor, locale) : "?",
          reference: data.reference ?? "?",
        });
      case "email_queued":
      case "email_sent":
      case "email_failed":
        return t(type, {
          kind: data.kind ? t(`emailKinds.${data.kind}`) : "?",
          recipient: data.recipient ?? "?",
        });
      case "sms_queued":
        return t(type, { parts: data.parts ?? 1 });
      case "sms_sent":
      case "sms_failed":
        return t(type);
      case "sms_report":
        return t(type, { state: data.state ?? "?" });
    }
  };
  /** An amount as delivered (a decimal, maybe text), in the reader's writing when it is one of ours. */
  const amount = (data: EventData) => {
    const minor = data.amount === undefined ? null : fromDecimalAmount(data.amount);
    return minor !== null && data.currency === CURRENCY
      ? formatMoney(minor, locale)
      : `${data.amount} ${data.currency ?? ""}`.trim();
  };
  return (
    <Section id="timeline" title={tOrder("timeline")}>
      <ol className="mt-3 space-y-3 border-s-2 border-stone-200 ps-4" data-testid="order-timeline">
        {events.map((event) => {
          const data = event.data as EventData;
          const notes = [
            data.verified === true
              ? t("verified")
              : data.verified === false
                ? t("notVerified", { signature: data.signature ?? "?" })
                : null,
            data.amount !== undefined ? amount(data) : null,
            data.gateway ? t("paidVia", { gateway: label.gateway(data.gateway) }) : null,
            data.transactionId ? t("transaction", { reference: data.transactionId }) : null,
            (event.type === "cash_cancelled" || event.type === "delivery_failed") && oneOf(CASH_REASONS, data.reason)
              ? t("cashReason", { reason: tOrder(`cash.reasons.${data.reason}`) })
              : null,
            event.type === "order_cancelled" && oneOf(CANCEL_REASONS, data.reason)
              ? t("cancelReason", { reason: tAfterSale(`reasons.${data.reason}`) })
              : null,
            data.refundMinor !== undefined
              ? t("refundToMake", { amount: formatMoney(data.refundMinor, locale) })
              : null,
            event.type === "order_returned" && Array.isArray(data.lines)
              ? t("unitsBack", { count: data.lines.reduce((units, line) => units + (line.quantity ?? 0), 0) })
              : null,
            data.restockedUnits !== undefined ? t("restocked", { count: data.restockedUnits }) : null,
            data.again ? t("again") : null,
            data.collectedMinor !== undefined
              ? t("collected", { amount: formatMoney(data.collectedMinor, locale) })
              : null,
            data.expectedMinor !== undefined
              ? t("expected", { amount: formatMoney(data.expectedMinor, locale) })
              : null,
            data.note ? t("note", { note: data.note }) : null,
            data.list ? t("fromList") : null,
            data.notify === true ? t("stepNotify") : data.notify === false ? t("stepNoNotify") : null,
            data.kind === "fulfilment_update" && oneOf(FULFILMENT_STEPS, data.reason)
              ? t("emailAbout", { step: label.step(data.reason) })
              : null,
            data.attempt !== undefined ? t("emailAttempt", { attempt: data.attempt }) : null,
            data.error ? t("emailError", { error: data.error }) : null,
            data.retryAt
              ? t("emailRetry", { at: label.time(new Date(data.retryAt)) })
              : data.final
                ? t("emailGaveUp")
                : null,
            data.outcome
              ? t("outcome", { outcome: oneOf(OUTCOMES, data.outcome) ? t(`outcomes.${data.outcome}`) : data.outcome })
              : null,
            data.from && data.to
              ? data.from === data.to
                ? t("unchanged")
                : t("move", { from: label.status(data.from), to: label.status(data.to) })
              : null,
            // The flag a move raised (a resolution's title names its flag already).
            data.flag && event.type !== "flag_resolved" ? t("flagRaised", { flag: label.flag(data.flag) }) : null,
            data.resolved?.length ? t("flagsResolved", { flags: label.list(data.resolved.map(label.flag)) }) : null,
          ].filter(Boolean);
          return (
            <li
              key={event.id}
              className={data.verified === false || event.type === "email_failed" ? "text-red-900" : undefined}
            >
              <p className="font-medium">{title(event.type, data)}</p>
              <p className="text-sm text-stone-600">
                <time dateTime={event.at.toISOString()}>{label.time(event.at)}</time>
                {notes.length > 0 && <span> · {notes.join(" · ")}</span>}
              </p>
            </li>
          );
        })}
      </ol>
    </Section>
  );
}
