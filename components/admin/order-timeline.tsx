import { getFormatter, getTranslations } from "next-intl/server";
import type { OrderEventRow, OrderEventType, OrderStatus } from "@/lib/db/schema";

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
  // E-mails (lib/email/outbox.ts): which, to whom, which attempt, and why one failed.
  kind?: "receipt" | "merchant_notice";
  recipient?: string;
  attempt?: number;
  error?: string;
  final?: boolean;
  retryAt?: string;
}

/** An order's history from the events table, oldest first: what arrived, whether it was verified, what it moved. */
export async function OrderTimeline({ events }: { events: OrderEventRow[] }) {
  const [t, tStatus, tOrder, format] = await Promise.all([
    getTranslations("admin.events"),
    getTranslations("admin.filters"),
    getTranslations("admin.order"),
    getFormatter(),
  ]);
  const when = (date: Date) => format.dateTime(date, { dateStyle: "medium", timeStyle: "medium" });
  // Every event type has its title: a type added to the schema without one here does not compile.
  const title = (type: OrderEventType, data: EventData): string => {
    switch (type) {
      case "created":
      case "payment_created":
      case "claim_taken_over":
      case "claim_abandoned":
      case "webhook_received":
      case "expired":
      case "confirmation_overdue":
        return t(type);
      case "marked_paid":
        return t(type, { by: data.by ?? "?", reference: data.reference ?? "?" });
      case "payment_failed":
        return t(type, { failure: data.failure ?? "?" });
      case "customer_returned":
        return t(type, { returnType: data.returnType ?? "?" });
      case "fulfilled":
      case "receipt_resent":
      case "notice_resent":
        return t(type, { by: data.by ?? "?" });
      case "email_queued":
      case "email_sent":
      case "email_failed":
        return t(type, {
          kind: data.kind ? t(`emailKinds.${data.kind}`) : "?",
          recipient: data.recipient ?? "?",
        });
    }
  };
  return (
    <section aria-labelledby="timeline" className="rounded-xl border border-stone-200 bg-white p-4">
      <h2 id="timeline" className="font-semibold">
        {tOrder("timeline")}
      </h2>
      <ol className="mt-3 space-y-3 border-s-2 border-stone-200 ps-4" data-testid="order-timeline">
        {events.map((event) => {
          const data = event.data as EventData;
          const notes = [
            data.verified === true
              ? t("verified")
              : data.verified === false
                ? t("notVerified", { signature: data.signature ?? "?" })
                : null,
            data.amount !== undefined ? `${data.amount} ${data.currency ?? ""}`.trim() : null,
            data.gateway ?? null,
            data.transactionId ?? null,
            data.note ?? null,
            data.list ? t("fromList") : null,
            data.attempt !== undefined ? t("emailAttempt", { attempt: data.attempt }) : null,
            data.error ?? null,
            data.retryAt ? t("emailRetry", { at: when(new Date(data.retryAt)) }) : data.final ? t("emailGaveUp") : null,
            data.outcome ? t("outcome", { outcome: data.outcome }) : null,
            data.from && data.to
              ? data.from === data.to
                ? t("unchanged")
                : t("move", { from: tStatus(data.from), to: tStatus(data.to) })
              : null,
          ].filter(Boolean);
          return (
            <li
              key={event.id}
              className={data.verified === false || event.type === "email_failed" ? "text-red-900" : undefined}
            >
              <p className="font-medium">{title(event.type, data)}</p>
              <p className="text-sm text-stone-600">
                <time dateTime={event.at.toISOString()}>{when(event.at)}</time>
                {notes.length > 0 && <span> · {notes.join(" · ")}</span>}
              </p>
            </li>
          );
        })}
      </ol>
    </section>
  );
}
