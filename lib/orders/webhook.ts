import "server-only";
import { eq } from "drizzle-orm";
import type { Db, DbOrTx } from "../db/client";
import { orders } from "../db/schema";
import { storableJson } from "../db/text";
import { queueOrderEmails } from "./outbox";
import { fromDecimalAmount } from "../money";
import { parseWebhookEvent, PAYMENT_SUCCESS_EVENT, PAYMENT_SUCCESS_STATUS, verifyWebhookSignature } from "../payments";
import { changeOrder, recordOrderEvent } from "./events";
import { raiseFlags } from "./flags";
import { settle } from "./settle";
import { ORDER_ID } from "../ids";

/**
 * A webhook delivery from the payment service (docs/payment-service.md, "The signed webhook"), from raw
 * bytes to a settled order. Every verified delivery — understood or not — is written to the order events before
 * anything is answered, so the merchant can audit each one. A delivery that is not signed with the merchant's
 * secret proves nothing, so it costs no database write: anyone could send thousands of them, naming any order. It is
 * counted and kept in a small sample in memory ({@link rejectedDeliveries}), and the route logs it.
 *
 * | delivery                                              | recorded as `webhook_received` with | answer |
 * |-------------------------------------------------------|-------------------------------------|--------|
 * | no signature, or a wrong one                          | nothing: counted in memory only     | 401    |
 * | verified, but not the JSON the service sends          | outcome `malformed`                 | 400    |
 * | verified, for a token (and `custom`) we do not know   | outcome `unknown_order`             | 200    |
 * | verified, another event than `payment.success`        | outcome `ignored_event`             | 200    |
 * | verified, `status` is not `success`                   | outcome `not_successful`            | 200    |
 * | verified, amount or currency differs from the order's | outcome `amount_mismatch`; flagged  | 200    |
 * | verified `payment.success` for the order              | settled (lib/orders/settle.ts)      | 200    |
 *
 * 2xx means "recorded, do not send again"; it is only answered after the write. A database failure throws, and the
 * route answers 5xx so that the service retries. Retrying a rejected, unknown or mismatched delivery would change
 * nothing, so those are not invited.
 */
export interface WebhookAnswer {
  /** The HTTP status to answer the service with. */
  httpStatus: 200 | 400 | 401;
  outcome:
    | "confirmed"
    | "duplicate"
    | "rejected"
    | "malformed"
    | "unknown_order"
    | "ignored_event"
    | "not_successful"
    | "amount_mismatch";
  /** Why a delivery was rejected (401), for the log. */
  rejected?: RejectedDelivery["reason"];
}

/** What is kept of one rejected delivery: when, why and how long. Never its body, its signature or a token. */
export interface RejectedDelivery {
  at: string;
  /**
   * `no_signature`: the header is missing or empty; `malformed_signature`: not 64 hex digits; `wrong_signature`: not
   * the HMAC of these bytes with our secret; `no_secret`: the shop has no secret to check with (a setup error).
   */
  reason: "no_signature" | "malformed_signature" | "wrong_signature" | "no_secret";
  bytes: number;
}

/** How many rejected deliveries the sample keeps (the newest): enough to see what is arriving, bounded in memory. */
export const REJECTED_SAMPLE_SIZE = 20;

const rejections = { count: 0, sample: [] as RejectedDelivery[] };

/** Rejected deliveries since this server instance started, and the newest {@link REJECTED_SAMPLE_SIZE} of them. */
export function rejectedDeliveries(): { count: number; sample: readonly RejectedDelivery[] } {
  return { count: rejections.count, sample: [...rejections.sample] };
}

/** Bodies larger than this are refused before they are read to the end (413). */
export const MAX_WEBHOOK_BYTES = 64 * 1024;

/**
 * Verifies, records and applies one delivery.
 * @param rawBody the request body exactly as received. @param signature the `X-MyPay-Signature` header or `null`.
 * @param secret the merchant's webhook secret (`PAYMENT_WEBHOOK_SECRET`); an empty one verifies nothing.
 * @throws the database's error when the delivery could not be recorded (answer 5xx: the service will retry).
 */
export async function receiveWebhook(
  db: Db,
  rawBody: Uint8Array,
  signature: string | null,
  secret: string,
): Promise<WebhookAnswer> {
  if (!verifyWebhookSignature(rawBody, signature, secret)) {
    const reason = !secret
      ? "no_secret"
      : !signature?.trim()
        ? "no_signature"
        : /^[0-9a-f]{64}$/i.test(signature.trim())
          ? "wrong_signature"
          : "malformed_signature";
    rejections.count++;
    rejections.sample.push({ at: new Date().toISOString(), reason, bytes: rawBody.byteLength });
    if (rejections.sample.length > REJECTED_SAMPLE_SIZE) rejections.sample.shift();
    return { httpStatus: 401, outcome: "rejected", rejected: reason };
  }
  const received = parseWebhookEvent(rawBody);
  if (!received) {
    // Kept as received (cut short) for the merchant's audit: it is the service's, but not what it documents.
    await record(db, null, {
      verified: true,
      outcome: "malformed",
      body: new TextDecoder().decode(rawBody).slice(0, 2_000),
    });
    return { httpStatus: 400, outcome: "malformed" };
  }
  // A NUL (JSON "\u0000") or a lone surrogate cannot be stored, so a delivery carrying one would fail to be recorded
  // on every retry. Signed, it is the service's word: kept with those characters replaced, and marked so.
  const delivery = storableJson(received);
  const sanitized = JSON.stringify(delivery) !== JSON.stringify(received);

  const facts = {
    event: delivery.event,
    token: delivery.token,
    amount: delivery.amount,
    currency: delivery.currency,
    // The gateway the customer paid with, also when they chose it on the payment page (the order has none then).
    gateway: delivery.gateway ?? delivery.payment_gateway,
    paymentStatus: delivery.status,
    transactionId: delivery.transaction_id,
    timestamp: delivery.timestamp,
    ...(sanitized ? { sanitized: true } : {}),
  };
  const order = await findOrder(db, delivery.token, delivery.custom);
  if (!order) {
    await record(db, null, { verified: true, ...facts, outcome: "unknown_order" });
    return { httpStatus: 200, outcome: "unknown_order" };
  }
  if (delivery.event !== PAYMENT_SUCCESS_EVENT) {
    await record(db, order.id, { verified: true, ...facts, outcome: "ignored_event" });
    return { httpStatus: 200, outcome: "ignored_event" };
  }
  if (delivery.status !== PAYMENT_SUCCESS_STATUS) {
    // The service itself says this payment did not go through (or does not say it did): on the record, never paid.
    await record(db, order.id, { verified: true, ...facts, outcome: "not_successful" });
    return { httpStatus: 200, outcome: "not_successful" };
  }
  const amountMinor = fromDecimalAmount(delivery.amount);
  if (amountMinor !== order.amountMinor || delivery.currency !== order.currency) {
    // Money arrived, but not this order's money: never paid, always shown to the merchant, by e-mail too.
    const expected = { amountMinor: order.amountMinor, currency: order.currency };
    await db.transaction(async (tx) => {
      await record(tx, order.id, { verified: true, ...facts, outcome: "amount_mismatch", expected }, "amount_mismatch");
      await queueOrderEmails(tx, order.id, "amount_mismatch"); // the merchant's notice, the flag spelled out
    });
    return { httpStatus: 200, outcome: "amount_mismatch" };
  }

  const settlement = await settle(db, order.id, {
    kind: "payment_confirmed",
    paymentToken: delivery.token,
    delivery: { ...facts, outcome: "settled" },
  });
  return { httpStatus: 200, outcome: settlement?.changed ? "confirmed" : "duplicate" };
}

/** The order a delivery is about: by payment token, else by our order id in `custom`. */
async function findOrder(db: Db, token: string, custom: string | undefined) {
  const columns = {
    id: orders.id,
    amountMinor: orders.amountMinor,
    currency: orders.currency,
  };
  const [byToken] = await db.select(columns).from(orders).where(eq(orders.paymentToken, token));
  if (byToken || !custom || !ORDER_ID.test(custom)) return byToken;
  const [byId] = await db.select(columns).from(orders).where(eq(orders.id, custom));
  return byId;
}

/** Records a verified delivery that settles nothing, on its order when it names one, raising `flag` with it. */
async function record(
  db: DbOrTx,
  orderId: string | null,
  data: Record<string, unknown>,
  flag?: "amount_mismatch",
): Promise<void> {
  const event = { type: "webhook_received", data: storableJson(data) } as const;
  if (flag && orderId) await changeOrder(db, orderId, { set: raiseFlags(flag) }, event);
  else await recordOrderEvent(db, orderId, event);
}
