/**
 * The signed `payment.success` webhook the live service sends when a customer pays (gateway notes, "Confirmation";
 * it is not in the API spec). The first attempt is made while the customer waits for the redirect back to the shop,
 * bounded by a timeout so that a hung shop never holds the customer; a failed attempt is retried in the background
 * with exponential backoff. Deliveries are kept (a bounded number) for the control API to list and replay.
 */
import { createHmac, randomBytes } from "node:crypto";
import type { Clock } from "./clock";
import type { Merchant } from "./config";
import {
  findWebhookMagicValue,
  WEBHOOK_MAGIC_DELAY_MS,
  webhookFault,
  type FaultQueue,
  type WebhookFault,
} from "./faults";
import type { Payment } from "./store";

const SIGNATURE_HEADER = "X-MyPay-Signature";

export interface WebhookOptions {
  /** Retries after a failed attempt before giving up. Default 5. */
  retries?: number;
  /** Wait before the first retry; each further retry waits twice as long. Default 1000 ms (1, 2, 4, 8, 16 s). */
  retryBaseMs?: number;
  /** Time limit of one attempt. Default 5000 ms. */
  timeoutMs?: number;
  /** Deliveries kept; the oldest is forgotten (and its retries cancelled) beyond this. Default 1000. */
  maxDeliveries?: number;
  /** How long `sandbox:webhook-delay` holds the webhook back. Default 10 000 ms. */
  magicDelayMs?: number;
}

interface Attempt {
  /** ISO time on the emulator clock. */
  at: string;
  /** The shop's HTTP status, or null when no answer came (then `error` says why). */
  status: number | null;
  error: string | null;
  durationMs: number;
  /** Sent by `POST /__emulator/webhooks/<id>/replay`; replays never change a delivery's state. */
  replay: boolean;
}

type DeliveryState = "pending" | "delivered" | "failed" | "dropped";

/** One webhook message and what became of it, as `GET /__emulator/webhooks` lists it. */
export interface Delivery {
  id: number;
  /** The payment token. */
  token: string;
  state: DeliveryState;
  url: string;
  /** The exact bytes sent (UTF-8), which the signature covers. */
  body: string;
  signature: string;
  /** The fault applied, and whether it was queued (`POST /__emulator/faults`) or came from a magic value. */
  fault: (WebhookFault & { source: "queue" | "magic" }) | null;
  /** The delivery this one repeats (fault `duplicate`). */
  duplicateOf: number | null;
  attempts: Attempt[];
  createdAt: string;
  /** When the next automatic attempt is due, while one is scheduled. */
  nextAttemptAt: string | null;
}

export interface Webhooks {
  /**
   * Sends `payment.success` for a payment the customer just paid, to its merchant's webhook URL (nothing when the
   * merchant has none). Resolves once the first attempt has an answer or timed out, or at once when a fault holds the
   * webhook back; never rejects.
   */
  paymentSucceeded(payment: Payment, merchant: Merchant): Promise<void>;
  /** Newest first, optionally only those of one payment. */
  list(token?: string): Delivery[];
  /** Sends a delivery's body and signature again now; undefined when the delivery is unknown. */
  replay(id: number): Promise<Attempt | undefined>;
  /** Forgets every delivery and cancels pending retries and attempts in flight. */
  clear(): void;
}

/** The lowercase hex HMAC-SHA256 of the body's UTF-8 bytes: the value of `X-MyPay-Signature`. */
function signWebhook(body: string, secret: string): string {
  return createHmac("sha256", secret).update(body, "utf8").digest("hex");
}

/** The body, keys in the order the gateway notes list them; `custom` only when the create request had one. */
function webhookBody(payment: Payment, fields: { amount: number; timestamp: number; transactionId: string }): string {
  return JSON.stringify({
    event: "payment.success",
    token: payment.token,
    status: "success",
    gateway: payment.gatewayUsed,
    amount: fields.amount,
    currency: payment.currency,
    timestamp: fields.timestamp,
    transaction_id: fields.transactionId,
    ...(payment.custom !== null ? { custom: payment.custom } : {}),
  });
}

/** Still 64 lowercase hex characters, so that only a real comparison catches it: the last digit is changed. */
const corrupt = (signature: string) =>
  signature.slice(0, -1) + ((parseInt(signature.slice(-1), 16) + 1) % 16).toString(16);

const MAX_ATTEMPTS_KEPT = 50;

/** A delivery with what it takes to send it: retries so far, the pending retry, requests in flight. */
interface Job {
  delivery: Delivery;
  retriesDone: number;
  timer: ReturnType<typeof setTimeout> | undefined;
  inFlight: Set<AbortController>;
  /** Set when the delivery is forgotten: late results are then ignored and nothing is rescheduled. */
  cancelled: boolean;
}

export function createWebhooks(deps: {
  clock: Clock;
  faults: FaultQueue;
  log: ((line: string) => void) | undefined;
  options?: WebhookOptions;
}): Webhooks {
  const { clock, faults, log } = deps;
  const retries = deps.options?.retries ?? 5;
  const retryBaseMs = deps.options?.retryBaseMs ?? 1000;
  const timeoutMs = deps.options?.timeoutMs ?? 5000;
  const maxDeliveries = deps.options?.maxDeliveries ?? 1000;
  const magicDelayMs = deps.options?.magicDelayMs ?? WEBHOOK_MAGIC_DELAY_MS;

  const jobs = new Map<number, Job>();
  let nextId = 1;
  const iso = (ms: number) => new Date(ms).toISOString();

  function track(fields: Pick<Delivery, "token" | "url" | "body" | "signature" | "fault" | "duplicateOf">): Job {
    const delivery: Delivery = {
      id: nextId++,
      token: fields.token,
      state: "pending",
      url: fields.url,
      body: fields.body,
      signature: fields.signature,
      fault: fields.fault,
      duplicateOf: fields.duplicateOf,
      attempts: [],
      createdAt: iso(clock.now()),
      nextAttemptAt: null,
    };
    const job: Job = { delivery, retriesDone: 0, timer: undefined, inFlight: new Set(), cancelled: false };
    jobs.set(delivery.id, job);
    for (const [id, oldest] of jobs) {
      if (jobs.size <= maxDeliveries) break;
      cancel(oldest, "forgotten (too many deliveries kept)");
      jobs.delete(id);
    }
    return job;
  }

  function cancel(job: Job, reason: string) {
    job.cancelled = true;
    clearTimeout(job.timer);
    for (const controller of job.inFlight) controller.abort(new Error(reason));
  }

  /** One POST; never throws. */
  async function send(job: Job, replay: boolean): Promise<Attempt> {
    const { url, body, signature } = job.delivery;
    const at = iso(clock.now());
    const started = performance.now();
    const controller = new AbortController();
    job.inFlight.add(controller);
    const timer = setTimeout(() => controller.abort(new Error(`timeout after ${timeoutMs} ms`)), timeoutMs);
    const result = (status: number | null, error: string | null): Attempt => ({
      at,
      status,
      error,
      durationMs: Math.round(performance.now() - started),
      replay,
    });
    try {
      const response = await fetch(url, {
        method: "POST",
        headers: { "Content-Type": "application/json", [SIGNATURE_HEADER]: signature },
        body,
        // What the live service does with a redirect is unknown; following one could post the body elsewhere.
        redirect: "manual",
        signal: controller.signal,
      });
      await response.arrayBuffer();
      return result(response.status, null);
    } catch (error) {
      return result(null, describeError(error, controller.signal));
    } finally {
      clearTimeout(timer);
      job.inFlight.delete(controller);
    }
  }

  function record(job: Job, attempt: Attempt, next: string) {
    const { delivery } = job;
    delivery.attempts.push(attempt);
    if (delivery.attempts.length > MAX_ATTEMPTS_KEPT) delivery.attempts.shift();
    const outcome = attempt.status ?? `failed (${attempt.error})`;
    const which = `delivery ${delivery.id}, ${attempt.replay ? "replay" : `attempt ${job.retriesDone + 1}`}${next}`;
    log?.(`webhook POST ${pathOf(delivery.url)} ${outcome} ${attempt.durationMs}ms (${which})`);
  }

  /** An automatic attempt: delivered on 2xx, otherwise a retry is scheduled until the retries run out. */
  async function attempt(job: Job): Promise<void> {
    job.delivery.nextAttemptAt = null;
    const result = await send(job, false);
    if (job.cancelled) return;
    if (isSuccess(result.status)) {
      record(job, result, "");
      job.delivery.state = "delivered";
    } else if (job.retriesDone >= retries) {
      record(job, result, "; giving up");
      job.delivery.state = "failed";
    } else {
      const waitMs = retryBaseMs * 2 ** job.retriesDone;
      record(job, result, `; retry in ${waitMs}ms`);
      job.retriesDone++;
      schedule(job, waitMs);
    }
  }

  function schedule(job: Job, waitMs: number) {
    job.delivery.nextAttemptAt = iso(clock.now() + waitMs);
    job.timer = setTimeout(() => {
      job.timer = undefined;
      // Nothing may escape a timer: an unhandled rejection would stop the emulator.
      attempt(job).catch((error: unknown) => console.error("[emulator] webhook attempt failed:", error));
    }, waitMs);
    // A pending retry never keeps the process alive on its own.
    job.timer.unref();
  }

  /** A queued webhook fault first, else a magic value in the payment's name or reference. */
  function faultFor(payment: Payment): Delivery["fault"] {
    const queued = faults.take("webhook");
    if (queued) return { ...webhookFault(queued), source: "queue" };
    const magic = findWebhookMagicValue(payment, magicDelayMs);
    return magic ? { ...magic, source: "magic" } : null;
  }

  return {
    async paymentSucceeded(payment, merchant) {
      if (!merchant.webhook) return;
      try {
        const fault = faultFor(payment);
        const body = webhookBody(payment, {
          amount: fault?.kind === "amount" ? fault.amount : Number(payment.amount),
          timestamp: clock.nowSeconds(),
          transactionId: `TXN-${randomBytes(8).toString("hex").toUpperCase()}`,
        });
        const signature = signWebhook(body, merchant.webhook.secret);
        const job = track({
          token: payment.token,
          url: merchant.webhook.url,
          body,
          signature: fault?.kind === "bad_signature" ? corrupt(signature) : signature,
          fault,
          duplicateOf: null,
        });

        if (fault?.kind === "drop") {
          job.delivery.state = "dropped";
          log?.(`webhook dropped on purpose (delivery ${job.delivery.id})`);
        } else if (fault?.kind === "delay") {
          schedule(job, fault.delayMs);
        } else {
          await attempt(job);
          if (fault?.kind === "duplicate" && !job.cancelled) {
            const { token, url, signature: sent, id } = job.delivery;
            await attempt(track({ token, url, body, signature: sent, fault, duplicateOf: id }));
          }
        }
      } catch (error) {
        // The customer's redirect must happen whatever goes wrong here.
        log?.(`webhook not sent: ${error instanceof Error ? error.message : String(error)}`);
      }
    },

    list(token) {
      return [...jobs.values()]
        .filter((job) => token === undefined || job.delivery.token === token)
        .reverse()
        .map((job) => structuredClone(job.delivery));
    },

    async replay(id) {
      const job = jobs.get(id);
      if (!job) return undefined;
      const result = await send(job, true);
      if (!job.cancelled) record(job, result, "");
      return result;
    },

    clear() {
      for (const job of jobs.values()) cancel(job, "cancelled by reset");
      jobs.clear();
    },
  };
}

const isSuccess = (status: number | null) => status !== null && status >= 200 && status < 300;

/** What the log shows of a URL: its path, since a query string could carry a secret. */
function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return "(invalid URL)";
  }
}

/** Why no answer came: our own timeout or reset, else the network error (refused, reset, DNS…). */
function describeError(error: unknown, signal: AbortSignal): string {
  if (signal.aborted) return signal.reason instanceof Error ? signal.reason.message : "aborted";
  const cause = error instanceof Error ? (error.cause as { message?: string } | undefined) : undefined;
  if (cause?.message) return cause.message;
  return error instanceof Error ? error.message : String(error);
}
