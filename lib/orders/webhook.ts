import "server-only";
import { eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { orderEvents, orders } from "../db/schema";
import { fromDecimalAmount } from "../money";
import { parseWebhookEvent, PAYMENT_SUCCESS_EVENT, verifyWebhookSignature } from "../payments";
import { flagOrder, settle } from "./settle";
import { ORDER_ID } from "./store";

/**
 * A webhook delivery from the payment service (gateway-notes.md, "Confirmation"; outside the API spec), from raw
 * bytes to a settled order. Every delivery — verified or not, understood or not — is written to the order events
 * before anything is answered, so the merchant can audit each one.
 *
 * | delivery                                              | recorded as `webhook_received` with | answer |
 * |-------------------------------------------------------|-------------------------------------|--------|
 * | no signature, or a wrong one                          | outcome `rejected`; nothing changes | 401    |
 * | verified, but not the JSON the service sends          | outcome `malformed`                 | 400    |
 * | verified, for a token (and `custom`) we do not know   | outcome `unknown_order`             | 200    |
 * | verified, another event than `payment.success`        | outcome `ignored_event`             | 200    |
 * | verified, amount or currency differs from the order's | outcome `amount_mismatch`; flagged  | 200    |
 * | verified `payment.success` for the order              | settled (lib/orders/settle.ts)      | 200    |
 *
 * 2xx means "recorded, do not send again"; it is only answered after the write. A database failure throws, and the
 * route answers 5xx so that the service retries. Retrying a rejected, unknown or mismatched delivery would change
 * nothing, so those are not invited.
 */
export interface WebhookAnswer {
  status: 200 | 400 | 401;
  outcome: "confirmed" | "duplicate" | "rejected" | "malformed" | "unknown_order" | "ignored_event" | "amount_mismatch";
}

/** Bodies larger than this are refused before they are read to the end (413). */
export const MAX_WEBHOOK_BYTES = 64 * 1024;

/**
 * Verifies, records and applies one delivery.
 * @param rawBody the request body exactly as received. @param signature the `X-MyPay-Signature` header or `null`.
 * @param secret the merchant's webhook secret (`PAYMENT_WEBHOOK_SECRET`); an empty one verifies nothing.
 * @throws the database's error when the delivery could not be recorded (answer 5xx: the service will retry).
 */
export async function receiveWebhook(db: Db, rawBody: Uint8Array, signature: string | null, secret: string): Promise<WebhookAnswer> {
  const verified = verifyWebhookSignature(rawBody, signature, secret);
  const delivery = parseWebhookEvent(rawBody);
  // Kept as received (cut short) when it cannot be trusted or read, for the merchant's audit.
  const text = () => new TextDecoder().decode(rawBody).slice(0, 2_000);
  const signatureState = signature === null ? "missing" : verified ? "valid" : "invalid";

  if (!verified) {
    // Not proof of anything: kept for the merchant, next to the order it names if there is one.
    const claimed = delivery ? await findOrder(db, delivery.token, delivery.custom) : undefined;
    await record(db, claimed?.id ?? null, { verified: false, signature: signatureState, outcome: "rejected", body: text() });
    return { status: 401, outcome: "rejected" };
  }
  if (!delivery) {
    await record(db, null, { verified: true, outcome: "malformed", body: text() });
    return { status: 400, outcome: "malformed" };
  }

  const facts = {
    event: delivery.event,
    token: delivery.token,
    amount: delivery.amount,
    currency: delivery.currency,
    gateway: delivery.gateway,
    status: delivery.status,
    transactionId: delivery.transaction_id,
    timestamp: delivery.timestamp,
  };
  const order = await findOrder(db, delivery.token, delivery.custom);
  if (!order) {
    await record(db, null, { verified: true, ...facts, outcome: "unknown_order" });
    return { status: 200, outcome: "unknown_order" };
  }
  if (delivery.event !== PAYMENT_SUCCESS_EVENT) {
    await record(db, order.id, { verified: true, ...facts, outcome: "ignored_event" });
    return { status: 200, outcome: "ignored_event" };
  }
  const amountMinor = fromDecimalAmount(delivery.amount);
  if (amountMinor !== order.amountMinor || delivery.currency !== order.currency) {
    // Money arrived, but not this order's money: never paid, always shown to the merchant. (Both writes are safe to
    // repeat if the service retries after a failure between them.)
    await flagOrder(db, order.id, "amount_mismatch");
    await record(db, order.id, { verified: true, ...facts, outcome: "amount_mismatch", expected: { amountMinor: order.amountMinor, currency: order.currency } });
    return { status: 200, outcome: "amount_mismatch" };
  }

  if (order.paymentToken === null) await db.update(orders).set({ paymentToken: delivery.token }).where(eq(orders.id, order.id));
  const settlement = await settle(db, order.id, { kind: "payment_confirmed", delivery: { ...facts, outcome: "settled" } });
  return { status: 200, outcome: settlement?.changed ? "confirmed" : "duplicate" };
}

/** The order a delivery is about: by payment token, else by our order id in `custom`. */
async function findOrder(db: Db, token: string, custom: string | undefined) {
  const columns = { id: orders.id, amountMinor: orders.amountMinor, currency: orders.currency, paymentToken: orders.paymentToken };
  const [byToken] = await db.select(columns).from(orders).where(eq(orders.paymentToken, token));
  if (byToken || !custom || !ORDER_ID.test(custom)) return byToken;
  const [byId] = await db.select(columns).from(orders).where(eq(orders.id, custom));
  return byId;
}

async function record(db: Db, orderId: string | null, data: Record<string, unknown>): Promise<void> {
  await db.insert(orderEvents).values({ orderId, type: "webhook_received", data });
}
