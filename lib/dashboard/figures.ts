import "server-only";
import { and, asc, count, desc, eq, gte, isNotNull, lt, sql, type SQL } from "drizzle-orm";
import { stockAlerts, type StockAlert } from "../catalog/back-office";
import type { Db } from "../db/client";
import {
  orders,
  refunds,
  smsDays,
  type DeliveryMethod,
  type OrderFlag,
  type OrderStatus,
  type PaymentMethodName,
} from "../db/schema";
import { effectiveStatus, effectiveStatusIs } from "../payment-page";
import {
  cashIn,
  confirmationOverdue,
  emailFailed,
  paidBy,
  paidWithin,
  paymentCreated,
  smsFailed,
  startedWithin,
  toFulfil,
} from "./conditions";
import { TIME_ZONE, tripoliDay } from "../time";
import { periodBounds, type Period, type PeriodBounds } from "./period";

/**
 * The merchant's home (app/admin/page.tsx): what sold, what to ship, what needs a look. Each figure is one SQL
 * aggregate over indexed columns (lib/db/schema.ts: `orders_paid_at`, `orders_to_fulfil`,
 * `orders_needing_attention_created`, `orders_created`, `email_outbox_failed`), never orders loaded into memory; the
 * figures are read in parallel. Money is integer minor units (1/100 LYD). A sale is a paid order, counted on the
 * Tripoli day it became paid (`orders.paid_at`); cancelled, expired, failed and unconfirmed orders are never sales. A
 * cash-on-delivery order becomes paid when the merchant records the cash the courier collected: it is a sale that day,
 * never when it was placed, confirmed or delivered; until then a confirmed one is "cash to collect". A sale stays a
 * sale whatever happens after: an order the merchant cancelled once paid was sold, and its refund is a refund, counted
 * on the day it was recorded as made (`refunds.recorded_at`); net sales are the period's sales less its refunds.
 * Every function expects its caller to have checked the admin (lib/admin/auth.ts). Reads only.
 */

/** Paid sales over some days: their sum, how many orders, and the average order (rounded to the minor unit). */
export interface Sales {
  salesMinor: number;
  orders: number;
  /** `salesMinor / orders` rounded half up; 0 when no order was paid. */
  averageMinor: number;
}

/** One Tripoli day's paid sales. */
export interface DaySales {
  day: string;
  salesMinor: number;
  orders: number;
}

/** Money in, or to come in: how much (minor units) in how many orders. */
interface Takings {
  amountMinor: number;
  orders: number;
}

/**
 * The period's sales by the way they were paid — online (the payment service), or cash the courier collected (by the
 * day it was collected) — and the cash still to collect now: the confirmed cash orders' totals, whatever the period.
 */
interface MoneyByWay {
  online: Takings;
  cashCollected: Takings;
  cashToCollect: Takings;
}

/**
 * An order waiting for its goods to reach the customer: a paid one (`since` is when it was paid), or a cash order the
 * merchant confirmed (`since` is when it was placed; its cash is collected at the door).
 */
interface OrderToFulfil {
  id: string;
  way: PaymentMethodName;
  since: Date;
  amountMinor: number;
  fullName: string | null;
  deliveryMethod: DeliveryMethod | null;
}

/** A cash order waiting for the merchant's call, which expires at `confirmBy` if nobody calls. */
interface OrderToConfirm {
  id: string;
  confirmBy: Date;
  amountMinor: number;
  fullName: string | null;
  deliveryMethod: DeliveryMethod | null;
}

/**
 * Why an order needs a look: a flag not yet resolved, a reported payment still unconfirmed past the grace, a failed
 * e-mail, a text message failed or undelivered.
 */
export type AttentionReason = OrderFlag | "confirmation_overdue" | "email_failed" | "sms_failed";

interface OrderToLookAt {
  id: string;
  createdAt: Date;
  amountMinor: number;
  status: OrderStatus;
  reasons: AttentionReason[];
}

/**
 * Paid orders of the period by the way they were paid and, online, by the gateway the service says was used (`null`:
 * none named, and always for cash).
 */
interface GatewayShare {
  way: PaymentMethodName;
  gateway: string | null;
  orders: number;
  salesMinor: number;
}

/**
 * The checkout funnel of the orders started in the period: how many reached the payment page (a payment created), and
 * where they are now (statuses as pages show them: a pending payment whose page died is expired). `open` are still
 * on their way (started, pending, or reported paid and awaiting confirmation).
 */
interface Funnel {
  started: number;
  paymentCreated: number;
  paid: number;
  cancelled: number;
  expired: number;
  failed: number;
  open: number;
}

/**
 * What promo codes gave in the period: the discounts of the orders paid in it (by `paid_at`, as sales), in all and
 * per code (the code as the order carries it). Sales are already net of them (`amount_minor` is what was paid).
 */
interface Discounts {
  discountMinor: number;
  orders: number;
  /** Per code, the largest discount total first. */
  codes: { code: string; orders: number; discountMinor: number }[];
}

/**
 * The period's refunds (lib/refunds/): those recorded as made in it (by `recorded_at`, whenever their order was paid),
 * how many, and the period's sales less them (`netSalesMinor`, which may be below 0 in a period of returns).
 */
interface RefundFigures {
  refundedMinor: number;
  refundCount: number;
  netSalesMinor: number;
}

/**
 * Refunds still to make now, whatever the period (pending: to make on the service's dashboard, or in cash): how many,
 * how much, and the orders of the oldest ones (their ids, oldest refund first, each once).
 */
interface RefundsToMake {
  count: number;
  minor: number;
  orders: string[];
}

export interface Dashboard {
  bounds: PeriodBounds;
  sales: { current: Sales; previous: Sales };
  refunds: RefundFigures;
  refundsToMake: RefundsToMake;
  money: MoneyByWay;
  /** Every day of the period, oldest first, zero on a day with no sale. */
  days: DaySales[];
  /** Cash orders waiting for the merchant's call, the nearest deadline first: the first thing to do. */
  toConfirm: { count: number; oldest: OrderToConfirm[] };
  toFulfil: { count: number; oldest: OrderToFulfil[] };
  attention: { count: number; byReason: Partial<Record<AttentionReason, number>>; orders: OrderToLookAt[] };
  /**
   * When today's cap on text messages (SMS_DAILY_LIMIT, in Tripoli days) refused a message, or `null`: messages wait
   * for tomorrow (lib/sms/daily-limit.ts).
   */
  smsLimitReachedAt: Date | null;
  stock: { soldOut: number; low: number; products: StockAlert[] };
  gateways: GatewayShare[];
  discounts: Discounts;
  funnel: Funnel;
}

/** How many orders each list on the home shows (their counts are of all). */
const LIST_LENGTH = 5;

/**
 * Everything the home shows for `period` at `now`, in parallel, each part an aggregate or a few rows of an index.
 * @throws the database's error when it cannot read.
 */
export async function loadDashboard(db: Db, period: Period, now = new Date()): Promise<Dashboard> {
  const bounds = periodBounds(period, now);
  const [
    { sales, money },
    refunded,
    refundsToMake,
    days,
    toConfirm,
    fulfil,
    attention,
    stock,
    gateways,
    discounts,
    funnel,
    smsLimitReachedAt,
  ] = await Promise.all([
    salesFigures(db, bounds),
    refundsWithin(db, bounds),
    refundsStillToMake(db),
    salesByDay(db, bounds),
    ordersToConfirm(db),
    ordersToFulfil(db),
    ordersToLookAt(db, now),
    stockAlerts(db, { limit: LIST_LENGTH, now }),
    gatewayShares(db, bounds),
    discountsGiven(db, bounds),
    checkoutFunnel(db, bounds, now),
    smsLimitReachedOn(db, now),
  ]);
  const refundFigures = { ...refunded, netSalesMinor: sales.current.salesMinor - refunded.refundedMinor };
  return {
    bounds,
    sales,
    refunds: refundFigures,
    refundsToMake,
    money,
    days,
    toConfirm,
    toFulfil: fulfil,
    attention,
    smsLimitReachedAt,
    stock,
    gateways,
    discounts,
    funnel,
  };
}

/** The refunds recorded as made within the current period, over the partial index `refunds_recorded`. */
async function refundsWithin(
  db: Db,
  { current }: PeriodBounds,
): Promise<Pick<RefundFigures, "refundedMinor" | "refundCount">> {
  const [row] = await db
    .select({
      refundedMinor: sql<number>`coalesce(sum(${refunds.amountMinor}), 0)`.mapWith(Number),
      refundCount: count(),
    })
    .from(refunds)
    .where(
      and(eq(refunds.status, "refunded"), gte(refunds.recordedAt, current.start), lt(refunds.recordedAt, current.end)),
    );
  return { refundedMinor: row?.refundedMinor ?? 0, refundCount: row?.refundCount ?? 0 };
}

/** The pending refunds, over the partial index `refunds_pending`: their count and sum, and the oldest ones' orders. */
async function refundsStillToMake(db: Db): Promise<RefundsToMake> {
  const pending = eq(refunds.status, "pending");
  const [[totals], oldest] = await Promise.all([
    db
      .select({ count: count(), minor: sql<number>`coalesce(sum(${refunds.amountMinor}), 0)`.mapWith(Number) })
      .from(refunds)
      .where(pending),
    db
      .select({ orderId: refunds.orderId })
      .from(refunds)
      .where(pending)
      .orderBy(asc(refunds.createdAt), asc(refunds.id))
      .limit(LIST_LENGTH * 2),
  ]);
  return {
    count: totals?.count ?? 0,
    minor: totals?.minor ?? 0,
    orders: [...new Set(oldest.map((row) => row.orderId))].slice(0, LIST_LENGTH),
  };
}

const sales = (salesMinor: number, orderCount: number): Sales => ({
  salesMinor,
  orders: orderCount,
  averageMinor: orderCount === 0 ? 0 : Math.round(salesMinor / orderCount),
});

/**
 * Paid sales of the period and of the one before it, and the period's by way of paying, in one pass over
 * `orders_paid_at`; and the cash still to collect, over `orders_cash_confirmed`.
 */
async function salesFigures(db: Db, { current, previous }: PeriodBounds): Promise<Pick<Dashboard, "sales" | "money">> {
  const inCurrent = sql`${orders.paidAt} >= ${current.start}`;
  const summed = (condition: SQL) =>
    sql<number>`coalesce(sum(${orders.amountMinor}) filter (where ${condition}), 0)`.mapWith(Number);
  const counted = (condition: SQL) => sql<number>`count(*) filter (where ${condition})`.mapWith(Number);
  const online = and(inCurrent, paidBy("online"))!;
  const cash = and(inCurrent, paidBy("cash"))!;
  const [[row], [toCollect]] = await Promise.all([
    db
      .select({
        currentSales: sql<number>`coalesce(sum(${orders.amountMinor}) filter (where ${inCurrent}), 0)`.mapWith(Number),
        currentOrders: sql<number>`count(*) filter (where ${inCurrent})`.mapWith(Number),
        previousSales: sql<number>`coalesce(sum(${orders.amountMinor}) filter (where not ${inCurrent}), 0)`.mapWith(
          Number,
        ),
        previousOrders: sql<number>`count(*) filter (where not ${inCurrent})`.mapWith(Number),
        onlineSales: summed(online),
        onlineOrders: counted(online),
        cashSales: summed(cash),
        cashOrders: counted(cash),
      })
      .from(orders)
      .where(paidWithin({ start: previous.start, end: current.end })),
    db
      .select({
        amountMinor: sql<number>`coalesce(sum(${orders.amountMinor}), 0)`.mapWith(Number),
        orders: count(),
      })
      .from(orders)
      .where(cashIn("confirmed")),
  ]);
  return {
    sales: {
      current: sales(row?.currentSales ?? 0, row?.currentOrders ?? 0),
      previous: sales(row?.previousSales ?? 0, row?.previousOrders ?? 0),
    },
    money: {
      online: { amountMinor: row?.onlineSales ?? 0, orders: row?.onlineOrders ?? 0 },
      cashCollected: { amountMinor: row?.cashSales ?? 0, orders: row?.cashOrders ?? 0 },
      cashToCollect: { amountMinor: toCollect?.amountMinor ?? 0, orders: toCollect?.orders ?? 0 },
    },
  };
}

/** Paid sales per Tripoli day of the period, every day present. */
async function salesByDay(db: Db, { current, days }: PeriodBounds): Promise<DaySales[]> {
  const day = sql<string>`to_char(${orders.paidAt} at time zone ${sql.raw(`'${TIME_ZONE}'`)}, 'YYYY-MM-DD')`;
  const rows = await db
    .select({
      day,
      salesMinor: sql<number>`sum(${orders.amountMinor})`.mapWith(Number),
      orders: count(),
    })
    .from(orders)
    .where(paidWithin(current))
    .groupBy(day);
  const byDay = new Map(rows.map((row) => [row.day, row]));
  return days.map((d) => ({ day: d, salesMinor: byDay.get(d)?.salesMinor ?? 0, orders: byDay.get(d)?.orders ?? 0 }));
}

/**
 * How many cash orders wait for the merchant's call, and those whose deadline comes first (the partial index
 * `orders_cash_to_confirm`, in order, a few rows).
 */
async function ordersToConfirm(db: Db): Promise<Dashboard["toConfirm"]> {
  const [[counted], rows] = await Promise.all([
    db.select({ n: count() }).from(orders).where(cashIn("to_confirm")),
    db
      .select({
        id: orders.id,
        confirmBy: orders.confirmBy,
        amountMinor: orders.amountMinor,
        fullName: orders.fullName,
        deliveryMethod: orders.deliveryMethod,
      })
      .from(orders)
      .where(cashIn("to_confirm"))
      .orderBy(asc(orders.confirmBy), asc(orders.id))
      .limit(LIST_LENGTH),
  ]);
  return {
    count: counted?.n ?? 0,
    // A placed order always has its deadline (the database's check `orders_placed_has_deadline`).
    oldest: rows.map((order) => ({ ...order, confirmBy: order.confirmBy ?? new Date(0) })),
  };
}

/**
 * How many orders wait for their goods to reach the customer ({@link toFulfil}), and the oldest among them: the paid
 * ones by when they were paid (the partial index `orders_to_fulfil`, in order) and the confirmed cash orders by when
 * they were placed (`orders_cash_confirmed`), a few rows of each, merged.
 */
async function ordersToFulfil(db: Db): Promise<Dashboard["toFulfil"]> {
  const columns = {
    id: orders.id,
    way: orders.paymentMethod,
    paidAt: orders.paidAt,
    createdAt: orders.createdAt,
    amountMinor: orders.amountMinor,
    fullName: orders.fullName,
    deliveryMethod: orders.deliveryMethod,
  };
  const [[counted], paid, confirmed] = await Promise.all([
    db.select({ n: count() }).from(orders).where(toFulfil()),
    db
      .select(columns)
      .from(orders)
      .where(and(toFulfil(), eq(orders.status, "paid")))
      .orderBy(asc(orders.paidAt), asc(orders.id))
      .limit(LIST_LENGTH),
    db
      .select(columns)
      .from(orders)
      .where(and(toFulfil(), eq(orders.status, "confirmed")))
      .orderBy(asc(orders.createdAt), asc(orders.id))
      .limit(LIST_LENGTH),
  ]);
  // paid_at is set with every move to paid (and backfilled): never null on a paid order, always on a confirmed one.
  const oldest = [...paid, ...confirmed]
    .map(({ paidAt, createdAt, ...order }) => ({ ...order, since: paidAt ?? createdAt }))
    .sort((a, b) => a.since.getTime() - b.since.getTime() || a.id.localeCompare(b.id));
  return { count: counted?.n ?? 0, oldest: oldest.slice(0, LIST_LENGTH) };
}

/**
 * Orders that need a look, by reason (an order may have several; `count` counts orders), and the newest few of them
 * with their reasons. Reads the three small sets through their own indexes: orders with a flag not resolved
 * (`needs_attention`), reported payments unconfirmed past the grace, orders with a failed e-mail.
 */
async function ordersToLookAt(db: Db, now: Date): Promise<Dashboard["attention"]> {
  const overdue = confirmationOverdue(now);
  const reasons = sql`
    select orders.id, flag as reason from orders cross join unnest(orders.flags) as flag
      where orders.needs_attention and not (flag = any(orders.resolved_flags))
    union all
    select orders.id, 'confirmation_overdue' from orders where ${overdue}
    union all
    select distinct email_outbox.order_id, 'email_failed' from email_outbox where email_outbox.status = 'failed'
    union all
    select distinct sms_outbox.order_id, 'sms_failed' from sms_outbox
      where sms_outbox.status in ('failed', 'undelivered')`;
  const [counted, listed] = await Promise.all([
    db.execute<{ reason: AttentionReason | null; n: number }>(
      sql`select reason, count(distinct id)::int as n from (${reasons}) as looks group by rollup (reason)`,
    ),
    db.execute<{
      id: string;
      created_at: string;
      amount_minor: number;
      status: OrderStatus;
      payment_expires_at: string | null;
      reasons: AttentionReason[];
    }>(sql`
      select orders.id, orders.created_at, orders.amount_minor, orders.status, orders.payment_expires_at,
             array(select flag from unnest(orders.flags) as flag where not (flag = any(orders.resolved_flags)))
               || case when ${overdue} then array['confirmation_overdue'] else '{}' end
               || case when ${emailFailed()} then array['email_failed'] else '{}' end
               || case when ${smsFailed()} then array['sms_failed'] else '{}' end as reasons
      from orders
      where orders.id in (
        (select orders.id from orders where orders.needs_attention order by orders.created_at desc limit ${LIST_LENGTH})
        union (select orders.id from orders where ${overdue} order by orders.created_at desc limit ${LIST_LENGTH})
        union (select email_outbox.order_id from email_outbox where email_outbox.status = 'failed'
               order by email_outbox.id desc limit ${LIST_LENGTH})
        union (select sms_outbox.order_id from sms_outbox where sms_outbox.status in ('failed', 'undelivered')
               order by sms_outbox.id desc limit ${LIST_LENGTH}))
      order by orders.created_at desc, orders.id desc
      limit ${LIST_LENGTH}`),
  ]);
  const byReason: Partial<Record<AttentionReason, number>> = {};
  let total = 0;
  for (const { reason, n } of counted.rows) {
    if (reason === null) total = n;
    else byReason[reason] = n;
  }
  return {
    count: total,
    byReason,
    orders: listed.rows.map((row) => {
      const paymentExpiresAt = row.payment_expires_at === null ? null : new Date(row.payment_expires_at);
      return {
        id: row.id,
        createdAt: new Date(row.created_at),
        amountMinor: row.amount_minor,
        status: effectiveStatus({ status: row.status, paymentExpiresAt }, now.getTime()),
        reasons: row.reasons,
      };
    }),
  };
}

/** When the daily cap on text messages refused one on the Tripoli day of `now`, or `null`. */
async function smsLimitReachedOn(db: Db, now: Date): Promise<Date | null> {
  const [day] = await db
    .select({ at: smsDays.limitReachedAt })
    .from(smsDays)
    .where(eq(smsDays.day, tripoliDay(now)));
  return day?.at ?? null;
}

/** The period's paid orders and sales by way of paying and gateway (cash is one row), most sales first. */
async function gatewayShares(db: Db, { current }: PeriodBounds): Promise<GatewayShare[]> {
  const salesMinor = sql<number>`sum(${orders.amountMinor})`.mapWith(Number);
  return db
    .select({ way: orders.paymentMethod, gateway: orders.paidGateway, orders: count(), salesMinor })
    .from(orders)
    .where(paidWithin(current))
    .groupBy(orders.paymentMethod, orders.paidGateway)
    .orderBy(desc(salesMinor), asc(orders.paymentMethod), asc(orders.paidGateway));
}

/** The discounts of the period's paid orders per code (see {@link Discounts}), in one grouped pass over `orders_paid_at`. */
async function discountsGiven(db: Db, { current }: PeriodBounds): Promise<Discounts> {
  const discountMinor = sql<number>`sum(${orders.discountMinor})`.mapWith(Number);
  const codes = await db
    .select({ code: sql<string>`${orders.promoCode}`, orders: count(), discountMinor })
    .from(orders)
    .where(and(paidWithin(current), isNotNull(orders.promoCode)))
    .groupBy(orders.promoCode)
    .orderBy(desc(discountMinor), asc(orders.promoCode));
  return {
    discountMinor: codes.reduce((total, code) => total + code.discountMinor, 0),
    orders: codes.reduce((total, code) => total + code.orders, 0),
    codes,
  };
}

/** The funnel of the checkouts started in the period (see {@link Funnel}), in one pass over `orders_created`. */
async function checkoutFunnel(db: Db, { current }: PeriodBounds, now: Date): Promise<Funnel> {
  const counted = (condition: SQL) => sql<number>`count(*) filter (where ${condition})`.mapWith(Number);
  const [row] = await db
    .select({
      started: count(),
      paymentCreated: counted(paymentCreated()),
      paid: counted(effectiveStatusIs("paid", now)),
      cancelled: counted(effectiveStatusIs("cancelled", now)),
      expired: counted(effectiveStatusIs("expired", now)),
      failed: counted(effectiveStatusIs("failed", now)),
    })
    .from(orders)
    .where(startedWithin(current));
  const funnel = row ?? { started: 0, paymentCreated: 0, paid: 0, cancelled: 0, expired: 0, failed: 0 };
  return {
    ...funnel,
    open: funnel.started - funnel.paid - funnel.cancelled - funnel.expired - funnel.failed,
  };
}
