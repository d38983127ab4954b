import "server-only";
import { and, eq, lt, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "../db/client";
import { describeDbFailure } from "../db/errors";
import { orderEvents, orders } from "../db/schema";
import { ORDER_ID } from "../ids";
import { logger } from "../log";
import { parseWebhookEvent, verifyWebhookSignature } from "../payments";
import { recordOrderEvent } from "./events";

/**
 * Orders whose payment the shop may have missed. The payment service has no call to ask about a payment: its webhook
 * is its only word, and when every delivery fails (the shop's database was down through all its retries) and the
 * customer never comes back, the order's payment page dies with a payment the shop never heard of. Such an order is
 * not expired in silence: the scheduled job expires it flagged `check_payment_list` and e-mails the merchant
 * (lib/orders/expiry.ts), who looks for it in the merchant dashboard's list (lib/admin/reconcile.ts).
 *
 * While the database is down nothing can be written, and a serverless host shares no memory between its servers, so
 * the shop reads two traces that survive, each after the fact ({@link mayHaveMissedPayment}):
 *
 * 1. **The server that failed to record a delivery says so once the database answers again.** A verified delivery
 *    that could not be recorded is remembered in that server's memory ({@link noteUnrecordedDelivery}: its token and
 *    order number, never its body) and written as a `webhook_unrecorded` event on its order at the first chance
 *    ({@link recordUnrecordedDeliveries}): the server's next delivery, the scheduled job when it runs there, or a
 *    retry timer while the server lives. Only signed deliveries are remembered, at most {@link MAX_REMEMBERED}.
 *    Lost when that server stops before the database is back (a serverless instance recycled): hence the second.
 * 2. **PostgreSQL's own start time** (`pg_postmaster_start_time()`): a database server that started after an order's
 *    payment page opened was down, or restarting, while it was open. It misses an outage that did not restart the
 *    server (a network cut, connections refused) — the first trace covers that when the server lives — and it also
 *    counts restarts that missed nothing (a database that sleeps when idle restarts often): a flag too many costs the
 *    merchant a look at the payment list, a flag too few costs a paid order.
 *
 * Neither is proof either way: the payment list is, which is why the flag asks the merchant to check it.
 */

/** The most unrecorded deliveries one server remembers (the oldest are forgotten first). */
const MAX_REMEMBERED = 1_000;

/** How often a server that remembers unrecorded deliveries tries to write them, while it lives. */
const RETRY_MS = 15_000;

interface Unrecorded {
  token: string;
  custom?: string;
  firstAt: Date;
  lastAt: Date;
  attempts: number;
  /** The database failure's code (lib/db/errors.ts): never its message, which can quote the token. */
  code: string;
}

const remembered = new Map<string, Unrecorded>();
let retry: ReturnType<typeof setTimeout> | undefined;

/**
 * Remembers a delivery the webhook route could not record because the database failed, when it is signed with the
 * merchant's secret (anything else proves nothing and costs nothing).
 * @param rawBody the delivery's bytes; `signature` its `X-MyPay-Signature` header; `error` what the database threw.
 * @param db where to write it later: a retry timer tries every 15 s while anything is remembered.
 */
export function noteUnrecordedDelivery(
  db: Db,
  rawBody: Uint8Array,
  signature: string | null,
  secret: string,
  error: unknown,
  now = new Date(),
): void {
  if (!verifyWebhookSignature(rawBody, signature, secret)) return;
  const delivery = parseWebhookEvent(rawBody);
  if (!delivery) return;
  const known = remembered.get(delivery.token);
  const code = describeDbFailure(error).code;
  remembered.delete(delivery.token); // re-inserted last: the Map's order is the order of forgetting
  remembered.set(delivery.token, {
    token: delivery.token,
    ...(delivery.custom ? { custom: delivery.custom } : {}),
    firstAt: known?.firstAt ?? now,
    lastAt: now,
    attempts: (known?.attempts ?? 0) + 1,
    code,
  });
  if (remembered.size > MAX_REMEMBERED) remembered.delete(remembered.keys().next().value!);
  if (!retry) scheduleRetry(db);
}

/** Tries {@link recordUnrecordedDeliveries} in {@link RETRY_MS}, and again after that while anything is remembered. */
function scheduleRetry(db: Db): void {
  retry = setTimeout(() => {
    retry = undefined;
    void recordUnrecordedDeliveries(db).then(() => {
      if (remembered.size > 0 && !retry) scheduleRetry(db);
    });
  }, RETRY_MS);
  retry.unref?.();
}

/**
 * Writes what this server remembers ({@link noteUnrecordedDelivery}) as a `webhook_unrecorded` event on each
 * delivery's order (found by its payment token, else by the order number in `custom`), and forgets each one written.
 * A delivery for no order of this shop is forgotten. Never throws: while the database still fails, it keeps the rest
 * for the next try and logs the failure.
 * @returns how many events it wrote.
 */
export async function recordUnrecordedDeliveries(db: Db): Promise<number> {
  let written = 0;
  for (const entry of [...remembered.values()]) {
    try {
      const [order] = await db
        .select({ id: orders.id })
        .from(orders)
        .where(
          entry.custom && ORDER_ID.test(entry.custom)
            ? or(eq(orders.paymentToken, entry.token), eq(orders.id, entry.custom))
            : eq(orders.paymentToken, entry.token),
        )
        .limit(1);
      if (order) {
        const data = {
          firstAt: entry.firstAt.toISOString(),
          lastAt: entry.lastAt.toISOString(),
          attempts: entry.attempts,
          code: entry.code,
        };
        await recordOrderEvent(db, order.id, { type: "webhook_unrecorded", at: entry.lastAt, data });
        written++;
      }
      remembered.delete(entry.token);
    } catch (error) {
      logger.warn({
        event: "webhook_unrecorded_not_written",
        remembered: remembered.size,
        ...describeDbFailure(error),
      });
      break;
    }
  }
  if (written > 0) logger.warn({ event: "webhook_unrecorded_written", written });
  return written;
}

/** How many unrecorded deliveries this server remembers now (for tests and the log). */
export function rememberedDeliveries(): number {
  return remembered.size;
}

/**
 * When the database server last started (`pg_postmaster_start_time()`): an order whose payment page opened before it
 * may have had its webhook refused while the database was down or restarting.
 */
export async function databaseStartedAt(db: Db): Promise<Date> {
  const { rows } = await db.execute<{ started: string | Date }>(sql`select pg_postmaster_start_time() as started`);
  return new Date(rows[0]!.started);
}

/**
 * Whether the shop may have missed the service's word about an order (the module's comment): it has a
 * `webhook_unrecorded` event, or it was created before the database server last started (`startedAt`). An SQL
 * condition on `orders`.
 */
export function mayHaveMissedPayment(startedAt: Date): SQL {
  const unrecorded = and(eq(orderEvents.orderId, orders.id), eq(orderEvents.type, "webhook_unrecorded"));
  return or(lt(orders.createdAt, startedAt), sql`exists (select 1 from ${orderEvents} where ${unrecorded})`)!;
}
