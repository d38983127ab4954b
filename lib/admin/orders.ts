import "server-only";
import { stringify } from "csv-stringify/sync";
import { and, asc, desc, eq, inArray, isNull, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import { normaliseLibyanMobile } from "../checkout/form";
import type { Db } from "../db/client";
import { isStorableText } from "../db/text";
import { ORDER_STATUSES, orderEvents, orderLines, orders, type OrderEventRow, type OrderRow } from "../db/schema";
import { toWireAmount } from "../money";
import { effectiveStatus, effectiveStatusIs } from "../orders/payment-page";
import { ORDER_ID, type Order } from "../orders/store";

/**
 * The back office's view of the orders: a filtered, searchable list a page at a time, one order with its history,
 * fulfilment, and the CSV export. Every function expects its caller to have checked the admin (lib/admin/auth.ts).
 */

/** The list's filters: every status, plus "flagged" (something for the merchant to look at) and "to fulfil". */
export const ORDER_FILTERS = ["to_fulfil", "flagged", ...ORDER_STATUSES] as const;

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
  // No order holds a control character, and PostgreSQL refuses a NUL outright: such a search is unreadable.
  q: z
    .string()
    .trim()
    .max(254)
    .refine((value) => isStorableText(value) && !/[\u0000-\u001f\u007f]/.test(value))
    .optional(),
  before: cursorSchema.optional(),
  after: cursorSchema.optional(),
});
export type OrderListQuery = z.infer<typeof listQuerySchema>;

/** Reads the list's query string; see {@link listQuerySchema}. */
export function parseOrderListQuery(params: Record<string, string | string[] | undefined>): {
  query: OrderListQuery;
  ignored: string[];
} {
  const query: Record<string, unknown> = {};
  const ignored: string[] = [];
  for (const key of ["status", "q", "before", "after"] as const) {
    const value = params[key];
    if (value === undefined || value === "") continue;
    const parsed = listQuerySchema.shape[key].safeParse(Array.isArray(value) ? value[0] : value);
    if (parsed.success && parsed.data !== undefined && parsed.data !== "") query[key] = parsed.data;
    else ignored.push(key);
  }
  return { query: query as OrderListQuery, ignored };
}

/** The SQL condition for a filter and a search; the search picks its column by the shape of what was typed. */
function conditions({ status, q }: Pick<OrderListQuery, "status" | "q">): SQL | undefined {
  const parts: (SQL | undefined)[] = [];
  if (status === "flagged") parts.push(sql`cardinality(${orders.flags}) > 0`);
  else if (status === "to_fulfil") parts.push(and(eq(orders.status, "paid"), isNull(orders.fulfilledAt)));
  else if (status) parts.push(effectiveStatusIs(status));
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
  orders: OrderRow[];
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
    db
      .select()
      .from(orders)
      .where(and(where, keyset))
      .orderBy(...order)
      .limit(PAGE_SIZE + 1),
    // Only paid orders are money: a cancelled, expired or unconfirmed order's amount was never received.
    db
      .select({
        count: sql<number>`count(*)`.mapWith(Number),
        totalMinor:
          sql<number>`coalesce(sum(${orders.amountMinor}) filter (where ${orders.status} = 'paid'), 0)`.mapWith(Number),
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

/**
 * One order for the back office: its lines as sold, its whole history (oldest event first), {@link paidWith}, and its
 * effective status. Reads only.
 */
export async function findOrderForAdmin(
  db: Db,
  id: string,
): Promise<(Order & { events: OrderEventRow[]; paidWith: string | null }) | undefined> {
  if (!ORDER_ID.test(id)) return undefined;
  const order = await db.query.orders.findFirst({ where: eq(orders.id, id) });
  if (!order) return undefined;
  const [lines, events] = await Promise.all([
    db.select().from(orderLines).where(eq(orderLines.orderId, id)).orderBy(asc(orderLines.position)),
    db.select().from(orderEvents).where(eq(orderEvents.orderId, id)).orderBy(asc(orderEvents.id)),
  ]);
  return { ...order, status: effectiveStatus(order), lines, events, paidWith: paidWith(events) };
}

/**
 * The gateway the payment service says the customer paid with: the one named by the verified delivery that made the
 * order paid. A customer who picks the gateway on the payment page leaves the order's `paymentGateway` empty; only
 * the webhook tells. `null` when no such delivery named one.
 */
export function paidWith(events: readonly OrderEventRow[]): string | null {
  for (const { type, data } of events) {
    if (
      type === "webhook_received" &&
      data.verified === true &&
      data.to === "paid" &&
      typeof data.gateway === "string" &&
      data.gateway
    )
      return data.gateway;
  }
  return null;
}

/**
 * A spreadsheet cell that starts with `=`, `+`, `-`, `@`, a tab or a carriage return is a formula to Excel and
 * LibreOffice; a leading apostrophe keeps it text (OWASP, "CSV injection"). Customer names and e-mails are typed by
 * anyone, so every text cell goes through this.
 */
export function neutraliseFormula(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

const CSV_COLUMNS = [
  "order",
  "created_at",
  "status",
  "flags",
  "fulfilled_at",
  "amount",
  "currency",
  "full_name",
  "email",
  "phone",
  "gateway",
  "payment_token",
  "lines",
];

/**
 * The filtered list as CSV, every matching order (not one page), oldest first, in batches so memory stays flat.
 * Money is the decimal string of the wire (`103.75`); times are ISO 8601 in UTC.
 */
export async function* exportOrdersCsv(db: Db, query: Pick<OrderListQuery, "status" | "q">): AsyncGenerator<string> {
  yield stringify([CSV_COLUMNS]);
  const where = conditions(query);
  let edge: { at: Date; id: string } | undefined;
  for (;;) {
    const keyset = edge && sql`(${orders.createdAt}, ${orders.id}) > (${edge.at}, ${edge.id})`;
    const batch = await db
      .select()
      .from(orders)
      .where(and(where, keyset))
      .orderBy(asc(orders.createdAt), asc(orders.id))
      .limit(1_000);
    if (batch.length === 0) return;
    const lines = await db
      .select()
      .from(orderLines)
      .where(
        inArray(
          orderLines.orderId,
          batch.map((order) => order.id),
        ),
      )
      .orderBy(asc(orderLines.orderId), asc(orderLines.position));
    const linesOf = new Map<string, typeof lines>();
    for (const line of lines) linesOf.set(line.orderId, [...(linesOf.get(line.orderId) ?? []), line]);
    yield stringify(
      batch.map((order) =>
        [
          order.id,
          order.createdAt.toISOString(),
          effectiveStatus(order),
          order.flags.join(" "),
          order.fulfilledAt?.toISOString() ?? "",
          toWireAmount(order.amountMinor),
          order.currency,
          order.fullName ?? "",
          order.email ?? "",
          order.phone ?? "",
          order.paymentGateway ?? "",
          order.paymentToken ?? "",
          (linesOf.get(order.id) ?? []).map((line) => `${line.quantity} × ${line.name}`).join("; "),
        ].map((cell) => neutraliseFormula(cell)),
      ),
    );
    const last = batch.at(-1)!;
    edge = { at: last.createdAt, id: last.id };
  }
}
