import "server-only";
import { and, asc, desc, eq, getTableColumns, inArray, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../db/client";
import { isStorableText } from "../db/text";
import { csvStream, keepAsText } from "../csv";
import { ORDER_ID } from "../ids";
import { tripoliDay, tripoliTime } from "../time";
import { normaliseLibyanMobile } from "../phone";
import {
  ORDER_FLAGS,
  ORDER_STATUSES,
  PAYMENT_METHODS,
  orderEvents,
  orderLines,
  orders,
  products,
  type OrderEventRow,
  type OrderFlag,
  type OrderLineRow,
  type OrderRow,
} from "../db/schema";
import {
  CASH_STATES,
  cashIn,
  confirmationOverdue,
  emailFailed,
  smsFailed,
  moneyReceived,
  paidBy,
  paidWithGateway,
  paidWithin,
  paymentCreated,
  REFUND_FILTERS,
  refundsIn,
  startedWithin,
  toFulfil,
  type RefundFilter,
} from "../dashboard/conditions";
import { dayRangeSchema, formatDayRange } from "../dashboard/period";
import { isLocale, type Locale } from "../i18n/config";
import { parseListQuery, searchTextSchema } from "../list-query";
import { toWireAmount } from "../money";
import { hasUnresolvedFlag, unresolvedFlags } from "../orders/flags";
import { effectiveStatus, effectiveStatusIs } from "../payment-page";
import { RESOLVED_BY_MARK } from "../orders/settle";
import { pendingRefundMinor as pendingRefundOfRow, type Order } from "../orders/store";
import { refundsOf, type RefundView } from "../refunds/refunds";
import { pendingRefundMinor } from "../refunds/rules";

/**
 * The back office's view of the orders: a filtered, searchable list a page at a time, one order with its history,
 * fulfilment, and the CSV export. Every function expects its caller to have checked the admin (lib/admin/auth.ts).
 */

/**
 * The list's filters: every status, plus "flagged" (a flag the merchant has not resolved: something to look at) and
 * "to fulfil"; and those the dashboard links to (lib/dashboard/conditions.ts): a reported payment unconfirmed past its
 * grace, an e-mail that failed, a text message failed or undelivered, a payment created (the customer reached the payment page); and where an order stands
 * after the sale: a refund to make, partly or wholly refunded, goods returned (`REFUND_FILTERS`; cancelled is a status).
 */
export const ORDER_FILTERS = [
  "to_fulfil",
  "flagged",
  "confirmation_overdue",
  "email_failed",
  "sms_failed",
  "payment_created",
  ...ORDER_STATUSES,
  ...REFUND_FILTERS,
] as const;

const isRefundFilter = (filter: string): filter is RefundFilter =>
  (REFUND_FILTERS as readonly string[]).includes(filter);

export const PAGE_SIZE = 50;

/**
 * The times a cursor may hold. JavaScript dates reach ±271821 years and PostgreSQL's timestamps do not (4713 BC to
 * 294276 AD): a cursor outside this range is unreadable, never a query the database refuses.
 */
const CURSOR_RANGE = { from: Date.UTC(1970, 0, 1), to: Date.UTC(9999, 11, 31) };

/** A position in the list: the created_at and id of an order, opaque in URLs. */
const cursorSchema = z
  .string()
  .max(200)
  .transform((value, ctx) => {
    const [at, id] = Buffer.from(value, "base64url").toString("utf8").split("|");
    const time = Date.parse(at ?? "");
    if (!id || !ORDER_ID.test(id) || !(time >= CURSOR_RANGE.from && time <= CURSOR_RANGE.to)) {
      ctx.addIssue({ code: "custom", message: "cursor" });
      return z.NEVER;
    }
    return { at: new Date(time), id };
  });

const encodeCursor = (order: Pick<OrderRow, "createdAt" | "id">) =>
  Buffer.from(`${order.createdAt.toISOString()}|${order.id}`).toString("base64url");

/**
 * The list's query string: `status`, `q` (an order id, a payment token, an e-mail or a phone number), and `before` or
 * `after` (a page's edge). A value that cannot be read is dropped and named in `ignored`, so the page can say so.
 */
const listQuerySchema = z.object({
  status: z.enum(ORDER_FILTERS).optional(),
  q: searchTextSchema(254).optional(),
  before: cursorSchema.optional(),
  after: cursorSchema.optional(),
  // The dashboard's links: orders paid, or started, within some Tripoli days (`2026-11-20..2026-11-26`), and paid
  // orders by the gateway the service says was used (`-`: none named).
  paid: dayRangeSchema.optional(),
  created: dayRangeSchema.optional(),
  gateway: z
    .string()
    .max(100)
    .refine((value) => isStorableText(value) && !/[\u0000-\u001f\u007f]/.test(value))
    .optional(),
  // Orders with this flag not yet resolved (the dashboard's "needs a look", by reason).
  flag: z.enum(ORDER_FLAGS).optional(),
  // How the order is paid for (online, cash on delivery), and where a cash order stands (lib/dashboard/conditions.ts).
  pay: z.enum(PAYMENT_METHODS).optional(),
  cash: z.enum(CASH_STATES).optional(),
  // Orders priced with this promo code (the home's discounts per code), in any case: codes are stored upper case.
  promo: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z0-9]{2,32}$/)
    .optional(),
});
export type OrderListQuery = z.infer<typeof listQuerySchema>;

/** Reads the list's query string; see {@link listQuerySchema}. */
export function parseOrderListQuery(params: Record<string, string | string[] | undefined>): {
  query: OrderListQuery;
  ignored: string[];
} {
  return parseListQuery(listQuerySchema, params);
}

/**
 * The dashboard's filters of a query as the query string writes them (`paid`, `created`, `gateway`, `flag`, `promo`).
 */
export function dashboardFilters({ paid, created, gateway, flag, promo }: OrderListQuery): Record<string, string> {
  return {
    ...(paid ? { paid: formatDayRange(paid) } : {}),
    ...(created ? { created: formatDayRange(created) } : {}),
    ...(gateway ? { gateway } : {}),
    ...(flag ? { flag } : {}),
    ...(promo ? { promo } : {}),
  };
}

/** What narrows the list (and the export): all of the query string but the page's edge. */
type ListFilter = Pick<
  OrderListQuery,
  "status" | "q" | "paid" | "created" | "gateway" | "flag" | "pay" | "cash" | "promo"
>;

/** The SQL condition for a filter and a search; the search picks its column by the shape of what was typed. */
function conditions({ status, q, paid, created, gateway, flag, pay, cash, promo }: ListFilter): SQL | undefined {
  const parts: (SQL | undefined)[] = [];
  if (status === "flagged") parts.push(hasUnresolvedFlag());
  else if (status === "to_fulfil") parts.push(toFulfil());
  else if (status === "confirmation_overdue") parts.push(confirmationOverdue(new Date()));
  else if (status === "email_failed") parts.push(emailFailed());
  else if (status === "sms_failed") parts.push(smsFailed());
  else if (status === "payment_created") parts.push(paymentCreated());
  else if (status && isRefundFilter(status)) parts.push(refundsIn(status));
  else if (status) parts.push(effectiveStatusIs(status));
  if (paid) parts.push(paidWithin(paid));
  if (created) parts.push(startedWithin(created));
  if (gateway) parts.push(and(moneyReceived(), paidWithGateway(gateway)));
  if (pay) parts.push(paidBy(pay));
  if (cash) parts.push(cashIn(cash));
  if (promo) parts.push(eq(orders.promoCode, promo));
  if (flag)
    parts.push(
      hasUnresolvedFlag(),
      sql`${flag} = any(${orders.flags}) and not (${flag} = any(${orders.resolvedFlags}))`,
    );
  if (q) {
    const phone = normaliseLibyanMobile(q);
    if (ORDER_ID.test(q)) parts.push(eq(orders.id, q));
    else if (q.includes("@")) parts.push(sql`lower(${orders.email}) = ${q.toLowerCase()}`);
    else if (phone) parts.push(eq(orders.phone, phone));
    else parts.push(eq(orders.paymentToken, q));
  }
  return and(...parts);
}

export interface OrderListPage {
  /** The page's orders, each with its refunds still to make summed (minor units). */
  orders: (OrderRow & { pendingRefundMinor: number })[];
  /** Cursors of the neighbouring pages, when there are any. */
  newer?: string;
  older?: string;
  /** How many orders match, and the amounts of the paid ones among them added up, in minor units. */
  count: number;
  totalMinor: number;
}

/**
 * One page of the list, newest first, by keyset on (created_at, id) so that any page is as fast as the first.
 * Statuses are effective ones (a pending payment whose page died reads, and filters, as expired). Reads only.
 */
export async function listOrders(db: Db, query: OrderListQuery): Promise<OrderListPage> {
  const where = conditions(query);
  const edge = query.after ?? query.before;
  const newerFirst = !query.after;
  const keyset =
    edge &&
    (newerFirst
      ? sql`(${orders.createdAt}, ${orders.id}) < (${edge.at}, ${edge.id})`
      : sql`(${orders.createdAt}, ${orders.id}) > (${edge.at}, ${edge.id})`);
  const order = newerFirst ? [desc(orders.createdAt), desc(orders.id)] : [asc(orders.createdAt), asc(orders.id)];
  const [rows, [totals]] = await Promise.all([
    // With the refunds still to make, for the list's badge ("refund to make").
    db
      .select({ ...getTableColumns(orders), pendingRefundMinor: pendingRefundOfRow })
      .from(orders)
      .where(and(where, keyset))
      .orderBy(...order)
      .limit(PAGE_SIZE + 1),
    // Only paid orders are money, as the home counts sales (an order cancelled after it was paid was paid): an expired,
    // unconfirmed or unpaid cancelled order's amount was never received.
    db
      .select({
        count: sql<number>`count(*)`.mapWith(Number),
        totalMinor: sql<number>`coalesce(sum(${orders.amountMinor}) filter (where ${moneyReceived()}), 0)`.mapWith(
          Number,
        ),
      })
      .from(orders)
      .where(where),
  ]);
  const more = rows.length > PAGE_SIZE;
  const page = newerFirst ? rows.slice(0, PAGE_SIZE) : rows.slice(0, PAGE_SIZE).reverse();
  const first = page[0];
  const last = page.at(-1);
  return {
    orders: page.map((order) => ({ ...order, status: effectiveStatus(order) })),
    newer: first && (query.after ? more : Boolean(query.before)) ? encodeCursor(first) : undefined,
    older: last && (query.after || more) ? encodeCursor(last) : undefined,
    count: totals?.count ?? 0,
    totalMinor: totals?.totalMinor ?? 0,
  };
}

/** One order as the back office's order page shows it. */
export type AdminOrder = Omit<Order, "lines"> & {
  /** Its refunds, oldest first, each with its lines (lib/refunds/refunds.ts). */
  refunds: RefundView[];
  /** Its lines as sold, each with its product's names now (`null`: no longer in the catalogue). */
  lines: (OrderLineRow & { productName: Record<Locale, string> | null })[];
  events: OrderEventRow[];
  payment: PaymentRecord | null;
  resolutions: Map<OrderFlag, FlagResolution>;
};

/**
 * One order for the back office: its lines as sold, its whole history (oldest event first), its payment as recorded
 * ({@link paymentRecord}), who resolved its flags ({@link flagResolutions}), its refunds (and those still to make,
 * summed: what lib/refunds/rules.ts's `afterSaleNow` reads), and its effective status. Reads only.
 */
export async function findOrderForAdmin(db: Db, id: string): Promise<AdminOrder | undefined> {
  if (!ORDER_ID.test(id)) return undefined;
  const order = await db.query.orders.findFirst({ where: eq(orders.id, id) });
  if (!order) return undefined;
  const [lines, events, refunded] = await Promise.all([
    db
      .select({
        ...getTableColumns(orderLines),
        // The product's names now, to name the line in the reader's language (lineNameIn).
        productName: sql<Record<Locale, string> | null>`case when ${products.id} is null then null
          else json_build_object('en', ${products.nameEn}, 'ar', ${products.nameAr}) end`,
      })
      .from(orderLines)
      .leftJoin(products, eq(products.id, orderLines.productId))
      .where(eq(orderLines.orderId, id))
      .orderBy(asc(orderLines.position)),
    db.select().from(orderEvents).where(eq(orderEvents.orderId, id)).orderBy(asc(orderEvents.id)),
    refundsOf(db, id),
  ]);
  return {
    ...order,
    status: effectiveStatus(order),
    lines,
    events,
    refunds: refunded,
    pendingRefundMinor: pendingRefundMinor(refunded),
    payment: paymentRecord(order, events),
    resolutions: flagResolutions(order, events),
  };
}

/**
 * A line's product name in the reader's language: the catalogue's name in `locale` when the product is still sold
 * under the very name it was sold by (in the order's language, `soldIn`); else the name as sold, which is the record.
 * @param line its name as sold, and its product's names now (`null`: no longer in the catalogue).
 */
export function lineNameIn(
  line: Pick<OrderLineRow, "name"> & { productName: Record<Locale, string> | null },
  soldIn: string,
  locale: Locale,
): string {
  const now = line.productName;
  return now && isLocale(soldIn) && now[soldIn] === line.name ? now[locale] : line.name;
}

/** How an order became paid, as its history records it. */
interface PaymentRecord {
  /** When the order became paid. */
  at: Date;
  /** `webhook`: the service's verified delivery; `mark`: an admin's mark as paid (the order page or a payment list). */
  by: "webhook" | "mark";
  /**
   * The gateway the service says the customer paid with (`orders.paid_gateway`: the first verified delivery for the
   * paid order that named one; a customer who picks it on the payment page leaves `paymentGateway` empty), also when a
   * mark made it paid.
   */
  gateway: string | null;
  /** The transaction reference of the move to paid: the delivery's `transaction_id`, or the mark's reference. */
  reference: string | null;
}

const text = (value: unknown) => (typeof value === "string" && value ? value : null);

/**
 * The payment of an order as its row and events record it: the move to paid (the verified webhook's delivery, or an
 * admin's mark) gives its time and reference, the row the gateway it was paid with. `null` while nothing made it paid.
 * @param events the order's events, oldest first (only those with `data.to` = `paid` matter).
 */
function paymentRecord(
  order: Pick<OrderRow, "paidGateway">,
  events: readonly Pick<OrderEventRow, "type" | "data" | "at">[],
): PaymentRecord | null {
  const move = events.find(
    ({ type, data }) =>
      data.to === "paid" &&
      data.from !== "paid" &&
      (type === "marked_paid" || (type === "webhook_received" && data.verified === true)),
  );
  if (!move) return null;
  const mark = move.type === "marked_paid";
  return {
    at: move.at,
    by: mark ? "mark" : "webhook",
    gateway: order.paidGateway,
    reference: text(mark ? move.data.reference : move.data.transactionId),
  };
}

/** Who resolved a flag, when, and why: the admin's note, or the mark as paid (with its reference) that resolved it. */
interface FlagResolution {
  at: Date;
  by: string;
  note: string | null;
  /** The dashboard's reference, when a mark as paid resolved it. */
  reference: string | null;
}

/**
 * Who resolved each of an order's resolved flags: the latest `flag_resolved` event for it, or the mark as paid that
 * resolved it (its event lists them in `resolved`; a mark made before that was recorded resolved
 * {@link RESOLVED_BY_MARK}, as the migration that introduced resolution assumed). A flag without such an event is left
 * out.
 */
function flagResolutions(
  order: Pick<OrderRow, "resolvedFlags">,
  events: readonly Pick<OrderEventRow, "type" | "data" | "at">[],
): Map<OrderFlag, FlagResolution> {
  const found = new Map<OrderFlag, FlagResolution>();
  for (const { type, data, at } of events) {
    const by = text(data.by) ?? "?";
    if (type === "flag_resolved" && isFlag(data.flag)) {
      found.set(data.flag, { at, by, note: text(data.note), reference: null });
    } else if (type === "marked_paid" && data.to === "paid" && data.from !== "paid") {
      const resolved = Array.isArray(data.resolved) ? data.resolved : RESOLVED_BY_MARK;
      for (const flag of resolved)
        if (isFlag(flag)) found.set(flag, { at, by, note: text(data.note), reference: text(data.reference) });
    }
  }
  return new Map([...found].filter(([flag]) => order.resolvedFlags.includes(flag)));
}

function isFlag(value: unknown): value is OrderFlag {
  return (ORDER_FLAGS as readonly unknown[]).includes(value);
}

const CSV_COLUMNS: readonly string[] = [
  "order",
  "created_at",
  "status",
  "flags",
  "resolved_flags",
  "fulfilled_at",
  "amount",
  "currency",
  "full_name",
  "email",
  "phone",
  "gateway",
  "paid_with",
  "paid_at",
  "transaction_reference",
  "payment_token",
  "lines",
  // Appended, so a spreadsheet built on the columns before keeps reading them where they were.
  "fulfilment",
  "delivery_method",
  "delivery_city",
  "delivery_address",
  "delivery_landmark",
  "second_phone",
  "delivery_fee",
  "payment_method",
  "collected",
  "collected_by",
  "collected_at",
  "promo_code",
  "discount",
  "refunded",
  "refund_references",
  "cancel_reason",
];

/** The export's file name: `orders-<the merchant's day>.csv`. */
export function exportFileName(now = new Date()): string {
  return `orders-${tripoliDay(now)}.csv`;
}

/** Orders read per query of the export: its memory is one batch's, whatever the number of orders. */
const EXPORT_BATCH = 250;

/**
 * The filtered list as CSV, every matching order (not one page), oldest first, streamed as it is read (lib/csv.ts,
 * `csvStream`: a byte order mark, every cell quoted and guarded against formulas), to open as it is in Excel and
 * LibreOffice in either language.
 * Money is the decimal string of the wire (`103.75`); times are Libya's clock, `2026-11-25 21:30:00`, which
 * spreadsheets read as a date and time ({@link tripoliTime}); phone numbers are kept text, leading `0` and all
 * (`="0925551234"`, lib/csv.ts `keepAsText`). `flags` are those still to look at, `resolved_flags` those dealt with; `gateway` is
 * the one chosen at checkout, `paid_with` the one the service says was used; the payment's time and transaction
 * reference are those of the event that made the order paid ({@link paymentRecord}). Then the goods' way: the step it
 * is at (`fulfilment`), how it is delivered (`delivery` or `pickup`; empty: nothing to deliver), the city (its English
 * name as sold), the area and street, the landmark, the second phone, and the delivery fee (a decimal, part of
 * `amount`; empty unless delivered to an address). Then the way it is paid for (`online` or `cash`) and, for a cash
 * order whose cash the courier handed over, how much (a decimal), the admin who recorded it and when (Libya's clock);
 * empty otherwise. Last, the promo code the order was priced with (upper case) and what it took off (a decimal,
 * already subtracted from `amount`: `amount` is what the customer pays); both empty without a code. After those, what
 * was refunded (a decimal, the refunds recorded as made; `0.00` when none), the references they were recorded with
 * (`; `-joined, oldest first), and why the merchant cancelled the order (a reason of CANCEL_REASONS; empty unless the
 * merchant cancelled it).
 * @param done called once when the stream ends (read whole, failed, or cancelled by the reader).
 */
export function exportOrdersCsv(db: Db, query: ListFilter, done?: (error?: Error) => void): ReadableStream<Uint8Array> {
  return csvStream(CSV_COLUMNS, exportRows(db, query), { done });
}

/**
 * The export's rows a batch at a time, read by keyset in batches of {@link EXPORT_BATCH}, each batch's queries one after the other: an
 * export holds at most one of the pool's connections at a time, so checkouts keep the others. The next batch is read
 * only when the reader has taken the last one (the stream's backpressure).
 */
async function* exportRows(db: Db, query: ListFilter): AsyncGenerator<string[][]> {
  const where = conditions(query);
  let edge: { at: Date; id: string } | undefined;
  for (;;) {
    const keyset = edge && sql`(${orders.createdAt}, ${orders.id}) > (${edge.at}, ${edge.id})`;
    const batch = await db
      .select({
        ...getTableColumns(orders),
        // The references of the refunds recorded as made, oldest first, read with the order (tables named: a column in
        // a field's subquery is written without its table).
        refundReferences: sql<string>`coalesce((select string_agg(refunds.reference, '; ' order by refunds.id) from refunds where refunds.order_id = orders.id and refunds.status = 'refunded'), '')`,
      })
      .from(orders)
      .where(and(where, keyset))
      .orderBy(asc(orders.createdAt), asc(orders.id))
      .limit(EXPORT_BATCH);
    if (batch.length === 0) return;
    const ids = batch.map((order) => order.id);
    const lines = await db
      .select()
      .from(orderLines)
      .where(inArray(orderLines.orderId, ids))
      .orderBy(asc(orderLines.orderId), asc(orderLines.position));
    // Only the moves to paid: what paymentRecord reads.
    const moves = await db
      .select({ orderId: orderEvents.orderId, type: orderEvents.type, data: orderEvents.data, at: orderEvents.at })
      .from(orderEvents)
      .where(
        and(
          inArray(orderEvents.orderId, ids),
          inArray(orderEvents.type, ["webhook_received", "marked_paid"]),
          sql`${orderEvents.data}->>'to' = 'paid'`,
        ),
      )
      .orderBy(asc(orderEvents.id));
    const linesOf = groupByOrder(lines);
    const movesOf = groupByOrder(moves);
    yield batch.map((order) => {
      const payment = paymentRecord(order, movesOf.get(order.id) ?? []);
      return [
        order.id,
        tripoliTime(order.createdAt),
        effectiveStatus(order),
        unresolvedFlags(order).join(" "),
        order.flags.filter((flag) => order.resolvedFlags.includes(flag)).join(" "),
        order.fulfilledAt ? tripoliTime(order.fulfilledAt) : "",
        toWireAmount(order.amountMinor),
        order.currency,
        order.fullName ?? "",
        order.email ?? "",
        keepAsText(order.phone ?? ""),
        order.paymentGateway ?? "",
        payment?.gateway ?? "",
        payment ? tripoliTime(payment.at) : "",
        payment?.reference ?? "",
        order.paymentToken ?? "",
        (linesOf.get(order.id) ?? []).map((line) => `${line.quantity} × ${line.name}`).join("; "),
        order.fulfilment ?? "",
        order.deliveryMethod ?? "",
        order.deliveryCityEn ?? "",
        order.deliveryAddress ?? "",
        order.deliveryLandmark ?? "",
        keepAsText(order.secondPhone ?? ""),
        order.deliveryMethod === "delivery" ? toWireAmount(order.deliveryFeeMinor) : "",
        order.paymentMethod,
        order.collectedMinor === null ? "" : toWireAmount(order.collectedMinor),
        order.collectedBy ?? "",
        // A cash order is paid when its cash is collected: paid_at is the collection's time.
        order.collectedMinor !== null && order.paidAt ? tripoliTime(order.paidAt) : "",
        order.promoCode ?? "",
        order.promoCode === null ? "" : toWireAmount(order.discountMinor),
        toWireAmount(order.refundedMinor),
        order.refundReferences,
        order.cancelReason ?? "",
      ];
    });
    const last = batch.at(-1)!;
    edge = { at: last.createdAt, id: last.id };
  }
}

/** Rows by their order's id, each order's in the rows' order (Map.groupBy arrives with Node 21). */
function groupByOrder<T extends { orderId: string | null }>(rows: readonly T[]): Map<string | null, T[]> {
  const groups = new Map<string | null, T[]>();
  for (const row of rows) groups.set(row.orderId, [...(groups.get(row.orderId) ?? []), row]);
  return groups;
}
