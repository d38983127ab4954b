import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  customType,
  date,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";

/**
 * The shop's tables (Drizzle). Column names are snake_case in SQL (the client sets `casing: "snake_case"`).
 * Change this file, then `npm run db:generate` writes the SQL migration into `drizzle/`; commit both.
 * Money is integer minor units (1/100 LYD) in `integer` columns: never `real`, never `numeric` read as a float.
 * Times are stored to the millisecond, the precision of a JavaScript Date: a time read back and compared again (a
 * page cursor, a claim's expiry) is then exactly the stored one, never a microsecond off.
 */

/**
 * Where an order is in its life (the table of moves is in lib/orders/settle.ts):
 * - `started`: stored, and one server is creating its payment (the claim; see lib/checkout/place-order.ts)
 * - `failed`: the service created no payment (`failure` says why); the customer was told and can try again
 * - `pending`: the payment exists; the customer is on the payment page
 * - `awaiting_confirmation`: the customer's browser came back through the return URL: the payment is *reported*
 * - `paid`: the payment service confirmed the payment (a verified webhook)
 * - `cancelled`: the customer came back through the cancel URL, or the merchant cancelled the order (`cancelled_at`,
 *   `cancel_reason`: lib/refunds/; final, a paid one's money is refunded)
 * - `expired`: the payment page died (600 s after its access token) without a confirmed payment
 *
 * A cash-on-delivery order (`payment_method = 'cash'`, lib/cash/) never has a payment page. It is stored `started` by
 * the same claim, then:
 * - `placed`: the customer placed it and waits for the merchant's call; its units are held until `confirm_by`, after
 *   which the scheduled job expires it (`expired`)
 * - `confirmed`: the merchant reached the customer; its units are sold (taken from the stock)
 * - `paid`: the courier handed over the cash (`collected_minor`, `collected_by`; `paid_at` is when)
 * - `cancelled`: by the merchant before it shipped (lib/refunds/), or after it came back (`fulfilment = 'returned'`);
 *   its units back
 */
export const ORDER_STATUSES = [
  "started",
  "failed",
  "pending",
  "awaiting_confirmation",
  "paid",
  "cancelled",
  "expired",
  "placed",
  "confirmed",
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/**
 * What the merchant must look at: a confirmed payment whose amount or currency differs from the order's; money that
 * arrived for an order that was cancelled, expired or never got its payment recorded (it is marked paid anyway:
 * money wins); a customer who reported paying but whose payment was never confirmed within the grace period; and an
 * order the merchant marked paid by hand (from the merchant dashboard's transaction reference); a payment that was sold
 * beyond the stock (`oversold`); and an order expired although the shop may have missed the service's word about it
 * (`check_payment_list`: lib/orders/unseen.ts). A flag is raised once
 * per order and never removed: once the merchant has dealt with it, it is also *resolved* (`orders.resolved_flags`;
 * who, when and why are in the `flag_resolved` or `marked_paid` event that resolved it).
 */
export const ORDER_FLAGS = [
  "amount_mismatch",
  "paid_after_cancel",
  "paid_after_expiry",
  "paid_after_failure",
  "unconfirmed_report",
  "paid_manually",
  "oversold",
  "check_payment_list",
] as const;
export type OrderFlag = (typeof ORDER_FLAGS)[number];

/** The steps of a parcel's way (a delivery's or a pickup's), each of which may e-mail the customer. */
export const PARCEL_STEPS = ["packed", "out_for_delivery", "delivered", "ready_for_pickup", "picked_up"] as const;
export type ParcelStep = (typeof PARCEL_STEPS)[number];

/**
 * Where a cash order's parcel may end instead (lib/cash/): `delivery_failed` (out for delivery, not handed over: the
 * event says why; it may go out again) and `returned` (it came back to the shop; the order is cancelled with it).
 */
export const CASH_PARCEL_STEPS = ["delivery_failed", "returned"] as const;
export type CashParcelStep = (typeof CASH_PARCEL_STEPS)[number];

/** Why a cash order's delivery failed at the door (the `delivery_failed` event's `reason`). */
export const DELIVERY_FAILURES = ["refused", "unreachable", "wrong_address", "postponed"] as const;
export type DeliveryFailure = (typeof DELIVERY_FAILURES)[number];

/**
 * Why the merchant cancelled a cash order before it shipped, in the `cash_cancelled` events written before cancelling
 * became one move for every order ({@link CANCEL_REASONS}): the timeline still labels them.
 */
export const CASH_CANCEL_REASONS = ["customer_asked", "unreachable", "suspected_fake"] as const;
export type CashCancelReason = (typeof CASH_CANCEL_REASONS)[number];

/** Why the merchant cancelled an order (lib/refunds/cancel.ts): `orders.cancel_reason` and the `order_cancelled` event. */
export const CANCEL_REASONS = ["customer_asked", "out_of_stock", "suspected_fraud", "unreachable", "other"] as const;
export type CancelReason = (typeof CANCEL_REASONS)[number];

/** A refund is `pending` (to make on the payment service's dashboard, or in cash) until recorded as `refunded`. */
export const REFUND_STATUSES = ["pending", "refunded"] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];

/** Why a refund exists: the merchant cancelled a paid order, goods came back, or the merchant refunded on its own. */
export const REFUND_CAUSES = ["cancel", "return", "merchant"] as const;
export type RefundCause = (typeof REFUND_CAUSES)[number];

/**
 * Where a paid (or, for cash, confirmed) order's goods are, step by step, as the merchant records them
 * (lib/orders/fulfilment.ts): a delivery is `packed`, `out_for_delivery`, then `delivered`; a pickup is `packed`,
 * `ready_for_pickup`, then `picked_up`; an order with nothing to deliver is simply `fulfilled`. The last step of each
 * sets `orders.fulfilled_at`. A cash order's parcel may also fail at the door or come back ({@link CASH_PARCEL_STEPS}).
 */
export const FULFILMENT_STEPS = [...PARCEL_STEPS, "fulfilled", ...CASH_PARCEL_STEPS] as const;
export type FulfilmentStep = (typeof FULFILMENT_STEPS)[number];

/**
 * What an order's history records (`order_events.type`), each written with the change it stands for
 * (lib/orders/events.ts, `changeOrder`):
 * - `created`: the order and its lines were stored (the checkout's claim); `claim_taken_over`: another server took
 *   over a claim whose server died; `claim_abandoned`: a claim nobody took over, given up by the scheduled job
 * - `payment_created` / `payment_failed`: the service created the payment, or did not (with the reason)
 * - `customer_returned`: the customer's browser came back (`success` or `cancel`)
 * - `webhook_received`: a verified delivery from the payment service, whatever it said
 * - `webhook_unrecorded`: a verified delivery for the order that the shop could not record (its database failed),
 *   written by the server that received it once the database answers again (lib/orders/unseen.ts)
 * - `expired`: the payment page died; `confirmation_overdue`: a reported payment stayed unconfirmed past the grace
 * - `marked_paid`: the merchant marked the order paid by hand (resolving the flags the mark answers); `fulfilled`: the
 *   merchant sent the goods of an order with nothing to deliver; `packed`, `out_for_delivery`, `delivered`,
 *   `ready_for_pickup`, `picked_up`: a step of a parcel's way (see {@link FULFILMENT_STEPS}); `flag_resolved`: an
 *   admin marked a flag as dealt with (who, and a note)
 * - `email_queued`, `email_sent`, `email_failed`: an e-mail of the order written to the outbox, then each attempt to
 *   send it (lib/email/); `receipt_resent`, `notice_resent`: an admin asked for the receipt, or the merchant's
 *   notice, again
 * - `sms_queued`, `sms_sent`, `sms_failed`, `sms_report`: a text message of the order written to the SMS outbox, each
 *   attempt to hand it to the SMS centre (accepted, or why not), and each delivery report the centre sent back (lib/sms/);
 *   `sms_resent`: an admin asked for a failed or undelivered one again
 * - a cash order's moves (lib/cash/): `cash_order_placed` (the claim's order became `placed`), `cash_confirmed` (who,
 *   and a note: the merchant reached the customer), `cash_collected` (the amount, who), `cash_cancelled` (who, a
 *   reason of {@link CASH_CANCEL_REASONS}, a note), `cash_expired` (unconfirmed past `confirm_by`); the parcel's
 *   `delivery_failed` (a reason of {@link DELIVERY_FAILURES}) and `returned` are fulfilment steps
 * - after the sale (lib/refunds/): `order_cancelled` (who, a reason of {@link CANCEL_REASONS}, a note, the status before
 *   and after, the units restocked, the refund it opened), `refund_opened` (the refund, its amount, who),
 *   `refund_recorded` (the refund, its amount and reference, who), `order_returned` (the return, its lines, the units
 *   restocked, who)
 */
export const ORDER_EVENT_TYPES = [
  "created",
  "claim_taken_over",
  "claim_abandoned",
  "payment_created",
  "payment_failed",
  "customer_returned",
  "webhook_received",
  "webhook_unrecorded",
  "expired",
  "confirmation_overdue",
  "marked_paid",
  ...FULFILMENT_STEPS,
  "flag_resolved",
  "email_queued",
  "email_sent",
  "email_failed",
  "sms_queued",
  "sms_sent",
  "sms_failed",
  "sms_report",
  "sms_resent",
  "receipt_resent",
  "notice_resent",
  "cash_order_placed",
  "cash_confirmed",
  "cash_collected",
  "cash_cancelled",
  "cash_expired",
  "order_cancelled",
  "refund_opened",
  "refund_recorded",
  "order_returned",
] as const;
export type OrderEventType = (typeof ORDER_EVENT_TYPES)[number];

/**
 * How an order reaches its customer: `delivery` to an address in one of the merchant's delivery zones (a city, which
 * sets the fee), or `pickup` from the shop. An order with nothing physical in it has neither (null).
 */
export const DELIVERY_METHODS = ["delivery", "pickup"] as const;
export type DeliveryMethod = (typeof DELIVERY_METHODS)[number];

/**
 * How an order is paid for (lib/payment-methods/): `online` through the payment service's hosted payment page, or
 * `cash` on delivery (or at pickup), handed to the courier (lib/cash/). A new way to pay is a name here and a file
 * there.
 */
export const PAYMENT_METHODS = ["online", "cash"] as const;
export type PaymentMethodName = (typeof PAYMENT_METHODS)[number];

const timestamps = {
  createdAt: timestamp({ withTimezone: true, precision: 3 }).notNull().defaultNow(),
  updatedAt: timestamp({ withTimezone: true, precision: 3 }).notNull().defaultNow(),
};

export const orders = pgTable(
  "orders",
  {
    /** `ord_` + 16 base-32 characters; sent to the service as `custom`. */
    id: text().primaryKey(),
    /** The browser session that placed the order: only that session may see it or settle it from the browser. */
    sessionId: text().notNull(),
    /** Digest of the cart, its prices and the customer's details: the same checkout submitted again has the same one. */
    fingerprint: text().notNull(),
    /**
     * The client address the checkout came from (lib/client-address.ts, `clientIp`), for the budget of new payments per
     * address (lib/checkout/place-order.ts); null for orders stored before it was kept.
     */
    clientAddress: text(),
    status: text({ enum: ORDER_STATUSES }).notNull(),
    amountMinor: integer().notNull(),
    currency: text().notNull(),
    /** The shopper's language, sent to the service as Accept-Language. */
    locale: text().notNull(),
    /** How the order is paid for (lib/payment-methods/). */
    paymentMethod: text({ enum: PAYMENT_METHODS }).notNull().default("online"),
    // What was sent to the service (docs/payment-service.md, "Creating a payment"); null when the customer left a field
    // empty.
    fullName: text(),
    email: text(),
    phone: text(),
    /** The customer asked for text messages about the order (to `phone`): lib/orders/sms-outbox.ts writes them only then. */
    smsUpdates: boolean().notNull().default(false),
    paymentGateway: text(),
    /**
     * How the goods reach the customer (null: nothing physical to deliver). For a delivery: the zone it was priced
     * by, the city's names as they were then, the area and street, an optional nearest landmark and a second phone
     * for the courier. `deliveryFeeMinor` is part of `amountMinor` (0 for pickup, free delivery, or nothing to
     * deliver).
     */
    deliveryMethod: text({ enum: DELIVERY_METHODS }),
    deliveryZoneId: bigint({ mode: "number" }).references(() => deliveryZones.id),
    deliveryCityEn: text(),
    deliveryCityAr: text(),
    deliveryAddress: text(),
    deliveryLandmark: text(),
    secondPhone: text(),
    deliveryFeeMinor: integer().notNull().default(0),
    /** What paying in cash added (the merchant's cash fee, lib/cash/): part of `amountMinor`; 0 for online orders. */
    cashFeeMinor: integer().notNull().default(0),
    /**
     * The promo code the order was priced with (lib/promo-codes/), as the merchant wrote it then (upper case), and what
     * it took off: `discountMinor` is already subtracted from `amountMinor` (0 without a code). The order's use of the
     * code is not a counter: it is held while the order holds its stock and is a use once paid or confirmed.
     */
    promoCodeId: bigint({ mode: "number" }).references(() => promoCodes.id),
    promoCode: text(),
    discountMinor: integer().notNull().default(0),
    /**
     * A `placed` cash order's deadline for the merchant's call: its units are held until then, and the scheduled job
     * expires it after (lib/cash/). Null for online orders.
     */
    confirmBy: timestamp({ withTimezone: true, precision: 3 }),
    /**
     * The cash the courier handed over for a cash order, and the admin who recorded it (their e-mail); `paidAt` is
     * when. Set once, by the move to `paid` (lib/cash/). Null until then and for online orders.
     */
    collectedMinor: integer(),
    collectedBy: text(),
    /** The service's payment token and payment URL, once the payment exists. */
    paymentToken: text().unique(),
    paymentUrl: text(),
    /**
     * When the payment page dies: with the access token that created the payment, at the lifetime the service gave it
     * (docs/payment-service.md, "The payment page and its lifetime"). Null until the payment exists.
     */
    paymentExpiresAt: timestamp({ withTimezone: true, precision: 3 }),
    /** While `started`: the server creating the payment owns it until then; after it, another may take over. */
    claimExpiresAt: timestamp({ withTimezone: true, precision: 3 }).notNull(),
    /** Why no payment was created (a PaymentError kind), when `failed`. */
    failure: text(),
    /** When the customer's browser came back with `success`: the order page waits for confirmation from then. */
    customerReturnedAt: timestamp({ withTimezone: true, precision: 3 }),
    flags: text({ enum: ORDER_FLAGS })
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /**
     * The flags the merchant has dealt with (a subset of `flags`, written with the event that resolved each:
     * lib/orders/flags.ts). An order "needs attention" while it has a flag not in here. A flag raised again (another
     * payment with another amount) leaves this list: it is news again.
     */
    resolvedFlags: text({ enum: ORDER_FLAGS })
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /**
     * Whether a flag is not resolved: the back office's "flagged" filter (lib/orders/flags.ts). Computed by the
     * database from the two lists, and stored as a column of its own so that PostgreSQL keeps statistics on it: it
     * then knows how few orders need attention, and reads them from their partial index, for the list and its count
     * alike (on the expression itself it guesses nearly all, and counts by reading the whole table).
     */
    needsAttention: boolean()
      .notNull()
      .generatedAlwaysAs(sql`not (flags <@ resolved_flags)`),
    /**
     * When the order became `paid`: set by the move to paid (lib/orders/settle.ts) in the same update, so it is the
     * time of the verified webhook or of the merchant's mark that made it paid. The merchant's sales are counted by it
     * (lib/dashboard/): an order paid today for a checkout started yesterday is today's sale. Null while not paid;
     * orders paid before it existed got the time of that move from their events (migration "dashboard").
     */
    paidAt: timestamp({ withTimezone: true, precision: 3 }),
    /**
     * The gateway the payment service says the customer paid with (the verified delivery's `gateway`), set with
     * `paidAt`, or by a delivery that confirms a payment the merchant had already marked paid; null when none named one.
     * The order's `paymentGateway` is the customer's choice at checkout, empty when they chose on the payment page.
     */
    paidGateway: text(),
    /** The last step of the goods' way the merchant recorded (only ever on a paid order); null before the first. */
    fulfilment: text({ enum: FULFILMENT_STEPS }),
    /** When the goods reached the customer: the last step (`delivered`, `picked_up` or `fulfilled`). */
    fulfilledAt: timestamp({ withTimezone: true, precision: 3 }),
    /**
     * When the merchant cancelled the order (lib/refunds/cancel.ts), and why: final — a payment that arrives after moves
     * nothing (lib/orders/settle.ts). Null for every other cancel (the customer's cancel URL, a cash parcel that came
     * back).
     */
    cancelledAt: timestamp({ withTimezone: true, precision: 3 }),
    cancelReason: text({ enum: CANCEL_REASONS }),
    /**
     * The refunds recorded as made (`refunds.status = 'refunded'`), summed: written with each record, in its
     * transaction. Never above what the order received (lib/refunds/rules.ts, `receivedMinor`).
     */
    refundedMinor: integer().notNull().default(0),
    ...timestamps,
  },
  (t) => [
    // One claim per session and checkout: a second identical submission cannot start a second payment.
    uniqueIndex("orders_one_started_checkout")
      .on(t.sessionId, t.fingerprint)
      .where(sql`${t.status} = 'started'`),
    index("orders_session_created").on(t.sessionId, t.createdAt),
    // The budget of new payments per client address counts its recent orders.
    index("orders_client_address_created").on(t.clientAddress, t.createdAt),
    // The back office lists newest first (these are read backwards), optionally by status or flagged, a page at a
    // time (keyset on created_at, id), and finds orders by e-mail (as typed, any case) or phone (normalised). The
    // flagged filter is "has a flag not yet resolved" (`needs_attention`, lib/orders/flags.ts).
    index("orders_created").on(t.createdAt, t.id),
    // Its paid_at and amount_minor too: the list's count and paid total (lib/admin/orders.ts, `listOrders`), of every
    // order or of one status, read this index alone — at 100,000 orders a fifth of the table's 43 MB, 25–30 ms instead
    // of the 85–100 ms of reading every row.
    index("orders_status_created").on(t.status, t.createdAt, t.id, t.paidAt, t.amountMinor),
    index("orders_needing_attention_created")
      .on(t.createdAt, t.id)
      .where(sql`${t.needsAttention}`),
    index("orders_email").on(sql`lower(${t.email})`),
    index("orders_phone").on(t.phone),
    // The merchant's sales by when they were paid (lib/dashboard/): figures, days, gateways and ways to pay read this
    // index alone (a cash order is paid when its cash is collected).
    // A paid order the merchant cancelled later was a sale all the same (its refund is a refund): by `paid_at` alone.
    index("orders_paid_at")
      .on(t.paidAt, t.amountMinor, t.paidGateway, t.paymentMethod)
      .where(sql`${t.paidAt} is not null`),
    // Paid orders whose goods have not reached the customer, oldest payment first: the dashboard's "to fulfil".
    index("orders_to_fulfil")
      .on(t.paidAt, t.id)
      .where(sql`${t.status} = 'paid' and ${t.fulfilledAt} is null`),
    // Cash orders waiting for the merchant's call, by their deadline: the dashboard's "to confirm", the expiry job,
    // and the budget of open cash orders per phone and per client address.
    index("orders_cash_to_confirm")
      .on(t.confirmBy)
      .where(sql`${t.status} = 'placed'`),
    index("orders_cash_placed_phone")
      .on(t.phone)
      .where(sql`${t.status} = 'placed'`),
    // Confirmed cash orders, collected or not: the dashboard's "cash to collect" and "to fulfil" for cash.
    index("orders_cash_confirmed")
      .on(t.createdAt, t.id)
      .where(sql`${t.status} = 'confirmed'`),
    // A code's uses and holds (lib/promo-codes/), and the merchant's discounts per code.
    index("orders_promo_code")
      .on(t.promoCodeId, t.status)
      .where(sql`${t.promoCodeId} is not null`),
    // Open payments by when their page dies: what the expiry job looks for.
    index("orders_open_payments")
      .on(t.paymentExpiresAt)
      .where(sql`${t.status} in ('pending', 'awaiting_confirmation')`),
    check("orders_status_known", sql.raw(`status in (${ORDER_STATUSES.map((status) => `'${status}'`).join(", ")})`)),
    check("orders_amount_minor_range", sql`${t.amountMinor} >= 0`),
    check(
      "orders_payment_while_open",
      sql`${t.paymentMethod} <> 'online' or ${t.status} in ('started', 'failed') or ${t.paymentToken} is not null`,
    ),
    // A cash order never has a payment on the service; only a cash order is placed, confirmed, collected or has a fee.
    check(
      "orders_cash_never_on_the_service",
      sql`${t.paymentMethod} <> 'cash' or (${t.paymentToken} is null and ${t.paymentUrl} is null)`,
    ),
    check("orders_cash_statuses", sql`${t.status} not in ('placed', 'confirmed') or ${t.paymentMethod} = 'cash'`),
    check("orders_placed_has_deadline", sql`${t.status} <> 'placed' or ${t.confirmBy} is not null`),
    check(
      "orders_cash_fee_range",
      sql`${t.cashFeeMinor} >= 0 and (${t.paymentMethod} = 'cash' or ${t.cashFeeMinor} = 0) and ${t.cashFeeMinor} + ${t.deliveryFeeMinor} <= ${t.amountMinor} + ${t.discountMinor}`,
    ),
    // Collected once, with who collected it, only for cash; a paid cash order is exactly a collected one.
    check(
      "orders_collected",
      sql`(${t.collectedMinor} is null) = (${t.collectedBy} is null) and (${t.collectedMinor} is null or (${t.paymentMethod} = 'cash' and ${t.collectedMinor} >= 0)) and (${t.paymentMethod} <> 'cash' or (${t.status} = 'paid') = (${t.collectedMinor} is not null))`,
    ),
    // A discount comes with its code (a free-delivery code on a pickup order takes nothing off).
    check(
      "orders_discount",
      sql`${t.discountMinor} >= 0 and (${t.promoCodeId} is null) = (${t.promoCode} is null) and (${t.promoCode} is not null or ${t.discountMinor} = 0)`,
    ),
    // Only a flag the order has can be resolved.
    check("orders_resolved_flags_raised", sql`${t.resolvedFlags} <@ ${t.flags}`),
    check(
      "orders_payment_method_known",
      sql.raw(`payment_method in (${PAYMENT_METHODS.map((method) => `'${method}'`).join(", ")})`),
    ),
    check(
      "orders_delivery_method_known",
      sql.raw(`delivery_method in (${DELIVERY_METHODS.map((method) => `'${method}'`).join(", ")})`),
    ),
    // A delivery knows where to go; pickup and nothing to deliver cost no fee.
    check(
      "orders_delivery_complete",
      sql`${t.deliveryMethod} is distinct from 'delivery' or (${t.deliveryZoneId} is not null and ${t.deliveryCityEn} is not null and ${t.deliveryCityAr} is not null and ${t.deliveryAddress} is not null)`,
    ),
    check(
      "orders_delivery_fee_range",
      sql`${t.deliveryFeeMinor} >= 0 and (${t.deliveryMethod} is not distinct from 'delivery' or ${t.deliveryFeeMinor} = 0) and ${t.deliveryFeeMinor} <= ${t.amountMinor} + ${t.discountMinor}`,
    ),
    check(
      "orders_fulfilment_known",
      sql.raw(`fulfilment in (${FULFILMENT_STEPS.map((step) => `'${step}'`).join(", ")})`),
    ),
    // Goods move once the order is paid, or for cash once it is confirmed; a cash order cancelled on the way (or whose
    // parcel came back) keeps the last step it reached.
    // A cancel by the merchant keeps the parcel's step too, online or cash.
    check(
      "orders_fulfilment_when_paid",
      sql`${t.fulfilment} is null or ${t.status} = 'paid' or (${t.paymentMethod} = 'cash' and ${t.status} in ('confirmed', 'cancelled')) or ${t.cancelledAt} is not null`,
    ),
    // The merchant's cancel is a cancel, with its reason; it is final (nothing moves the order on).
    check(
      "orders_cancelled_by_merchant",
      sql.raw(
        `(cancelled_at is null) = (cancel_reason is null) and (cancelled_at is null or status = 'cancelled') and (cancel_reason is null or cancel_reason in (${CANCEL_REASONS.map((reason) => `'${reason}'`).join(", ")}))`,
      ),
    ),
    // Never more refunded than received: an online order's amount once paid, a cash order's collected cash.
    check(
      "orders_refunded_range",
      sql`${t.refundedMinor} >= 0 and ${t.refundedMinor} <= case when ${t.paymentMethod} = 'cash' then coalesce(${t.collectedMinor}, 0) when ${t.paidAt} is not null then ${t.amountMinor} else 0 end`,
    ),
    // The orders list's filters on refunds (lib/admin/orders.ts).
    index("orders_refunded_created")
      .on(t.createdAt, t.id)
      .where(sql`${t.refundedMinor} > 0`),
  ],
);

export const orderLines = pgTable(
  "order_lines",
  {
    orderId: text()
      .notNull()
      .references(() => orders.id),
    position: integer().notNull(),
    /** The product sold (null for lines sold before the catalogue lived in the database). */
    productId: bigint({ mode: "number" }).references(() => products.id),
    productSlug: text().notNull(),
    /** The product's name and unit price as sold, so later catalogue changes never rewrite an order. */
    name: text().notNull(),
    unitMinor: integer().notNull(),
    quantity: integer().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.orderId, t.position] }),
    // The stock a product's unpaid checkouts hold is summed from their lines (lib/catalog/stock.ts).
    index("order_lines_product").on(t.productId),
    check("order_lines_unit_minor_range", sql`${t.unitMinor} >= 0`),
    check("order_lines_quantity_positive", sql`${t.quantity} > 0`),
  ],
);

/**
 * What happened to orders, one row per fact, never updated or deleted (a trigger refuses it): the order's
 * history for the customer's support and the merchant's audit.
 */
export const orderEvents = pgTable(
  "order_events",
  {
    id: bigint({ mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    orderId: text().references(() => orders.id),
    type: text({ enum: ORDER_EVENT_TYPES }).notNull(),
    /** Free-form details: the status before and after, the payment token, an error kind… Never secrets. */
    data: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    at: timestamp({ withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [index("order_events_order_at").on(t.orderId, t.at)],
);

/**
 * Goods that came back after delivery (lib/refunds/returns.ts): who recorded them, and the form's request key (one
 * return however often the form is posted). Its lines say how many units of which order line, and whether they went
 * back on hand.
 */
export const returns = pgTable(
  "returns",
  {
    id: bigint({ mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    orderId: text()
      .notNull()
      .references(() => orders.id),
    /** The form's idempotency key: two tabs or two instances posting the same form record one return. */
    requestKey: text().notNull().unique(),
    /** The admin's e-mail. */
    createdBy: text().notNull(),
    note: text().notNull().default(""),
    createdAt: timestamp({ withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [index("returns_order").on(t.orderId)],
);

/** The units of one order line (by its `position`) that came back in a return; `restocked`: put back on hand. */
export const returnLines = pgTable(
  "return_lines",
  {
    returnId: bigint({ mode: "number" })
      .notNull()
      .references(() => returns.id),
    orderId: text().notNull(),
    position: integer().notNull(),
    quantity: integer().notNull(),
    restocked: boolean().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.returnId, t.position] }),
    foreignKey({ columns: [t.orderId, t.position], foreignColumns: [orderLines.orderId, orderLines.position] }),
    index("return_lines_order").on(t.orderId, t.position),
    check("return_lines_quantity_positive", sql`${t.quantity} > 0`),
  ],
);

/**
 * Money given back to the customer (lib/refunds/refunds.ts). The payment service has no refund call: the merchant makes
 * it on the service's dashboard (or hands cash back) and records it here with the reference it got, so the shop is the
 * record of what was refunded. `pending` (to make) → `refunded` (recorded: reference, who, when), once. The refunds of
 * an order, pending or refunded, never sum above what it received.
 */
export const refunds = pgTable(
  "refunds",
  {
    id: bigint({ mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    orderId: text()
      .notNull()
      .references(() => orders.id),
    amountMinor: integer().notNull(),
    status: text({ enum: REFUND_STATUSES }).notNull().default("pending"),
    /** The service's dashboard's reference for the refund (or the cash handed back's receipt); null while pending. */
    reference: text(),
    cause: text({ enum: REFUND_CAUSES }).notNull(),
    /** The return it pays for, when `cause` is `return`. */
    returnId: bigint({ mode: "number" }).references(() => returns.id),
    /**
     * The form's idempotency key: two tabs or two instances posting the same form open one refund. Null for the refund
     * a cancel or a return opens (the cancel is once by the order's status; the return has its own key).
     */
    requestKey: text().unique(),
    note: text().notNull().default(""),
    /** The admins' e-mails: who opened it, and who recorded it as made. */
    createdBy: text().notNull(),
    createdAt: timestamp({ withTimezone: true, precision: 3 }).notNull().defaultNow(),
    recordedBy: text(),
    recordedAt: timestamp({ withTimezone: true, precision: 3 }),
  },
  (t) => [
    index("refunds_order").on(t.orderId),
    // Refunds to make: the home's panel and the orders list's filter.
    index("refunds_pending")
      .on(t.createdAt, t.id)
      .where(sql`${t.status} = 'pending'`),
    // Refunds made, by when they were recorded: the home's refunds of a period.
    index("refunds_recorded")
      .on(t.recordedAt, t.amountMinor)
      .where(sql`${t.status} = 'refunded'`),
    // One refund per cancel: a cancel opens at most one.
    uniqueIndex("refunds_one_per_cancel")
      .on(t.orderId)
      .where(sql`${t.cause} = 'cancel'`),
    check("refunds_amount_positive", sql`${t.amountMinor} > 0`),
    check("refunds_status_known", sql.raw(`status in (${REFUND_STATUSES.map((status) => `'${status}'`).join(", ")})`)),
    check("refunds_cause_known", sql.raw(`cause in (${REFUND_CAUSES.map((cause) => `'${cause}'`).join(", ")})`)),
    check("refunds_return_cause", sql`(${t.cause} = 'return') = (${t.returnId} is not null)`),
    // Recorded exactly when refunded, with a reference that says something.
    check(
      "refunds_recorded",
      sql`(${t.status} = 'refunded') = (${t.recordedAt} is not null) and (${t.recordedAt} is null) = (${t.recordedBy} is null) and (${t.recordedAt} is null) = (${t.reference} is null) and (${t.reference} is null or btrim(${t.reference}) <> '')`,
    ),
  ],
);

/** The units of one order line (by its `position`) a refund is for, when it is for lines. */
export const refundLines = pgTable(
  "refund_lines",
  {
    refundId: bigint({ mode: "number" })
      .notNull()
      .references(() => refunds.id),
    orderId: text().notNull(),
    position: integer().notNull(),
    quantity: integer().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.refundId, t.position] }),
    foreignKey({ columns: [t.orderId, t.position], foreignColumns: [orderLines.orderId, orderLines.position] }),
    index("refund_lines_order").on(t.orderId, t.position),
    check("refund_lines_quantity_positive", sql`${t.quantity} > 0`),
  ],
);

/** The merchant's people who may use the back office (`npm run admin -- create <email>`). */
export const adminUsers = pgTable(
  "admin_users",
  {
    id: bigint({ mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    /** Lower-cased. */
    email: text().notNull().unique(),
    /** scrypt, with its salt and parameters (lib/admin/passwords.ts). */
    passwordHash: text().notNull(),
    /** When the password was last set (a reset also bumps {@link adminUsers.sessionVersion}). */
    passwordChangedAt: timestamp({ withTimezone: true, precision: 3 }).notNull().defaultNow(),
    /**
     * Carried in the admin's cookie; a cookie with another one is signed out. Signing out and a password reset bump
     * it, so they end the admin's sessions on the server, a copied cookie included (lib/admin/auth.ts).
     */
    sessionVersion: integer().notNull().default(0),
    ...timestamps,
  },
  (t) => [check("admin_users_email_lower", sql`${t.email} = lower(${t.email})`)],
);

/**
 * Every sign-in attempt that checked a password, for the sign-in limits (lib/admin/auth.ts): counted per e-mail and
 * address, per e-mail and per address over 15 minutes; a success makes its address familiar for that e-mail.
 */
export const signInAttempts = pgTable(
  "sign_in_attempts",
  {
    id: bigint({ mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    email: text().notNull(),
    ip: text().notNull(),
    succeeded: boolean().notNull(),
    at: timestamp({ withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    index("sign_in_attempts_email_at").on(t.email, t.at),
    index("sign_in_attempts_ip_at").on(t.ip, t.at),
    // Whether an e-mail signed in from an address lately: one lookup, however many failures the e-mail has.
    index("sign_in_attempts_successes")
      .on(t.email, t.ip, t.at)
      .where(sql`${t.succeeded}`),
  ],
);

/**
 * One-time sign-in links for the back office (lib/admin/sign-in-links.ts). Every request for one is a row, so that
 * asking is limited per e-mail and per address in the database; a request for an existing account carries the SHA-256
 * of the token that was e-mailed (never the token itself), which signs in at most once (`used_at`, set by one
 * conditional update) before it expires.
 */
export const signInLinks = pgTable(
  "sign_in_links",
  {
    id: bigint({ mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    /** As asked for, lower-cased, whether or not an account has it. */
    email: text().notNull(),
    /** The address that asked (lib/client-address.ts, `clientIp`). */
    ip: text().notNull(),
    /** The account the link signs in to; null when the e-mail has none (nothing was sent). */
    adminId: bigint({ mode: "number" }).references(() => adminUsers.id, { onDelete: "cascade" }),
    /** Hex SHA-256 of the e-mailed token; null when nothing was sent. */
    tokenHash: text().unique(),
    requestedAt: timestamp({ withTimezone: true, precision: 3 }).notNull().defaultNow(),
    expiresAt: timestamp({ withTimezone: true, precision: 3 }).notNull(),
    /** When, and from which address, the link signed someone in; null while unused. */
    usedAt: timestamp({ withTimezone: true, precision: 3 }),
    usedIp: text(),
  },
  (t) => [
    index("sign_in_links_email_requested").on(t.email, t.requestedAt),
    index("sign_in_links_ip_requested").on(t.ip, t.requestedAt),
    check("sign_in_links_token_with_account", sql`(${t.adminId} is null) = (${t.tokenHash} is null)`),
  ],
);

/**
 * E-mails about orders: the customer's receipt and the steps of their goods' way (in the order's language), and the
 * merchant's notice (in MERCHANT_LOCALE). Why one is sent: the order became `paid`, a payment arrived with another amount, the scheduled job
 * flagged a reported payment that was never confirmed (`unconfirmed_report`), or an admin asked for the receipt again.
 */
export const EMAIL_KINDS = ["receipt", "merchant_notice", "fulfilment_update", "after_sale"] as const;
export type EmailKind = (typeof EMAIL_KINDS)[number];
/** A `fulfilment_update` tells the customer a step of their goods' way (in the order's language): its reason is the step. */
/**
 * `cash_placed`: a cash order was placed — the customer's "we will call you to confirm" (a `receipt`) and the merchant's
 * notice of a new cash order to confirm (lib/cash/).
 * `cancelled`, `refunded`: the customer's `after_sale` news (lib/refunds/): the merchant cancelled their order, once; a
 * refund was made, once per refund (`email_outbox.refund_id`).
 */
export const EMAIL_REASONS = [
  "paid",
  "amount_mismatch",
  "unconfirmed_report",
  "resend",
  ...PARCEL_STEPS,
  "cash_placed",
  "cancelled",
  "refunded",
] as const;
export type EmailReason = (typeof EMAIL_REASONS)[number];
/** `pending` until delivered (`sent`) or given up on (`failed`: refused by the server, or out of attempts). */
export const EMAIL_STATUSES = ["pending", "sent", "failed"] as const;
export type EmailStatus = (typeof EMAIL_STATUSES)[number];

/**
 * The transactional outbox (lib/orders/outbox.ts): a row is written in the same transaction as the order's move, so an
 * e-mail exists exactly when the move does. Senders claim due rows with `FOR UPDATE SKIP LOCKED` and a lease
 * (`locked_until`), talk SMTP outside any transaction, then mark them sent or reschedule them (lib/email/sender.ts).
 */
export const emailOutbox = pgTable(
  "email_outbox",
  {
    id: bigint({ mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    orderId: text()
      .notNull()
      .references(() => orders.id),
    kind: text({ enum: EMAIL_KINDS }).notNull(),
    reason: text({ enum: EMAIL_REASONS }).notNull(),
    /** The address it goes to, fixed when queued (the order's e-mail, or MERCHANT_EMAIL then). */
    recipient: text().notNull(),
    /** The language it is written in: the order's for a receipt, the merchant's setting for a notice. */
    locale: text().notNull(),
    /** The Message-ID of every attempt: a retry after an unrecorded success is the same message to mail software. */
    messageId: text().notNull().unique(),
    status: text({ enum: EMAIL_STATUSES }).notNull().default("pending"),
    /** Attempts so far, counted when one is claimed (so an attempt whose server crashed counts too). */
    attempts: integer().notNull().default(0),
    /** Not to be tried before then (the retry backoff). */
    nextAttemptAt: timestamp({ withTimezone: true, precision: 3 }).notNull().defaultNow(),
    /** A sender's lease: while in the future, that sender owns the row; after it, another may take it over. */
    lockedUntil: timestamp({ withTimezone: true, precision: 3 }),
    /** Why the last attempt failed (the SMTP server's answer or the connection error). */
    lastError: text(),
    sentAt: timestamp({ withTimezone: true, precision: 3 }),
    /** The refund a `refunded` e-mail tells of (one e-mail per refund); null for every other reason. */
    refundId: bigint({ mode: "number" }).references(() => refunds.id),
    createdAt: timestamp({ withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    // Each order gets each e-mail once per reason, whoever queues it and however often; an admin's resend is new; a
    // refund's e-mail is once per refund.
    uniqueIndex("email_outbox_once")
      .on(t.orderId, t.kind, t.reason)
      .where(sql`${t.reason} not in ('resend', 'refunded')`),
    uniqueIndex("email_outbox_once_per_refund")
      .on(t.refundId, t.kind)
      .where(sql`${t.reason} = 'refunded'`),
    check("email_outbox_refund", sql`(${t.reason} = 'refunded') = (${t.refundId} is not null)`),
    index("email_outbox_order").on(t.orderId),
    // E-mails given up on: the dashboard's "needs a look" reads only these.
    index("email_outbox_failed")
      .on(t.orderId)
      .where(sql`${t.status} = 'failed'`),
    // What a sender looks for: pending e-mails by when they are due.
    index("email_outbox_due")
      .on(t.nextAttemptAt, t.id)
      .where(sql`${t.status} = 'pending'`),
    check("email_outbox_kind_known", sql.raw(`kind in (${EMAIL_KINDS.map((kind) => `'${kind}'`).join(", ")})`)),
    check(
      "email_outbox_reason_known",
      sql.raw(`reason in (${EMAIL_REASONS.map((reason) => `'${reason}'`).join(", ")})`),
    ),
    check(
      "email_outbox_status_known",
      sql.raw(`status in (${EMAIL_STATUSES.map((status) => `'${status}'`).join(", ")})`),
    ),
    check("email_outbox_attempts_range", sql`${t.attempts} >= 0`),
  ],
);

/**
 * Why a text message about an order is sent, each once (per refund for `refunded`): the customer's receipt (`paid`
 * online, or a cash order placed: `cash_placed`), the merchant confirmed a cash order (`cash_confirmed`), each step of
 * the parcel's way ({@link PARCEL_STEPS}), the order cancelled, a refund made.
 */
export const SMS_REASONS = ["paid", "cash_placed", "cash_confirmed", ...PARCEL_STEPS, "cancelled", "refunded"] as const;
export type SmsReason = (typeof SMS_REASONS)[number];
/**
 * `pending` until the SMS centre accepts it (`accepted`: its submit_sm answered without error) or it is given up on
 * (`failed`); then the centre's delivery report makes an accepted one `delivered`, or `undelivered` (expired,
 * rejected, undeliverable: the phone never got it).
 */
export const SMS_STATUSES = ["pending", "accepted", "delivered", "undelivered", "failed"] as const;
export type SmsStatus = (typeof SMS_STATUSES)[number];

/**
 * The SMS outbox (lib/orders/sms-outbox.ts): the e-mail outbox's guarantees for text messages. A row is written in the
 * order's move's own transaction; senders claim due rows with `FOR UPDATE SKIP LOCKED` and a lease, talk SMPP outside
 * any transaction, then record the centre's answer; its delivery reports come back later by message id.
 */
export const smsOutbox = pgTable(
  "sms_outbox",
  {
    id: bigint({ mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    orderId: text()
      .notNull()
      .references(() => orders.id),
    reason: text({ enum: SMS_REASONS }).notNull(),
    /** The refund a `refunded` message tells of (one per refund); null for every other reason. */
    refundId: bigint({ mode: "number" }).references(() => refunds.id),
    /** The Libyan mobile it goes to, international (`+2189…`), fixed when queued from the order's phone. */
    phone: text().notNull(),
    /** The order's language, which the text is written in (lib/sms/texts.ts, when it is sent). */
    locale: text().notNull(),
    status: text({ enum: SMS_STATUSES }).notNull().default("pending"),
    /** Attempts so far, counted when one is claimed (so an attempt whose server crashed counts too). */
    attempts: integer().notNull().default(0),
    nextAttemptAt: timestamp({ withTimezone: true, precision: 3 }).notNull().defaultNow(),
    /** A sender's lease: while in the future, that sender owns the row; after it, another may take it over. */
    lockedUntil: timestamp({ withTimezone: true, precision: 3 }),
    /** The SMS centre's message id of each part (submit_sm_resp), which its delivery reports name; each is billed. */
    providerIds: text()
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** The parts the centre reported delivered (of `providerIds`): the message is `delivered` when all of them are. */
    deliveredIds: text()
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** Why the last attempt failed, or what the failing delivery report said. */
    lastError: text(),
    acceptedAt: timestamp({ withTimezone: true, precision: 3 }),
    reportedAt: timestamp({ withTimezone: true, precision: 3 }),
    createdAt: timestamp({ withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    // Each order gets each message once per reason, whoever queues it and however often; a refund's once per refund.
    uniqueIndex("sms_outbox_once")
      .on(t.orderId, t.reason)
      .where(sql`${t.reason} <> 'refunded'`),
    uniqueIndex("sms_outbox_once_per_refund")
      .on(t.refundId)
      .where(sql`${t.reason} = 'refunded'`),
    check("sms_outbox_refund", sql`(${t.reason} = 'refunded') = (${t.refundId} is not null)`),
    index("sms_outbox_order").on(t.orderId),
    // Messages given up on or never delivered: the dashboard's "needs a look" reads only these.
    index("sms_outbox_failed")
      .on(t.orderId)
      .where(sql`${t.status} in ('failed', 'undelivered')`),
    index("sms_outbox_due")
      .on(t.nextAttemptAt, t.id)
      .where(sql`${t.status} = 'pending'`),
    // A delivery report names one part's id: found by it.
    index("sms_outbox_provider_ids").using("gin", t.providerIds),
    check("sms_outbox_reason_known", sql.raw(`reason in (${SMS_REASONS.map((reason) => `'${reason}'`).join(", ")})`)),
    check("sms_outbox_status_known", sql.raw(`status in (${SMS_STATUSES.map((status) => `'${status}'`).join(", ")})`)),
    check("sms_outbox_attempts_range", sql`${t.attempts} >= 0`),
  ],
);

/**
 * The shop's text messages per day in Africa/Tripoli, for the daily cap (SMS_DAILY_LIMIT, lib/sms/): `parts` counts
 * every part handed to a provider (each is billed), raised by one conditional update before a send, so that senders
 * on any number of instances never spend past the cap together. `limit_reached_at` is when a message first waited for
 * the cap that day: the merchant's notice, once a day.
 */
export const smsDays = pgTable(
  "sms_days",
  {
    day: date({ mode: "string" }).primaryKey(),
    parts: integer().notNull().default(0),
    limitReachedAt: timestamp({ withTimezone: true, precision: 3 }),
  },
  (t) => [check("sms_days_parts_range", sql`${t.parts} >= 0`)],
);

/**
 * Find my order by phone (`/orders/find`): every request is a row, so that asking is limited per client address, per
 * phone and per order in the database. A request whose order exists and was placed with that phone carries the
 * SHA-256 of the one-time code texted to the order's phone (never the code itself), which opens the order at most once
 * (`used_at`, set by one conditional update) before it expires, after at most a few wrong tries (`wrong_codes`).
 */
export const orderLookups = pgTable(
  "order_lookups",
  {
    id: bigint({ mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    /** The order number as asked for, whether or not there is such an order. */
    orderId: text().notNull(),
    /** The phone as asked for, normalised (lib/phone.ts), whether or not it is the order's. */
    phone: text().notNull(),
    /** The address that asked (lib/client-address.ts). */
    clientAddress: text().notNull(),
    /** Hex SHA-256 of the texted code; null when nothing was sent (no such order, not its phone, over a budget). */
    codeHash: text(),
    requestedAt: timestamp({ withTimezone: true, precision: 3 }).notNull().defaultNow(),
    expiresAt: timestamp({ withTimezone: true, precision: 3 }).notNull(),
    /** Wrong codes tried against this request. */
    wrongCodes: integer().notNull().default(0),
    /** When the code opened the order; null while unused. */
    usedAt: timestamp({ withTimezone: true, precision: 3 }),
  },
  (t) => [
    index("order_lookups_address_requested").on(t.clientAddress, t.requestedAt),
    index("order_lookups_phone_requested").on(t.phone, t.requestedAt),
    index("order_lookups_order_requested").on(t.orderId, t.requestedAt),
    check("order_lookups_wrong_codes_range", sql`${t.wrongCodes} >= 0`),
  ],
);

/**
 * The merchant dashboard's lists of payments, as an admin gave them to the back office's reconciliation
 * (lib/admin/reconcile.ts): kept as given, so that what is applied is exactly what was checked, and so that the
 * merchant can come back to a list. Orders it marks paid name it in their `marked_paid` event.
 */
export const paymentLists = pgTable(
  "payment_lists",
  {
    /** `lst_` + 16 base-32 characters. */
    id: text().primaryKey(),
    /** The admin who gave it (their e-mail). */
    createdBy: text().notNull(),
    /** The uploaded file's name, or null when the list was pasted. */
    fileName: text(),
    /** The list as text (CSV), decoded from the file's bytes; at most lib/admin/payment-list.ts's MAX_LIST_BYTES. */
    content: text().notNull(),
    /** When and by whom it was first applied; null while it has only been checked. */
    appliedAt: timestamp({ withTimezone: true, precision: 3 }),
    appliedBy: text(),
    createdAt: timestamp({ withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [index("payment_lists_created").on(t.createdAt)],
);

/** `bytea`: an image's bytes, kept in the database so that a host without a disk can serve them. */
const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => "bytea" });

/**
 * What a product is: goods to deliver (`physical`; issue of delivery) or something sent by other means (`digital`).
 */
export const PRODUCT_KINDS = ["physical", "digital"] as const;
export type ProductKind = (typeof PRODUCT_KINDS)[number];

/** Prices a product may have, in minor units: above zero (the service refuses a zero amount), at most 1,000,000 LYD. */
export const MAX_PRICE_MINOR = 100_000_000;

/**
 * The merchant's catalogue (lib/catalog/), edited in the back office. Names and descriptions in both languages of
 * the shop; the price in integer minor units (1/100 LYD). `stock` counts units on hand, or is null when the product is
 * not counted (always available). It drops when an order is paid (lib/catalog/stock.ts) and goes below zero only
 * when a payment confirmed too late sold more than there was (the order is flagged `oversold`); what unpaid
 * checkouts hold is not subtracted here, but summed from their lines.
 */
export const products = pgTable(
  "products",
  {
    id: bigint({ mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    /** The product's name in URLs (`/products/<slug>`): lower-case letters, digits and single hyphens. */
    slug: text().notNull().unique(),
    nameEn: text().notNull(),
    nameAr: text().notNull(),
    descriptionEn: text().notNull().default(""),
    descriptionAr: text().notNull().default(""),
    priceMinor: integer().notNull(),
    /** Hidden products are not shown or sold; carts holding one say so. */
    visible: boolean().notNull().default(true),
    kind: text({ enum: PRODUCT_KINDS }).notNull().default("physical"),
    stock: integer(),
    /** The storefront lists products by this, then by id. */
    sortOrder: integer().notNull().default(0),
    /** The most units of it one order may have; null: the shop's most per line (lib/cart-limits.ts, 20). */
    maxPerOrder: integer(),
    /**
     * When the back office archived it: a product that orders name cannot be deleted (their lines reference it), so
     * "Delete" archives it instead (lib/catalog/deletion.ts). Archived: hidden, and out of the back office's list,
     * the export and the stock alerts; old orders keep it.
     */
    archivedAt: timestamp({ withTimezone: true, precision: 3 }),
    ...timestamps,
  },
  (t) => [
    index("products_storefront")
      .on(t.sortOrder, t.id)
      .where(sql`${t.visible}`),
    check("products_slug_format", sql`${t.slug} ~ '^[a-z0-9]+(-[a-z0-9]+)*$' and length(${t.slug}) <= 100`),
    check("products_price_range", sql.raw(`price_minor > 0 and price_minor <= ${MAX_PRICE_MINOR}`)),
    check("products_max_per_order_range", sql.raw(`max_per_order between 1 and 20`)),
    check("products_archived_hidden", sql`${t.archivedAt} is null or not ${t.visible}`),
    check("products_kind_known", sql.raw(`kind in (${PRODUCT_KINDS.map((kind) => `'${kind}'`).join(", ")})`)),
  ],
);

/**
 * Images, stored once by the hash of their bytes (always WebP, re-encoded by lib/catalog/pictures.ts): the hash is
 * their URL's name (`/images/<hash>.webp`), so an image never changes under its URL and is cached for good.
 */
export const images = pgTable("images", {
  /** Hex SHA-256 of `bytes`. */
  hash: text().primaryKey(),
  width: integer().notNull(),
  height: integer().notNull(),
  bytes: bytea().notNull(),
  createdAt: timestamp({ withTimezone: true, precision: 3 }).notNull().defaultNow(),
});

/** A product's pictures in order, each in two sizes: `large` for its page, `small` for lists. */
export const productPictures = pgTable(
  "product_pictures",
  {
    productId: bigint({ mode: "number" })
      .notNull()
      .references(() => products.id),
    position: integer().notNull(),
    large: text()
      .notNull()
      .references(() => images.hash),
    small: text()
      .notNull()
      .references(() => images.hash),
  },
  (t) => [primaryKey({ columns: [t.productId, t.position] })],
);

/**
 * What the back office did to the catalogue (who, when, what changed), one row per change, never updated or deleted
 * (a trigger refuses it): created, edited with the fields before and after, hidden or shown, stock adjusted with a
 * reason, a picture added or removed, a CSV imported, archived, restored or deleted.
 */
export const CATALOG_EVENT_TYPES = [
  "created",
  "edited",
  "hidden",
  "shown",
  "stock_adjusted",
  "picture_added",
  "picture_removed",
  "imported",
  "archived",
  "restored",
  "deleted",
] as const;
export type CatalogEventType = (typeof CATALOG_EVENT_TYPES)[number];

export const catalogEvents = pgTable(
  "catalog_events",
  {
    id: bigint({ mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    /**
     * The product, or null for an event about the whole catalogue (an import). No foreign key: the audit outlives a
     * deleted product (its `deleted` row keeps its slug and names), and it is append-only, so it could not let go.
     */
    productId: bigint({ mode: "number" }),
    type: text({ enum: CATALOG_EVENT_TYPES }).notNull(),
    /** The admin's e-mail. */
    by: text().notNull(),
    data: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    at: timestamp({ withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [index("catalog_events_product_at").on(t.productId, t.at)],
);

/**
 * Catalogue CSV files as an admin uploaded them to the back office's import (lib/catalog/csv.ts): kept as given, so
 * that the dry run and "Apply" read the same file (the browser is never trusted to send it back), and so that an import
 * is applied at most once. Products it changes name it in their audit rows.
 */
export const catalogImports = pgTable(
  "catalog_imports",
  {
    /** `imp_` + 16 base-32 characters. */
    id: text().primaryKey(),
    /** The admin who uploaded it (their e-mail). */
    createdBy: text().notNull(),
    fileName: text(),
    /** The file as text (CSV), decoded from its bytes; at most lib/catalog/csv.ts's MAX_CATALOG_CSV_BYTES. */
    content: text().notNull(),
    /** When and by whom it was applied; null while it has only been checked. */
    appliedAt: timestamp({ withTimezone: true, precision: 3 }),
    appliedBy: text(),
    createdAt: timestamp({ withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [index("catalog_imports_created").on(t.createdAt)],
);

/**
 * Where the shop delivers (lib/delivery/), edited in the back office: a city with its names in both languages, its
 * fee in integer minor units (1/100 LYD), optionally free from an order total (the lines, before the fee), and whether
 * the checkout offers it. A new database has Libya's main cities (migration 0014), with fees for the merchant to set.
 */
export const deliveryZones = pgTable(
  "delivery_zones",
  {
    id: bigint({ mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    nameEn: text().notNull(),
    nameAr: text().notNull(),
    feeMinor: integer().notNull(),
    /** Delivery costs nothing when the lines come to at least this much; null: never free. */
    freeAboveMinor: integer(),
    enabled: boolean().notNull().default(true),
    /** Whether a customer in this zone may pay cash on delivery, while the shop takes cash at all (`cash_on_delivery`). */
    cashOnDelivery: boolean().notNull().default(true),
    /** The checkout lists zones by this, then by id. */
    sortOrder: integer().notNull().default(0),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("delivery_zones_name_en").on(sql`lower(${t.nameEn})`),
    uniqueIndex("delivery_zones_name_ar").on(t.nameAr),
    check("delivery_zones_fee_range", sql.raw(`fee_minor >= 0 and fee_minor <= ${MAX_PRICE_MINOR}`)),
    check(
      "delivery_zones_free_above_range",
      sql.raw(`free_above_minor is null or (free_above_minor > 0 and free_above_minor <= ${MAX_PRICE_MINOR})`),
    ),
  ],
);

/**
 * In-store pickup, one row (id 1): whether the checkout offers it, and where and when the customer collects, in both
 * languages. Off in a new database until the merchant gives the address.
 */
export const storePickup = pgTable(
  "store_pickup",
  {
    id: integer().primaryKey().default(1),
    enabled: boolean().notNull().default(false),
    addressEn: text().notNull().default(""),
    addressAr: text().notNull().default(""),
    hoursEn: text().notNull().default(""),
    hoursAr: text().notNull().default(""),
    updatedAt: timestamp({ withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    check("store_pickup_one_row", sql`${t.id} = 1`),
    check(
      "store_pickup_address_when_enabled",
      sql`not ${t.enabled} or (${t.addressEn} <> '' and ${t.addressAr} <> '')`,
    ),
  ],
);

/**
 * Cash on delivery, one row (id 1), edited in the back office (lib/cash/): whether the shop takes cash at all (off in a
 * new database), whether pickup may be paid at the counter, the highest order total it takes in cash (null: any), the
 * fee paying in cash adds (integer minor units, shown as its own line), and how long a placed order waits for the
 * merchant's call before it expires. Which delivery zones allow it is `delivery_zones.cash_on_delivery`.
 */
export const cashOnDelivery = pgTable(
  "cash_on_delivery",
  {
    id: integer().primaryKey().default(1),
    enabled: boolean().notNull().default(false),
    atPickup: boolean().notNull().default(false),
    maxTotalMinor: integer(),
    feeMinor: integer().notNull().default(0),
    confirmWithinHours: integer().notNull().default(48),
    updatedAt: timestamp({ withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    check("cash_on_delivery_one_row", sql`${t.id} = 1`),
    check("cash_on_delivery_fee_range", sql.raw(`fee_minor >= 0 and fee_minor <= ${MAX_PRICE_MINOR}`)),
    check(
      "cash_on_delivery_max_total_range",
      sql.raw(`max_total_minor is null or (max_total_minor > 0 and max_total_minor <= ${MAX_PRICE_MINOR})`),
    ),
    check("cash_on_delivery_confirm_within_range", sql`${t.confirmWithinHours} between 1 and 720`),
  ],
);

/**
 * Phone numbers the merchant stopped from paying cash (normalised as orders store them, lib/phone.ts): a customer
 * whose cash orders were refused at the door or faked. Online payment stays open to them. Blocking and unblocking are
 * audited in `delivery_events`.
 */
export const cashBlockedPhones = pgTable("cash_blocked_phones", {
  phone: text().primaryKey(),
  /** The admin's e-mail, and why. */
  blockedBy: text().notNull(),
  note: text().notNull().default(""),
  blockedAt: timestamp({ withTimezone: true, precision: 3 }).notNull().defaultNow(),
});

/**
 * What the back office changed in delivery and cash on delivery (who, when, the fields before and after), one row per
 * change, never updated or deleted (a trigger refuses it): a zone created or edited, pickup's settings edited, cash on
 * delivery's settings edited, a phone blocked from or allowed cash again.
 */
export const DELIVERY_EVENT_TYPES = [
  "zone_created",
  "zone_edited",
  "pickup_edited",
  "cash_edited",
  "phone_blocked",
  "phone_unblocked",
] as const;
export type DeliveryEventType = (typeof DELIVERY_EVENT_TYPES)[number];

export const deliveryEvents = pgTable(
  "delivery_events",
  {
    id: bigint({ mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    /** The zone, or null for pickup. */
    zoneId: bigint({ mode: "number" }).references(() => deliveryZones.id),
    type: text({ enum: DELIVERY_EVENT_TYPES }).notNull(),
    /** The admin's e-mail. */
    by: text().notNull(),
    data: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    at: timestamp({ withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [index("delivery_events_at").on(t.at)],
);

/** What a promo code takes off: a percentage of the lines, a fixed amount off the lines, or the delivery fee. */
export const PROMO_CODE_KINDS = ["percent", "amount", "free_delivery"] as const;
export type PromoCodeKind = (typeof PROMO_CODE_KINDS)[number];

/**
 * Promo codes (lib/promo-codes/), created and edited in the back office (audited in `promo_code_events`). `code` is
 * stored in upper case and compared without case (the customer's input is upper-cased). A code is valid from
 * `startsAt` (null: at once) until `endsAt` (null: for ever), for lines worth at least `minLinesMinor`; it is used at
 * most `maxUses` times in all (null: no limit) and `maxUsesPerCustomer` times per customer (by normalised phone, and
 * by e-mail when one was given). Uses are not a counter: they are counted from the orders that carry the code.
 */
export const promoCodes = pgTable(
  "promo_codes",
  {
    id: bigint({ mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    code: text().notNull(),
    kind: text({ enum: PROMO_CODE_KINDS }).notNull(),
    /** For `percent`: 1–100 % of the lines. */
    percent: integer(),
    /** For `amount`: this much off the lines, in minor units. */
    amountMinor: integer(),
    minLinesMinor: integer().notNull().default(0),
    startsAt: timestamp({ withTimezone: true, precision: 3 }),
    endsAt: timestamp({ withTimezone: true, precision: 3 }),
    maxUses: integer(),
    maxUsesPerCustomer: integer(),
    enabled: boolean().notNull().default(true),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("promo_codes_code").on(t.code),
    check("promo_codes_code_form", sql`${t.code} ~ '^[A-Z0-9]{2,32}$'`),
    check("promo_codes_kind_known", sql.raw(`kind in (${PROMO_CODE_KINDS.map((kind) => `'${kind}'`).join(", ")})`)),
    check(
      "promo_codes_value",
      sql.raw(
        `(kind = 'percent' and percent between 1 and 100 and amount_minor is null) or (kind = 'amount' and amount_minor > 0 and amount_minor <= ${MAX_PRICE_MINOR} and percent is null) or (kind = 'free_delivery' and percent is null and amount_minor is null)`,
      ),
    ),
    check("promo_codes_min_lines_range", sql.raw(`min_lines_minor >= 0 and min_lines_minor <= ${MAX_PRICE_MINOR}`)),
    check("promo_codes_dates", sql`${t.startsAt} is null or ${t.endsAt} is null or ${t.startsAt} < ${t.endsAt}`),
    check(
      "promo_codes_limits",
      sql`(${t.maxUses} is null or ${t.maxUses} >= 1) and (${t.maxUsesPerCustomer} is null or ${t.maxUsesPerCustomer} >= 1)`,
    ),
  ],
);

/**
 * What the back office changed in promo codes (who, when, the fields before and after), one row per change, never
 * updated or deleted (a trigger refuses it).
 */
export const PROMO_CODE_EVENT_TYPES = ["code_created", "code_edited"] as const;

export const promoCodeEvents = pgTable(
  "promo_code_events",
  {
    id: bigint({ mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    codeId: bigint({ mode: "number" })
      .notNull()
      .references(() => promoCodes.id),
    type: text({ enum: PROMO_CODE_EVENT_TYPES }).notNull(),
    /** The admin's e-mail. */
    by: text().notNull(),
    data: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    at: timestamp({ withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [index("promo_code_events_code_at").on(t.codeId, t.at)],
);

/**
 * Every code a client address tried that is no code of this shop, for the budget of wrong guesses
 * (lib/promo-codes/): counted per address over a window; pruned by the retention job.
 */
export const promoCodeMisses = pgTable(
  "promo_code_misses",
  {
    id: bigint({ mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    clientAddress: text().notNull(),
    at: timestamp({ withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [index("promo_code_misses_address_at").on(t.clientAddress, t.at)],
);

export type OrderRow = typeof orders.$inferSelect;
export type OrderLineRow = typeof orderLines.$inferSelect;
export type OrderEventRow = typeof orderEvents.$inferSelect;
export type AdminUserRow = typeof adminUsers.$inferSelect;
export type EmailOutboxRow = typeof emailOutbox.$inferSelect;
export type SmsOutboxRow = typeof smsOutbox.$inferSelect;
export type OrderLookupRow = typeof orderLookups.$inferSelect;
export type PaymentListRow = typeof paymentLists.$inferSelect;
export type ProductRow = typeof products.$inferSelect;
export type CatalogImportRow = typeof catalogImports.$inferSelect;
export type DeliveryZoneRow = typeof deliveryZones.$inferSelect;
export type StorePickupRow = typeof storePickup.$inferSelect;
export type CashOnDeliveryRow = typeof cashOnDelivery.$inferSelect;
export type CashBlockedPhoneRow = typeof cashBlockedPhones.$inferSelect;
export type PromoCodeRow = typeof promoCodes.$inferSelect;
export type RefundRow = typeof refunds.$inferSelect;
export type ReturnRow = typeof returns.$inferSelect;
