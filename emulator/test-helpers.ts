/** Helpers for the emulator's tests: requests in-process through `app.request`, no network. */
import { createEmulator, type Emulator, type EmulatorOptions } from "./app";

export const SANDBOX_API = "/pay/sandbox/api/v1";
export const PRODUCTION_API = "/pay/api/v1";

export const DEMO = { client_id: "sandbox-demo-client-id", secret_id: "sandbox-demo-client-secret" };
export const PREPAID = { client_id: "sandbox-prepaid-client-id", secret_id: "sandbox-prepaid-client-secret" };
export const LIVE_DEMO = { client_id: "live-demo-client-id", secret_id: "live-demo-client-secret" };

/** A valid create body. */
export const ORDER = {
  amount: "25.00",
  currency: "LYD",
  return_url: "https://shop.example/checkout/return",
  cancel_url: "https://shop.example/checkout/cancel",
  custom: "order-1001",
} as const;

export interface Envelope {
  message: { code: number; success?: string[]; error?: string[] };
  data: Record<string, unknown>;
  type: "success" | "error";
}

export interface TestEmulator extends Emulator {
  /** POSTs a JSON body (or raw string) to a path. */
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<Response>;
  /** Requests an access token; fails the test if it cannot. */
  token(credentials?: { client_id: string; secret_id: string }, base?: string): Promise<string>;
  /** `POST {base}/payment/create` with a bearer. */
  create(
    accessToken: string,
    body: unknown,
    options?: { base?: string; query?: string; headers?: Record<string, string> },
  ): Promise<Response>;
  /** Token + create; returns the payment token and the page path. */
  payment(body?: Record<string, unknown>, credentials?: typeof DEMO, base?: string): Promise<PaymentRef>;
  /** GET the payments of the control API. */
  payments(): Promise<Array<Record<string, unknown>>>;
}

interface PaymentRef {
  token: string;
  paymentUrl: string;
  /** Path of the payment page, e.g. `/pay/sandbox/v1/user/payment/preview/<token>`. */
  path: string;
}

/** A fresh emulator (quiet, short `sandbox:slow`) with request helpers. */
export function setup(options: EmulatorOptions = {}): TestEmulator {
  const emulator = createEmulator({ slowMs: 50, ...options });
  const { app } = emulator;

  const post: TestEmulator["post"] = async (path, body, headers = {}) =>
    app.request(path, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json", ...headers },
      body: typeof body === "string" ? body : JSON.stringify(body),
    });

  const token: TestEmulator["token"] = async (credentials = DEMO, base = SANDBOX_API) => {
    const res = await post(`${base}/authentication/token`, credentials);
    const envelope = (await res.json()) as Envelope;
    if (res.status !== 200) throw new Error(`token request failed: ${JSON.stringify(envelope)}`);
    return envelope.data.access_token as string;
  };

  const create: TestEmulator["create"] = (accessToken, body, { base = SANDBOX_API, query = "", headers = {} } = {}) =>
    post(`${base}/payment/create${query}`, body, { Authorization: `Bearer ${accessToken}`, ...headers });

  const payment: TestEmulator["payment"] = async (body = ORDER, credentials = DEMO, base = SANDBOX_API) => {
    const res = await create(await token(credentials, base), body, { base });
    const envelope = (await res.json()) as Envelope;
    if (res.status !== 200) throw new Error(`create failed: ${JSON.stringify(envelope)}`);
    const paymentUrl = envelope.data.payment_url as string;
    return { token: envelope.data.token as string, paymentUrl, path: new URL(paymentUrl).pathname };
  };

  const payments: TestEmulator["payments"] = async () =>
    ((await (await app.request("/__emulator/payments")).json()) as { payments: Array<Record<string, unknown>> })
      .payments;

  return { ...emulator, post, token, create, payment, payments };
}

/** Reads an envelope and returns it with the HTTP status. */
export async function envelope(res: Response): Promise<Envelope & { status: number }> {
  return { status: res.status, ...((await res.json()) as Envelope) };
}

/** POSTs an HTML form, as a browser does. */
export async function submitForm(emulator: Emulator, path: string, fields: Record<string, string>): Promise<Response> {
  return emulator.app.request(path, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
  });
}
