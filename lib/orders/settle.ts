import "server-only";
import type { Db } from "../db/client";
import type { EmailReason, OrderEventType, OrderFlag, OrderStatus } from "../db/schema";
import { queueOrderEmails } from "./outbox";
import { queueOrderSms } from "./sms-outbox";
import { holdsStock, sellStock, soldBelowZero } from "../catalog/stock";
import { changeOrder, lockOrder, recordOrderEvent } from "./events";
import { raiseFlags } from "./flags";

/**
 * How orders move once their payment exists: the state table, and {@link settle}, the one function that applies it.
 * (Every write to an order is a change with the event that records it: lib/orders/events.ts.)
 *
 * Settlement: once its payment exists, the customer's return, the payment service's verified webhook, expiry and the
 * merchant's mark all go through {@link settle}, which applies this table in one transaction with the order row
 * locked, and writes what arrived and the move as one event, so each move happens once however requests race.
 *
 * | status \ what arrives   | customer returns `success` | customer returns `cancel` | verified payment              | payment page died | no confirmation (grace over) | merchant marks paid |
 * |-------------------------|----------------------------|---------------------------|-------------------------------|-------------------|------------------------------|---------------------|
 * | pending                 | awaiting_confirmation      | cancelled                 | paid                          | expired (¹)       | —                            | paid, paid_manually |
 * | awaiting_confirmation   | —                          | —                         | paid                          | —                 | flag unconfirmed_report      | paid, paid_manually |
 * | paid                    | —                          | —                         | — (a repeated delivery)       | —                 | —                            | —                   |
 * | cancelled               | —                          | —                         | paid, flag paid_after_cancel  | —                 | —                            | paid, paid_manually |
 * | expired                 | —                          | —                         | paid, flag paid_after_expiry  | —                 | —                            | paid, paid_manually |
 * | started, failed         | —                          | —                         | paid, flag paid_after_failure | —                 | —                            | —                   |
 *
 * (¹) Flagged `check_payment_list` when the shop may have missed the service's word about it: a webhook it could not
 * record, or a database restart while its page was open (lib/orders/unseen.ts). Its payment may exist all the same.
 *
 * Only a verified payment makes an order `paid`: the browser's redirect can be typed by anyone, so it only records
 * that the customer *reports* paying. Money wins: a verified payment for an order that was cancelled, expired or
 * never got its payment recorded still marks it paid, and flags it for the merchant. A customer who reported paying
 * is never expired silently: the service has no status endpoint to ask, and its webhook may have been lost (all
 * retries failed while the shop's database was down). The order stays awaiting confirmation, and after
 * {@link CONFIRMATION_GRACE_MS} it is flagged for the merchant, who checks the merchant dashboard and marks it paid
 * with the transaction reference there. A genuine webhook that arrives later is then a repeated delivery. The mark
 * resolves the flags it answers ({@link RESOLVED_BY_MARK}); any other flag stays for the merchant to resolve
 * (lib/orders/flags.ts).
 *
 * An order the merchant cancelled (`cancelled_at`, lib/refunds/cancel.ts) is final: it was paid, and its money is
 * refunded by hand. Nothing here moves it — a replayed webhook is recorded as a repeated delivery, and it cannot be
 * marked paid.
 */
export type SettlementInput =
  | { kind: "customer_returned"; type: RedirectType }
  | { kind: "payment_confirmed"; paymentToken: string; delivery: Record<string, unknown> }
  /** `unseen`: the shop may have missed the service's word about it (lib/orders/unseen.ts). */
  | { kind: "expired"; unseen?: boolean }
  | { kind: "confirmation_overdue" }
  | {
      kind: "marked_paid";
      by: string;
      reference: string;
      note?: string;
      /** The merchant dashboard's list this mark comes from (lib/admin/reconcile.ts), when it is not the order page. */
      list?: string;
    };

/**
 * How long an order the customer reported paid waits for the service's webhook before the merchant is asked to
 * look: 24 hours, well past the webhook's retries (minutes) and any outage worth waiting out.
 */
export const CONFIRMATION_GRACE_MS = 24 * 60 * 60_000;

/**
 * The spec's redirect types (docs/payment-service.md, "Return and cancel redirects"): `success` at the return URL,
 * `cancel` at the cancel URL.
 */
export type RedirectType = "success" | "cancel";

/**
 * The flags a merchant's mark as paid deals with, resolved by the mark itself: the report the service never confirmed
 * (the merchant found the payment in the dashboard) and the mark's own flag (the merchant made it, with the
 * reference), and the shop's doubt about an expired order (`check_payment_list`: the merchant found it in the list).
 * A payment with another amount (`amount_mismatch`) is not answered by marking the order paid: it stays
 * until an admin resolves it with a note.
 */
export const RESOLVED_BY_MARK = [
  "unconfirmed_report",
  "check_payment_list",
  "paid_manually",
] as const satisfies readonly OrderFlag[];

/** A move: the status it goes to, a flag it raises, and flags it resolves (among the order's and the raised one). */
type Move = { to: OrderStatus; flag?: OrderFlag; resolves?: readonly OrderFlag[] };

/** The table above, as code: the move for a status and an input, or `undefined` for "nothing changes". */
export function nextMove(status: OrderStatus, input: SettlementInput): Move | undefined {
  switch (input.kind) {
    case "customer_returned":
      if (status !== "pending") return undefined;
      return { to: input.type === "success" ? "awaiting_confirmation" : "cancelled" };
    case "payment_confirmed":
      if (status === "pending" || status === "awaiting_confirmation") return { to: "paid" };
      if (status === "cancelled") return { to: "paid", flag: "paid_after_cancel" };
      if (status === "expired") return { to: "paid", flag: "paid_after_expiry" };
      if (status === "started" || status === "failed") return { to: "paid", flag: "paid_after_failure" };
      return undefined;
    case "expired":
      if (status !== "pending") return undefined;
      return input.unseen ? { to: "expired", flag: "check_payment_list" } : { to: "expired" };
    case "confirmation_overdue":
      return status === "awaiting_confirmation"
        ? { to: "awaiting_confirmation", flag: "unconfirmed_report" }
        : undefined;
    case "marked_paid":
      return canMarkPaid(status) ? { to: "paid", flag: "paid_manually", resolves: RESOLVED_BY_MARK } : undefined;
  }
}

/**
 * Whether the merchant may mark an order in `status` paid by hand (the table's last column): any order whose payment
 * exists and is not confirmed. The merchant holds the dashboard's transaction reference: proof enough, also for a
 * payment whose page the scheduled job has not yet expired (a page shows such an order as expired: effectiveStatus).
 * Never an order the merchant cancelled (`cancelledAt`): that cancel is final.
 */
export function canMarkPaid(status: OrderStatus, cancelledAt: Date | null = null): boolean {
  if (cancelledAt) return false;
  return status === "pending" || status === "awaiting_confirmation" || status === "expired" || status === "cancelled";
}

/**
 * What {@link settle} did: the status before and after (equal when nothing changed), any flag the table raised, and
 * whether the move to paid oversold the stock.
 */
export interface Settlement {
  from: OrderStatus;
  to: OrderStatus;
  changed: boolean;
  flag?: OrderFlag;
  oversold?: true;
}

/** The event type each input is recorded as. */
const EVENT_TYPE = {
  customer_returned: "customer_returned",
  payment_confirmed: "webhook_received",
  expired: "expired",
  confirmation_overdue: "confirmation_overdue",
  marked_paid: "marked_paid",
} as const satisfies Record<SettlementInput["kind"], OrderEventType>;

/**
 * The merchant's notice a flag calls for when it is raised without a move to paid (the notice of a paid order spells
 * its flags out already): every flag the scheduled job raises. `lib/orders/settle.test.ts` checks that every such
 * flag of {@link nextMove} is here, so a new one cannot be raised in silence.
 */
export const FLAG_NOTICES = {
  unconfirmed_report: "unconfirmed_report",
  // The outbox's reasons are a database check (lib/db/schema.ts, `EMAIL_REASONS`): this notice is stored under the
  // scheduled job's other reason (an order raises one of the two, never both: they need different statuses), and
  // lib/email/render.ts writes it from the order's flag.
  check_payment_list: "unconfirmed_report",
} as const satisfies Partial<Record<OrderFlag, EmailReason>>;

function flagNotice(flag: OrderFlag): EmailReason | undefined {
  return (FLAG_NOTICES as Partial<Record<OrderFlag, EmailReason>>)[flag];
}

/**
 * Whether an input that moves nothing is still worth an event. Every delivery, return and mark from the order page
 * is on the record. A second run of the scheduled job is not news, nor is a mark from a dashboard list for an order
 * already paid: the list itself is the record, and applying it twice must change nothing.
 */
function recordedWhenNothingMoves(input: SettlementInput): boolean {
  if (input.kind === "expired" || input.kind === "confirmation_overdue") return false;
  return !(input.kind === "marked_paid" && input.list);
}

/**
 * Applies one input to an order, once: locks the row, looks the move up in {@link nextMove}, and records what
 * arrived with the move it made (lib/orders/events.ts) — also when nothing moved, unless that is not news
 * ({@link recordedWhenNothingMoves}); a flag the order already has is not news either. The flags a move deals with
 * (the mark's {@link RESOLVED_BY_MARK}) are resolved with it, and its event lists them (`resolved`). The e-mails a
 * move calls for are queued in the same transaction: the receipt and the merchant's notice of a move to paid, and
 * the merchant's notice of a flag raised on its own ({@link FLAG_NOTICES}). The move to paid also sells the order's
 * units (lib/catalog/stock.ts), in the same transaction; when its hold had ended and the stock went to others, it is
 * sold anyway (money wins) and flagged `oversold`.
 * @returns the move, or `undefined` when there is no such order.
 */
export async function settle(
  db: Db,
  orderId: string,
  input: SettlementInput,
  now = new Date(),
): Promise<Settlement | undefined> {
  return db.transaction(async (tx) => {
    const order = await lockOrder(tx, orderId);
    if (!order) return undefined;
    const from = order.status;
    // A cash order has no payment on the service: nothing the service, its customer's browser or a mark as paid says
    // moves it (its own moves are lib/cash/'s). An order the merchant cancelled is final: what arrives is on the record
    // and moves nothing.
    const move = order.paymentMethod === "cash" || order.cancelledAt ? undefined : nextMove(from, input);
    const to = move?.to ?? from;
    const newFlag = move?.flag && !order.flags.includes(move.flag) ? move.flag : undefined;
    const news = move ? to !== from || newFlag : recordedWhenNothingMoves(input);
    if (!news) return { from, to, changed: false };
    // The gateway the service says was used (`paid_gateway`, the one home of that fact: the back office, the e-mails and
    // the dashboard read it): with the move to paid, or from a delivery that confirms a payment marked paid first.
    const gateway = input.kind === "payment_confirmed" ? deliveredGateway(input.delivery) : null;
    const namesGateway = gateway !== null && order.paidGateway === null && to === "paid";
    const sold = to === "paid" && from !== "paid";
    // Oversold: its hold had ended and others took the units, or the sale left the stock below zero all the same.
    const oversold =
      sold && ((await sellStock(tx, orderId, holdsStock(order, now), now)) || (await soldBelowZero(tx, orderId)));
    const flags = [...(newFlag ? [newFlag] : []), ...(oversold ? (["oversold"] as const) : [])];
    // The flags this move deals with, among those the order will have: resolved with it (the row is locked).
    const raised = [...order.flags, ...flags];
    const resolved = (move?.resolves ?? []).filter(
      (flag) => raised.includes(flag) && !order.resolvedFlags.includes(flag),
    );

    const details =
      input.kind === "customer_returned"
        ? { returnType: input.type }
        : input.kind === "payment_confirmed"
          ? { verified: true, ...input.delivery }
          : input.kind === "marked_paid"
            ? {
                by: input.by,
                reference: input.reference,
                ...(input.note ? { note: input.note } : {}),
                ...(input.list ? { list: input.list } : {}),
              }
            : {};
    const set = {
      status: to,
      ...(sold ? { paidAt: now } : {}),
      ...(namesGateway ? { paidGateway: gateway } : {}),
      ...(to === "awaiting_confirmation" ? { customerReturnedAt: now } : {}),
      ...(flags.length > 0 ? raiseFlags(...flags) : {}),
      // With the row locked, the resolved flags as they will be: those raised here no longer resolved (as raiseFlags
      // does), then the ones this move deals with.
      ...(resolved.length > 0
        ? { resolvedFlags: [...order.resolvedFlags.filter((flag) => !flags.includes(flag)), ...resolved] }
        : {}),
      // A payment whose creating server died before storing it: the delivery (matched by `custom`) names its token.
      ...(input.kind === "payment_confirmed" && order.paymentToken === null
        ? { paymentToken: input.paymentToken }
        : {}),
    };
    const event = {
      type: EVENT_TYPE[input.kind],
      at: now,
      data: {
        ...details,
        from,
        to,
        ...(move?.flag ? { flag: move.flag } : {}),
        ...(oversold ? { oversold } : {}),
        ...(resolved.length > 0 ? { resolved } : {}),
      },
    };
    // The row is locked: the change always applies.
    if (move) await changeOrder(tx, orderId, { set }, event);
    else if (namesGateway) await changeOrder(tx, orderId, { set: { paidGateway: gateway } }, event);
    else await recordOrderEvent(tx, orderId, event);
    // A move writes its e-mails in its own transaction: never lost, never sent twice. The move to paid: the receipt
    // and the merchant's notice; a flag raised on its own: the merchant's notice.
    const emails = sold ? "paid" : newFlag && flagNotice(newFlag);
    if (emails) await queueOrderEmails(tx, orderId, emails, now);
    if (sold) await queueOrderSms(tx, orderId, "paid", { now });
    return {
      from,
      to,
      changed: Boolean(move),
      ...(move?.flag ? { flag: move.flag } : {}),
      ...(oversold ? { oversold } : {}),
    };
  });
}

/** The gateway a verified delivery names (lib/orders/webhook.ts records it as `gateway`), or null. */
function deliveredGateway(delivery: Record<string, unknown>): string | null {
  return typeof delivery.gateway === "string" && delivery.gateway ? delivery.gateway : null;
}
