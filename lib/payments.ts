import "server-only";
import { createHmac, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { toWireAmount, type MinorUnits } from "./money";

/**
 * Client of the payment service, as docs/payment-service.md describes it: the envelope ("The response envelope"), the
 * token request ("Access token"), payment creation ("Creating a payment") and the errors ("Errors and what the shop
 * does"), hardened against what the live service is known to do. It speaks the wire protocol and nothing else: it
 * knows nothing about carts, sessions or React. Comments below cite that page by its headings.
 *
 * One checkout costs two requests: {@link requestAccessToken}, which the checkout asks for itself once the order is
 * claimed, then {@link createPayment} for that order with the fresh access token (it is the online payment method's
 * `pay`, lib/payment-methods/online.ts); each goes through {@link call}, the one place that sends a request, retries it
 * and reads the answer. No wrapper in between: four calls from the server action to `fetch` for each request, as
 * lib/checkout/place-order.test.ts checks. The service's answer about the money comes later, as a signed webhook:
 * {@link verifyWebhookSignature} and {@link parseWebhookEvent} read it (docs/payment-service.md, "The signed webhook").
 *
 * Retry rules — none of them can charge a customer twice:
 * | failure                               | what happens                                                        |
 * |---------------------------------------|---------------------------------------------------------------------|
 * | network error, timeout, 5xx on create | retried with the same access token and the identical body: the      |
 * |                                       | service answers a repeat with the same payment: idempotent          |
 * | 401 / 403 on create                   | one fresh access token, one more create (no payment exists yet)     |
 * | network error, timeout, 5xx on token  | retried (a token alone creates nothing)                             |
 * | 400, 409, 429, anything else          | final: a {@link PaymentError} the page can explain                  |
 *
 * Time budget: each request may take {@link PaymentServiceConfig.timeoutMs} (8 s by default) and the whole
 * checkout gives up after {@link CHECKOUT_DEADLINE_MS} (20 s): longer than that and customers leave anyway.
 */

/** Where and as whom to call the service. Built from the environment by `lib/env.ts`; tests pass their own. */
export interface PaymentServiceConfig {
  /** API base of the environment, without a trailing slash, e.g. `https://host/pay/sandbox/api/v1`. */
  baseUrl: string;
  clientId: string;
  /** The client secret (sent as the spec's `secret_id`). Never logged. */
  clientSecret: string;
  /** Limit for one HTTP request, in milliseconds. Default 8000. */
  timeoutMs?: number;
  /** Replaces the global `fetch` (tests). */
  fetch?: typeof fetch;
  /** Receives one record per HTTP attempt; free of secrets, tokens and customer data. */
  log?: (record: CallLogRecord) => void;
}

/** What is logged of each HTTP attempt. Host and path only: no query strings, bodies, tokens or secrets. */
export interface CallLogRecord {
  event: "payment_api_call";
  requestId: string;
  method: "POST";
  /** The service's host and port, e.g. `pay.example.ly:443`: a wrong port in PAYMENT_API_BASE_URL shows here. */
  host: string;
  path: string;
  attempt: number;
  status: number | null;
  durationMs: number;
  outcome: "ok" | PaymentErrorKind;
  /** Why no answer came, when none did: the system's error code (`ECONNREFUSED`, `ENOTFOUND`, `ECONNRESET`…). */
  error?: string;
}

/**
 * Access token lifetime as documented, 600 s ("Access token"): the longest a payment page lives, for rules that must
 * know it before any token exists (the budget of new payments, abandoned claims). A token's own lifetime is the
 * `expire_time` the service answers with ({@link AccessToken.expiresAt}).
 */
export const ACCESS_TOKEN_LIFETIME_MS = 600_000;

/** The whole checkout (token + create, with retries) never keeps the customer waiting longer than this. */
export const CHECKOUT_DEADLINE_MS = 20_000;
const DEFAULT_TIMEOUT_MS = 8_000;
/** Attempts per request (first try included) for retryable failures. */
const MAX_ATTEMPTS = 3;
/** Backoff before retry n (1-based): 250 ms, 750 ms; plus up to 100 ms of jitter. */
const backoffMs = (retry: number) => 250 * 3 ** (retry - 1) + Math.random() * 100;

/**
 * Why a call failed, in terms a page can map to a message:
 * - `invalid_credentials` — the token request was refused (400/401/403): wrong client ID, secret or mode.
 * - `unauthorized` — create refused the access token (401/403) even after one fresh token.
 * - `rejected` — the service refused the request (400 and other 4xx); `messages` holds its reasons.
 * - `conflict` — 409: this access token already initialised a different payment ("Creating a payment").
 * - `rate_limited` — 429; `retryAfterSeconds` when the service said.
 * - `unavailable` — network failure or 5xx, after retries.
 * - `timeout` — no answer within the time limit, after retries.
 * - `bad_response` — an answer that is not the spec's JSON envelope, or a payment URL we refuse to send anyone to.
 */
export const PAYMENT_ERROR_KINDS = [
  "invalid_credentials",
  "unauthorized",
  "rejected",
  "conflict",
  "rate_limited",
  "unavailable",
  "timeout",
  "bad_response",
] as const;
export type PaymentErrorKind = (typeof PAYMENT_ERROR_KINDS)[number];

/** Whether a stored failure (`orders.failure`) is one of the {@link PAYMENT_ERROR_KINDS}. */
export const isPaymentErrorKind = (kind: string | null | undefined): kind is PaymentErrorKind =>
  (PAYMENT_ERROR_KINDS as readonly (string | null | undefined)[]).includes(kind);

/** Every failure of this module. `messages` are the service's own texts (localised: show, never branch on them). */
export class PaymentError extends Error {
  readonly kind: PaymentErrorKind;
  /** HTTP status of the last answer, or `null` when none arrived (network failure, timeout). */
  readonly status: number | null;
  /** `message.error` of the service's envelope, when it sent one. */
  readonly messages: string[];
  /** Our own id for this checkout, present in every log line of it. */
  readonly requestId: string;
  /** Seconds the service asked us to wait (429 `Retry-After`). */
  readonly retryAfterSeconds: number | null;

  constructor(
    kind: PaymentErrorKind,
    detail: string,
    init: {
      status?: number | null;
      messages?: string[];
      requestId: string;
      retryAfterSeconds?: number | null;
      cause?: unknown;
    },
  ) {
    super(`${kind}: ${detail}`, { cause: init.cause });
    this.name = "PaymentError";
    this.kind = kind;
    this.status = init.status ?? null;
    this.messages = init.messages ?? [];
    this.requestId = init.requestId;
    this.retryAfterSeconds = init.retryAfterSeconds ?? null;
  }

  /** Worth another attempt with the same request: nothing was decided by the service. */
  get retryable(): boolean {
    return this.kind === "unavailable" || this.kind === "timeout";
  }
}

/**
 * The envelope of every answer ("The response envelope"). `data` is `{}` on errors, and sometimes `[]` on the live
 * service.
 */
const envelopeSchema = z.object({
  message: z.object({
    code: z.number().int(),
    success: z.array(z.string()).optional(),
    error: z.array(z.string()).optional(),
  }),
  data: z.unknown(),
  type: z.enum(["success", "error"]),
});

/** `data` of the token answer ("Access token"). */
const accessTokenDataSchema = z.object({
  access_token: z.string().min(1),
  expire_time: z.number().int().positive(),
});

/** `data` of the create answer ("Creating a payment"). */
const paymentDataSchema = z.object({
  token: z.string().min(1).max(512),
  payment_url: z.string().min(1).max(2048),
});

/** A bearer access token ("Access token"). Opaque: never decode it, never reuse it for a second order. */
export interface AccessToken {
  value: string;
  /**
   * When it dies (ms since epoch): when we received it plus the `expire_time` the service gave it (600 s). The payment
   * it creates dies with it ("The payment page and its lifetime"), so create and redirect straight away.
   */
  expiresAt: number;
}

/**
 * The create call's optional details of the customer, in the spec's names ("Creating a payment"): with the name, the
 * e-mail, the phone and the gateway alias all given, the payment page goes straight to the gateway. The one list of
 * them: the body, the checkout form's field list and the checkout's fingerprint are all made from it.
 */
export const CUSTOMER_FIELDS = ["full_name", "email", "phone", "payment_gateway"] as const;
type CustomerField = (typeof CUSTOMER_FIELDS)[number];

/**
 * What to charge and where to send the customer back: the create call's fields under the spec's own names
 * ("Creating a payment"), with the amount in integer minor units (1/100 LYD) instead of the wire's `"12.50"`.
 */
export interface PaymentRequest extends Partial<Record<CustomerField, string>> {
  amountMinor: MinorUnits;
  /** Three-letter currency code, `LYD`. */
  currency: string;
  /** Where the service sends the customer on success ("Return and cancel redirects"). */
  return_url: string;
  /** Where the service sends the customer on cancellation or failure ("Return and cancel redirects"). */
  cancel_url: string;
  /** The merchant's own order id. */
  custom?: string;
  // And the customer's details (CUSTOMER_FIELDS): `payment_gateway` is an alias ("Payment gateway aliases") and skips
  // the gateway selection page; with `full_name`, `email` and `phone` too, the page auto-submits.
}

/** The create body on the wire, every value a string ("Creating a payment"). */
export type CreatePaymentBody = Omit<PaymentRequest, "amountMinor"> & { amount: string };

/**
 * A created payment ("Creating a payment"): its payment token, the checked payment URL to redirect the customer to,
 * and when its payment page dies: with the access token that created it. `kind` names it among the
 * ways a payment can start (lib/payment-methods/method.ts).
 */
export interface CreatedPayment {
  kind: "payment_page";
  paymentToken: string;
  paymentUrl: string;
  paymentExpiresAt: Date;
}

/** Per-checkout context: our request id, shared by the logs of every attempt, the deadline and the language. */
export interface CallContext {
  requestId: string;
  /** Absolute time (ms since epoch) after which no new attempt starts. */
  deadline: number;
  /**
   * The shopper's language (`en`, `ar`), sent as `Accept-Language`: the service localises its error messages and
   * the payment page by it. Never branch on those messages; show them.
   */
  locale?: string;
}

/**
 * The service as one checkout reaches it: where and as whom ({@link PaymentServiceConfig}), the checkout's request id,
 * deadline and language ({@link CallContext}), and the fresh access token asked for with them for this one order.
 */
export interface ServiceAccess {
  config: PaymentServiceConfig;
  ctx: CallContext;
  accessToken: AccessToken;
}

/** The order a payment is created for: its id (sent as `custom`) and what to charge, in integer minor units. */
export interface OrderToCharge {
  id: string;
  amountMinor: MinorUnits;
  /** Three-letter currency code, `LYD`. */
  currency: string;
}

/** The checkout an order comes from, as the create call needs it. */
export interface CheckoutToCharge {
  /** The customer's details under the spec's names ({@link CUSTOMER_FIELDS}); empty ones are left out. */
  details: Partial<Record<CustomerField, string>>;
  /** The shop's public origin (`SITE_URL`): the customer comes back to `/checkout/return` or `/checkout/cancel`. */
  siteUrl: string;
}

/** Starts the clock of one checkout: a new request id and a deadline {@link CHECKOUT_DEADLINE_MS} from now. */
export function newCallContext(options: { locale?: string; now?: number } = {}): CallContext {
  return {
    requestId: crypto.randomUUID(),
    deadline: (options.now ?? Date.now()) + CHECKOUT_DEADLINE_MS,
    locale: options.locale,
  };
}

/**
 * Exchanges the client credentials for a fresh bearer access token ("Access token").
 * Retries network errors, timeouts and 5xx (a token alone creates nothing).
 * @returns the access token; request one per order, never cache it.
 * @throws PaymentError `invalid_credentials` (400/401/403), `rate_limited`, `unavailable`, `timeout`, `bad_response`.
 */
export async function requestAccessToken(
  config: PaymentServiceConfig,
  ctx: CallContext = newCallContext(),
): Promise<AccessToken> {
  const body = JSON.stringify({ client_id: config.clientId, secret_id: config.clientSecret });
  const envelope = await call(config, ctx, "/authentication/token", body, null);
  const data = accessTokenDataSchema.safeParse(envelope.data);
  if (!data.success) {
    throw new PaymentError("bad_response", "token answer has no access_token/expire_time", {
      status: 200,
      requestId: ctx.requestId,
    });
  }
  return { value: data.data.access_token, expiresAt: Date.now() + data.data.expire_time * 1000 };
}

/**
 * Creates the payment for one order ("Creating a payment") and checks the payment URL before anyone is sent to it:
 * the order's amount, its id as `custom`, the return and cancel URLs on the shop's origin, the customer's details.
 * Retries network errors, timeouts and 5xx with the same access token and the byte-identical body, which the
 * service answers with the same payment (idempotent), so a retry never creates a second one. When create refuses
 * the access token (401/403: it went stale in between), gets one fresh access token and tries once more; that is
 * safe because a refused create initialised nothing.
 * @param access the checkout's config and call context, and a fresh token from {@link requestAccessToken} that has not
 *   paid for another order.
 * @returns the payment token, the payment URL, and when its payment page dies: with the access token that created it.
 * @throws PaymentError `unauthorized` (401/403 twice), `rejected` (400, e.g. validation or prepaid card not
 *   enabled), `conflict` (409), `rate_limited`, `unavailable`, `timeout`, `bad_response` (including a payment URL
 *   that is not on the service's host, path or token), and what {@link requestAccessToken} throws.
 * @throws RangeError when `amountMinor` is not a valid amount in minor units.
 */
export async function createPayment(
  order: OrderToCharge,
  { details, siteUrl }: CheckoutToCharge,
  { config, ctx, accessToken }: ServiceAccess,
): Promise<CreatedPayment> {
  const request: PaymentRequest = {
    amountMinor: order.amountMinor,
    currency: order.currency,
    return_url: new URL("/checkout/return", siteUrl).href,
    cancel_url: new URL("/checkout/cancel", siteUrl).href,
    custom: order.id,
    ...Object.fromEntries(CUSTOMER_FIELDS.map((field) => [field, details[field]])),
  };
  // Serialised once: every retry sends exactly these bytes.
  const body = JSON.stringify(toCreatePaymentBody(request));
  let token = accessToken;
  let envelope: Envelope;
  try {
    envelope = await call(config, ctx, "/payment/create", body, token.value);
  } catch (error) {
    if (!(error instanceof PaymentError) || error.kind !== "unauthorized") throw error;
    token = await requestAccessToken(config, ctx);
    envelope = await call(config, ctx, "/payment/create", body, token.value);
  }
  const data = paymentDataSchema.safeParse(envelope.data);
  if (!data.success) {
    throw new PaymentError("bad_response", "create answer has no token/payment_url", {
      status: 200,
      requestId: ctx.requestId,
    });
  }
  const { token: paymentToken, payment_url: paymentUrl } = data.data;
  if (!isTrustedPaymentUrl(paymentUrl, paymentToken, config.baseUrl)) {
    throw new PaymentError("bad_response", "payment_url is not on the service's payment page for this token", {
      status: 200,
      requestId: ctx.requestId,
    });
  }
  return { kind: "payment_page", paymentToken, paymentUrl, paymentExpiresAt: new Date(token.expiresAt) };
}

/**
 * The wire body of a create request ("Creating a payment"): the amount as `"12.50"` from minor units, empty optional
 * fields left out. Key order is fixed, so the same request always serialises to the same bytes (a retry must repeat
 * them exactly).
 * @throws RangeError when `amountMinor` is not a valid amount in minor units.
 */
export function toCreatePaymentBody({
  amountMinor,
  currency,
  return_url,
  cancel_url,
  ...optional
}: PaymentRequest): CreatePaymentBody {
  const body: CreatePaymentBody = { amount: toWireAmount(amountMinor), currency, return_url, cancel_url };
  for (const key of ["custom", ...CUSTOMER_FIELDS] as const) {
    if (optional[key]) body[key] = optional[key];
  }
  return body;
}

/**
 * Whether a `payment_url` from the service may be used as a redirect target: the service's own origin, the payment
 * page path of the configured environment ("Creating a payment": `/pay/sandbox/v1/user/payment/preview/<token>` for the
 * sandbox base `/pay/sandbox/api/v1`, `/pay/v1/user/payment/preview/<token>` for production), and the same payment
 * token. Anything else — another host, scheme or path, a different token — is refused: no open redirect, even if an
 * answer is tampered with.
 */
export function isTrustedPaymentUrl(paymentUrl: string, paymentToken: string, baseUrl: string): boolean {
  if (!URL.canParse(paymentUrl)) return false;
  const url = new URL(paymentUrl);
  const base = new URL(baseUrl);
  if (url.origin !== base.origin || url.username || url.password) return false;
  // `/pay/sandbox/api/v1` → `/pay/sandbox`; `/pay/api/v1` → `/pay`.
  const prefix = base.pathname.replace(/\/+$/, "").replace(/\/api\/v1$/, "");
  const expected = `${prefix}/v1/user/payment/preview/${encodeURIComponent(paymentToken)}`;
  return url.pathname.replace(/\/$/, "") === expected;
}

/** The header that carries a webhook delivery's signature. */
export const WEBHOOK_SIGNATURE_HEADER = "x-mypay-signature";

/**
 * Whether a webhook delivery was signed with the merchant's webhook secret: the header must be the hex HMAC-SHA256
 * of the **raw body bytes** exactly as received (verify first, parse after: re-serialised JSON would not match).
 * Compared in constant time. A missing, empty, short, long or non-hex header is "not signed", never an exception,
 * and an empty secret verifies nothing.
 * @param rawBody the request body as received. @param signature the header's value, or `null` when absent.
 */
export function verifyWebhookSignature(rawBody: Uint8Array, signature: string | null, secret: string): boolean {
  const hex = signature?.trim().toLowerCase() ?? "";
  if (!secret || !/^[0-9a-f]{64}$/.test(hex)) return false;
  const expected = createHmac("sha256", secret).update(rawBody).digest();
  return timingSafeEqual(expected, Buffer.from(hex, "hex"));
}

/**
 * A webhook delivery's JSON body, as the live service documents it: `event` (`payment.success`), the payment
 * `token`, `status`, `gateway`, a numeric `amount`, `currency` and `timestamp`, and a transaction reference whose
 * field name is not public (`transaction_id` here, as the emulator sends it). The gateway may also come as
 * `payment_gateway`, the create request's name for it. Unknown fields are ignored; an amount sent as a string is
 * accepted too. `custom` (our order id) is used only when the token is unknown.
 */
const webhookEventSchema = z.object({
  event: z.string().max(100),
  token: z.string().min(1).max(512),
  status: z.string().max(100).optional(),
  gateway: z.string().max(100).optional(),
  payment_gateway: z.string().max(100).optional(),
  amount: z.union([z.number(), z.string().max(32)]),
  currency: z.string().max(10),
  timestamp: z.union([z.number(), z.string().max(64)]).optional(),
  transaction_id: z.string().max(255).optional(),
  custom: z.string().max(255).optional(),
});
export type WebhookEvent = z.infer<typeof webhookEventSchema>;

/** A webhook body read as {@link webhookEventSchema}; `null` when it is not that JSON. Trust it only once verified. */
export function parseWebhookEvent(rawBody: Uint8Array): WebhookEvent | null {
  const parsed = webhookEventSchema.safeParse(safeJson(new TextDecoder().decode(rawBody)));
  return parsed.success ? parsed.data : null;
}

/** The one webhook event that confirms a payment. */
export const PAYMENT_SUCCESS_EVENT = "payment.success";

/** The `status` a confirming delivery carries: `payment.success` alone is not enough ("The signed webhook"). */
export const PAYMENT_SUCCESS_STATUS = "success";

type Envelope = z.infer<typeof envelopeSchema>;

/**
 * Sends one request to the service and reads its answer, with the retry rules above: POST JSON, with
 * `Accept: application/json` (without it the platform may answer HTML), each attempt within its timeout, retried
 * after a backoff while the failure is retryable, attempts remain and the checkout's deadline allows. Every attempt
 * is logged through `config.log`.
 * @returns the success envelope. @throws PaymentError for everything else.
 */
async function call(
  config: PaymentServiceConfig,
  ctx: CallContext,
  path: "/authentication/token" | "/payment/create",
  body: string,
  bearer: string | null,
): Promise<Envelope> {
  const headers: Record<string, string> = {
    Accept: "application/json",
    "Content-Type": "application/json",
    "X-Request-Id": ctx.requestId,
  };
  if (bearer !== null) headers.Authorization = `Bearer ${bearer}`;
  if (ctx.locale) headers["Accept-Language"] = ctx.locale;

  for (let attempt = 1; ; attempt++) {
    const started = performance.now();
    const timeoutMs = Math.max(1, Math.min(config.timeoutMs ?? DEFAULT_TIMEOUT_MS, ctx.deadline - Date.now()));
    let status: number | null = null;
    try {
      let response: Response;
      let text: string;
      try {
        // The body is read inside the same timeout: a service that sends headers and then stalls is a timeout too.
        const signal = AbortSignal.timeout(timeoutMs);
        response = await (config.fetch ?? fetch)(`${config.baseUrl}${path}`, {
          method: "POST",
          headers,
          body,
          signal,
          cache: "no-store",
        });
        text = await response.text();
      } catch (cause) {
        const timedOut =
          cause instanceof DOMException && (cause.name === "TimeoutError" || cause.name === "AbortError");
        const detail = timedOut ? `no answer within ${timeoutMs} ms` : "could not reach the payment service";
        throw new PaymentError(timedOut ? "timeout" : "unavailable", detail, { requestId: ctx.requestId, cause });
      }
      status = response.status;
      const envelope = parseEnvelope(
        response,
        text,
        ctx.requestId,
        path === "/authentication/token" ? "token" : "create",
      );
      log(config, ctx, { path, attempt, status, started, outcome: "ok" });
      return envelope;
    } catch (error) {
      const outcome = error instanceof PaymentError ? error.kind : "bad_response";
      const reason = status === null ? systemErrorCode(error) : undefined;
      log(config, ctx, { path, attempt, status, started, outcome, ...(outcome === "timeout" ? {} : { reason }) });
      if (!(error instanceof PaymentError) || !error.retryable || attempt >= MAX_ATTEMPTS) throw error;
      const wait = backoffMs(attempt);
      if (Date.now() + wait + 500 > ctx.deadline) throw error;
      await sleep(wait);
    }
  }
}

/** Hands one attempt's record to `config.log`: host and path, never a query string, body, token or secret. */
function log(
  config: PaymentServiceConfig,
  ctx: CallContext,
  attempt: {
    path: string;
    attempt: number;
    status: number | null;
    started: number;
    outcome: CallLogRecord["outcome"];
    reason?: string;
  },
): void {
  config.log?.({
    event: "payment_api_call",
    requestId: ctx.requestId,
    method: "POST",
    host: hostAndPort(config.baseUrl),
    path: attempt.path,
    attempt: attempt.attempt,
    status: attempt.status,
    durationMs: Math.round(performance.now() - attempt.started),
    outcome: attempt.outcome,
    ...(attempt.reason ? { error: attempt.reason } : {}),
  });
}

/**
 * Turns an HTTP answer into a success envelope, or the {@link PaymentError} it stands for
 * ("Errors and what the shop does").
 */
function parseEnvelope(response: Response, text: string, requestId: string, call: "token" | "create"): Envelope {
  const status = response.status;
  const envelope = envelopeSchema.safeParse(safeJson(text));
  const messages = envelope.success ? (envelope.data.message.error ?? []) : [];
  const fail = (kind: PaymentErrorKind, detail: string, extra: { retryAfterSeconds?: number | null } = {}) =>
    new PaymentError(kind, detail, { status, messages, requestId, ...extra });

  if (status >= 500) throw fail("unavailable", `the payment service answered ${status}`);
  if (status === 429) {
    throw fail("rate_limited", "too many requests", {
      retryAfterSeconds: parseRetryAfter(response.headers.get("retry-after")),
    });
  }
  if (!envelope.success) {
    throw fail(
      "bad_response",
      `answer ${status} is not the JSON envelope (content-type ${response.headers.get("content-type") ?? "none"})`,
    );
  }
  if (status === 200 && envelope.data.type === "success") return envelope.data;
  if (status === 409) throw fail("conflict", "a payment is already initialised for this access token");
  if (call === "token" && (status === 400 || status === 401 || status === 403)) {
    throw fail("invalid_credentials", "the service refused the client credentials");
  }
  if (call === "create" && (status === 401 || status === 403))
    throw fail("unauthorized", "the service refused the access token");
  if (status >= 400 && status < 500) throw fail("rejected", `the service refused the request (${status})`);
  throw fail("bad_response", `unexpected answer ${status} of type ${envelope.data.type}`);
}

/** `https://pay.example.ly/pay/api/v1` → `pay.example.ly:443`: the port spelled out, also when it is the default. */
function hostAndPort(baseUrl: string): string {
  const url = new URL(baseUrl);
  return `${url.hostname}:${url.port || (url.protocol === "https:" ? "443" : "80")}`;
}

/** The system's code behind a failed fetch (`fetch failed` → its cause's `ECONNREFUSED`), or `undefined`. */
function systemErrorCode(error: unknown): string | undefined {
  for (let current = error, depth = 0; current instanceof Error && depth < 4; current = current.cause, depth++) {
    const code = (current as Error & { code?: unknown }).code;
    if (typeof code === "string" && /^[A-Z0-9_]{1,40}$/.test(code)) return code;
  }
  return undefined;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** `Retry-After` as seconds: either delta-seconds or an HTTP date; `null` when absent or unreadable. */
function parseRetryAfter(value: string | null): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
