import "server-only";
import { and, desc, eq, notInArray, sql } from "drizzle-orm";
import type { Db, Tx } from "../db/client";
import {
  cashBlockedPhones,
  deliveryEvents,
  orderEvents,
  orders,
  type CashBlockedPhoneRow,
  type DeliveryFailure,
  type OrderRow,
  type OrderStatus,
  type PaymentMethodName,
} from "../db/schema";
import { normaliseLibyanMobile } from "../phone";

/**
 * A phone number's record with the shop, against fake cash orders (a cash order costs nothing to place): its orders,
 * the deliveries that failed at its door, the parcels that came back, and whether the merchant blocked it from paying
 * cash (it can still pay online). Numbers are compared as orders store them (lib/phone.ts: `0912345678`).
 *
 * The rule for "marked for a look": at least one failed delivery (any reason) or one returned parcel. One is enough: a
 * courier's trip is what a fake order costs, and the merchant decides what it means with the history in front of them.
 */

/** How many of its orders the history lists, newest first (the counts cover them all). */
const PHONE_HISTORY_ORDERS = 20;

/** A phone's history ({@link phoneHistory}). */
export interface PhoneHistory {
  phone: string;
  /** Its newest orders ({@link PHONE_HISTORY_ORDERS}), placed ones only (not claims that never became an order). */
  orders: Pick<OrderRow, "id" | "createdAt" | "status" | "paymentMethod" | "fulfilment" | "amountMinor">[];
  /** All its orders, counted by way of paying and status. */
  counts: { paymentMethod: PaymentMethodName; status: OrderStatus; count: number }[];
  /** Every delivery that failed at its door, newest first: the order, when, why. */
  failedDeliveries: { orderId: string; at: Date; reason: DeliveryFailure | null }[];
  /** How many of its parcels came back to the shop. */
  returned: number;
  /** At least one failed delivery or returned parcel (the module's rule). */
  markedForLook: boolean;
  /** Whether the merchant blocked it from paying cash: who, why, when. */
  blocked: CashBlockedPhoneRow | null;
}

/** Claims that never became an order the customer placed: not part of anyone's history. */
const NEVER_PLACED = ["started", "failed"] as const satisfies readonly OrderStatus[];

/**
 * A phone number's history with the shop (see the module's comment).
 * @param phone as an order stores it. @throws the database's error when it cannot read.
 */
export async function phoneHistory(db: Db, phone: string): Promise<PhoneHistory> {
  const theirs = and(eq(orders.phone, phone), notInArray(orders.status, [...NEVER_PLACED]));
  const [recent, counts, failed, [returned], [blocked]] = await Promise.all([
    db
      .select({
        id: orders.id,
        createdAt: orders.createdAt,
        status: orders.status,
        paymentMethod: orders.paymentMethod,
        fulfilment: orders.fulfilment,
        amountMinor: orders.amountMinor,
      })
      .from(orders)
      .where(theirs)
      .orderBy(desc(orders.createdAt), desc(orders.id))
      .limit(PHONE_HISTORY_ORDERS),
    db
      .select({ paymentMethod: orders.paymentMethod, status: orders.status, count: sql<number>`count(*)::int` })
      .from(orders)
      .where(theirs)
      .groupBy(orders.paymentMethod, orders.status)
      .orderBy(orders.paymentMethod, orders.status),
    db
      .select({
        orderId: orders.id,
        at: orderEvents.at,
        reason: sql<DeliveryFailure | null>`${orderEvents.data}->>'reason'`,
      })
      .from(orderEvents)
      .innerJoin(orders, eq(orders.id, orderEvents.orderId))
      .where(and(eq(orders.phone, phone), eq(orderEvents.type, "delivery_failed")))
      .orderBy(desc(orderEvents.at), desc(orderEvents.id)),
    db
      .select({ count: sql<number>`count(*)::int` })
      .from(orders)
      .where(and(eq(orders.phone, phone), eq(orders.fulfilment, "returned"))),
    db.select().from(cashBlockedPhones).where(eq(cashBlockedPhones.phone, phone)),
  ]);
  return {
    phone,
    orders: recent,
    counts,
    failedDeliveries: failed,
    returned: returned?.count ?? 0,
    markedForLook: failed.length > 0 || (returned?.count ?? 0) > 0,
    blocked: blocked ?? null,
  };
}

/** What {@link blockPhone} and {@link unblockPhone} did: `done`, `already` (it was so), or `invalid` (no mobile). */
export type PhoneBlockResult = "done" | "already" | "invalid";

/** Who blocks or unblocks a number (the admin's e-mail), and their note (why; empty: none). */
interface ByWhom {
  by: string;
  note?: string;
}

/**
 * Blocks a phone number from paying cash, as admin `by` with their `note` (why): the checkout then refuses it cash
 * (lib/checkout/claim.ts); online payment stays open. Audited in `delivery_events` (`phone_blocked`), with the block
 * in one transaction; blocking it again changes nothing.
 * @param phone in any common writing (lib/phone.ts). @throws the database's error when it cannot write.
 */
export function blockPhone(db: Db, phone: string, { by, note = "" }: ByWhom): Promise<PhoneBlockResult> {
  return changeBlock(db, phone, "phone_blocked", { by, note }, async (tx, number) => {
    const added = await tx
      .insert(cashBlockedPhones)
      .values({ phone: number, blockedBy: by, note })
      .onConflictDoNothing()
      .returning({ phone: cashBlockedPhones.phone });
    return added.length > 0 ? {} : undefined;
  });
}

/**
 * Lets a blocked phone number pay cash again, as admin `by` (with an optional `note`), audited as `phone_unblocked`
 * (with what the block said) in one transaction; unblocking one that is not blocked changes nothing.
 * @throws the database's error when it cannot write.
 */
export function unblockPhone(db: Db, phone: string, { by, note = "" }: ByWhom): Promise<PhoneBlockResult> {
  return changeBlock(db, phone, "phone_unblocked", { by, note }, async (tx, number) => {
    const [removed] = await tx.delete(cashBlockedPhones).where(eq(cashBlockedPhones.phone, number)).returning();
    return removed && { blockedBy: removed.blockedBy, blockedAt: removed.blockedAt, blockNote: removed.note };
  });
}

/**
 * Changes a number's block with `change`, in one transaction with its audit row (`type`: the number, the note and
 * what `change` answers); `change` answers undefined when the number already was so, and nothing is audited.
 */
async function changeBlock(
  db: Db,
  phone: string,
  type: "phone_blocked" | "phone_unblocked",
  { by, note }: Required<ByWhom>,
  change: (tx: Tx, number: string) => Promise<Record<string, unknown> | undefined>,
): Promise<PhoneBlockResult> {
  const number = normaliseLibyanMobile(phone);
  if (!number) return "invalid";
  return db.transaction(async (tx) => {
    const changed = await change(tx, number);
    if (!changed) return "already";
    await tx.insert(deliveryEvents).values({ type, by, data: { phone: number, note, ...changed } });
    return "done";
  });
}
