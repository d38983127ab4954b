/**
 * Contract suite: the service's rules as docs/payment-service.md states them (each test is named after its heading),
 * checked against whatever service PAYMENT_API_BASE_URL and the credentials point at — the emulator by default,
 * the real sandbox when you set yours. Run with `npm run test:contract`. It creates a few pending payments; use sandbox
 * keys only. Set CONTRACT_PREPAID_ENABLED=1 if your merchant account has prepaid card checkout enabled.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { parseEnv, paymentServiceConfig } from "./env";
import {
  createPayment,
  isTrustedPaymentUrl,
  newCallContext,
  PaymentError,
  requestAccessToken,
  toCreatePaymentBody,
  type AccessToken,
  type PaymentRequest,
  type PaymentServiceConfig,
} from "./payments";

const config: PaymentServiceConfig = paymentServiceConfig(parseEnv(process.env, "development"));
const sandbox = /\/sandbox\/api\/v1$/.test(config.baseUrl);
const site = "https://shop.example.ly";

function order(extra: Partial<PaymentRequest> = {}): PaymentRequest {
  return {
    amountMinor: 1250,
    currency: "LYD",
    return_url: `${site}/checkout/return`,
    cancel_url: `${site}/checkout/cancel`,
    custom: `contract_${Date.now()}_${Math.random().toString(36).slice(2, 8)}`,
    ...extra,
  };
}

/** The client's create call for a request made by {@link order}: its order id, amount and customer details. */
function create(accessToken: AccessToken, { amountMinor, currency, custom, payment_gateway }: PaymentRequest) {
  return createPayment(
    { id: custom!, amountMinor, currency },
    { siteUrl: site, details: { payment_gateway } },
    { config, ctx: newCallContext(), accessToken },
  );
}

/** One raw POST, for the rules the client deliberately hides (a repeat's answer, the 409's envelope). */
async function post(path: string, body: unknown, bearer?: string) {
  const response = await fetch(`${config.baseUrl}${path}`, {
    method: "POST",
    headers: {
      Accept: "application/json",
      "Content-Type": "application/json",
      ...(bearer ? { Authorization: `Bearer ${bearer}` } : {}),
    },
    body: JSON.stringify(body),
  });
  return {
    status: response.status,
    body: (await response.json()) as {
      message: { code: number; success?: string[]; error?: string[] };
      data: unknown;
      type: string;
    },
  };
}

beforeAll(() => {
  console.log(`Contract suite against ${config.baseUrl} (${sandbox ? "sandbox" : "production"})`);
});

describe(`payment service at ${config.baseUrl}`, () => {
  it("Access token: issues an access token in the success envelope, valid 600 s", async () => {
    const { status, body } = await post("/authentication/token", {
      client_id: config.clientId,
      secret_id: config.clientSecret,
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({ message: { code: 200 }, type: "success", data: { expire_time: 600 } });
    expect(body.message.success).toContain("SUCCESS");
    expect(typeof (body.data as { access_token: unknown }).access_token).toBe("string");
  });

  it("Errors: refuses an invalid client ID with 400 and an error envelope", async () => {
    const { status, body } = await post("/authentication/token", {
      client_id: `no-such-client-${Date.now()}`,
      secret_id: "x",
    });
    expect(status).toBe(400);
    expect(body.type).toBe("error");
    expect(body.message.code).toBe(400);
    expect(body.message.error?.length).toBeGreaterThan(0);
    expect(body.data === null || typeof body.data === "object").toBe(true);
  });

  it("Creating a payment: creates a pending payment with a payment URL of the environment's shape", async () => {
    const token = await requestAccessToken(config);
    const payment = await create(token, order());
    expect(payment.paymentToken.length).toBeGreaterThan(0);
    expect(isTrustedPaymentUrl(payment.paymentUrl, payment.paymentToken, config.baseUrl)).toBe(true);
    expect(new URL(payment.paymentUrl).pathname.includes("/sandbox/")).toBe(sandbox);
  });

  it("Creating a payment: an identical repeat returns 200 with the same token and payment URL", async () => {
    const token = await requestAccessToken(config);
    const body = toCreatePaymentBody(order());
    const first = await post("/payment/create", body, token.value);
    const again = await post("/payment/create", body, token.value);
    expect(first.status).toBe(200);
    expect(first.body.message.success).toContain("CREATED");
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(first.body.data);
  });

  it("Creating a payment: a changed body on the same access token is a 409", async () => {
    const token = await requestAccessToken(config);
    const request = order();
    await create(token, request);
    const changed = await post("/payment/create", toCreatePaymentBody({ ...request, amountMinor: 1300 }), token.value);
    expect(changed.status).toBe(409);
    expect(changed.body).toMatchObject({ type: "error", message: { code: 409 } });
    expect(changed.body.message.error?.length).toBeGreaterThan(0);
    const viaClient = await create(token, { ...request, amountMinor: 1400 }).catch((e: unknown) => e);
    expect((viaClient as PaymentError).kind).toBe("conflict");
  });

  it.skipIf(process.env.CONTRACT_PREPAID_ENABLED === "1")(
    "Creating a payment: prepaid-card without prepaid checkout is a 400",
    async () => {
      const token = await requestAccessToken(config);
      const error = await create(token, order({ payment_gateway: "prepaid-card" })).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PaymentError);
      expect((error as PaymentError).status).toBe(400);
    },
  );

  it("Creating a payment: create without a bearer is refused with 401 or 403", async () => {
    const { status, body } = await post("/payment/create", toCreatePaymentBody(order()));
    expect([401, 403]).toContain(status);
    expect(body.type).toBe("error");
  });
});
