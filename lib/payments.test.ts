import { createHmac } from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import {
  createPayment,
  CUSTOMER_FIELDS,
  isTrustedPaymentUrl,
  newCallContext,
  PaymentError,
  requestAccessToken,
  toCreatePaymentBody,
  verifyWebhookSignature,
  type AccessToken,
  type CallLogRecord,
  type CheckoutToCharge,
  type PaymentRequest,
  type PaymentServiceConfig,
} from "./payments";

const BASE = "https://pay.example.ly/pay/sandbox/api/v1";
const PAGE = "https://pay.example.ly/pay/sandbox/v1/user/payment/preview";

const request: PaymentRequest = {
  amountMinor: 1250,
  currency: "LYD",
  return_url: "https://shop.example.ly/checkout/return",
  cancel_url: "https://shop.example.ly/checkout/cancel",
  custom: "ord_1",
};
/** The order and checkout `request` is made from, as the checkout hands them to createPayment. */
const order = { id: "ord_1", amountMinor: 1250, currency: "LYD" };
const SITE = "https://shop.example.ly";

/** createPayment for `order`, with these customer details, this access token and a call context of its own. */
const create = (config: PaymentServiceConfig, accessToken: AccessToken, details: CheckoutToCharge["details"] = {}) =>
  createPayment(order, { siteUrl: SITE, details }, { config, ctx: newCallContext(), accessToken });

const tokenOk = (token = "at-1") =>
  json(200, {
    message: { code: 200, success: ["SUCCESS"] },
    data: { access_token: token, expire_time: 600 },
    type: "success",
  });
const createOk = (token = "pt-1", url = `${PAGE}/${token}`) =>
  json(200, { message: { code: 200, success: ["CREATED"] }, data: { token, payment_url: url }, type: "success" });
const error = (status: number, messages: string[], data: unknown = {}) =>
  json(status, { message: { code: status, error: messages }, data, type: "error" });

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });
}

type Step = Response | Error | (() => Response | Promise<Response>);

/** A fetch that answers each call with the next scripted step and records what was sent. */
function scripted(...steps: Step[]) {
  const calls: { url: string; init: RequestInit }[] = [];
  const fetch = vi.fn(async (url: string | URL | Request, init?: RequestInit) => {
    calls.push({ url: String(url), init: init ?? {} });
    const step = steps.shift();
    if (!step) throw new Error("unexpected extra call");
    if (step instanceof Error) throw step;
    return typeof step === "function" ? step() : step;
  });
  const logs: CallLogRecord[] = [];
  const config: PaymentServiceConfig = {
    baseUrl: BASE,
    clientId: "client-id",
    clientSecret: "super-secret-value",
    timeoutMs: 200,
    fetch: fetch as unknown as typeof globalThis.fetch,
    log: (record) => logs.push(record),
  };
  return { config, calls, logs, remaining: () => steps.length };
}

const header = (call: { init: RequestInit }, name: string) => new Headers(call.init.headers).get(name);
const body = (call: { init: RequestInit }) => JSON.parse(String(call.init.body));

async function failure(promise: Promise<unknown>): Promise<PaymentError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PaymentError);
  return error as PaymentError;
}

describe("requestAccessToken (docs: Access token)", () => {
  it("posts the credentials as client_id/secret_id with Accept: application/json", async () => {
    const { config, calls } = scripted(tokenOk("at-xyz"));
    const token = await requestAccessToken(config);
    expect(token.value).toBe("at-xyz");
    // Its life is the service's expire_time (600 s), from when the answer arrived.
    expect(token.expiresAt - Date.now()).toBeGreaterThan(595_000);
    expect(token.expiresAt - Date.now()).toBeLessThanOrEqual(600_000);
    expect(calls[0]?.url).toBe(`${BASE}/authentication/token`);
    expect(header(calls[0]!, "accept")).toBe("application/json");
    expect(header(calls[0]!, "authorization")).toBeNull();
    expect(body(calls[0]!)).toEqual({ client_id: "client-id", secret_id: "super-secret-value" });
  });

  it("maps 400 to invalid_credentials with the service's messages, without retrying", async () => {
    const { config, remaining } = scripted(error(400, ["Invalid client ID", "Invalid secret ID"], []), tokenOk());
    const e = await failure(requestAccessToken(config));
    expect(e.kind).toBe("invalid_credentials");
    expect(e.status).toBe(400);
    expect(e.messages).toEqual(["Invalid client ID", "Invalid secret ID"]);
    expect(remaining()).toBe(1);
  });

  it("retries a network error and a 503, then succeeds", async () => {
    const { config, logs } = scripted(new TypeError("fetch failed"), error(503, ["down"]), tokenOk());
    await expect(requestAccessToken(config)).resolves.toMatchObject({ value: "at-1" });
    expect(logs.map((l) => [l.attempt, l.status, l.outcome])).toEqual([
      [1, null, "unavailable"],
      [2, 503, "unavailable"],
      [3, 200, "ok"],
    ]);
  });

  it("gives up after three attempts as unavailable", async () => {
    const { config } = scripted(error(500, []), error(502, []), error(503, []), tokenOk());
    const e = await failure(requestAccessToken(config));
    expect(e.kind).toBe("unavailable");
    expect(e.status).toBe(503);
  });

  it("treats an HTML answer as bad_response, never a crash", async () => {
    const html = new Response("<!doctype html><title>Oops</title>", {
      status: 200,
      headers: { "content-type": "text/html" },
    });
    const e = await failure(requestAccessToken(scripted(html).config));
    expect(e.kind).toBe("bad_response");
  });

  it("treats a success envelope without access_token as bad_response", async () => {
    const e = await failure(
      requestAccessToken(
        scripted(json(200, { message: { code: 200, success: ["SUCCESS"] }, data: {}, type: "success" })).config,
      ),
    );
    expect(e.kind).toBe("bad_response");
  });

  it("reports 429 as rate_limited with Retry-After and does not retry", async () => {
    const { config, remaining } = scripted(
      json(
        429,
        { message: { code: 429, error: ["Too Many Attempts."] }, data: {}, type: "error" },
        { "retry-after": "42" },
      ),
      tokenOk(),
    );
    const e = await failure(requestAccessToken(config));
    expect(e.kind).toBe("rate_limited");
    expect(e.retryAfterSeconds).toBe(42);
    expect(remaining()).toBe(1);
  });

  it("times out a stalled answer and retries", async () => {
    const stall = () => new Promise<Response>(() => {});
    const { config } = scripted(
      () => stall(),
      () => stall(),
      () => stall(),
    );
    const e = await failure(
      requestAccessToken({
        ...config,
        fetch: ((url: string, init: RequestInit) => abortable(init.signal)) as unknown as typeof fetch,
      }),
    );
    expect(e.kind).toBe("timeout");
  });
});

/** A fetch stand-in that never answers but honours the abort signal, like a real stalled connection. */
function abortable(signal: AbortSignal | null | undefined): Promise<Response> {
  return new Promise((_, reject) => signal?.addEventListener("abort", () => reject(signal.reason)));
}

describe("createPayment (docs: Creating a payment)", () => {
  const token = { value: "at-1", expiresAt: Date.now() + 600_000 };

  it("sends the bearer and the amount as a two-decimal string made from minor units", async () => {
    const { config, calls } = scripted(createOk());
    const payment = await create(config, token, { full_name: "Aisha", payment_gateway: "sadad" });
    // The payment page dies with the access token that created it.
    expect(payment).toEqual({
      kind: "payment_page",
      paymentToken: "pt-1",
      paymentUrl: `${PAGE}/pt-1`,
      paymentExpiresAt: new Date(token.expiresAt),
    });
    expect(calls[0]?.url).toBe(`${BASE}/payment/create`);
    expect(header(calls[0]!, "authorization")).toBe("Bearer at-1");
    expect(body(calls[0]!)).toEqual({
      amount: "12.50",
      currency: "LYD",
      return_url: request.return_url,
      cancel_url: request.cancel_url,
      custom: "ord_1",
      full_name: "Aisha",
      payment_gateway: "sadad",
    });
  });

  it("retries a timeout and a 500 with the same bearer and byte-identical body (idempotent, rule 2)", async () => {
    let first = true;
    const fetch = vi.fn(async (_url: string, init: RequestInit) => {
      if (first) {
        first = false;
        return abortable(init.signal);
      }
      return fetch.mock.calls.length === 2 ? error(500, []) : createOk();
    });
    const { config } = scripted();
    await create({ ...config, fetch: fetch as unknown as typeof globalThis.fetch }, token);
    expect(fetch).toHaveBeenCalledTimes(3);
    const sent = fetch.mock.calls.map(([, init]) => [init.body, new Headers(init.headers).get("authorization")]);
    expect(new Set(sent.map((s) => JSON.stringify(s))).size).toBe(1);
  });

  it.each([
    [400, "rejected"],
    [409, "conflict"],
    [422, "rejected"],
  ] as const)("maps %i to %s without retrying", async (status, kind) => {
    const { config, remaining } = scripted(error(status, ["reason"]), createOk());
    const e = await failure(create(config, token));
    expect(e.kind).toBe(kind);
    expect(e.messages).toEqual(["reason"]);
    expect(remaining()).toBe(1);
  });

  it("refuses a payment_url on a foreign host, another environment's path or another token", async () => {
    for (const url of [
      "https://evil.example.com/pay/sandbox/v1/user/payment/preview/pt-1",
      "https://pay.example.ly/pay/v1/user/payment/preview/pt-1",
      "https://pay.example.ly/pay/sandbox/v1/user/payment/preview/pt-2",
      "javascript:alert(1)",
      "not a url",
    ]) {
      const e = await failure(create(scripted(createOk("pt-1", url)).config, token));
      expect(e.kind, url).toBe("bad_response");
    }
  });

  it("refuses malformed JSON", async () => {
    const broken = new Response('{"message": {"code": 200', {
      status: 200,
      headers: { "content-type": "application/json" },
    });
    expect((await failure(create(scripted(broken).config, token))).kind).toBe("bad_response");
  });
});

/** A checkout's two calls, as lib/checkout/place-order.ts makes them: a fresh access token, then the payment. */
async function tokenThenCreate(config: PaymentServiceConfig, details: CheckoutToCharge["details"] = {}) {
  const ctx = newCallContext();
  return createPayment(
    order,
    { siteUrl: SITE, details },
    { config, ctx, accessToken: await requestAccessToken(config, ctx) },
  );
}

describe("createPayment with a stale access token", () => {
  it("asks for one fresh access token when create answers 401, then succeeds", async () => {
    const { config, calls } = scripted(
      tokenOk("stale"),
      error(401, ["Request token is expired"]),
      tokenOk("fresh"),
      createOk(),
    );
    await expect(tokenThenCreate(config)).resolves.toMatchObject({ paymentToken: "pt-1" });
    expect(calls.map((c) => [c.url.slice(BASE.length), header(c, "authorization")])).toEqual([
      ["/authentication/token", null],
      ["/payment/create", "Bearer stale"],
      ["/authentication/token", null],
      ["/payment/create", "Bearer fresh"],
    ]);
  });

  it("does not refresh twice", async () => {
    const { config } = scripted(tokenOk(), error(403, []), tokenOk(), error(403, []), tokenOk(), createOk());
    expect((await failure(tokenThenCreate(config))).kind).toBe("unauthorized");
  });

  it("never logs the secret, the access token or customer data", async () => {
    const { config, logs } = scripted(tokenOk("at-secret-token"), createOk());
    await tokenThenCreate(config, {
      full_name: "Aisha Ben Ali",
      email: "aisha@example.ly",
      phone: "0912345678",
    });
    const text = JSON.stringify(logs);
    for (const secret of ["super-secret-value", "at-secret-token", "Aisha", "aisha@example.ly", "0912345678"])
      expect(text).not.toContain(secret);
    expect(logs).toHaveLength(2);
    expect(logs[0]).toMatchObject({ path: "/authentication/token", status: 200, attempt: 1 });
  });
});

describe("toCreatePaymentBody", () => {
  it("leaves out empty optional fields and refuses float money", () => {
    expect(toCreatePaymentBody({ ...request, custom: undefined, email: "" })).toEqual({
      amount: "12.50",
      currency: "LYD",
      return_url: request.return_url,
      cancel_url: request.cancel_url,
    });
    expect(() => toCreatePaymentBody({ ...request, amountMinor: 12.5 })).toThrow(RangeError);
  });

  it("writes its keys in one fixed order, whatever order the request was built in, so a retry repeats its bytes", () => {
    const customer = {
      full_name: "Aisha Ben Ali",
      email: "aisha@example.ly",
      phone: "0912345678",
      payment_gateway: "x",
    };
    const reversed = Object.fromEntries(
      Object.entries({ ...request, ...customer }).reverse(),
    ) as unknown as PaymentRequest;
    const keys = ["amount", "currency", "return_url", "cancel_url", "custom", ...CUSTOMER_FIELDS];
    expect(Object.keys(toCreatePaymentBody(reversed))).toEqual(keys);
    expect(JSON.stringify(toCreatePaymentBody(reversed))).toBe(
      JSON.stringify(toCreatePaymentBody({ ...request, ...customer })),
    );
  });
});

describe("isTrustedPaymentUrl", () => {
  it("accepts the production path for a production base", () => {
    expect(isTrustedPaymentUrl("https://h.ly/pay/v1/user/payment/preview/abc", "abc", "https://h.ly/pay/api/v1")).toBe(
      true,
    );
    expect(
      isTrustedPaymentUrl("https://h.ly/pay/sandbox/v1/user/payment/preview/abc", "abc", "https://h.ly/pay/api/v1"),
    ).toBe(false);
  });
  it("rejects another scheme or port on the same host", () => {
    expect(isTrustedPaymentUrl("http://h.ly/pay/v1/user/payment/preview/abc", "abc", "https://h.ly/pay/api/v1")).toBe(
      false,
    );
    expect(
      isTrustedPaymentUrl("https://h.ly:8443/pay/v1/user/payment/preview/abc", "abc", "https://h.ly/pay/api/v1"),
    ).toBe(false);
  });
});

describe("verifyWebhookSignature (X-MyPay-Signature)", () => {
  const secret = "whsec-0123456789abcdef";
  const raw = new TextEncoder().encode('{"event":"payment.success","token":"pt-1","amount":103.75,"currency":"LYD"}');
  const hmac = (bytes: Uint8Array, key = secret) => createHmac("sha256", key).update(bytes).digest("hex");

  it("accepts the hex HMAC-SHA256 of the raw bytes with the secret, in either case", () => {
    expect(verifyWebhookSignature(raw, hmac(raw), secret)).toBe(true);
    expect(verifyWebhookSignature(raw, hmac(raw).toUpperCase(), secret)).toBe(true);
  });
  it.each([
    ["another secret", hmac(raw, "whsec-another-secret")],
    ["missing", null],
    ["empty", ""],
    ["too short", hmac(raw).slice(0, 63)],
    ["too long", `${hmac(raw)}0`],
    ["not hex", `g${hmac(raw).slice(1)}`],
    [
      "the same JSON with other whitespace",
      hmac(new TextEncoder().encode(JSON.stringify(JSON.parse(new TextDecoder().decode(raw)), null, 2))),
    ],
  ])("refuses a signature that is %s, without throwing", (_name, signature) => {
    expect(verifyWebhookSignature(raw, signature, secret)).toBe(false);
  });
  it("verifies nothing with an empty secret", () => {
    expect(verifyWebhookSignature(raw, hmac(raw, ""), "")).toBe(false);
  });
});
