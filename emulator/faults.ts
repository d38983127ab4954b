/**
 * Ways a call goes wrong on purpose. They come from two places: faults queued with the control API
 * (`POST /__emulator/faults`: the next N calls of a route) and magic values, for people testing by hand
 * (`sandbox:…` in `full_name` or `custom`). Either way, a token or create call gets a `Failure` and a
 * `payment.success` webhook gets a `WebhookFault`.
 */
import type { Context } from "hono";
import { SLOW_MAGIC_DELAY_MS } from "./config";
import { errorResponse } from "./envelope";
import type { ApiMessages } from "./i18n";

/** What a token or create call does instead of (or before) its normal answer. */
export type Failure =
  /** An error envelope with this status (429 also sends `Retry-After`). */
  | { kind: "status"; status: number }
  /** An HTML error page, as the real platform's framework answers when it fails outside the API code. */
  | { kind: "html"; status: number }
  /** A `200 application/json` response whose body is cut off mid-way. */
  | { kind: "malformed"; status: number }
  /** The connection is closed without any answer. */
  | { kind: "drop" }
  /** Wait, then answer normally. */
  | { kind: "delay"; delayMs: number };

/** What happens to the `payment.success` webhook of one payment. */
export type WebhookFault =
  /** The first attempt leaves `delayMs` after Pay, so it reaches the shop after the customer's browser does. */
  | { kind: "delay"; delayMs: number }
  /** Never sent. */
  | { kind: "drop" }
  /** Sent twice, identical body and signature. */
  | { kind: "duplicate" }
  /** Signed, but the signature is wrong. */
  | { kind: "bad_signature" }
  /** `amount` replaces the real amount in the body (and is signed correctly). */
  | { kind: "amount"; amount: number };

/** Seconds in the `Retry-After` header of a provoked 429. */
const RETRY_AFTER_SECONDS = 60;

/** How long `sandbox:webhook-delay` holds the webhook back. */
export const WEBHOOK_MAGIC_DELAY_MS = 10_000;

/** Thrown when a `drop` failure closes the connection. In-process (`app.request`) the promise rejects with it. */
export class ConnectionDroppedError extends Error {
  constructor() {
    super("Connection dropped by the emulator (fault or magic value 'drop').");
    this.name = "ConnectionDroppedError";
  }
}

/** Magic values and what they do to `POST /payment/create`. */
const MAGIC_VALUES: Readonly<Record<string, Failure>> = {
  "sandbox:error-500": { kind: "status", status: 500 },
  "sandbox:error-502": { kind: "status", status: 502 },
  "sandbox:error-503": { kind: "status", status: 503 },
  "sandbox:error-401": { kind: "status", status: 401 },
  "sandbox:error-403": { kind: "status", status: 403 },
  "sandbox:rate-limit": { kind: "status", status: 429 },
  "sandbox:reject": { kind: "status", status: 400 },
  "sandbox:conflict": { kind: "status", status: 409 },
  "sandbox:html": { kind: "html", status: 500 },
  "sandbox:malformed": { kind: "malformed", status: 200 },
  "sandbox:drop": { kind: "drop" },
  "sandbox:slow": { kind: "delay", delayMs: SLOW_MAGIC_DELAY_MS },
};

/** Magic values and what they do to the payment's webhook, given its real amount and the delay to use. */
const WEBHOOK_MAGIC_VALUES: Readonly<Record<string, (payment: { amount: number; delayMs: number }) => WebhookFault>> = {
  "sandbox:webhook-delay": ({ delayMs }) => ({ kind: "delay", delayMs }),
  "sandbox:webhook-drop": () => ({ kind: "drop" }),
  "sandbox:webhook-duplicate": () => ({ kind: "duplicate" }),
  "sandbox:webhook-bad-signature": () => ({ kind: "bad_signature" }),
  "sandbox:webhook-amount": ({ amount }) => ({ kind: "amount", amount: Math.round((amount + 1) * 100) / 100 }),
};

/**
 * The `sandbox:…` words of `full_name`, then of `custom`, lower-cased. A magic value must be a whole word, so
 * `sandbox:webhook-drop` is never read as `sandbox:drop` (nor `sandbox:slowly` as `sandbox:slow`).
 */
function magicWords(fields: Record<string, unknown>): string[] {
  return [fields.full_name, fields.custom].flatMap((value) =>
    typeof value === "string" ? (value.toLowerCase().match(/sandbox:[a-z0-9-]+/g) ?? []) : [],
  );
}

/** The create magic value in a create body, if any. `slowMs` replaces the delay of `sandbox:slow`. */
export function findMagicValue(body: Record<string, unknown>, slowMs = SLOW_MAGIC_DELAY_MS): Failure | undefined {
  const failure = magicWords(body)
    .map((word) => MAGIC_VALUES[word])
    .find((found) => found !== undefined);
  return failure?.kind === "delay" ? { kind: "delay", delayMs: slowMs } : failure;
}

/** The webhook magic value of a payment, if any. `delayMs` is the delay of `sandbox:webhook-delay`. */
export function findWebhookMagicValue(
  payment: { full_name: string | null; custom: string | null; amount: string },
  delayMs = WEBHOOK_MAGIC_DELAY_MS,
): WebhookFault | undefined {
  const magic = magicWords(payment)
    .map((word) => WEBHOOK_MAGIC_VALUES[word])
    .find((found) => found !== undefined);
  return magic?.({ amount: Number(payment.amount), delayMs });
}

/** The error envelope message for a provoked status. */
function statusMessage(status: number, m: ApiMessages): string {
  switch (status) {
    case 400:
      return m.sandboxRejected;
    case 401:
      return m.tokenExpired;
    case 403:
      return m.invalidToken;
    case 404:
      return m.notFound;
    case 409:
      return m.conflict;
    case 429:
      return m.rateLimited;
    case 502:
      return m.badGateway;
    case 503:
    case 504:
      return m.serviceUnavailable;
    default:
      return m.serverError;
  }
}

const STATUS_TITLES: Record<number, string> = {
  429: "Too Many Requests",
  500: "Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
};

/** An HTML error page in the style of the framework the real service runs on. */
export function htmlErrorPage(status: number): string {
  const title = STATUS_TITLES[status] ?? "Error";
  return `<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title></head>
<body style="font-family: sans-serif; display: flex; align-items: center; justify-content: center; min-height: 100vh; margin: 0; color: #6b7280">
<div>${status} | ${title}</div>
</body>
</html>`;
}

/**
 * The response for a failure (the caller waits out a `delay` itself). `drop` destroys the socket when running
 * under @hono/node-server, then throws `ConnectionDroppedError` so that no answer is written.
 */
export function failureResponse(c: Context, failure: Exclude<Failure, { kind: "delay" }>, m: ApiMessages): Response {
  const retryAfter: Record<string, string> =
    failure.kind !== "drop" && failure.status === 429 ? { "Retry-After": String(RETRY_AFTER_SECONDS) } : {};
  switch (failure.kind) {
    case "status":
      return errorResponse(failure.status, [statusMessage(failure.status, m)], retryAfter);
    case "html":
      return new Response(htmlErrorPage(failure.status), {
        status: failure.status,
        headers: { "Content-Type": "text/html; charset=UTF-8", ...retryAfter },
      });
    case "malformed":
      return new Response('{"message":{"code":200,"success":["SUCCESS"]},"data":{"tok', {
        status: failure.status,
        headers: { "Content-Type": "application/json" },
      });
    case "drop": {
      const socket = (c.env as { incoming?: { socket?: { destroy(): void } } } | undefined)?.incoming?.socket;
      socket?.destroy();
      throw new ConnectionDroppedError();
    }
  }
}

type FaultRoute = "token" | "create" | "webhook";

/** The payment is created as usual, but the answer's `payment_url` points at {@link FOREIGN_PAYMENT_HOST}. */
type ForeignUrl = { kind: "foreign_url" };

/** Which fault a route takes: the token and create calls fail, the webhook is held back or altered. */
type EffectOf<R extends FaultRoute> = R extends "webhook" ? WebhookFault : Failure | ForeignUrl;

interface Queued<R extends FaultRoute> {
  id: number;
  route: R;
  /** Calls it still applies to. */
  remaining: number;
}

/**
 * A queued fault, as `GET /__emulator/faults` lists it:
 * `{ id, route, kind, status?, delayMs?, amount?, remaining }`.
 */
export type Fault<R extends FaultRoute = FaultRoute> = R extends FaultRoute ? Queued<R> & EffectOf<R> : never;
type FaultKind = Fault["kind"];
/** A fault to queue: what `parseFault` makes of a request body. */
type NewFault = Fault extends infer F ? (F extends Fault ? Omit<F, "id"> : never) : never;

const ROUTE_KINDS: Record<FaultRoute, readonly FaultKind[]> = {
  token: ["status", "delay", "html", "malformed", "drop"],
  create: ["status", "delay", "html", "malformed", "drop", "foreign_url"],
  webhook: ["delay", "drop", "duplicate", "bad_signature", "amount"],
};
const ROUTES = Object.keys(ROUTE_KINDS) as FaultRoute[];

/** The host a `foreign_url` fault puts in `payment_url`: a tampered answer a client must refuse to redirect to. */
const FOREIGN_PAYMENT_HOST = "https://attacker.example";
/** Statuses a `status` or `html` fault may answer with; `malformed` also allows 200 (its default). */
const FAULT_STATUSES: readonly number[] = [400, 401, 403, 404, 409, 429, 500, 502, 503, 504];
const MAX_DELAY_MS = 120_000;
const MAX_COUNT = 10_000;

export type ParsedFault = { ok: true; fault: NewFault } | { ok: false; error: string };

/** Validates the body of `POST /__emulator/faults`. */
export function parseFault(body: unknown): ParsedFault {
  const error = (message: string): ParsedFault => ({ ok: false, error: message });
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    return error("Send a JSON object: { route, kind, status?, delayMs?, amount?, count? }.");
  }
  const { route, kind, status, delayMs, amount, count = 1 } = body as Record<string, unknown>;
  if (!ROUTES.includes(route as FaultRoute)) return error(`route must be one of ${ROUTES.join(", ")}.`);
  const kinds = ROUTE_KINDS[route as FaultRoute];
  if (!kinds.includes(kind as FaultKind)) return error(`kind must be one of ${kinds.join(", ")} for route ${route}.`);
  if (!Number.isInteger(count) || (count as number) < 1 || (count as number) > MAX_COUNT) {
    return error(`count must be an integer from 1 to ${MAX_COUNT}.`);
  }
  if (status !== undefined && kind !== "status" && kind !== "html" && kind !== "malformed") {
    return error("status applies to kinds status, html and malformed only.");
  }
  if (delayMs !== undefined && kind !== "delay") return error("delayMs applies to kind delay only.");
  if (amount !== undefined && kind !== "amount") return error("amount applies to kind amount only.");

  // Key order is the order `GET /__emulator/faults` lists them in.
  const queue = (effect: Record<string, unknown>): ParsedFault => ({
    ok: true,
    fault: { route, ...effect, remaining: count } as NewFault,
  });
  switch (kind) {
    case "status":
    case "html":
    case "malformed": {
      const allowed = kind === "malformed" ? [200, ...FAULT_STATUSES] : FAULT_STATUSES;
      const value = status ?? (kind === "malformed" ? 200 : 500);
      if (!allowed.includes(value as number)) return error(`status must be one of ${allowed.join(", ")}.`);
      return queue({ kind, status: value });
    }
    case "delay":
      if (typeof delayMs !== "number" || !Number.isFinite(delayMs) || delayMs < 0 || delayMs > MAX_DELAY_MS) {
        return error(`delayMs must be a number of milliseconds from 0 to ${MAX_DELAY_MS}.`);
      }
      return queue({ kind, delayMs });
    case "amount":
      if (typeof amount !== "number" || !Number.isFinite(amount)) {
        return error("amount must be a JSON number: the amount the webhook reports instead of the real one.");
      }
      return queue({ kind, amount });
    default:
      return queue({ kind });
  }
}

/** What a queued webhook fault does, without its queue bookkeeping. */
export function webhookFault(fault: Fault<"webhook">): WebhookFault {
  switch (fault.kind) {
    case "delay":
      return { kind: "delay", delayMs: fault.delayMs };
    case "amount":
      return { kind: "amount", amount: fault.amount };
    default:
      return { kind: fault.kind };
  }
}

/**
 * Rewrites a successful create answer so that its `payment_url` points at {@link FOREIGN_PAYMENT_HOST} (the payment
 * itself is created as usual): what a tampered or compromised answer would look like.
 */
export async function withForeignPaymentUrl(response: Response): Promise<Response> {
  if (response.status !== 200) return response;
  const body = (await response.json()) as { data?: { payment_url?: string } };
  if (body.data?.payment_url) {
    const url = new URL(body.data.payment_url);
    body.data.payment_url = `${FOREIGN_PAYMENT_HOST}${url.pathname}`;
  }
  return Response.json(body, { status: 200 });
}

export interface FaultQueue {
  add(fault: NewFault): Fault;
  /** Uses up one call of the first fault queued for `route`, if any. */
  take<R extends FaultRoute>(route: R): Fault<R> | undefined;
  list(): Fault[];
  clear(): number;
}

export function createFaultQueue(): FaultQueue {
  let faults: Fault[] = [];
  let nextId = 1;
  return {
    add(fault) {
      const queued = { id: nextId++, ...fault } as Fault;
      faults.push(queued);
      return { ...queued };
    },
    take<R extends FaultRoute>(route: R) {
      const fault = faults.find((f) => f.route === route);
      if (!fault) return undefined;
      fault.remaining--;
      if (fault.remaining <= 0) faults = faults.filter((f) => f !== fault);
      // parseFault only queues kinds of the fault's own route.
      return { ...fault } as Fault<R>;
    },
    list: () => faults.map((f) => ({ ...f })),
    clear() {
      const count = faults.length;
      faults = [];
      return count;
    },
  };
}
