/**
 * The JSON API of one environment (docs/payment-service.md, "Access token", "Creating a payment"): `POST
 * /authentication/token` and `POST /payment/create`. Mounted at `/pay/sandbox/api/v1` (sandbox) and `/pay/api/v1`
 * (production).
 */
import { Hono, type Context, type MiddlewareHandler } from "hono";
import { ACCESS_TOKEN_TTL_SECONDS, PAGE_BASE, PREPAID_ALIAS, type KeyPair, type Merchant, type Mode } from "../config";
import { errorResponse, success } from "../envelope";
import { failureResponse, findMagicValue, withForeignPaymentUrl, type Failure } from "../faults";
import { clientKey, MAX_BODY_BYTES, readJsonObject, requestLang, sleep, type JsonBody } from "../http";
import { API_MESSAGES, type ApiMessages } from "../i18n";
import type { EmulatorState } from "../state";
import type { AccessTokenRecord, Payment } from "../store";
import { canonicalJson, validateCreateRequest } from "../validation";

const messages = (c: Context): ApiMessages => API_MESSAGES[requestLang(c)];

export function apiRoutes(state: EmulatorState, mode: Mode): Hono {
  const api = new Hono();

  api.post("/authentication/token", guard(state, "token"), limitBody, (c) => issueToken(c, state, mode));
  api.post("/payment/create", guard(state, "create"), limitBody, (c) => createPayment(c, state, mode));

  const methodNotAllowed = (c: Context) => errorResponse(405, [messages(c).methodNotAllowed], { Allow: "POST" });
  api.all("/authentication/token", methodNotAllowed);
  api.all("/payment/create", methodNotAllowed);

  return api;
}

/**
 * What runs before each API call, in order: purge, configured latency, rate limit, then a queued fault for this
 * route if any (a `delay` fault waits and lets the call through).
 */
function guard(state: EmulatorState, route: "token" | "create"): MiddlewareHandler {
  return async (c, next) => {
    state.maybePurge();
    if (state.settings.latencyMs > 0) await sleep(state.settings.latencyMs);
    const decision = state.limiter.hit(clientKey(c), state.clock.now(), state.settings.rateLimit);
    if (!decision.allowed) {
      return errorResponse(429, [messages(c).rateLimited], { "Retry-After": String(decision.retryAfterSeconds) });
    }
    const fault = state.faults.take(route);
    if (fault?.kind === "foreign_url") {
      await next();
      c.res = await withForeignPaymentUrl(c.res);
      return;
    }
    if (fault) {
      const failure = await applyDelay(fault);
      if (failure) return failureResponse(c, failure, messages(c));
    }
    await next();
  };
}

/** Refuses bodies over 64 KB by their Content-Length (413); `readJsonObject` checks the bytes actually sent. */
const limitBody: MiddlewareHandler = async (c, next) => {
  if (Number(c.req.header("content-length") ?? 0) > MAX_BODY_BYTES) {
    return errorResponse(413, [messages(c).payloadTooLarge]);
  }
  await next();
};

/** Waits for a `delay` failure and returns nothing (answer normally); returns any other failure unchanged. */
async function applyDelay(failure: Failure): Promise<Exclude<Failure, { kind: "delay" }> | undefined> {
  if (failure.kind !== "delay") return failure;
  await sleep(failure.delayMs);
  return undefined;
}

function bodyError(body: Exclude<JsonBody, { ok: true }>, m: ApiMessages): Response {
  if (body.reason === "too-large") return errorResponse(413, [m.payloadTooLarge]);
  return errorResponse(400, [body.reason === "malformed" ? m.malformedJson : m.bodyNotObject]);
}

/**
 * `POST /authentication/token` (docs/payment-service.md, "Access token"). Unknown client ID and wrong secret are
 * reported together; a key pair of the other environment is "Requested credentials is invalid".
 */
async function issueToken(c: Context, state: EmulatorState, mode: Mode): Promise<Response> {
  const m = messages(c);
  const parsed = await readJsonObject(c);
  if (!parsed.ok) return bodyError(parsed, m);

  const clientId = stringOrEmpty(parsed.body.client_id);
  const secret = stringOrEmpty(parsed.body.secret_id);
  const owner = findKeyOwner(state.merchants, clientId);

  if (!owner) {
    const secretKnown = secret !== "" && state.merchants.some((mer) => mer.keys[mode].clientSecret === secret);
    return errorResponse(400, secretKnown ? [m.invalidClientId] : [m.invalidClientId, m.invalidSecret]);
  }
  if (owner.keys.clientSecret !== secret) return errorResponse(400, [m.invalidSecret]);
  if (owner.mode !== mode) return errorResponse(400, [m.credentialsWrongMode]);

  const { token, claims } = await state.signer.issue(clientId, mode);
  const issuedAt = claims.iat * 1000;
  state.store.tokens.set(claims.jti, {
    jti: claims.jti,
    merchantId: owner.merchant.id,
    mode,
    issuedAt,
    expiresAt: issuedAt + ACCESS_TOKEN_TTL_SECONDS * 1000,
    paymentToken: null,
  });
  return Response.json(success({ access_token: token, expire_time: ACCESS_TOKEN_TTL_SECONDS }));
}

/**
 * `POST /payment/create` (docs/payment-service.md, "Creating a payment", "The flow"). Order of checks: bearer, JSON
 * body, magic values, validation, prepaid permission, then one payment per access token (identical repeat → same
 * payment; changed body → 409). Nothing before the last step consumes the access token.
 */
async function createPayment(c: Context, state: EmulatorState, mode: Mode): Promise<Response> {
  const m = messages(c);
  const auth = await authenticate(c, state, mode, m);
  if (auth instanceof Response) return auth;
  const { record, merchant } = auth;

  const parsed = await readJsonObject(c);
  if (!parsed.ok) return bodyError(parsed, m);
  const body = parsed.body;

  const magic = findMagicValue(body, state.slowMs);
  if (magic) {
    const failure = await applyDelay(magic);
    if (failure) return failureResponse(c, failure, m);
  }

  const validation = validateCreateRequest(body, m);
  if (!validation.ok) return errorResponse(400, validation.errors);
  const request = validation.value;
  if (request.payment_gateway === PREPAID_ALIAS && !merchant.prepaidEnabled) {
    return errorResponse(400, [m.prepaidDisabled]);
  }

  const fingerprint = canonicalJson(body);
  if (record.paymentToken !== null) {
    const existing = state.store.payments.get(record.paymentToken);
    if (existing?.fingerprint !== fingerprint) return errorResponse(409, [m.conflict]);
    return created(existing);
  }

  const token = Buffer.from(crypto.getRandomValues(new Uint8Array(24))).toString("base64url");
  const payment: Payment = {
    ...request,
    token,
    status: "pending",
    merchantId: merchant.id,
    mode,
    lang: requestLang(c),
    payment_url: `${state.publicUrl}${PAGE_BASE[mode]}/${token}`,
    accessTokenIssuedAt: record.issuedAt,
    createdAt: state.clock.now(),
    expiresAt: record.expiresAt,
    completedAt: null,
    gatewayUsed: null,
    fingerprint,
  };
  state.store.payments.set(token, payment);
  record.paymentToken = token;
  return created(payment);
}

const created = (payment: Payment) =>
  Response.json(success({ token: payment.token, payment_url: payment.payment_url }, "CREATED"));

/** Checks `Authorization: Bearer …`: 403 when missing or invalid (or of the other environment), 401 when expired. */
async function authenticate(
  c: Context,
  state: EmulatorState,
  mode: Mode,
  m: ApiMessages,
): Promise<Response | { record: AccessTokenRecord; merchant: Merchant }> {
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(c.req.header("authorization") ?? "")?.[1];
  if (!bearer) return errorResponse(403, [m.tokenNotFound]);

  const verified = await state.signer.verify(bearer);
  if (!verified.ok) {
    return verified.reason === "expired" ? errorResponse(401, [m.tokenExpired]) : errorResponse(403, [m.invalidToken]);
  }
  const record = state.store.tokens.get(verified.claims.jti);
  const merchant = state.merchants.find((candidate) => candidate.id === record?.merchantId);
  if (!record || !merchant || record.mode !== mode) return errorResponse(403, [m.invalidToken]);
  return { record, merchant };
}

/** The merchant and environment a client ID belongs to. */
function findKeyOwner(
  merchants: readonly Merchant[],
  clientId: string,
): { merchant: Merchant; mode: Mode; keys: KeyPair } | undefined {
  if (clientId === "") return undefined;
  for (const merchant of merchants) {
    for (const mode of ["sandbox", "production"] as const) {
      const keys = merchant.keys[mode];
      if (keys.clientId === clientId) return { merchant, mode, keys };
    }
  }
  return undefined;
}

const stringOrEmpty = (value: unknown) => (typeof value === "string" ? value : "");
