import { getDb } from "@/lib/db/client";
import { describeDbFailure } from "@/lib/db/errors";
import { sendPendingEmailsAfterResponse } from "@/lib/email/sender";
import { sendPendingSmsAfterResponse } from "@/lib/sms/delivery";
import { getEnv } from "@/lib/env";
import { logger } from "@/lib/log";
import { noteUnrecordedDelivery, recordUnrecordedDeliveries } from "@/lib/orders/unseen";
import { MAX_WEBHOOK_BYTES, receiveWebhook, rejectedDeliveries } from "@/lib/orders/webhook";
import { WEBHOOK_SIGNATURE_HEADER } from "@/lib/payments";

/**
 * `POST /api/payments/webhook`: the payment service's signed confirmation of a payment (lib/orders/webhook.ts says
 * what each delivery gets). The body is read raw, at most 64 KB, because the signature covers its exact bytes. A signed
 * delivery the database could not take is answered 503 and remembered, to be written on its order once the database
 * answers (lib/orders/unseen.ts), so that its order does not expire unseen if every retry fails too.
 */
export async function POST(request: Request): Promise<Response> {
  const rawBody = await readAtMost(request, MAX_WEBHOOK_BYTES);
  if (!rawBody) return Response.json({ error: `The body is larger than ${MAX_WEBHOOK_BYTES} bytes.` }, { status: 413 });
  const signature = request.headers.get(WEBHOOK_SIGNATURE_HEADER);
  const secret = getEnv().PAYMENT_WEBHOOK_SECRET;
  try {
    const answer = await receiveWebhook(getDb(), rawBody, signature, secret);
    if (answer.rejected) {
      // Nothing of the request itself: its body and headers are anyone's, and may carry someone's payment token.
      logger.warn({
        event: "webhook_rejected",
        reason: answer.rejected,
        bytes: rawBody.byteLength,
        rejectedSinceStart: rejectedDeliveries().count,
      });
    } else {
      logger.info({ event: "webhook", httpStatus: answer.httpStatus, outcome: answer.outcome });
    }
    // The receipt and the merchant's notice this delivery queued go out once the service has its answer.
    if (answer.outcome === "confirmed" || answer.outcome === "amount_mismatch") sendPendingEmailsAfterResponse();
    if (answer.outcome === "confirmed") sendPendingSmsAfterResponse();
    // The database answers again: deliveries this server failed to record before are written on their orders.
    await recordUnrecordedDeliveries(getDb());
    return Response.json({ outcome: answer.outcome }, { status: answer.httpStatus });
  } catch (error) {
    // Not recorded, so not acknowledged: the service sends it again. The error's code only: its message quotes the
    // query's parameters, the payment token among them.
    logger.error({ event: "webhook_not_recorded", ...describeDbFailure(error) });
    // If the retries all fail too, the order must not expire unseen: remembered, and written once the database is back.
    noteUnrecordedDelivery(getDb(), rawBody, signature, secret, error);
    return Response.json({ error: "The delivery could not be recorded; send it again later." }, { status: 503 });
  }
}

/** The request body, or `null` as soon as it exceeds `limit` bytes (by its Content-Length or by what arrives). */
async function readAtMost(request: Request, limit: number): Promise<Uint8Array | null> {
  if (Number(request.headers.get("content-length") ?? 0) > limit) return null;
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body?.getReader();
  for (let read = await reader?.read(); reader && read && !read.done; read = await reader.read()) {
    size += read.value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return null;
    }
    chunks.push(read.value);
  }
  return Buffer.concat(chunks);
}
